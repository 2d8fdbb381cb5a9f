// Unit tests of the taper, the non-bonded pair terms (vdW variants, Coulomb),
// the spline tables and the per-atom non-bonded / polarization bodies
// (test_hydrogen_bond_body.cpp: the hydrogen-bond body). Reference values are
// computed here from the closed forms, written independently of the
// library's code paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "nonbonded_fixtures.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/long_range_tables.h"
#include "puremd_gpu/physics/hydrogen_bond.h"
#include "puremd_gpu/physics/long_range_table.h"
#include "puremd_gpu/physics/nonbonded.h"
#include "puremd_gpu/physics/taper.h"

using namespace puremd;
using namespace puremd::nonbonded_test;

namespace {

// Tap as 1 - smoothstep_7(x), x = (r - low) / (high - low).
double taper_ref(double low, double high, double r) {
  const double x = (r - low) / (high - low);
  return 1.0 - x * x * x * x * (35.0 - 84.0 * x + 70.0 * x * x - 20.0 * x * x * x);
}

// k-th derivative of the polynomial sum c[m] r^m, and the sum of the moduli of
// its terms (the scale for round-off).
double poly_derivative(const Taper &t, int k, double r, double *scale) {
  double s = 0.0, a = 0.0;
  for (int m = k; m < 8; ++m) {
    double f = 1.0;
    for (int q = 0; q < k; ++q) f *= (m - q);
    const double term = f * t.c[m] * std::pow(r, m - k);
    s += term;
    a += std::fabs(term);
  }
  *scale = a;
  return s;
}

// Closed form of the tapered vdW energy.
double vdw_ref(const TwoBodyParams &p, int kind, bool lg, double low, double high, double r) {
  const double f =
      (kind & 1) ? std::pow(std::pow(r, kPvdw1) + std::pow(p.gamma_w, -kPvdw1), 1.0 / kPvdw1) : r;
  const double x = 1.0 - f / p.r_vdW;
  double e = p.D * (std::exp(p.alpha * x) - 2.0 * std::exp(0.5 * p.alpha * x));
  if (kind & 2) {
    e += p.ecore * std::exp(p.acore * (1.0 - r / p.rcore));
    if (lg) e -= p.lgcij / (std::pow(r, 6) + std::pow(p.lgre, 6));
  }
  return taper_ref(low, high, r) * e;
}

double coulomb_ref(double gamma, double qi, double qj, double low, double high, double r) {
  return 332.06371 * qi * qj * taper_ref(low, high, r) / std::cbrt(r * r * r + gamma);
}

PairTerm vdw_at(const TwoBodyParams &p, int kind, bool lg, const Taper &t, double r) {
  double tap, dtap;
  taper_eval(t, r, tap, dtap);
  return vdw_pair(p, kind, lg, r, 1.0 / r, tap, dtap);
}

PairTerm coulomb_at(double gamma, double qi, double qj, const Taper &t, double r) {
  double tap, dtap;
  taper_eval(t, r, tap, dtap);
  return coulomb_pair(gamma, qi, qj, r, tap, dtap);
}

}  // namespace

TEST(Taper, EndConditions) {
  for (double low : {0.0, 0.5}) {
    const double high = 10.0;
    const Taper t = make_taper(low, high);
    double tap, dtap;
    taper_eval(t, low > 0 ? low : 1e-9, tap, dtap);
    EXPECT_NEAR(tap, 1.0, 1e-12);
    if (low == 0.0) {
      EXPECT_NEAR(t.c[0], 1.0, 1e-13);
    }
    // Tap(high) = 0 and the first three derivatives vanish at both ends
    // (to round-off relative to the size of the polynomial's terms).
    for (int k = 0; k <= 3; ++k) {
      double scale_hi, scale_lo;
      const double at_hi = poly_derivative(t, k, high, &scale_hi);
      const double at_lo = poly_derivative(t, k, low, &scale_lo);
      EXPECT_NEAR(at_hi, 0.0, 1e-13 * scale_hi) << "k=" << k;
      if (k > 0) {
        EXPECT_NEAR(at_lo, 0.0, 1e-13 * scale_lo + 1e-15) << "k=" << k;
      }
    }
    for (double r : {0.7, 2.5, 5.0, 8.3, 9.9}) {
      taper_eval(t, r, tap, dtap);
      EXPECT_NEAR(tap, taper_ref(low, high, r), 1e-12);
      const double h = 1e-5;
      double tp, tm, d;
      taper_eval(t, r + h, tp, d);
      taper_eval(t, r - h, tm, d);
      EXPECT_NEAR(dtap * r, (tp - tm) / (2 * h), 1e-8);
    }
  }
}

TEST(Nonbonded, VdwClosedFormsAndDerivatives) {
  const TwoBodyParams p = sample_pair();
  const double low = 0.0, high = 10.0;
  const Taper t = make_taper(low, high);
  struct Case {
    int kind;
    bool lg;
  };
  for (Case c : {Case{1, false}, Case{2, false}, Case{3, false}, Case{2, true}, Case{3, true},
                 Case{0, false}}) {
    for (double r : {0.9, 1.4, 2.2, 3.1, 4.6, 7.7, 9.6}) {
      const PairTerm e = vdw_at(p, c.kind, c.lg, t, r);
      const double ref = vdw_ref(p, c.kind, c.lg, low, high, r);
      EXPECT_NEAR(e.e, ref, 1e-12 * std::fabs(ref) + 1e-15) << c.kind << " r=" << r;
      const double h = 1e-6 * r;
      const double fd =
          (vdw_at(p, c.kind, c.lg, t, r + h).e - vdw_at(p, c.kind, c.lg, t, r - h).e) / (2 * h);
      EXPECT_NEAR(e.ce * r, fd, 1e-7 * std::fabs(fd) + 1e-10) << c.kind << " r=" << r;
    }
  }
}

TEST(Nonbonded, CoulombClosedFormAndDerivative) {
  const TwoBodyParams p = sample_pair();
  const Taper t = make_taper(0.0, 10.0);
  for (double r : {0.3, 1.0, 2.5, 5.5, 9.2}) {
    const PairTerm e = coulomb_at(p.gamma, 0.42, -0.77, t, r);
    const double ref = coulomb_ref(p.gamma, 0.42, -0.77, 0.0, 10.0, r);
    // near the cut-off the tapered value is small: compare with the untapered size
    const double bare = 332.06371 * 0.42 * 0.77 / r;
    EXPECT_NEAR(e.e, ref, 1e-12 * std::fabs(ref) + 1e-13 * bare);
    const double h = 1e-6 * r;
    const double fd = (coulomb_at(p.gamma, 0.42, -0.77, t, r + h).e -
                       coulomb_at(p.gamma, 0.42, -0.77, t, r - h).e) /
                      (2 * h);
    EXPECT_NEAR(e.ce * r, fd, 1e-7 * std::fabs(fd) + 1e-10);
  }
}

TEST(Nonbonded, OwnershipRule) {
  const vec3 up{0, 0, 1}, down{0, 0, -1}, flat_y{1, 2e-5, 0}, flat_x{-1, 0, 5e-5};
  EXPECT_TRUE(nonbonded_pair_is_mine(3, 10, 7, 2, down));   // j owned
  EXPECT_TRUE(nonbonded_pair_is_mine(12, 10, 2, 7, down));  // smaller tag
  EXPECT_FALSE(nonbonded_pair_is_mine(12, 10, 7, 2, up));   // larger tag
  EXPECT_TRUE(nonbonded_pair_is_mine(12, 10, 5, 5, up));    // own image above
  EXPECT_FALSE(nonbonded_pair_is_mine(12, 10, 5, 5, down));
  EXPECT_TRUE(nonbonded_pair_is_mine(12, 10, 5, 5, flat_y));  // z, y ~ 0, x > 0
  EXPECT_FALSE(nonbonded_pair_is_mine(12, 10, 5, 5, flat_x));
}

TEST(LongRangeTable, SplineMatchesAnalytic) {
  for (int kind : {1, 3}) {
    const ForceField ff = sample_ff(true, kind == 3);
    Control ctl = sample_control(10000);
    ctl.lgvdw = kind == 3;
    std::vector<LongRangeTable> tables;
    std::vector<CubicCoef> coefs;
    build_long_range_tables(ff, ctl, tables, coefs);
    ASSERT_EQ(tables.size(), 4u);
    const Taper t = make_taper(ctl.nonb_low, ctl.nonb_cut);
    for (int ti = 0; ti < 2; ++ti)
      for (int tj = 0; tj < 2; ++tj) {
        const LongRangeTable &tab = tables[ti * 2 + tj];
        EXPECT_EQ(tab.n, 10002);
        const TwoBodyParams &p = ff.tbp[ti * 2 + tj];
        for (double r = 0.5 + 0.000371; r < 9.999; r += 0.1237) {
          const LongRangeValues lr = long_range_lookup(tab, r);
          const PairTerm v = vdw_at(p, kind, ctl.lgvdw, t, r);
          const PairTerm c = coulomb_at(p.gamma, 1.0, 1.0, t, r);
          EXPECT_NEAR(lr.e_vdw, v.e, 1e-9 * (std::fabs(v.e) + 1e-3)) << r;
          EXPECT_NEAR(lr.ce_vdw, v.ce, 1e-8 * (std::fabs(v.ce) + 1e-3)) << r;
          EXPECT_NEAR(lr.e_ele, c.e, 2e-10 * (std::fabs(c.e) + 1e-2)) << r;
          EXPECT_NEAR(lr.ce_ele, c.ce, 1e-9 * (std::fabs(c.ce) + 1e-2)) << r;
        }
        // on a knot the value is the sample itself
        const double rk = 4321 * tab.dx;
        EXPECT_NEAR(long_range_lookup(tab, rk).e_ele, coulomb_at(p.gamma, 1, 1, t, rk).e, 1e-12);
      }
  }
}

TEST(LongRangeTable, UsedMaskAndErrors) {
  const ForceField ff = sample_ff(true, false);
  std::vector<LongRangeTable> tables;
  std::vector<CubicCoef> coefs;
  build_long_range_tables(ff, sample_control(100), tables, coefs, {true, false});
  EXPECT_EQ(tables[0].n, 102);
  EXPECT_EQ(tables[1].n, 0);
  EXPECT_EQ(tables[3].vdW, nullptr);
  EXPECT_EQ(coefs.size(), 4u * 102u);
  EXPECT_THROW(build_long_range_tables(ff, sample_control(0), tables, coefs), InputError);
}

// --- per-atom bodies on a hand-made StepView --------------------------------

TEST(NonbondedAtom, EnergiesGradientsAndPerAtomTallies) {
  MiniSystem s = water_dimer(true, true);
  s.control.lgvdw = true;
  s.run_nonbonded(kTermAll);
  const Taper t = make_taper(0.0, 10.0);
  double ev = 0, ee = 0, ep = 0;
  for (int i = 0; i < 6; ++i) {
    const SingleBodyParams &sb = s.ff.sbp[s.type[i]];
    ep += 23.02 * (sb.chi * s.q[i] + 0.5 * sb.eta * s.q[i] * s.q[i]);
    for (int j = i + 1; j < 6; ++j) {
      const double r = std::sqrt(norm2(s.x[j] - s.x[i]));
      const TwoBodyParams &p = s.ff.tbp[s.type[i] * 2 + s.type[j]];
      ev += vdw_ref(p, 3, true, 0.0, 10.0, r);
      ee += coulomb_ref(p.gamma, s.q[i], s.q[j], 0.0, 10.0, r);
    }
  }
  (void)t;
  EXPECT_NEAR(s.energy.e_vdW, ev, 1e-11 * std::fabs(ev));
  EXPECT_NEAR(s.energy.e_ele, ee, 1e-11 * std::fabs(ee));
  EXPECT_NEAR(s.energy.e_pol, ep, 1e-11 * std::fabs(ep));
  double esum = 0;
  for (double e : s.eatom) esum += e;
  EXPECT_NEAR(esum, ev + ee + ep, 1e-10 * (std::fabs(ev) + std::fabs(ee) + std::fabs(ep)));

  // per-atom virial sums to the global one: W = -sum_a x_a (x) g_a
  double w[6] = {0, 0, 0, 0, 0, 0}, vs[6] = {0, 0, 0, 0, 0, 0};
  for (int a = 0; a < 6; ++a) {
    const vec3 x = s.x[a], g = s.grad[a];
    const double wa[6] = {-x.x * g.x, -x.y * g.y, -x.z * g.z, -x.x * g.y, -x.x * g.z, -x.y * g.z};
    for (int k = 0; k < 6; ++k) {
      w[k] += wa[k];
      vs[k] += s.vatom[6 * a + k];
    }
  }
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(vs[k], w[k], 1e-10);

  // gradients, one term at a time
  for (unsigned term : {unsigned(kTermVdw), unsigned(kTermCoulomb)}) {
    double Energies::*field = term == kTermVdw ? &Energies::e_vdW : &Energies::e_ele;
    s.run_nonbonded(term);
    const std::vector<vec3> g = s.grad;
    EXPECT_EQ(term == kTermVdw ? s.energy.e_ele : s.energy.e_vdW, 0.0);
    EXPECT_EQ(s.energy.e_pol, 0.0);
    for (int a = 0; a < 6; ++a) expect_vec_near(g[a], grad_fd(s, a, term, field), 2e-6);
  }
}

TEST(NonbondedAtom, GhostOwnershipAndTabulated) {
  // Owned atoms 0 (tag 1) and 1 (tag 2); ghost 2 = image of 0 (tag 1) above,
  // ghost 3 = image of 1 (tag 2) below, ghost 4 = image of 0 (tag 1) near 1.
  MiniSystem s;
  s.ff = sample_ff(true, false);
  s.control = sample_control(10000);
  s.n_local = 2;
  s.x = {{0, 0, 0}, {1.5, 0.3, 0.2}, {0.1, 0.2, 6.0}, {1.5, 0.3, -5.8}, {5.2, 0.1, 0.4}};
  s.type = {0, 1, 0, 1, 0};
  s.tag = {1, 2, 1, 2, 1};
  s.q = {-0.5, 0.5, -0.5, 0.5, -0.5};
  s.run_nonbonded(kTermVdw | kTermCoulomb);
  // counted: (0,1) owned; (0,2) equal tags, dz > 0; (0,3) tag 1 < 2; (1,2) tag 2 > 1: no;
  // (1,3) equal tags, dz < 0: no; (0,4) equal tags, dz > 0; (1,4) tag 2 > 1: no.
  const int counted[][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}};
  double ev = 0, ee = 0;
  for (auto &c : counted) {
    const int i = c[0], j = c[1];
    const double r = std::sqrt(norm2(s.x[j] - s.x[i]));
    const TwoBodyParams &p = s.ff.tbp[s.type[i] * 2 + s.type[j]];
    ev += vdw_ref(p, 1, false, 0.0, 10.0, r);
    ee += coulomb_ref(p.gamma, s.q[i], s.q[j], 0.0, 10.0, r);
  }
  EXPECT_NEAR(s.energy.e_vdW, ev, 1e-11 * std::fabs(ev));
  EXPECT_NEAR(s.energy.e_ele, ee, 1e-11 * std::fabs(ee));
  EXPECT_NEAR(s.eatom[3],
              0.5 * (vdw_ref(s.ff.tbp[1], 1, false, 0, 10, std::sqrt(norm2(s.x[3]))) +
                     coulomb_ref(s.ff.tbp[1].gamma, -0.5, 0.5, 0, 10, std::sqrt(norm2(s.x[3])))),
              1e-12);
  EXPECT_EQ(s.eatom[2] != 0.0, true);

  // tabulated: same energies to spline accuracy, gradients consistent
  build_long_range_tables(s.ff, s.control, s.tables, s.coefs);
  s.run_nonbonded(kTermVdw | kTermCoulomb, true);
  EXPECT_NEAR(s.energy.e_vdW, ev, 1e-9 * std::fabs(ev));
  EXPECT_NEAR(s.energy.e_ele, ee, 1e-9 * std::fabs(ee));
  const std::vector<vec3> g = s.grad;
  s.run_nonbonded(kTermVdw | kTermCoulomb, false);
  for (int a = 0; a < 5; ++a) expect_vec_near(g[a], s.grad[a], 1e-7);
}

// Far rows that hold partners beyond the cut-off (the CUDA driver reads its
// skin list, within cut-off + skin, as the far list: lists.h) give the same
// energies, forces and per-atom tallies to the bit: nonbonded_pair leaves
// every entry beyond nonb_cut out before it adds anything.
TEST(NonbondedAtom, RowsHoldingMoreThanTheCutoffChangeNothing) {
  MiniSystem s;
  s.ff = sample_ff(true, true);
  s.control = sample_control();
  s.n_local = 8;
  // a chain along x, 1.45 A apart, and its last atom's partners straddling
  // the cut-off (10 A) by a few tenths: pairs at 9.6 .. 10.9 A
  for (int k = 0; k < 8; ++k) s.x.push_back({1.45 * k, 0.3 * (k % 2), 0.1 * k});
  s.type = {0, 1, 0, 1, 1, 0, 1, 0};
  s.tag = {1, 2, 3, 4, 5, 6, 7, 8};
  s.q = {-0.4, 0.3, -0.2, 0.35, 0.1, -0.45, 0.2, 0.1};
  s.run_nonbonded(kTermAll);
  const Energies exact = s.energy;
  const std::vector<vec3> g = s.grad;
  const std::vector<double> ea = s.eatom, va = s.vatom;
  const std::size_t exact_pairs = s.far_nbr.size();
  s.far_margin = 1.5;
  s.run_nonbonded(kTermAll);
  ASSERT_GT(s.far_nbr.size(), exact_pairs)
      << "no partner beyond the cut-off: the test tests nothing";
  EXPECT_EQ(s.energy.e_vdW, exact.e_vdW);
  EXPECT_EQ(s.energy.e_ele, exact.e_ele);
  EXPECT_EQ(s.energy.e_pol, exact.e_pol);
  for (int a = 0; a < 8; ++a) {
    EXPECT_EQ(s.grad[a].x, g[a].x) << "atom " << a;
    EXPECT_EQ(s.grad[a].y, g[a].y) << "atom " << a;
    EXPECT_EQ(s.grad[a].z, g[a].z) << "atom " << a;
    EXPECT_EQ(s.eatom[a], ea[a]) << "atom " << a;
  }
  EXPECT_EQ(s.vatom, va);
}

// --- hydrogen bonds ---------------------------------------------------------
