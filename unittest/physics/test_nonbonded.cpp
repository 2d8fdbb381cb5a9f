// Unit tests of the taper, the non-bonded pair terms (vdW variants, Coulomb),
// the spline tables, the per-atom non-bonded / polarization bodies and the
// hydrogen-bond body. Reference values are computed here from the closed
// forms, written independently of the library's code paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "puremd_gpu/errors.h"
#include "puremd_gpu/long_range_tables.h"
#include "puremd_gpu/physics/hydrogen_bond.h"
#include "puremd_gpu/physics/long_range_table.h"
#include "puremd_gpu/physics/nonbonded.h"
#include "puremd_gpu/physics/taper.h"

using namespace puremd;

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

constexpr double kPvdw1 = 1.5591;  // general parameter 28

TwoBodyParams sample_pair() {
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

// A small force field: element 0 "O" (donor/acceptor), 1 "H" (hydrogen).
// vdW flavour chosen through element 0's parameters.
ForceField sample_ff(bool shielding, bool wall) {
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

Control sample_control(int tabulate = 0) {
  Control c;
  c.nonb_low = 0.0;
  c.nonb_cut = 10.0;
  c.tabulate = tabulate;
  return c;
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

namespace {

struct MiniSystem {
  ForceField ff;
  Control control;
  int n_local = 0;
  std::vector<vec3> x;
  std::vector<int> type;
  std::vector<long long> tag;
  std::vector<double> q;
  // far list (half, rows of owned atoms up to nonb_cut)
  std::vector<int> far_start, far_end, far_nbr;
  // bonds / hbonds
  std::vector<int> b_start, b_end, b_nbr, b_sym;
  std::vector<double> b_d;
  std::vector<vec3> b_dvec;
  std::vector<BondOrder> b_bo;
  std::vector<int> h_start, h_end, h_nbr;
  std::vector<double> h_d;
  std::vector<vec3> h_dvec;
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
      far_start[i] = static_cast<int>(far_nbr.size());
      for (int j = i + 1; j < N; ++j) {
        const vec3 d = x[j] - x[i];
        const double r = std::sqrt(norm2(d));
        if (r <= (i < n_local ? control.nonb_cut : control.bond_cut)) {
          far_nbr.push_back(j);
        }
      }
      far_end[i] = static_cast<int>(far_nbr.size());
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
    h_d.clear();
    h_dvec.clear();
    for (int a = 0; a < N; ++a) {
      h_start[a] = static_cast<int>(h_nbr.size());
      if (a < n_local && ff.sbp[type[a]].p_hbond == 1)
        for (int z = 0; z < N; ++z) {
          if (z == a || ff.sbp[type[z]].p_hbond != 2) continue;
          const vec3 d = x[z] - x[a];
          const double r = std::sqrt(norm2(d));
          if (r > control.hbond_cut) continue;
          h_nbr.push_back(z);
          h_d.push_back(r);
          h_dvec.push_back(d);
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
    v.hbonds = HbondList{h_start.data(), h_end.data(), h_nbr.data(), h_d.data(), h_dvec.data()};
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

MiniSystem water_dimer(bool shielding, bool wall) {
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

vec3 grad_fd(MiniSystem s, int a, unsigned terms, double Energies::*field, bool tab = false) {
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

void expect_vec_near(vec3 a, vec3 b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}  // namespace

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

// --- hydrogen bonds ---------------------------------------------------------

namespace {

double hbond_ref(const HbondParams &p, double bo, vec3 xx, vec3 xh, vec3 xz) {
  const vec3 u = xx - xh, w = xz - xh;
  const double theta = std::atan2(std::sqrt(norm2(cross(u, w))), dot(u, w));
  const double r = std::sqrt(norm2(w));
  const double s2 = std::sin(theta / 2);
  return p.p_hb1 * (1 - std::exp(-p.p_hb2 * bo)) *
         std::exp(-p.p_hb3 * (p.r0_hb / r + r / p.r0_hb - 2)) * std::pow(s2, 4);
}

double run_hbonds(MiniSystem &s, const std::vector<std::pair<int, int>> &bonds,
                  const std::vector<double> &bo, unsigned terms = kTermAll) {
  s.build_bonds(bonds, bo);
  const StepView v = s.view(terms);
  for (int h = 0; h < s.n_local; ++h) hydrogen_bonds_atom(h, v);
  return s.energy.e_hb;
}

}  // namespace

TEST(HydrogenBond, EnergyGradientAndCdbo) {
  MiniSystem s = water_dimer(true, false);
  const std::vector<std::pair<int, int>> bonds = {{0, 1}, {0, 2}, {3, 4}, {3, 5}};
  const std::vector<double> bo = {0.93, 0.005, 0.91, 0.92};  // 0-2 below the 0.01 threshold
  const HbondParams &p = s.ff.hbp[(0 * 2 + 1) * 2 + 0];
  const double e = run_hbonds(s, bonds, bo);

  // donors: H1 (X = O0, Z = O3), H4 (X = O3, Z = O0), H5 (X = O3, Z = O0); H2's bond too weak
  const double ref = hbond_ref(p, 0.93, s.x[0], s.x[1], s.x[3]) +
                     hbond_ref(p, 0.91, s.x[3], s.x[4], s.x[0]) +
                     hbond_ref(p, 0.92, s.x[3], s.x[5], s.x[0]);
  EXPECT_NEAR(e, ref, 1e-12 * std::fabs(ref));
  double esum = 0;
  for (double ea : s.eatom) esum += ea;
  EXPECT_NEAR(esum, e, 1e-13);
  const double e1 = hbond_ref(p, 0.93, s.x[0], s.x[1], s.x[3]);
  EXPECT_NEAR(s.eatom[1], e1 / 3, 1e-13);

  // dE/dBO on the H1-O0 entry of H1's row
  const std::vector<BondOrder> bo_saved = s.b_bo;
  const std::vector<vec3> g = s.grad;
  const int p10 = s.b_start[1];
  ASSERT_EQ(s.b_nbr[p10], 0);
  const double hb = 1e-6;
  std::vector<double> bop = bo, bom = bo;
  bop[0] += hb;
  bom[0] -= hb;
  MiniSystem t = s;
  const double dE = (run_hbonds(t, bonds, bop) - run_hbonds(t, bonds, bom)) / (2 * hb);
  EXPECT_NEAR(bo_saved[p10].Cdbo, dE, 1e-7 * std::fabs(dE));

  // direct gradient (BO fixed) against finite differences
  for (int a = 0; a < 6; ++a) {
    double fd[3];
    for (int c = 0; c < 3; ++c) {
      MiniSystem u = s;
      double *xc = c == 0 ? &u.x[a].x : c == 1 ? &u.x[a].y : &u.x[a].z;
      const double x0 = *xc;
      *xc = x0 + hb;
      const double ep = run_hbonds(u, bonds, bo);
      *xc = x0 - hb;
      const double em = run_hbonds(u, bonds, bo);
      fd[c] = (ep - em) / (2 * hb);
    }
    expect_vec_near(g[a], vec3{fd[0], fd[1], fd[2]}, 1e-7);
  }

  // the term switch and hbond_cut <= 0 disable everything
  EXPECT_EQ(run_hbonds(s, bonds, bo, kTermAll & ~kTermHbond), 0.0);
  EXPECT_EQ(s.b_bo[p10].Cdbo, 0.0);
  s.control.hbond_cut = 0.0;
  EXPECT_EQ(run_hbonds(s, bonds, bo), 0.0);
}

TEST(HydrogenBond, Exclusions) {
  MiniSystem s = water_dimer(true, false);
  const std::vector<std::pair<int, int>> bonds = {{0, 1}, {3, 4}, {3, 5}};
  const std::vector<double> bo = {0.93, 0.91, 0.92};
  // acceptor O3 given O0's tag (an image of the donor): X == Z, nothing counted
  s.tag[3] = s.tag[0];
  EXPECT_EQ(run_hbonds(s, bonds, bo), 0.0);
  // missing parameter set (r0_hb = 0)
  s = water_dimer(true, false);
  s.ff.hbp[(0 * 2 + 1) * 2 + 0].r0_hb = 0.0;
  EXPECT_EQ(run_hbonds(s, bonds, bo), 0.0);
}
