// Bond orders and the bonded single-atom terms at stage level: the
// uncorrected bond order against its closed form and its derivative vectors
// against finite differences; the bond and hydrogen-bond partner lists
// against brute force; the chain rule (corrected bond orders, Delta) and the
// bond, lone-pair and over/under-coordination gradients against finite
// differences of the energy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "host/host_context.h"
#include "puremd_gpu/physics/atom_energy.h"
#include "puremd_gpu/physics/bond_order.h"
#include "puremd_gpu/physics/bonds.h"

using namespace puremd;
using puremd::host::HostContext;

namespace {

enum { kC = 0, kH = 1, kO = 2 };

// C, H, O from potentials/ffield-bio.puremd, entered by hand (no parser
// needed): general parameters, atoms, bonds, with the usual mixing rules.
ForceField make_cho_force_field() {
  ForceField ff;
  ff.num_types = 3;
  ff.gp = {50.0,    9.5469, 1.6725,  1.7224, 6.8702,  60.4850, 1.0588,  4.6000, 12.1176, 13.3056,
           -6.1611, 0.0,    10.0,    2.8793, 33.8667, 6.0891,  1.0563,  2.0384, 6.1431,  6.9290,
           0.3989,  3.9954, -2.4837, 5.7796, 10.0,    1.9487,  -1.2327, 2.1645, 1.5591,  0.1000,
           1.7602,  0.6991, 50.0,    1.8512, 0.5,     20.0,    5.0,     0.0,    0.7903};

  ff.sbp.resize(3);
  std::memset(ff.sbp.data(), 0, sizeof(SingleBodyParams) * 3);
  struct Atom {
    const char *name;
    double r_s, valency, mass, r_pi, valency_e, valency_boc, p_ovun5;
    int p_hbond;
    double r_pi_pi, p_lp2, b_o_131, b_o_132, b_o_133, p_ovun2, valency_val;
  };
  const Atom atoms[3] = {
      {"C", 1.3817, 4.0, 12.0, 1.1341, 4.0, 4.0, 34.9350, 0, 1.2114, 0.0, 8.9539, 34.9289, 13.5366,
       -2.8983, 4.0},
      {"H", 0.8930, 1.0, 1.0080, -0.1, 1.0, 1.0, 0.0, 1, -0.1, 0.0, 3.0408, 2.4197, 0.0003,
       -19.4571, 1.0},
      {"O", 1.2450, 2.0, 15.9990, 1.0548, 6.0, 4.0, 37.5, 2, 0.9049, 0.4056, 3.5027, 0.7640, 0.0021,
       -3.5500, 4.0},
  };
  for (int t = 0; t < 3; ++t) {
    SingleBodyParams &s = ff.sbp[t];
    std::strcpy(s.name, atoms[t].name);
    s.r_s = atoms[t].r_s;
    s.valency = atoms[t].valency;
    s.mass = atoms[t].mass;
    s.r_pi = atoms[t].r_pi;
    s.valency_e = atoms[t].valency_e;
    s.valency_boc = atoms[t].valency_boc;
    s.p_ovun5 = atoms[t].p_ovun5;
    s.p_hbond = atoms[t].p_hbond;
    s.r_pi_pi = atoms[t].r_pi_pi;
    s.p_lp2 = atoms[t].p_lp2;
    s.b_o_131 = atoms[t].b_o_131;
    s.b_o_132 = atoms[t].b_o_132;
    s.b_o_133 = atoms[t].b_o_133;
    s.p_ovun2 = atoms[t].p_ovun2;
    s.valency_val = atoms[t].valency_val;
    s.nlp_opt = 0.5 * (s.valency_e - s.valency);
  }

  ff.tbp.resize(9);
  std::memset(ff.tbp.data(), 0, sizeof(TwoBodyParams) * 9);
  struct Bond {
    int a, b;
    double De_s, De_p, De_pp, p_be1, p_bo5, v13cor, p_bo6, p_ovun1;
    double p_be2, p_bo3, p_bo4, p_bo1, p_bo2, ovc;
  };
  // H-H gets no corrections at all (v13cor 0 here) to cover that branch.
  const Bond bonds[6] = {
      {kC, kC, 158.2004, 99.1897, 78.0, -0.7738, -0.4550, 1.0, 37.6117, 0.4147, 0.4590, -0.1000,
       9.1628, -0.0777, 6.7268, 1.0},
      {kC, kH, 169.4760, 0.0, 0.0, -0.6083, 0.0, 1.0, 6.0, 0.7652, 5.2290, 1.0, 0.0, -0.0553,
       6.9316, 0.0},
      {kH, kH, 153.3934, 0.0, 0.0, -0.4600, 0.0, 0.0, 6.0, 0.7300, 6.2500, 1.0, 0.0, -0.0790,
       6.0552, 0.0},
      {kC, kO, 130.1104, 178.3899, 67.8996, 0.3577, -0.1805, 1.0, 18.9610, 0.3519, 1.6437, -0.2646,
       9.2094, -0.1484, 5.2379, 0.0},
      {kO, kO, 142.2858, 145.0, 50.8293, 0.2506, -0.1000, 1.0, 29.7503, 0.6051, 0.3451, -0.1055,
       9.0, -0.1225, 5.5, 1.0},
      {kH, kO, 160.0, 0.0, 0.0, -0.5725, 0.0, 1.0, 6.0, 0.5626, 1.1150, 1.0, 0.0, -0.0920, 4.2790,
       0.0},
  };
  for (const Bond &b : bonds) {
    for (int dir = 0; dir < 2; ++dir) {
      const int i = dir ? b.b : b.a, j = dir ? b.a : b.b;
      const SingleBodyParams &si = ff.sbp[i], &sj = ff.sbp[j];
      TwoBodyParams &t = ff.tbp[i * 3 + j];
      t.p_bo1 = b.p_bo1;
      t.p_bo2 = b.p_bo2;
      t.p_bo3 = b.p_bo3;
      t.p_bo4 = b.p_bo4;
      t.p_bo5 = b.p_bo5;
      t.p_bo6 = b.p_bo6;
      t.r_s = 0.5 * (si.r_s + sj.r_s);
      t.r_p = 0.5 * (si.r_pi + sj.r_pi);
      t.r_pp = 0.5 * (si.r_pi_pi + sj.r_pi_pi);
      t.p_boc3 = std::sqrt(si.b_o_132 * sj.b_o_132);
      t.p_boc4 = std::sqrt(si.b_o_131 * sj.b_o_131);
      t.p_boc5 = std::sqrt(si.b_o_133 * sj.b_o_133);
      t.De_s = b.De_s;
      t.De_p = b.De_p;
      t.De_pp = b.De_pp;
      t.p_be1 = b.p_be1;
      t.p_be2 = b.p_be2;
      t.p_ovun1 = b.p_ovun1;
      t.v13cor = b.v13cor;
      t.ovc = b.ovc;
    }
  }
  // Off-diagonal sigma radius of C-H (as in the file).
  ff.tbp[kC * 3 + kH].r_s = ff.tbp[kH * 3 + kC].r_s = 1.1210;
  return ff;
}

Control make_control(const ForceField &ff) {
  Control c;
  c.nonb_low = ff.gp[11];
  c.nonb_cut = ff.gp[12];
  c.bo_cut = 0.01 * ff.gp[29];
  return c;
}

// Closed form of the uncorrected bond order, written out independently.
struct Prime {
  double s, pi, pp;
};
Prime closed_form_prime(const ForceField &ff, int ti, int tj, double r, double bo_cut) {
  const SingleBodyParams &a = ff.sbp[ti], &b = ff.sbp[tj];
  const TwoBodyParams &t = ff.tbp[ti * ff.num_types + tj];
  Prime p{0, 0, 0};
  if (a.r_s > 0 && b.r_s > 0) p.s = (1 + bo_cut) * std::exp(t.p_bo1 * std::pow(r / t.r_s, t.p_bo2));
  if (a.r_pi > 0 && b.r_pi > 0) p.pi = std::exp(t.p_bo3 * std::pow(r / t.r_p, t.p_bo4));
  if (a.r_pi_pi > 0 && b.r_pi_pi > 0) p.pp = std::exp(t.p_bo5 * std::pow(r / t.r_pp, t.p_bo6));
  return p;
}

double rel_diff(double a, double b) { return std::fabs(a - b) / std::max(1.0, std::fabs(b)); }

// A small cluster: formaldehyde-like C=O with a methyl group and a hydroxyl;
// apart from it a slightly asymmetric H-O-O-H, whose oxygens sit near their
// valency, where the over-coordination correction f1 varies; and one isolated
// oxygen (no bonds: enobonds matters), kept last.
struct Molecule {
  std::vector<vec3> x;
  std::vector<int> type;
};
Molecule make_molecule() {
  Molecule m;
  m.x = {{0.00, 0.00, 0.00},  {1.21, 0.05, -0.03}, {-0.56, 0.94, 0.03}, {-0.52, -0.95, -0.04},
         {-0.21, 0.12, 1.51}, {0.45, 0.88, 1.93},  {-1.23, 0.27, 1.86}, {0.25, -1.05, 2.13},
         {1.13, -1.12, 1.87}, {0.00, 0.00, -8.00}, {1.47, 0.02, -8.03}, {-0.30, 0.93, -7.90},
         {1.77, 0.10, -7.00}, {6.0, 6.5, 7.0}};
  m.type = {kC, kO, kH, kH, kC, kH, kH, kO, kH, kO, kO, kH, kH, kO};
  return m;
}

// Runs the stages of this family on a context of n_local owned atoms (the
// rest ghosts). Returns the total energy of the enabled terms.
struct StageRunner {
  ForceField ff = make_cho_force_field();
  HostContext c;
  double hbond_cut = 7.5;

  void setup(const std::vector<vec3> &x, const std::vector<int> &type, int n_local, unsigned terms,
             bool enobonds) {
    const int n = static_cast<int>(x.size());
    c.ff = &ff;
    c.control = make_control(ff);
    c.control.enobonds = enobonds;
    c.control.hbond_cut = hbond_cut;
    c.x = x;
    c.type = type;
    c.tag.resize(n);
    for (int i = 0; i < n; ++i) c.tag[i] = i + 1;
    c.q.assign(n, 0.0);
    c.energy = Energies{};
    c.grad.assign(n, vec3{0, 0, 0});
    c.view.atoms.n_local = n_local;
    c.view.atoms.n_total = n;
    std::vector<int> skip(n);
    for (int i = 0; i < n; ++i) skip[i] = type[i] < 0;
    build_half_neighbor_list(c.x.data(), n_local, n, c.control.nonb_cut, c.control.bond_cut,
                             skip.data(), c.far);
    c.eatom.assign(n, 0.0);
    c.refresh_view();
    c.view.tally.terms = terms;
    c.view.tally.eatom = c.eatom.data();
    host::build_bond_and_hbond_lists(c);
    host::compute_bond_orders(c);
  }

  double energy_and_grad(const std::vector<vec3> &x, const std::vector<int> &type, unsigned terms,
                         bool enobonds) {
    const int n = static_cast<int>(x.size());
    setup(x, type, n, terms, enobonds);
    // the bond and atom energies of the bonded stages (physics/stages.h)
    const int n_local = c.view.atoms.n_local;
    for (int i = 0; i < n_local; ++i) bond_energy_atom(i, c.view);
    for (int i = 0; i < n_local; ++i) lone_pair_atom(i, c.view);
    for (int i = 0; i < n_local; ++i) over_under_coordination_atom(i, c.view);
    host::apply_bond_order_chain_rule(c);
    return c.energy.total();
  }
};

// ---------------------------------------------------------------------------

TEST(BondOrder, UncorrectedMatchesClosedForm) {
  const ForceField ff = make_cho_force_field();
  const double bo_cut = 0.01 * ff.gp[29];
  const struct {
    int a, b;
    double r;
  } cases[] = {{kC, kC, 1.45}, {kC, kC, 1.25}, {kC, kH, 1.09}, {kH, kH, 0.80},
               {kC, kO, 1.22}, {kO, kO, 1.40}, {kH, kO, 0.97}, {kC, kC, 3.10}};
  for (const auto &cs : cases) {
    const BondOrderPrime p =
        bond_order_prime(ff.sbp[cs.a], ff.sbp[cs.b], ff.tbp[cs.a * 3 + cs.b], cs.r, bo_cut);
    const Prime ref = closed_form_prime(ff, cs.a, cs.b, cs.r, bo_cut);
    EXPECT_NEAR(p.sigma, ref.s, 1e-14 * std::fabs(ref.s)) << cs.a << "-" << cs.b << " r=" << cs.r;
    EXPECT_NEAR(p.pi, ref.pi, 1e-14 * std::fabs(ref.pi));
    EXPECT_NEAR(p.pipi, ref.pp, 1e-14 * std::fabs(ref.pp));
    if (cs.a == kH || cs.b == kH) {
      EXPECT_EQ(p.pi, 0.0);  // H has no pi radius
      EXPECT_EQ(p.pipi, 0.0);
    }
    const double tot = ref.s + ref.pi + ref.pp;
    EXPECT_EQ(is_bond(p, bo_cut), tot >= bo_cut);

    BondOrder b;
    init_bond_order(p, ff.tbp[cs.a * 3 + cs.b], cs.r, bo_cut, b);
    EXPECT_NEAR(b.BO, tot - bo_cut, 1e-14);
    EXPECT_NEAR(b.BO_s, ref.s - bo_cut, 1e-14);
    EXPECT_EQ(b.BO_pi, p.pi);
    EXPECT_EQ(b.BO_pi2, p.pipi);
    EXPECT_EQ(b.Cdbo, 0.0);
  }
  // Far apart, the bond order drops below bo_cut.
  const BondOrderPrime far =
      bond_order_prime(ff.sbp[kC], ff.sbp[kH], ff.tbp[kC * 3 + kH], 4.5, bo_cut);
  EXPECT_FALSE(is_bond(far, bo_cut));
}

TEST(BondOrder, UncorrectedDerivativesMatchFiniteDifferences) {
  const ForceField ff = make_cho_force_field();
  const double bo_cut = 0.01 * ff.gp[29];
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int pairs[][2] = {{kC, kC}, {kC, kH}, {kC, kO}, {kO, kO}, {kH, kO}};
  for (const auto &pr : pairs) {
    const TwoBodyParams &t = ff.tbp[pr[0] * 3 + pr[1]];
    for (int trial = 0; trial < 4; ++trial) {
      const vec3 xi{u(rng), u(rng), u(rng)};
      vec3 dir{u(rng), u(rng), u(rng)};
      dir = (1.0 / std::sqrt(norm2(dir))) * dir;
      const vec3 xj = xi + (1.0 + 0.3 * (trial + 1) * std::fabs(u(rng))) * dir;

      auto prime_at = [&](vec3 a, vec3 b) {
        const double r = std::sqrt(norm2(b - a));
        return bond_order_prime(ff.sbp[pr[0]], ff.sbp[pr[1]], t, r, bo_cut);
      };
      const vec3 dvec = xj - xi;
      const double r = std::sqrt(norm2(dvec));
      BondOrder b;
      init_bond_order(prime_at(xi, xj), t, r, bo_cut, b);
      // dBO'/dx_i of each channel: the record's scalar times dvec
      const vec3 d_tot = b.dBOp * dvec, d_pi = b.dBOp_pi * dvec, d_pp = b.dBOp_pi2 * dvec;

      const double h = 1e-6;
      for (int k = 0; k < 3; ++k) {
        vec3 e{0, 0, 0};
        (k == 0 ? e.x : k == 1 ? e.y : e.z) = h;
        const BondOrderPrime pp = prime_at(xi + e, xj), pm = prime_at(xi - e, xj);
        const double fd_s = (pp.sigma - pm.sigma) / (2 * h);
        const double fd_pi = (pp.pi - pm.pi) / (2 * h);
        const double fd_pp = (pp.pipi - pm.pipi) / (2 * h);
        const double fd_tot = (bond_order_prime_total(pp) - bond_order_prime_total(pm)) / (2 * h);
        auto comp = [k](vec3 v) { return k == 0 ? v.x : k == 1 ? v.y : v.z; };
        const double sigma = comp(d_tot) - comp(d_pi) - comp(d_pp);
        EXPECT_LT(rel_diff(sigma, fd_s), 1e-7) << "pair " << pr[0] << pr[1];
        EXPECT_LT(rel_diff(comp(d_pi), fd_pi), 1e-7);
        EXPECT_LT(rel_diff(comp(d_pp), fd_pp), 1e-7);
        EXPECT_LT(rel_diff(comp(d_tot), fd_tot), 1e-7);
      }
    }
  }
}

TEST(BondOrder, ListsMatchBruteForce) {
  // Owned molecule plus a few "ghost" atoms placed around it.
  Molecule m = make_molecule();
  const int n_local = static_cast<int>(m.x.size());
  const vec3 ghosts[] = {
      {2.3, 0.4, 0.2}, {2.9, 1.1, 0.6}, {-1.9, -1.7, 0.3}, {3.4, 1.6, 1.1}, {-2.2, 2.9, 2.4}};
  const int ghost_types[] = {kO, kH, kO, kH, kC};
  for (int g = 0; g < 5; ++g) {
    m.x.push_back(ghosts[g]);
    m.type.push_back(ghost_types[g]);
  }
  m.x.push_back({0.3, 0.3, -1.0});  // a non-ReaxFF atom: never listed
  m.type.push_back(-1);
  const int n = static_cast<int>(m.x.size());

  StageRunner s;
  s.setup(m.x, m.type, n_local, kTermAll, true);
  const HostContext &c = s.c;
  const double bond_cut = c.control.bond_cut, bo_cut = c.control.bo_cut;

  int n_bonds = 0;
  for (int i = 0; i < n; ++i) {
    // Brute-force partners of i.
    std::vector<int> want;
    for (int j = 0; j < n; ++j) {
      if (j == i || m.type[i] < 0 || m.type[j] < 0) continue;
      const double r = std::sqrt(norm2(m.x[j] - m.x[i]));
      if (r > bond_cut) continue;
      // Ghost-ghost pairs are listed only within the ghost cut-off (= bond_cut).
      const Prime p = closed_form_prime(s.ff, m.type[i], m.type[j], r, bo_cut);
      if (p.s + p.pi + p.pp >= bo_cut) want.push_back(j);
    }
    std::vector<int> got(c.bond_nbr.begin() + c.bond_rows.start[i],
                         c.bond_nbr.begin() + c.bond_rows.end[i]);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << "atom " << i;
    n_bonds += static_cast<int>(got.size());

    for (int p = c.bond_rows.start[i]; p < c.bond_rows.end[i]; ++p) {
      const int j = c.bond_nbr[p], q = c.bond_sym[p];
      ASSERT_GE(q, c.bond_rows.start[j]);
      ASSERT_LT(q, c.bond_rows.end[j]);
      EXPECT_EQ(c.bond_nbr[q], i);
      EXPECT_EQ(c.bond_sym[q], p);
      EXPECT_EQ(c.bond_dvec[q].x, -c.bond_dvec[p].x);
      EXPECT_NEAR(c.bond_dvec[p].y, m.x[j].y - m.x[i].y, 1e-14);
      // Both rows carry the same corrected orders, to the last bit.
      EXPECT_EQ(c.bond_bo[p].BO, c.bond_bo[q].BO);
      EXPECT_EQ(c.bond_bo[p].BO_s, c.bond_bo[q].BO_s);
      EXPECT_EQ(c.bond_bo[p].BO_pi, c.bond_bo[q].BO_pi);
      EXPECT_EQ(c.bond_bo[p].BO_pi2, c.bond_bo[q].BO_pi2);
      // and the same derivative scalars: along the negated dvec, the
      // derivatives seen from j are those seen from i negated
      EXPECT_EQ(c.bond_bo[p].dBOp, c.bond_bo[q].dBOp);
      EXPECT_EQ(c.bond_bo[p].dBOp_pi, c.bond_bo[q].dBOp_pi);
      EXPECT_EQ(c.bond_bo[p].dBOp_pi2, c.bond_bo[q].dBOp_pi2);
    }
  }
  EXPECT_GT(n_bonds, 20);
  EXPECT_EQ(c.bond_rows.end[n_local - 1], c.bond_rows.start[n_local - 1]);  // isolated O

  // Hydrogen-bond partners: owned hydrogens only, every acceptor within
  // hbond_cut (owned or ghost), in no other row.
  for (int i = 0; i < n; ++i) {
    std::vector<int> want;
    if (i < n_local && m.type[i] == kH)
      for (int j = 0; j < n; ++j)
        if (j != i && m.type[j] == kO && std::sqrt(norm2(m.x[j] - m.x[i])) <= c.control.hbond_cut)
          want.push_back(j);
    std::vector<int> got(c.hb_nbr.begin() + c.hb_rows.start[i],
                         c.hb_nbr.begin() + c.hb_rows.end[i]);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << "atom " << i;
  }

  // hbond_cut <= 0: no partners at all.
  StageRunner s2;
  s2.hbond_cut = 0.0;
  s2.setup(m.x, m.type, n_local, kTermAll, true);
  for (int i = 0; i < n; ++i) EXPECT_EQ(s2.c.hb_rows.end[i], s2.c.hb_rows.start[i]);
}

// Synthetic energy E = sum_bonds (a BO + b BO_pi + c BO_pi2) + sum_i w_i Delta_i
// with the coefficients put where the energy terms put theirs (Cdbo of one
// row, CdDelta): the chain rule must give its exact gradient.
TEST(BondOrder, ChainRuleMatchesFiniteDifferences) {
  const Molecule m = make_molecule();
  const int n = static_cast<int>(m.x.size());
  auto coef = [](int i, int j, int k) { return 0.3 + 0.1 * ((i * 7 + j * 3 + k) % 5); };
  auto weight = [](int i) { return 0.5 - 0.13 * (i % 4); };

  auto energy = [&](const std::vector<vec3> &x, std::vector<vec3> *grad) {
    StageRunner s;
    s.setup(x, m.type, n, kTermAll, true);
    HostContext &c = s.c;
    double e = 0.0;
    for (int i = 0; i < n; ++i) {
      for (int p = c.bond_rows.start[i]; p < c.bond_rows.end[i]; ++p) {
        const int j = c.bond_nbr[p];
        // Put half the coefficient in each row: the chain rule sums both.
        BondOrder &b = c.bond_bo[p];
        const int lo = std::min(i, j), hi = std::max(i, j);
        b.Cdbo = 0.5 * coef(lo, hi, 0);
        b.Cdbopi = 0.5 * coef(lo, hi, 1);
        b.Cdbopi2 = 0.5 * coef(lo, hi, 2);
        if (i < j) e += coef(i, j, 0) * b.BO + coef(i, j, 1) * b.BO_pi + coef(i, j, 2) * b.BO_pi2;
      }
      c.CdDelta[i] = weight(i);
      e += weight(i) * c.Delta[i];
    }
    if (grad) {
      host::apply_bond_order_chain_rule(c);
      *grad = c.grad;
    }
    return e;
  };

  std::vector<vec3> grad;
  energy(m.x, &grad);
  const double h = 1e-6;
  double max_err = 0.0, max_g = 0.0;
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) {
      std::vector<vec3> xp = m.x, xm = m.x;
      (k == 0 ? xp[a].x : k == 1 ? xp[a].y : xp[a].z) += h;
      (k == 0 ? xm[a].x : k == 1 ? xm[a].y : xm[a].z) -= h;
      const double fd = (energy(xp, nullptr) - energy(xm, nullptr)) / (2 * h);
      const double g = k == 0 ? grad[a].x : k == 1 ? grad[a].y : grad[a].z;
      max_err = std::max(max_err, std::fabs(fd - g));
      max_g = std::max(max_g, std::fabs(g));
      EXPECT_NEAR(g, fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "atom " << a << " dim " << k;
    }
  EXPECT_GT(max_g, 0.1);  // the test exercises real gradients
}

// Bond, lone-pair and over/under-coordination energies, one term at a time:
// gradient from the stages (dE/dBO, dE/dDelta, chain rule) against central
// differences of the energy.
TEST(BondOrder, BondedAtomTermsMatchFiniteDifferences) {
  const Molecule m = make_molecule();
  const int n = static_cast<int>(m.x.size());
  const unsigned terms[] = {kTermBond, kTermLonePair, kTermOverUnder,
                            kTermBond | kTermLonePair | kTermOverUnder};
  for (unsigned term : terms) {
    StageRunner s;
    const double e0 = s.energy_and_grad(m.x, m.type, term, true);
    const std::vector<vec3> grad = s.c.grad;
    EXPECT_NE(e0, 0.0) << "term " << term;
    const double h = 1e-6;
    for (int a = 0; a < n; ++a)
      for (int k = 0; k < 3; ++k) {
        std::vector<vec3> xp = m.x, xm = m.x;
        (k == 0 ? xp[a].x : k == 1 ? xp[a].y : xp[a].z) += h;
        (k == 0 ? xm[a].x : k == 1 ? xm[a].y : xm[a].z) -= h;
        StageRunner sp, sm;
        const double fd = (sp.energy_and_grad(xp, m.type, term, true) -
                           sm.energy_and_grad(xm, m.type, term, true)) /
                          (2 * h);
        const double g = k == 0 ? grad[a].x : k == 1 ? grad[a].y : grad[a].z;
        EXPECT_NEAR(g, fd, 2e-6 * std::max(1.0, std::fabs(fd)))
            << "term " << term << " atom " << a << " dim " << k;
      }
  }
}

// Disabled terms add nothing: no energy, no dE/dBO, no dE/dDelta.
TEST(BondOrder, DisabledTermsContributeNothing) {
  const Molecule m = make_molecule();
  StageRunner s;
  s.energy_and_grad(m.x, m.type, kTermAngle | kTermVdw, true);
  EXPECT_EQ(s.c.energy.total(), 0.0);
  for (const vec3 &g : s.c.grad) EXPECT_EQ(norm2(g), 0.0);
  for (size_t p = 0; p < static_cast<size_t>(s.c.bond_rows.start[m.x.size()]); ++p)
    EXPECT_EQ(s.c.bond_bo[p].Cdbo, 0.0);
}

// Per-atom energies (split as pair_style reaxff does) add up to the total.
TEST(BondOrder, PerAtomEnergySumsToTotal) {
  const Molecule m = make_molecule();
  const unsigned terms[] = {kTermBond, kTermLonePair, kTermOverUnder, kTermAll};
  for (unsigned term : terms) {
    StageRunner s;
    const double e = s.energy_and_grad(m.x, m.type, term, true);
    double sum = 0.0;
    for (double ea : s.c.eatom) sum += ea;
    EXPECT_NEAR(sum, e, 1e-10 * std::max(1.0, std::fabs(e))) << "term " << term;
  }
}

// enobonds: an atom without bonds has lone-pair and under-coordination
// energy only when the flag is set.
TEST(BondOrder, EnobondsControlsBondlessAtoms) {
  const Molecule m = make_molecule();
  StageRunner on, off;
  on.energy_and_grad(m.x, m.type, kTermAll, true);
  off.energy_and_grad(m.x, m.type, kTermAll, false);
  const int iso = static_cast<int>(m.x.size()) - 1;  // the isolated oxygen
  const SingleBodyParams &h = on.ff.sbp[kO];
  const double dlp = on.c.Delta_lp[iso];
  const double e_lp = h.p_lp2 * dlp / (1.0 + std::exp(-75.0 * dlp));
  EXPECT_NEAR(on.c.energy.e_lp - off.c.energy.e_lp, e_lp, 1e-12);
  EXPECT_NE(on.c.energy.e_un, off.c.energy.e_un);
  EXPECT_EQ(on.c.energy.e_ov, off.c.energy.e_ov);
  EXPECT_EQ(on.c.energy.e_bond, off.c.energy.e_bond);
}

}  // namespace
