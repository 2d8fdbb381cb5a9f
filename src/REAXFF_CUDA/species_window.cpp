#include "species_window.h"

#include <algorithm>
#include <unordered_map>

using namespace LAMMPS_NS;

void SpeciesWindow::grow(int n) {
  const size_t need = static_cast<size_t>(n) * width();
  if (rows_.size() < need) rows_.resize(need, 0.0);
}

void SpeciesWindow::clear(int n) {
  grow(n);
  std::fill_n(rows_.begin(), static_cast<size_t>(n) * width(), 0.0);
}

void SpeciesWindow::follow(const tagint *tag, int n) {
  grow(n);
  if (owner_.size() == static_cast<size_t>(n) && std::equal(owner_.begin(), owner_.end(), tag))
    return;
  std::unordered_map<tagint, int> was;
  was.reserve(owner_.size());
  for (size_t r = 0; r < owner_.size(); ++r) was.emplace(owner_[r], static_cast<int>(r));
  std::vector<double> moved(static_cast<size_t>(n) * width(), 0.0);
  for (int i = 0; i < n; ++i) {
    const auto it = was.find(tag[i]);
    if (it != was.end()) std::copy_n(row(it->second), width(), moved.data() + i * width());
  }
  std::copy(moved.begin(), moved.end(), rows_.begin());
  owner_.assign(tag, tag + n);
}

int SpeciesWindow::find(int i, tagint id) const {
  const double *r = row(i);
  for (int k = 0; k < cap_; ++k)
    if (r[2 * k] == static_cast<double>(id)) return k;
  return -1;
}

int SpeciesWindow::slot(int i, tagint id) {
  const int k = find(i, id);
  if (k >= 0) return k;
  const int f = find(i, 0);
  if (f >= 0) row_(i)[2 * f] = static_cast<double>(id);
  return f;
}

void SpeciesWindow::free_absent(int i, const tagint *present, int n) {
  double *r = row_(i);
  for (int k = 0; k < cap_; ++k)
    if (std::find(present, present + n, static_cast<tagint>(r[2 * k])) == present + n)
      r[2 * k] = r[2 * k + 1] = 0.0;
}

void SpeciesWindow::copy(int from, int to) { std::copy_n(row(from), width(), row_(to)); }

int SpeciesWindow::pack(int i, double *buf) const {
  std::copy_n(row(i), width(), buf);
  return width();
}

int SpeciesWindow::unpack(int i, const double *buf) {
  grow(i + 1);
  std::copy_n(buf, width(), row_(i));
  return width();
}
