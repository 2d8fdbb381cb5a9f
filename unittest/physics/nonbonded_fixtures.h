// Fixtures of the non-bonded and hydrogen-bond body tests: a two-element
// force field and a water dimer on a hand-made StepView.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "puremd_gpu/long_range_tables.h"
#include "puremd_gpu/physics/hydrogen_bond.h"
#include "puremd_gpu/physics/long_range_table.h"
#include "puremd_gpu/physics/nonbonded.h"
#include "puremd_gpu/physics/taper.h"

namespace puremd::nonbonded_test {

constexpr double kPvdw1 = 1.5591;  // general parameter 28

inline TwoBodyParams sample_pair() {
  TwoBodyParams p;
  std::memset(&p, 0, sizeof(p));
  p.D = 0.1279;
  p.alpha = 10.1;
  p.r_vdW = 3.82;
  p.gamma_w = 9.8;
  p.rcore = 1.6;
  p.ecore = 0.15;
  p.acore = 12.0;
  p.lgcij = 180.0;
  p.lgre = 2.9;
  p.gamma = std::pow(0.9 * 1.05, -1.5);
  derive_vdw_constants(p, kPvdw1);  // as the reader does
  return p;
}

// A small force field: element 0 "O" (donor/acceptor), 1 "H" (hydrogen).
// vdW flavour chosen through element 0's parameters.
inline ForceField sample_ff(bool shielding, bool wall) {
  ForceField ff;
  const int n = 2;
  ff.num_types = n;
  ff.gp.assign(kNumGlobalParams, 0.0);
  ff.gp[11] = 0.0;
  ff.gp[12] = 10.0;
  ff.gp[28] = kPvdw1;
  ff.sbp.resize(n);
  for (auto &s : ff.sbp) std::memset(&s, 0, sizeof(s));
  std::strcpy(ff.sbp[0].name, "O");
  std::strcpy(ff.sbp[1].name, "H");
  ff.sbp[0].p_hbond = 2;
  ff.sbp[1].p_hbond = 1;
  ff.sbp[0].chi = 8.5;
  ff.sbp[0].eta = 8.3122;
  ff.sbp[1].chi = 3.7248;
  ff.sbp[1].eta = 9.6093;
  for (auto &s : ff.sbp) {
    s.gamma_w = shielding ? 7.5 : 0.0;
    s.rcore2 = wall ? 1.8 : 0.0;
    s.acore2 = wall ? 10.0 : 0.0;
  }
  ff.tbp.resize(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      TwoBodyParams p = sample_pair();
      p.D *= 1.0 + 0.3 * (i + j);  // make the pairs distinguishable
      p.r_vdW *= 1.0 - 0.1 * (i + j);
      derive_vdw_constants(p, kPvdw1);
      p.gamma = std::pow(1.05 * (1.0 - 0.2 * i) * (1.0 - 0.2 * j), -1.5);
      ff.tbp[i * n + j] = p;
    }
  ff.thbp.assign(n * n * n, ThreeBodySets{});
  ff.hbp.assign(n * n * n, HbondParams{0.0, 0.0, 0.0, 0.0});
  ff.hbp[(0 * n + 1) * n + 0] = HbondParams{2.12, -3.58, 1.74, 3.0};  // O-H...O
  ff.fbp.assign(n * n * n * n, FourBodySets{});
  ff.vdw_type = (shielding ? kVdwShielding : 0) | (wall ? kVdwInnerWall : 0);
  return ff;
}

inline Control sample_control(int tabulate = 0) {
  Control c;
  c.nonb_low = 0.0;
  c.nonb_cut = 10.0;
  c.tabulate = tabulate;
  return c;
}

struct MiniSystem {
  ForceField ff;
  Control control;
  int n_local = 0;
  std::vector<vec3> x;
  std::vector<int> type;
  std::vector<long long> tag;
  std::vector<double> q;
  // far list (half, rows of owned atoms up to nonb_cut; plus far_margin, as
  // the CUDA driver's skin list holds more than the cut-off)
  double far_margin = 0.0;
  std::vector<ListPos> far_start, far_end;
  std::vector<int> far_nbr;
  // bonds / hbonds
  std::vector<int> b_start, b_end, b_nbr, b_sym;
  std::vector<double> b_d;
  std::vector<vec3> b_dvec;
  std::vector<BondOrder> b_bo;
  std::vector<int> h_start, h_end, h_nbr;
  // outputs
  Energies energy;
  std::vector<vec3> grad;
  std::vector<double> eatom, vatom;
  std::vector<LongRangeTable> tables;
  std::vector<CubicCoef> coefs;

  void build_far() {
    const int N = static_cast<int>(x.size());
    far_start.assign(N, 0);
    far_end.assign(N, 0);
    far_nbr.clear();
    for (int i = 0; i < N; ++i) {
      far_start[i] = static_cast<ListPos>(far_nbr.size());
      for (int j = i + 1; j < N; ++j) {
        const vec3 d = x[j] - x[i];
        const double r = std::sqrt(norm2(d));
        if (r <= (i < n_local ? control.nonb_cut : control.bond_cut) + far_margin) {
          far_nbr.push_back(j);
        }
      }
      far_end[i] = static_cast<ListPos>(far_nbr.size());
    }
  }

  // Bonds: only the listed pairs (BO given); hbonds: every (H owned, acceptor) pair.
  void build_bonds(const std::vector<std::pair<int, int>> &pairs, const std::vector<double> &bo) {
    const int N = static_cast<int>(x.size());
    b_start.assign(N, 0);
    b_end.assign(N, 0);
    b_nbr.clear();
    b_sym.clear();
    b_d.clear();
    b_dvec.clear();
    b_bo.clear();
    for (int a = 0; a < N; ++a) {
      b_start[a] = static_cast<int>(b_nbr.size());
      for (size_t k = 0; k < pairs.size(); ++k) {
        int o = -1;
        if (pairs[k].first == a) o = pairs[k].second;
        if (pairs[k].second == a) o = pairs[k].first;
        if (o < 0) continue;
        const vec3 d = x[o] - x[a];
        b_nbr.push_back(o);
        b_sym.push_back(-1);
        b_d.push_back(std::sqrt(norm2(d)));
        b_dvec.push_back(d);
        BondOrder b;
        std::memset(&b, 0, sizeof(b));
        b.BO = bo[k];
        b_bo.push_back(b);
      }
      b_end[a] = static_cast<int>(b_nbr.size());
    }
    h_start.assign(N, 0);
    h_end.assign(N, 0);
    h_nbr.clear();
    for (int a = 0; a < N; ++a) {
      h_start[a] = static_cast<int>(h_nbr.size());
      if (a < n_local && ff.sbp[type[a]].p_hbond == 1)
        for (int z = 0; z < N; ++z) {
          if (z == a || ff.sbp[type[z]].p_hbond != 2) continue;
          if (std::sqrt(norm2(x[z] - x[a])) > control.hbond_cut) continue;
          h_nbr.push_back(z);
        }
      h_end[a] = static_cast<int>(h_nbr.size());
    }
  }

  StepView view(unsigned terms, bool tabulated = false) {
    const int N = static_cast<int>(x.size());
    energy = Energies{};
    grad.assign(N, vec3{0, 0, 0});
    eatom.assign(N, 0.0);
    vatom.assign(6 * N, 0.0);
    StepView v;
    v.atoms.n_local = n_local;
    v.atoms.n_total = N;
    v.atoms.x = x.data();
    v.atoms.type = type.data();
    v.atoms.tag = tag.data();
    v.atoms.q = q.data();
    v.ff = ff.view();
    set_view_control(v, control);
    v.far = FarNeighborList{far_start.data(), far_end.data(), far_nbr.data()};
    v.bonds = BondList{b_start.data(), b_end.data(),  b_nbr.data(), b_sym.data(),
                       b_d.data(),     b_dvec.data(), b_bo.data()};
    v.hbonds = HbondList{h_start.data(), h_end.data(), h_nbr.data()};
    v.tally.energy = &energy;
    v.tally.grad = grad.data();
    v.tally.eatom = eatom.data();
    v.tally.vatom = vatom.data();
    v.tally.x = x.data();
    v.tally.terms = terms;
    v.lr = tabulated ? tables.data() : nullptr;
    return v;
  }

  void run_nonbonded(unsigned terms, bool tabulated = false) {
    build_far();
    const StepView v = view(terms, tabulated);
    for (int i = 0; i < n_local; ++i) nonbonded_atom(i, v);
    for (int i = 0; i < n_local; ++i) polarization_atom(i, v);
  }
};

inline MiniSystem water_dimer(bool shielding, bool wall) {
  MiniSystem s;
  s.ff = sample_ff(shielding, wall);
  s.control = sample_control();
  s.n_local = 6;
  // O H H (donor molecule), O H H (acceptor molecule)
  s.x = {{0.0, 0.0, 0.0},    {0.96, 0.05, 0.02}, {-0.24, 0.93, -0.03},
         {2.91, 0.12, 0.07}, {3.3, 0.9, 0.35},   {3.25, -0.71, 0.41}};
  s.type = {0, 1, 1, 0, 1, 1};
  s.tag = {1, 2, 3, 4, 5, 6};
  s.q = {-0.82, 0.41, 0.43, -0.79, 0.38, 0.39};
  return s;
}

inline vec3 grad_fd(MiniSystem s, int a, unsigned terms, double Energies::*field,
                    bool tab = false) {
  const double h = 1e-6;
  double g[3];
  for (int c = 0; c < 3; ++c) {
    double *xc = c == 0 ? &s.x[a].x : c == 1 ? &s.x[a].y : &s.x[a].z;
    const double x0 = *xc;
    *xc = x0 + h;
    s.run_nonbonded(terms, tab);
    const double ep = s.energy.*field;
    *xc = x0 - h;
    s.run_nonbonded(terms, tab);
    const double em = s.energy.*field;
    *xc = x0;
    g[c] = (ep - em) / (2 * h);
  }
  return vec3{g[0], g[1], g[2]};
}

inline void expect_vec_near(vec3 a, vec3 b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}  // namespace puremd::nonbonded_test
