#include "bonds_text.h"

#include <algorithm>
#include <charconv>
#include <thread>

using namespace LAMMPS_NS;

namespace {

// An integer after one space (fmt's " {}" and std::to_string agree).
void put_int(std::string &out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out += ' ';
  out.append(buf, r.ptr);
}

// "{:14.3f}": right-aligned in 14 columns, 3 decimals, exactly rounded.
void put_fixed(std::string &out, double v) {
  char buf[400];  // the widest double in fixed notation has 309 digits
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  const auto len = static_cast<size_t>(r.ptr - buf);
  if (len < 14) out.append(14 - len, ' ');
  out.append(buf, len);
}

// Atoms [first, last) of the block, whose entries start at ids[id0], vals[val0].
std::string lines(const BondsBlock &b, int first, int last, size_t id0, size_t val0) {
  std::string out;
  out.reserve(static_cast<size_t>(last - first) * 128);
  size_t p = id0, v = val0;
  for (int a = first; a < last; ++a) {
    const auto nb = static_cast<size_t>(b.ids[p + 2]);
    for (size_t k = 0; k < 3 + nb + 1; ++k) put_int(out, b.ids[p + k]);
    for (size_t k = 0; k < nb + 3; ++k) put_fixed(out, b.vals[v + k]);
    out += '\n';
    p += 4 + nb;
    v += 3 + nb;
  }
  return out;
}

}  // namespace

std::vector<std::string> LAMMPS_NS::bonds_text(const BondsBlock &b, int threads) {
  // where each piece's atoms start
  const int pieces = std::max(1, std::min(threads, b.atoms / 4096));
  std::vector<int> first(pieces + 1);
  std::vector<size_t> id0(pieces + 1), val0(pieces + 1);
  size_t p = 0, v = 0;
  for (int a = 0, k = 0; a <= b.atoms; ++a) {
    while (k <= pieces && a == static_cast<long long>(b.atoms) * k / pieces) {
      first[k] = a;
      id0[k] = p;
      val0[k] = v;
      ++k;
    }
    if (a == b.atoms) break;
    const auto nb = static_cast<size_t>(b.ids[p + 2]);
    p += 4 + nb;
    v += 3 + nb;
  }
  std::vector<std::string> out(pieces);
  std::vector<std::thread> pool;
  for (int k = 1; k < pieces; ++k)
    pool.emplace_back([&, k] { out[k] = lines(b, first[k], first[k + 1], id0[k], val0[k]); });
  out[0] = lines(b, first[0], first[1], id0[0], val0[0]);
  for (auto &t : pool) t.join();
  return out;
}
