// Small periodic QEq systems shared by the host and CUDA QEq tests: owned
// atoms on a jittered grid plus their periodic images as ghosts, a one-rank
// QEqComm, and C/O/H parameters.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "puremd_gpu/qeq.h"

namespace qeq_test {

using namespace puremd;

// One rank: ghost g (index >= n_local) is an image of owner[g - n_local],
// as the halo of one sub-domain's images says (image_halo).
struct SingleRankComm : QEqComm {
  HaloPattern pattern;
  // n_sum: calls of sum(x); n_collective: collective calls (sum(x) or sum(v, n))
  int n_sum = 0, n_collective = 0;
  const HaloPattern *halo() const override { return &pattern; }
  double sum(double local) override {
    ++n_sum;
    ++n_collective;
    return local;
  }
  void sum(double *, int) override { ++n_collective; }
};

// Atoms in a periodic cube of side L, plus every image within `cut` of the
// box as a ghost.
struct System {
  int n_local = 0;
  double L = 0;
  std::vector<double> x;  // 3 * n_total
  std::vector<long long> tag;
  std::vector<int> type;
  std::vector<int> active;
  std::vector<int> owner;  // per ghost
  int n_total() const { return static_cast<int>(tag.size()); }
};

// Owned atoms from positions (wrapped into the box), ghosts rebuilt.
inline System periodic_from_positions(const std::vector<double> &pos, const std::vector<int> &type,
                                      const std::vector<int> &active, double L, double cut) {
  System s;
  s.n_local = static_cast<int>(type.size());
  s.L = L;
  for (int i = 0; i < s.n_local; ++i) {
    for (int k = 0; k < 3; ++k) {
      double v = std::fmod(pos[3 * i + k], L);
      if (v < 0) v += L;
      s.x.push_back(v);
    }
    s.tag.push_back(i + 1);
    s.type.push_back(type[i]);
    s.active.push_back(active[i]);
  }
  for (int a = -1; a <= 1; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int c = -1; c <= 1; ++c) {
        if (a == 0 && b == 0 && c == 0) continue;
        for (int i = 0; i < s.n_local; ++i) {
          const double p[3] = {s.x[3 * i] + a * L, s.x[3 * i + 1] + b * L, s.x[3 * i + 2] + c * L};
          bool near = true;
          for (double v : p) near = near && v >= -cut && v < L + cut;
          if (!near) continue;
          s.x.insert(s.x.end(), p, p + 3);
          s.tag.push_back(s.tag[i]);
          s.type.push_back(s.type[i]);
          s.active.push_back(s.active[i]);
          s.owner.push_back(i);
        }
      }
  return s;
}

// Jittered grid (a realistic, positive definite H), types 0..2.
inline void random_atoms(int n, double L, unsigned seed, std::vector<double> &pos,
                         std::vector<int> &type) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int m = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(n))));
  const double h = L / m;
  pos.clear();
  type.clear();
  for (int i = 0; i < n; ++i) {
    const int c[3] = {i % m, (i / m) % m, i / (m * m)};
    for (int k = 0; k < 3; ++k) pos.push_back((c[k] + 0.5 + 0.5 * (u(rng) - 0.5)) * h);
    type.push_back(static_cast<int>(u(rng) * 3));
  }
}

inline System make_periodic_system(int n, double L, double cut, unsigned seed) {
  std::vector<double> pos;
  std::vector<int> type;
  random_atoms(n, L, seed, pos, type);
  return periodic_from_positions(pos, type, std::vector<int>(n, 1), L, cut);
}

// Per-type parameters (eV, eV, 1/A) of C, O and H in the CHO force field, eta
// as fix qeq/reaxff uses it (twice the ffield value).
inline const std::vector<double> kChi = {5.8678, 8.5000, 5.3200};
inline const std::vector<double> kEta = {14.0000, 17.9978, 14.8732};
inline const std::vector<double> kGamma = {0.9000, 1.0503, 1.0206};

inline QEqInput make_input(const System &sys) {
  QEqInput in;
  in.n_local = sys.n_local;
  in.n_total = sys.n_total();
  in.x = sys.x.data();
  in.tag = sys.tag.data();
  in.active = sys.active.data();
  in.type = sys.type.data();
  in.num_types = static_cast<int>(kChi.size());
  in.chi = kChi.data();
  in.eta = kEta.data();
  in.gamma = kGamma.data();
  return in;
}

inline SingleRankComm make_comm(const System &sys) {
  SingleRankComm c;
  c.pattern = image_halo(sys.owner.data(), sys.n_local, sys.n_total());
  return c;
}

}  // namespace qeq_test
