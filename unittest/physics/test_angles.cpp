// Valence angles and torsions: the geometry helpers against independent
// formulas and finite differences, the three-body list layout, and the
// derivative factors of the five energy terms (angle, penalty, coalition,
// torsion, conjugation) against finite differences on a small hand-made
// molecule with owned and ghost atoms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "host/host_context.h"
#include "puremd_gpu/physics/bond_order.h"
#include "puremd_gpu/physics/torsion.h"
#include "puremd_gpu/physics/valence_angle.h"

namespace {

using puremd::vec3;

vec3 unit_random(std::mt19937 &rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  for (;;) {
    vec3 u{g(rng), g(rng), g(rng)};
    const double n = std::sqrt(puremd::norm2(u));
    if (n > 1e-3) return (1.0 / n) * u;
  }
}

double length(vec3 a) { return std::sqrt(puremd::norm2(a)); }
double &comp(vec3 &a, int d) { return d == 0 ? a.x : (d == 1 ? a.y : a.z); }
double comp(const vec3 &a, int d) { return d == 0 ? a.x : (d == 1 ? a.y : a.z); }

// Angle at j between i and k, written without the library's formulas.
double ref_cos_angle(vec3 xi, vec3 xj, vec3 xk) {
  const vec3 a = xi - xj, b = xk - xj;
  return std::cos(std::atan2(length(puremd::cross(a, b)), puremd::dot(a, b)));
}

// Dihedral i-j-k-l by the usual plane-normal construction.
double ref_dihedral(vec3 xi, vec3 xj, vec3 xk, vec3 xl) {
  const vec3 b1 = xj - xi, b2 = xk - xj, b3 = xl - xk;
  const vec3 n1 = puremd::cross(b1, b2), n2 = puremd::cross(b2, b3);
  // right-handed about j->k: sin part (n1 x n2) . b2 / |b2|
  return std::atan2(puremd::dot(puremd::cross(n1, n2), b2) / length(b2), puremd::dot(n1, n2));
}

// One bond angle of a chain: its cosine and sine, and the gradients of its
// cosine with respect to the first, centre and last atom.
struct TorsionAngle {
  double cos_theta, sin_theta;
  vec3 dcos_first, dcos_centre, dcos_last;
};

// The gradients of cos(omega) on the four atoms, composed from dihedral_terms'
// scalars as DihedralTerms documents (the torsion stage sums the same terms
// over its chains).
struct Dihedral {
  double cos_omega;
  vec3 dcos_di, dcos_dj, dcos_dk, dcos_dl;
};
Dihedral dihedral(vec3 r_ij, double d_ij, vec3 r_jk, double d_jk, vec3 r_kl, double d_kl, vec3 r_li,
                  double d_li, const TorsionAngle &ijk, const TorsionAngle &jkl) {
  const puremd::DihedralTerms t =
      puremd::dihedral_terms(r_ij, d_ij, r_jk, d_jk, r_kl, d_kl, d_li, ijk.cos_theta, ijk.sin_theta,
                             jkl.cos_theta, jkl.sin_theta);
  Dihedral out;
  out.cos_omega = t.cos_omega;
  out.dcos_di = t.ij * r_ij - t.li * r_li + t.A * ijk.dcos_first;
  out.dcos_dj = -t.ij * r_ij - t.jk * r_jk + t.A * ijk.dcos_centre + t.B * jkl.dcos_first;
  out.dcos_dk = t.jk * r_jk - t.kl * r_kl + t.A * ijk.dcos_last + t.B * jkl.dcos_centre;
  out.dcos_dl = t.kl * r_kl + t.li * r_li + t.B * jkl.dcos_last;
  return out;
}

// exact_theta: sine and cosine from the cross and dot products instead of the
// clamped cosine (full precision near 0 and 180 deg)
TorsionAngle make_angle(vec3 xfirst, vec3 xcentre, vec3 xlast, bool exact_theta = false) {
  const vec3 a = xfirst - xcentre, b = xlast - xcentre;
  TorsionAngle t;
  double theta;
  puremd::angle_theta(a, length(a), b, length(b), &theta, &t.cos_theta);
  t.sin_theta = puremd::angle_sin(t.cos_theta);
  puremd::angle_dcos(a, length(a), b, length(b), &t.dcos_first, &t.dcos_centre, &t.dcos_last);
  if (exact_theta) {
    const double ab = length(a) * length(b);
    t.cos_theta = puremd::dot(a, b) / ab;
    t.sin_theta = length(puremd::cross(a, b)) / ab;
  }
  return t;
}

Dihedral lib_dihedral(const vec3 x[4], bool exact_theta) {
  const vec3 r_ij = x[0] - x[1], r_jk = x[2] - x[1], r_kl = x[3] - x[2], r_li = x[0] - x[3];
  return dihedral(r_ij, length(r_ij), r_jk, length(r_jk), r_kl, length(r_kl), r_li, length(r_li),
                  make_angle(x[0], x[1], x[2], exact_theta),
                  make_angle(x[1], x[2], x[3], exact_theta));
}

}  // namespace

TEST(AnglesGeometry, ThetaAndDcosMatchIndependentFormulaAndFiniteDifferences) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> len(0.8, 2.5);
  for (int trial = 0; trial < 200; ++trial) {
    vec3 x[3];
    x[1] = len(rng) * unit_random(rng);
    x[0] = x[1] + len(rng) * unit_random(rng);
    x[2] = x[1] + len(rng) * unit_random(rng);
    if (trial % 10 == 0) {  // nearly straight or folded angles
      const vec3 u = unit_random(rng);
      const double eps = std::pow(10.0, -2.0 - trial / 40);
      x[0] = x[1] + 1.3 * u;
      x[2] = x[1] + (trial % 20 == 0 ? -1.7 : 1.7) * (u + eps * unit_random(rng));
    }
    const vec3 a = x[0] - x[1], b = x[2] - x[1];
    double theta, c;
    puremd::angle_theta(a, length(a), b, length(b), &theta, &c);
    vec3 g[3];
    puremd::angle_dcos(a, length(a), b, length(b), &g[0], &g[1], &g[2]);

    EXPECT_NEAR(c, ref_cos_angle(x[0], x[1], x[2]), 1e-12);
    EXPECT_NEAR(std::cos(theta), c, 1e-12);
    // independent gradient: d cos / d x_i = (b_hat - cos a_hat) / |a|, etc.
    const vec3 ah = (1.0 / length(a)) * a, bh = (1.0 / length(b)) * b;
    const vec3 gi = (1.0 / length(a)) * (bh - c * ah);
    const vec3 gk = (1.0 / length(b)) * (ah - c * bh);
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(comp(g[0], d), comp(gi, d), 1e-12);
      EXPECT_NEAR(comp(g[2], d), comp(gk, d), 1e-12);
      EXPECT_NEAR(comp(g[1], d), -comp(gi, d) - comp(gk, d), 1e-12);
    }
    // central differences of the clamped-free cosine
    const double h = 1e-6;
    for (int at = 0; at < 3; ++at)
      for (int d = 0; d < 3; ++d) {
        vec3 xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
        comp(xp[at], d) += h;
        comp(xm[at], d) -= h;
        const vec3 ap = xp[0] - xp[1], bp = xp[2] - xp[1];
        const vec3 am = xm[0] - xm[1], bm = xm[2] - xm[1];
        const double cp = puremd::dot(ap, bp) / (length(ap) * length(bp));
        const double cm = puremd::dot(am, bm) / (length(am) * length(bm));
        EXPECT_NEAR((cp - cm) / (2 * h), comp(g[at], d), 1e-8) << "trial " << trial;
      }
  }
}

TEST(AnglesGeometry, DihedralAndDcosOmegaMatchFiniteDifferences) {
  std::mt19937 rng(777);
  std::uniform_real_distribution<double> len(0.9, 2.2);
  int near_linear = 0;
  for (int trial = 0; trial < 300; ++trial) {
    vec3 x[4];
    x[1] = vec3{0.3, -0.2, 0.1};
    x[2] = x[1] + len(rng) * unit_random(rng);
    x[0] = x[1] + len(rng) * unit_random(rng);
    x[3] = x[2] + len(rng) * unit_random(rng);
    double eps = 0.0;
    if (trial % 3 == 0) {
      // bend one of the two angles to within eps of 180 (or 0) degrees
      eps = std::pow(10.0, -1.0 - (trial / 3) % 5);  // 1e-1 .. 1e-5 rad
      const vec3 axis = x[2] - x[1];
      const vec3 u = (1.0 / length(axis)) * axis;
      vec3 w = puremd::cross(u, unit_random(rng));
      w = (1.0 / length(w)) * w;
      const double sign = (trial % 2 == 0) ? -1.0 : 1.0;  // straight or folded back
      const vec3 dir = std::cos(eps) * (sign * u) + std::sin(eps) * w;
      if (trial % 6 == 0)
        x[0] = x[1] + 1.4 * dir;  // angle i-j-k near 180 or 0 degrees
      else
        x[3] = x[2] + 1.4 * (-1.0 * dir);                       // angle j-k-l
      if (sign > 0 && trial % 6 == 0) x[0] = x[1] + 0.7 * dir;  // keep i off k
      ++near_linear;
    }
    for (int exact = 0; exact < 2; ++exact) {
      const Dihedral dh = lib_dihedral(x, exact == 1);
      const double omega_ref = ref_dihedral(x[0], x[1], x[2], x[3]);
      EXPECT_NEAR(dh.cos_omega, std::cos(omega_ref), 1e-9) << "trial " << trial;

      // derivative of cos(omega); step small against the distance of i (or l)
      // from the j-k axis so the finite difference resolves the 1/sin growth
      const double h = eps > 0 ? 1e-4 * eps : 1e-6;
      const vec3 grads[4] = {dh.dcos_di, dh.dcos_dj, dh.dcos_dk, dh.dcos_dl};
      double scale = 0.0;
      for (const vec3 &g : grads) scale = std::max(scale, length(g));
      // With theta = acos(cos), as ReaxFF has it, sin(theta) carries a relative
      // error ~ 1e-16 / sin^2 near 0 or 180 degrees; with an exact theta the
      // derivative formula itself is checked tightly.
      const double rel = (eps > 0 && !exact) ? std::max(1e-6, 1e-14 / (eps * eps)) : 1e-6;
      vec3 sum{0, 0, 0};
      for (const vec3 &g : grads) sum += g;
      EXPECT_LT(length(sum), 1e-9 * std::max(1.0, scale));  // translation invariance
      for (int at = 0; at < 4; ++at)
        for (int d = 0; d < 3; ++d) {
          vec3 xp[4] = {x[0], x[1], x[2], x[3]}, xm[4] = {x[0], x[1], x[2], x[3]};
          comp(xp[at], d) += h;
          comp(xm[at], d) -= h;
          const double fd = (std::cos(ref_dihedral(xp[0], xp[1], xp[2], xp[3])) -
                             std::cos(ref_dihedral(xm[0], xm[1], xm[2], xm[3]))) /
                            (2 * h);
          EXPECT_NEAR(fd, comp(grads[at], d), rel * std::max(1.0, scale))
              << "trial " << trial << " eps " << eps << " atom " << at << " dim " << d << " exact "
              << exact;
        }
    }
  }
  EXPECT_EQ(near_linear, 100);
}

TEST(AnglesGeometry, TorsionOwnershipByTagThenCoordinates) {
  vec3 x[2] = {{0, 0, 0}, {0, 0, 0}};
  int type[2] = {0, 0};
  long long tag[2] = {3, 7};
  puremd::AtomsView a;
  a.n_local = 1;
  a.n_total = 2;
  a.x = x;
  a.type = type;
  a.tag = tag;
  EXPECT_TRUE(puremd::torsion_owns_bond(0, 1, a));
  EXPECT_FALSE(puremd::torsion_owns_bond(1, 0, a));
  tag[1] = 3;  // two images of one atom: decided by z, then y, then x
  x[1] = {-5, -5, 1};
  EXPECT_TRUE(puremd::torsion_owns_bond(0, 1, a));
  EXPECT_FALSE(puremd::torsion_owns_bond(1, 0, a));
  x[1] = {-5, 2, 0};
  EXPECT_TRUE(puremd::torsion_owns_bond(0, 1, a));
  EXPECT_FALSE(puremd::torsion_owns_bond(1, 0, a));
  x[1] = {3, 0, 0};
  EXPECT_TRUE(puremd::torsion_owns_bond(0, 1, a));
  EXPECT_FALSE(puremd::torsion_owns_bond(1, 0, a));
}

// ---------------------------------------------------------------------------
// A small C/O molecule with given bond orders: owned atoms 0-4, ghosts 5-10.

namespace {

struct SynthBond {
  int a, b;
  double bo, bopi, bopi2;
};

class Synth {
 public:
  std::vector<vec3> x;
  std::vector<int> type;
  std::vector<long long> tag;
  int n_local = 5;
  std::vector<SynthBond> bonds;
  std::vector<double> tbo;            // total bond order per atom
  std::vector<int> entry_a, entry_b;  // bond -> its entry in the rows of a and b
  puremd::ForceField ff;
  puremd::host::HostContext c;

  Synth() {
    x = {{0.00, 0.00, 0.00},   {1.45, 0.12, 0.05},   {-0.62, 1.18, 0.21}, {-0.55, -1.02, -0.31},
         {2.05, 1.30, 0.42},   {2.10, -1.05, -0.48}, {3.40, 1.55, 0.95},  {4.30, 2.50, 1.20},
         {-1.20, 2.20, -0.40}, {-1.30, -1.60, 0.50}, {0.10, -2.00, -1.10}};
    type = {0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1};
    tag = {1, 2, 3, 4, 5, 20, 21, 22, 23, 24, 25};
    bonds = {{0, 1, 1.20, 0.55, 0.10}, {0, 2, 1.60, 0.70, 0.25}, {0, 3, 0.90, 0.05, 0.01},
             {1, 4, 1.10, 0.20, 0.02}, {1, 5, 0.95, 0.10, 0.00}, {4, 6, 0.70, 0.05, 0.00},
             {6, 7, 1.30, 0.40, 0.05}, {2, 8, 0.80, 0.03, 0.00}, {3, 2, 0.004, 0.0, 0.0},
             {3, 9, 0.0008, 0.0, 0.0}, {3, 10, 0.002, 0.0, 0.0}, {0, 4, 0.03, 0.0, 0.0},
             {5, 6, 0.50, 0.02, 0.00}};
    // total bond orders chosen to reach the lone-pair branch (vlpex < 0) at some centres
    tbo = {3.80, 4.30, 2.30, 1.10, 1.95, 3.10, 2.60, 3.90, 4.20, 3.30, 1.70};
    make_force_field();
  }

  void make_force_field() {
    const int n = 2;
    ff.num_types = n;
    ff.gp = {50.0,     9.5469, 26.5405, 1.5105, 6.6630,  70.0,   1.0588, 4.6,    12.1176, 13.3056,
             -70.1292, 0.0,    10.0,    0.0,    33.8667, 6.0891, 1.0563, 2.0384, 6.1431,  6.9290,
             0.3989,   3.9954, 0.0,     5.7796, 10.0,    1.9487, 0.0,    2.1645, 1.5591,  0.1,
             2.1365,   0.6991, 50.0,    1.8512, 0.0,     0.0,    0.0,    0.0,    2.6962};
    ff.sbp.assign(n, puremd::SingleBodyParams{});
    auto &C = ff.sbp[0];
    C.valency = 4.0, C.valency_e = 4.0, C.valency_boc = 4.0, C.valency_val = 4.0;
    C.p_val3 = 2.5, C.p_val5 = 2.9663, C.mass = 12.0;
    auto &O = ff.sbp[1];
    O.valency = 2.0, O.valency_e = 6.0, O.valency_boc = 4.0, O.valency_val = 4.0;
    O.p_val3 = 2.7, O.p_val5 = 2.9225, O.mass = 16.0;
    ff.tbp.assign(n * n, puremd::TwoBodyParams{});
    ff.hbp.assign(n * n * n, puremd::HbondParams{});

    ff.thbp.assign(n * n * n, puremd::ThreeBodySets{});
    auto set3 = [&](int i, int j, int k, std::vector<puremd::ThreeBodyParams> prm) {
      for (int rev = 0; rev < 2; ++rev) {
        auto &s = ff.thbp[((rev ? k : i) * n + j) * n + (rev ? i : k)];
        s.cnt = static_cast<int>(prm.size());
        for (size_t m = 0; m < prm.size(); ++m) s.prm[m] = prm[m];
      }
    };
    // theta_00, p_val1, p_val2, p_val4, p_val7, p_pen1, p_coa1
    set3(0, 0, 0,
         {{67.2326, 22.0695, 1.6286, 1.8089, 1.7959, 15.4141, -2.0},
          {65.2527, -3.0, 6.2977, 1.1530, 0.5645, 5.0, -1.5}});
    set3(0, 0, 1, {{49.5561, 7.3771, 4.9568, 1.0010, 0.7533, 15.9906, -24.3902}});
    set3(1, 0, 1, {{77.1171, 39.8746, 2.5403, 2.1240, 1.7740, -42.9758, -24.3902}});
    set3(0, 1, 0, {{74.3994, 44.7500, 0.7982, 1.0528, 3.0, 0.0, 0.0}});
    set3(0, 1, 1, {{77.9854, 36.6201, 2.0201, 3.0, 0.7434, 67.0264, 1.0}});
    set3(1, 1, 1, {{80.7324, 0.0005, 0.9953, 1.0783, 1.6310, 50.0, 3.0}});  // |p_val1| too small

    ff.fbp.assign(n * n * n * n, puremd::FourBodySets{});
    const puremd::FourBodyParams tor[4] = {{-0.2500, 11.5822, 0.1879, -4.7057, -2.2047},
                                           {-0.2500, 31.2596, 0.1709, -4.6391, -1.9002},
                                           {-0.1770, 30.0252, 0.4340, -5.0019, -2.0697},
                                           {-0.7098, 22.2951, 0.0060, -2.5000, -2.1688}};
    for (int q = 0; q < n * n * n * n; ++q) {
      if (q == n * n * n * n - 1) continue;  // O-O-O-O: no torsion parameters
      ff.fbp[q].cnt = 1;
      ff.fbp[q].prm[0] = tor[q % 4];
    }
  }

  // Lay out the lists from x, bonds and tbo and run the two stages.
  void run(unsigned terms, bool per_atom = false) {
    using puremd::host::HostContext;
    const int N = static_cast<int>(x.size());
    c.ff = &ff;
    c.control = puremd::Control{};
    c.x = x;
    c.type = type;
    c.tag = tag;
    c.q.assign(N, 0.0);

    // full bond list, rows in atom order with one spare entry after each row
    std::vector<std::vector<std::pair<int, int>>> rows(N);  // (bond, partner)
    for (int b = 0; b < static_cast<int>(bonds.size()); ++b) {
      rows[bonds[b].a].push_back({b, bonds[b].b});
      rows[bonds[b].b].push_back({b, bonds[b].a});
    }
    c.bond_rows.start.assign(N, 0);
    c.bond_rows.end.assign(N, 0);
    int cursor = 0;
    for (int i = 0; i < N; ++i) {
      c.bond_rows.start[i] = cursor;
      cursor += static_cast<int>(rows[i].size());
      c.bond_rows.end[i] = cursor;
      cursor += 1;
    }
    c.bond_nbr.assign(cursor, -1);
    c.bond_sym.assign(cursor, -1);
    c.bond_d.assign(cursor, 0.0);
    c.bond_dvec.assign(cursor, vec3{0, 0, 0});
    c.bond_bo.assign(cursor, puremd::BondOrder{});
    entry_a.assign(bonds.size(), -1);
    entry_b.assign(bonds.size(), -1);
    for (int i = 0; i < N; ++i)
      for (size_t m = 0; m < rows[i].size(); ++m) {
        const int p = c.bond_rows.start[i] + static_cast<int>(m);
        const int b = rows[i][m].first, nb = rows[i][m].second;
        c.bond_nbr[p] = nb;
        c.bond_dvec[p] = x[nb] - x[i];
        c.bond_d[p] = length(c.bond_dvec[p]);
        c.bond_bo[p].BO = bonds[b].bo;
        c.bond_bo[p].BO_s = bonds[b].bo - bonds[b].bopi - bonds[b].bopi2;
        c.bond_bo[p].BO_pi = bonds[b].bopi;
        c.bond_bo[p].BO_pi2 = bonds[b].bopi2;
        // the torsions' per-bond factors, as the bond-order stage stores them
        puremd::store_torsion_arm(c.bond_bo[p], ff.gp.data(), c.control.thb_cut);
        (bonds[b].a == i ? entry_a : entry_b)[b] = p;
      }
    for (size_t b = 0; b < bonds.size(); ++b) {
      c.bond_sym[entry_a[b]] = entry_b[b];
      c.bond_sym[entry_b[b]] = entry_a[b];
    }

    // per-atom workspace from the total bond orders, as the bond-order stage does
#define SYNTH_WORKSPACE_ZERO(T, name) c.name.assign(N, T{});
    PUREMD_WORKSPACE(SYNTH_WORKSPACE_ZERO)
#undef SYNTH_WORKSPACE_ZERO
    const double p_lp1 = ff.gp[15];
    for (int i = 0; i < N; ++i) {
      const auto &s = ff.sbp[type[i]];
      c.total_bond_order[i] = tbo[i];
      c.Delta[i] = tbo[i] - s.valency;
      c.Delta_e[i] = tbo[i] - s.valency_e;
      c.Delta_boc[i] = tbo[i] - s.valency_boc;
      c.Delta_val[i] = tbo[i] - s.valency_val;
      const int half = static_cast<int>(c.Delta_e[i] / 2.0);
      c.vlpex[i] = c.Delta_e[i] - 2.0 * half;
      const double explp1 = std::exp(-p_lp1 * (2.0 + c.vlpex[i]) * (2.0 + c.vlpex[i]));
      c.nlp[i] = explp1 - half;
      c.Clp[i] = 2.0 * p_lp1 * explp1 * (2.0 + c.vlpex[i]);
      c.dDelta_lp[i] = c.Clp[i];
    }

    c.energy = puremd::Energies{};
    c.grad.assign(N, vec3{0, 0, 0});
    c.eatom.assign(N, 0.0);
    c.vatom.assign(6 * N, 0.0);
    c.view.atoms.n_local = n_local;
    c.view.atoms.n_total = N;
    c.refresh_view();
    c.view.tally.terms = terms;
    c.view.tally.eatom = per_atom ? c.eatom.data() : nullptr;
    c.view.tally.vatom = per_atom ? c.vatom.data() : nullptr;
    // the angle and torsion stages of the bonded stages (physics/stages.h)
    puremd::host::build_three_body_list(c);
    for (int j = 0; j < n_local; ++j) puremd::valence_angles_atom(j, c.view);
    for (int j = 0; j < n_local; ++j) puremd::torsions_atom(j, c.view);
  }

  double energy() const {
    const puremd::Energies &e = c.energy;
    return e.e_ang + e.e_pen + e.e_coa + e.e_tor + e.e_con;
  }
};

}  // namespace

TEST(AnglesThreeBodyList, RowsFollowTheReaxffLayout) {
  Synth s;
  s.run(puremd::kTermAll);
  const puremd::host::HostContext &c = s.c;
  const double thb_cut = c.control.thb_cut;
  int checked = 0, ghost_rows = 0;
  for (int j = 0; j < static_cast<int>(s.x.size()); ++j) {
    const int b0 = c.bond_rows.start[j], b1 = c.bond_rows.end[j];
    std::vector<bool> built(b1 - b0);
    for (int p = b0; p < b1; ++p) {
      const int i = c.bond_nbr[p];
      built[p - b0] = c.bond_bo[p].BO - thb_cut > 0 && (j < s.n_local || i < s.n_local);
      std::vector<int> expect;  // expected pthb sequence
      if (built[p - b0]) {
        for (int q = b0; q < p; ++q)
          if (built[q - b0]) expect.push_back(q);
        for (int q = p + 1; q < b1; ++q) expect.push_back(q);
      }
      ASSERT_EQ(c.thb_rows.end[p] - c.thb_rows.start[p], static_cast<int>(expect.size()))
          << "centre " << j << " entry " << p;
      if (j >= s.n_local && !expect.empty()) ++ghost_rows;
      for (size_t m = 0; m < expect.size(); ++m) {
        const int e = c.thb_rows.start[p] + static_cast<int>(m);
        ASSERT_EQ(c.thb_pthb[e], expect[m]);
        const int k = c.bond_nbr[expect[m]];
        ASSERT_EQ(c.thb_k[e], k);
        // angle i-j-k and its cosine (the gradients are formed where used:
        // the derivative tests below check them)
        const double cref = ref_cos_angle(s.x[i], s.x[j], s.x[k]);
        EXPECT_NEAR(c.thb_cos[e], cref, 1e-12);
        EXPECT_NEAR(std::cos(c.thb_theta[e]), cref, 1e-12);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 30);
  EXPECT_GT(ghost_rows, 0);  // ghost centres bonded to owned atoms get rows
  // bond entries in the spare slots between atoms have empty rows
  for (size_t p = 0; p < c.bond_nbr.size(); ++p)
    if (c.bond_nbr[p] < 0) {
      EXPECT_EQ(c.thb_rows.end[p], c.thb_rows.start[p]);
    }
}

namespace {

// Every derivative the stages report, against central differences of the
// energy of the selected terms.
void check_derivatives(unsigned terms, const char *name) {
  SCOPED_TRACE(name);
  Synth s;
  s.run(terms, true);
  const double E0 = s.energy();
  ASSERT_NE(E0, 0.0);
  const int N = static_cast<int>(s.x.size());
  const std::vector<vec3> grad = s.c.grad;
  const std::vector<double> CdDelta = s.c.CdDelta;
  std::vector<puremd::BondOrder> bo = s.c.bond_bo;
  const std::vector<double> eatom = s.c.eatom, vatom = s.c.vatom;
  // dE/dBO through the centres' SBO, which the chain rule takes
  // (valence_sbo_terms), added to one record of each bond
  for (size_t b = 0; b < s.bonds.size(); ++b) {
    const puremd::SboTerms t =
        puremd::valence_sbo_terms(s.bonds[b].a, s.bonds[b].b, s.bonds[b].bo, s.c.view.ws);
    bo[s.entry_a[b]].Cdbo += t.dBO;
    bo[s.entry_a[b]].Cdbopi += t.dBOpi;
    bo[s.entry_a[b]].Cdbopi2 += t.dBOpi;
  }

  // per-atom energy sums to the total; per-atom virial to -sum x (x) grad
  double esum = 0.0;
  for (double e : eatom) esum += e;
  EXPECT_NEAR(esum, E0, 1e-10 * std::max(1.0, std::fabs(E0)));
  double vsum[6] = {0, 0, 0, 0, 0, 0}, vref[6] = {0, 0, 0, 0, 0, 0};
  for (int a = 0; a < N; ++a) {
    for (int m = 0; m < 6; ++m) vsum[m] += vatom[6 * a + m];
    const vec3 r = s.x[a], g = grad[a];
    vref[0] -= r.x * g.x, vref[1] -= r.y * g.y, vref[2] -= r.z * g.z;
    vref[3] -= r.x * g.y, vref[4] -= r.x * g.z, vref[5] -= r.y * g.z;
  }
  for (int m = 0; m < 6; ++m) EXPECT_NEAR(vsum[m], vref[m], 1e-9 * (1.0 + std::fabs(vref[m])));

  auto central = [&](auto &&set, double h) {
    set(+h);
    s.run(terms);
    const double ep = s.energy();
    set(-2 * h);
    s.run(terms);
    const double em = s.energy();
    set(+h);
    return (ep - em) / (2 * h);
  };
  auto tol = [](double a) { return 2e-7 * (1.0 + std::fabs(a)); };
  double biggest = 0.0;

  for (int a = 0; a < N; ++a)
    for (int d = 0; d < 3; ++d) {
      const double fd = central([&](double h) { comp(s.x[a], d) += h; }, 1e-6);
      EXPECT_NEAR(fd, comp(grad[a], d), tol(fd)) << "d/dx atom " << a << " dim " << d;
      biggest = std::max(biggest, std::fabs(fd));
    }
  for (size_t b = 0; b < s.bonds.size(); ++b) {
    const int pa = s.entry_a[b], pb = s.entry_b[b];
    const double h = std::min(1e-6, 0.1 * s.bonds[b].bo);
    double fd = central([&](double dh) { s.bonds[b].bo += dh; }, h);
    EXPECT_NEAR(fd, bo[pa].Cdbo + bo[pb].Cdbo, tol(fd)) << "d/dBO bond " << b;
    biggest = std::max(biggest, std::fabs(fd));
    fd = central([&](double dh) { s.bonds[b].bopi += dh; }, 1e-6);
    EXPECT_NEAR(fd, bo[pa].Cdbopi + bo[pb].Cdbopi, tol(fd)) << "d/dBO_pi bond " << b;
    fd = central([&](double dh) { s.bonds[b].bopi2 += dh; }, 1e-6);
    EXPECT_NEAR(fd, bo[pa].Cdbopi2 + bo[pb].Cdbopi2, tol(fd)) << "d/dBO_pi2 bond " << b;
  }
  for (int a = 0; a < N; ++a) {
    const double fd = central([&](double h) { s.tbo[a] += h; }, 1e-6);
    EXPECT_NEAR(fd, CdDelta[a], tol(fd)) << "d/dDelta atom " << a;
    biggest = std::max(biggest, std::fabs(fd));
  }
  EXPECT_GT(biggest, 1e-3);  // the check is not vacuous
}

}  // namespace

TEST(AnglesEnergies, CentresCoverEverySboBranch) {
  Synth s;
  s.run(puremd::kTermAll);
  bool low = false, mid = false, lone = false, no_lone = false;
  for (int j = 0; j < s.n_local; ++j) {
    const puremd::ValenceCentre cen = puremd::valence_centre(j, s.c.view);
    low |= cen.SBO > 0 && cen.SBO <= 1;
    mid |= cen.SBO > 1 && cen.SBO < 2;
    (s.c.vlpex[j] < 0 ? lone : no_lone) = true;
  }
  EXPECT_TRUE(low && mid && lone && no_lone);
  EXPECT_NE(s.c.energy.e_ang, 0.0);
  EXPECT_NE(s.c.energy.e_pen, 0.0);
  EXPECT_NE(s.c.energy.e_coa, 0.0);
  EXPECT_NE(s.c.energy.e_tor, 0.0);
  EXPECT_NE(s.c.energy.e_con, 0.0);
}

TEST(AnglesEnergies, AngleDerivatives) { check_derivatives(puremd::kTermAngle, "angle"); }
TEST(AnglesEnergies, PenaltyDerivatives) { check_derivatives(puremd::kTermPenalty, "penalty"); }
TEST(AnglesEnergies, CoalitionDerivatives) {
  check_derivatives(puremd::kTermCoalition, "coalition");
}
TEST(AnglesEnergies, TorsionDerivatives) { check_derivatives(puremd::kTermTorsion, "torsion"); }
TEST(AnglesEnergies, ConjugationDerivatives) {
  check_derivatives(puremd::kTermConjugation, "conjugation");
}
TEST(AnglesEnergies, AllFiveTermsTogether) {
  check_derivatives(puremd::kTermAngle | puremd::kTermPenalty | puremd::kTermCoalition |
                        puremd::kTermTorsion | puremd::kTermConjugation,
                    "all");
}

TEST(AnglesEnergies, DisabledTermsWriteNothing) {
  Synth s;
  s.run(puremd::kTermBond | puremd::kTermVdw, true);
  EXPECT_EQ(s.energy(), 0.0);
  for (const vec3 &g : s.c.grad) EXPECT_EQ(puremd::norm2(g), 0.0);
  for (double d : s.c.CdDelta) EXPECT_EQ(d, 0.0);
  for (const puremd::BondOrder &b : s.c.bond_bo)
    EXPECT_TRUE(b.Cdbo == 0.0 && b.Cdbopi == 0.0 && b.Cdbopi2 == 0.0);
  for (double e : s.c.eatom) EXPECT_EQ(e, 0.0);
  for (double v : s.c.vatom) EXPECT_EQ(v, 0.0);
}
