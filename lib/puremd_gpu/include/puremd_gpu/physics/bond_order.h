// Bond orders (van Duin et al. 2001, eqs. 2-4): the uncorrected bond order of
// a pair from its distance, the over-coordination (f1) and 1-3 (f4, f5)
// corrections, the per-atom deviations Delta, and the chain rule that turns
// the collected dE/dBO and dE/dDelta into gradients once per step.
//
// Per-atom bodies, in step order (each a separate pass over all atoms,
// owned and ghost, 0..n_total-1):
//   bond_order_prime_atom      sum of BO' over the row (-> Deltap in pass 2)
//   corrected_bond_order_atom  corrected BO of each bond in the row, Delta's
//   bond_order_chain_rule_atom gradients of every bond i-j with i < j, and
//                              dE/dDeltap of i and j
//   deltap_chain_rule_atom     the gradients through Deltap_i
// A pass reads only what an earlier pass wrote for other atoms, so one CUDA
// thread per atom needs no synchronisation inside a pass.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"
#include "puremd_gpu/physics/torsion_arm.h"

namespace puremd {

// ---------------------------------------------------------------------------
// Uncorrected bond order BO' of one pair
// ---------------------------------------------------------------------------

// The three channels of BO'. The sigma channel carries the factor
// (1 + bo_cut) so that BO' - bo_cut, the value kept, reaches its full
// strength at short range. expo_* are the exponents p_bo1 (r / r_s)^p_bo2 etc.
struct BondOrderPrime {
  double sigma, pi, pipi;
  double expo_sigma, expo_pi, expo_pipi;
};

PMD_HD PMD_INLINE BondOrderPrime bond_order_prime(const SingleBodyParams &si,
                                                  const SingleBodyParams &sj,
                                                  const TwoBodyParams &t, double r, double bo_cut) {
  BondOrderPrime p;
  // A channel exists only if both elements define its radius. pow, not
  // pow_positive: the few ulps of exp(p log x), times |expo| in the channel,
  // moved a force of LAMMPS's reaxff_tabulate reference data (4Jul2026,
  // epsilon 1e-12) to 3.2e-12 (bench/README, issue 26, second pass).
  if (si.r_s > 0.0 && sj.r_s > 0.0) {
    p.expo_sigma = t.p_bo1 * pow(r / t.r_s, t.p_bo2);
    p.sigma = (1.0 + bo_cut) * exp(p.expo_sigma);
  } else {
    p.expo_sigma = p.sigma = 0.0;
  }
  if (si.r_pi > 0.0 && sj.r_pi > 0.0) {
    p.expo_pi = t.p_bo3 * pow(r / t.r_p, t.p_bo4);
    p.pi = exp(p.expo_pi);
  } else {
    p.expo_pi = p.pi = 0.0;
  }
  if (si.r_pi_pi > 0.0 && sj.r_pi_pi > 0.0) {
    p.expo_pipi = t.p_bo5 * pow(r / t.r_pp, t.p_bo6);
    p.pipi = exp(p.expo_pipi);
  } else {
    p.expo_pipi = p.pipi = 0.0;
  }
  return p;
}

PMD_HD PMD_INLINE double bond_order_prime_total(const BondOrderPrime &p) {
  return p.sigma + p.pi + p.pipi;
}

// A pair within bond_cut is a bond when its total BO' reaches bo_cut.
PMD_HD PMD_INLINE bool is_bond(const BondOrderPrime &p, double bo_cut) {
  return bond_order_prime_total(p) >= bo_cut;
}

// How far a pair of elements can be a bond: the largest r at which
// BO'(r) >= bo_cut is possible, with a margin, or 0 for no bound. Each
// channel c exp(p (r / r0)^q) with p < 0 < q falls with r; when all present
// channels do, their sum stays below bo_cut once each is below bo_cut / 3,
// i.e. beyond r0 (log(bo_cut / (3 c)) / p)^(1 / q). The 1 % margin is far
// above the rounding of pow and exp (the channel is then smaller by a factor
// (bo_cut / 3c)^(0.01 q), q >= 0.01 asked). The bond-list count tests only
// pairs within it (pair_lists.h), so the bound spares the bond order of far
// pairs without changing which pairs are bonds.
inline double bond_reach_of(const SingleBodyParams &si, const SingleBodyParams &sj,
                            const TwoBodyParams &t, double bo_cut) {
  if (!(bo_cut > 0.0)) return 0.0;
  const double tau = bo_cut / 3.0;
  double reach = 0.0;
  bool bounded = true;
  auto channel = [&](bool present, double amp, double p, double q, double r0) {
    if (!present) return;
    if (!(p < 0.0 && q >= 0.01 && r0 > 0.0)) {  // not falling (or barely): no bound
      bounded = false;
      return;
    }
    if (tau >= amp) return;  // falling from amp: never above bo_cut / 3
    reach = std::max(reach, r0 * std::pow(std::log(tau / amp) / p, 1.0 / q));
  };
  channel(si.r_s > 0.0 && sj.r_s > 0.0, 1.0 + bo_cut, t.p_bo1, t.p_bo2, t.r_s);
  channel(si.r_pi > 0.0 && sj.r_pi > 0.0, 1.0, t.p_bo3, t.p_bo4, t.r_p);
  channel(si.r_pi_pi > 0.0 && sj.r_pi_pi > 0.0, 1.0, t.p_bo5, t.p_bo6, t.r_pp);
  if (!bounded || !std::isfinite(reach)) return 0.0;
  return reach > 0.0 ? 1.01 * reach : 1e-300;  // no channel: no pair is a bond
}

// bond_sure and bond_never of a pair with a reach (every channel falls with
// r, so BO' does): its crossing of bo_cut by bisection, then widened by 1e-9
// of r each way, where BO' differs from bo_cut by some 1e-8 of it, far above
// the rounding of pow and exp; each end checked against BO' itself. The
// bond-list count then evaluates BO' only for the pairs between the two.
inline void set_bond_bracket(const SingleBodyParams &si, const SingleBodyParams &sj,
                             TwoBodyParams &t, double bo_cut) {
  t.bond_sure = t.bond_never = 0.0;
  auto total = [&](double r) {
    return bond_order_prime_total(bond_order_prime(si, sj, t, r, bo_cut));
  };
  double lo = 0.0, hi = t.bond_reach;
  if (!(hi > 1e-6) || !(total(lo) >= bo_cut) || !(total(hi) < bo_cut)) return;
  for (int k = 0; k < 200 && hi - lo > 1e-13 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (total(mid) >= bo_cut ? lo : hi) = mid;
  }
  const double sure = lo * (1.0 - 1e-9), never = hi * (1.0 + 1e-9);
  if (total(sure) >= bo_cut && total(never) < bo_cut) {
    t.bond_sure = sure;
    t.bond_never = never;
  }
}

// bond_reach and the bracket of every element pair for this bo_cut (each
// engine's copy of the force field, at its construction).
inline void set_bond_reach(std::vector<TwoBodyParams> &tbp,
                           const std::vector<SingleBodyParams> &sbp, int num_types, double bo_cut) {
  for (int i = 0; i < num_types; ++i)
    for (int j = 0; j < num_types; ++j) {
      TwoBodyParams &t = tbp[i * num_types + j];
      t.bond_reach = bond_reach_of(sbp[i], sbp[j], t, bo_cut);
      set_bond_bracket(sbp[i], sbp[j], t, bo_cut);
    }
}

// The distance within which a pair of these elements may be a bond:
// bond_cut, or their bond_reach where that is shorter.
PMD_HD PMD_INLINE double bond_candidate_cut(const TwoBodyParams &t, double bond_cut) {
  return t.bond_reach > 0.0 ? fmin(bond_cut, t.bond_reach) : bond_cut;
}

// Fill the bond-list record of the bond seen from atom i (either row's
// record: both hold the same values). BO and BO_s are shifted down by bo_cut.
// dBO'/dx_i = dBOp * (x_j - x_i), likewise dBOp_pi and dBOp_pi2 (the sigma
// channel's is the difference, and no stage needs it alone); those with
// respect to x_j are their negatives. The dE/dBO accumulators start at zero,
// and the padding is written too, so that whole sectors go out; the
// correction coefficients are set by corrected_bond_order_atom.
PMD_HD PMD_INLINE void init_bond_order(const BondOrderPrime &p, const TwoBodyParams &t, double r,
                                       double bo_cut, BondOrder &b) {
  // d BO'_c / dr = BO'_c * p_bo(c) * expo_c / r; times dr/dx_i = -dvec / r.
  const double inv_r2 = 1.0 / sqr(r);
  const double g_sigma = t.p_bo2 * p.expo_sigma * inv_r2;
  const double g_pi = t.p_bo4 * p.expo_pi * inv_r2;
  const double g_pipi = t.p_bo6 * p.expo_pipi * inv_r2;

  b.BO = bond_order_prime_total(p) - bo_cut;
  b.BO_s = p.sigma - bo_cut;
  b.BO_pi = p.pi;
  b.BO_pi2 = p.pipi;

  b.dBOp_pi = -p.pi * g_pi;
  b.dBOp_pi2 = -p.pipi * g_pipi;
  b.dBOp = -(p.sigma * g_sigma + p.pi * g_pi + p.pipi * g_pipi);

  b.Cdbo = b.Cdbopi = b.Cdbopi2 = 0.0;
  b.C1dbo = b.C2dbo = b.C3dbo = 0.0;
  b.C1dbopi = b.C2dbopi = b.C3dbopi = b.C4dbopi = 0.0;
  b.C1dbopi2 = b.C2dbopi2 = b.C3dbopi2 = b.C4dbopi2 = 0.0;
  b.arm_exp_tor2 = b.arm_exp_cot2 = b.unused = 0.0;
}

// ---------------------------------------------------------------------------
// Pass 1: the total of BO' over row i (bo_prime_total); pass 2 forms
// Deltap = total - valency where it reads it (bond_end_deltap). The CUDA driver adds each bond's
// BO' to both totals in its bond-list finish (cuda_lists.cu) instead of running this pass, a read
// of every bond record less.
// ---------------------------------------------------------------------------

PMD_HD PMD_INLINE void bond_order_prime_atom(int i, const StepView &v) {
  if (v.atoms.type[i] < 0) return;
  double sum_bo = 0.0;
  for (int p = v.bonds.start[i]; p < v.bonds.end[i]; ++p) sum_bo += v.bonds.bo[p].BO;
  v.ws.bo_prime_total[i] = sum_bo;
}

// ---------------------------------------------------------------------------
// Pass 2: corrected bond orders
// ---------------------------------------------------------------------------

// What the correction of one bond needs to know about its two atoms.
struct BondEnds {
  double val_i, val_j;                // valencies
  double Deltap_i, Deltap_j;          // sum BO' - valency
  double Deltap_boc_i, Deltap_boc_j;  // sum BO' - valency_val
};

// Correct the bond order of bond i-j in place (BO, BO_s, BO_pi, BO_pi2 hold
// the uncorrected values on entry) and set the coefficients of its
// derivative, seen from atom i:
//   dBO     = C1dbo dBO' + C2dbo dDeltap_i + C3dbo dDeltap_j
//   dBO_pi  = C1dbopi dBO'_pi + C2dbopi dBO' + C3dbopi dDeltap_i + C4dbopi dDeltap_j
// (likewise pi-pi). p_boc1, p_boc2: general parameters 0 and 1.
// The corrected orders are symmetric in i and j to the last bit, so both
// rows of a bond end up with the same values.
PMD_HD PMD_INLINE void correct_bond_order(BondOrder &b, const TwoBodyParams &t, const BondEnds &e,
                                          double p_boc1, double p_boc2) {
  const bool over = t.ovc >= 0.001;     // f1: over-coordination correction
  const bool one3 = t.v13cor >= 0.001;  // f4, f5: 1-3 bond-order correction

  if (!over && !one3) {
    b.C1dbo = 1.0;
    b.C2dbo = b.C3dbo = 0.0;
    b.C1dbopi = 1.0;
    b.C2dbopi = b.C3dbopi = b.C4dbopi = 0.0;
    b.C1dbopi2 = 1.0;
    b.C2dbopi2 = b.C3dbopi2 = b.C4dbopi2 = 0.0;
  } else {
    // f1 and its derivatives df1/dDeltap_i (df1_i) and df1/dDeltap_j (df1_j).
    double f1 = 1.0, df1_i = 0.0, df1_j = 0.0;
    if (over) {
      const double e1i = exp(-p_boc1 * e.Deltap_i), e1j = exp(-p_boc1 * e.Deltap_j);
      const double e2i = exp(-p_boc2 * e.Deltap_i), e2j = exp(-p_boc2 * e.Deltap_j);
      const double f2 = e1i + e1j;
      const double f3 = -1.0 / p_boc2 * log(0.5 * (e2i + e2j));
      f1 = 0.5 * ((e.val_i + f2) / (e.val_i + f2 + f3) + (e.val_j + f2) / (e.val_j + f2 + f3));

      const double u_i = e.val_i + (f2 + f3), u_j = e.val_j + (f2 + f3);
      // df2/dDeltap_i and df3/dDeltap_i
      const double df2_i = -p_boc1 * e1i;
      const double df3_i = e2i / (e2i + e2j);
      df1_i = 0.5 * (df2_i / u_i - ((e.val_i + f2) / sqr(u_i)) * (df2_i + df3_i) + df2_i / u_j -
                     ((e.val_j + f2) / sqr(u_j)) * (df2_i + df3_i));
      // For j, collect the f2' and f3' coefficients first.
      const double coef_f2 = 0.5 * f3 * (1.0 / sqr(u_i) + 1.0 / sqr(u_j));
      const double coef_f3 = -0.5 * ((u_i - f3) / sqr(u_i) + (u_j - f3) / sqr(u_j));
      df1_j = -coef_f2 * p_boc1 * e1j + coef_f3 * e2j / (e2i + e2j);
    }

    // f4 f5 and d ln f4 / d(p_boc3 Deltap_boc_i) (dl4), likewise dl5.
    double f4 = 1.0, f5 = 1.0, f4f5 = 1.0, dl4 = 0.0, dl5 = 0.0;
    if (one3) {
      const double bo2 = t.p_boc4 * sqr(b.BO);
      const double e4 = exp(-(bo2 - e.Deltap_boc_i) * t.p_boc3 + t.p_boc5);
      const double e5 = exp(-(bo2 - e.Deltap_boc_j) * t.p_boc3 + t.p_boc5);
      f4 = 1.0 / (1.0 + e4);
      f5 = 1.0 / (1.0 + e5);
      f4f5 = f4 * f5;
      dl4 = -f4 * e4;
      dl5 = -f5 * e5;
    }

    // d ln(BO/BO') / dBO' (a1), / dDeltap_i (a2_i), / dDeltap_j (a2_j); the pi
    // channels carry f1 twice (a3_*).
    const double a0 = f1 * f4f5;
    const double a1 = -2 * t.p_boc3 * t.p_boc4 * b.BO * (dl4 + dl5);
    const double a2_i = df1_i / f1 + t.p_boc3 * dl4;
    const double a2_j = df1_j / f1 + t.p_boc3 * dl5;
    const double a3_i = a2_i + df1_i / f1;
    const double a3_j = a2_j + df1_j / f1;

    b.BO = b.BO * a0;
    b.BO_pi = b.BO_pi * a0 * f1;
    b.BO_pi2 = b.BO_pi2 * a0 * f1;
    b.BO_s = b.BO - (b.BO_pi + b.BO_pi2);

    b.C1dbo = a0 + b.BO * a1;
    b.C2dbo = b.BO * a2_i;
    b.C3dbo = b.BO * a2_j;

    b.C1dbopi = f1 * f1 * f4 * f5;
    b.C2dbopi = b.BO_pi * a1;
    b.C3dbopi = b.BO_pi * a3_i;
    b.C4dbopi = b.BO_pi * a3_j;

    b.C1dbopi2 = f1 * f1 * f4 * f5;
    b.C2dbopi2 = b.BO_pi2 * a1;
    b.C3dbopi2 = b.BO_pi2 * a3_i;
    b.C4dbopi2 = b.BO_pi2 * a3_j;
  }

  // Orders below 1e-10 count as zero (their derivative coefficients stay).
  if (b.BO < 1e-10) b.BO = 0.0;
  if (b.BO_s < 1e-10) b.BO_s = 0.0;
  if (b.BO_pi < 1e-10) b.BO_pi = 0.0;
  if (b.BO_pi2 < 1e-10) b.BO_pi2 = 0.0;
}

// Corrected bond orders of all bonds in row i (each row corrects its own
// copy of the bond, reading Deltap of the partner), then atom i's total bond
// order and the deviations Delta, Delta_e, Delta_boc, Delta_val, the lone-pair
// count nlp and Delta_lp with their derivatives.
// In three parts, so that a driver may split a row over several threads:
// corrected_bo_row (what the row's bonds share), corrected_bo_bond (one bond
// entry; adds its BO to the row's sum) and corrected_bo_finish (atom i's
// values from the sum).
struct CorrectedBoRow {
  bool active = false;  // false: an untyped atom, nothing to do
  int i = 0, ti = 0;
  int first = 0, last = 0;  // bond entries [first, last)
  BondEnds e;
};
struct CorrectedBoSums {
  double sum_bo;
};

// Deltap = sum BO' - valency and Deltap_boc = sum BO' - valency_val of an atom
// of type s from its pass-1 total.
PMD_HD PMD_INLINE void bond_end_deltap(double total, const SingleBodyParams &s, double *Deltap,
                                       double *Deltap_boc) {
  *Deltap = total - s.valency;
  *Deltap_boc = total - s.valency_val;
}

PMD_HD PMD_INLINE CorrectedBoRow corrected_bo_row(int i, const StepView &v) {
  CorrectedBoRow r;
  r.ti = v.atoms.type[i];
  if (r.ti < 0) return r;
  r.active = true;
  r.i = i;
  r.first = v.bonds.start[i];
  r.last = v.bonds.end[i];
  r.e.val_i = v.ff.sbp[r.ti].valency;
  bond_end_deltap(v.ws.bo_prime_total[i], v.ff.sbp[r.ti], &r.e.Deltap_i, &r.e.Deltap_boc_i);
  return r;
}

// Row r's copy p of a bond, corrected in place; its corrected orders, or
// ok = false (nothing done) when the partner is not a ReaxFF atom.
struct CorrectedOrders {
  bool ok;
  double BO, BO_s, BO_pi, BO_pi2;
};
PMD_HD PMD_INLINE CorrectedOrders correct_row_copy(const CorrectedBoRow &r, int p,
                                                   const StepView &v) {
  const int j = v.bonds.nbr[p];
  const int tj = v.atoms.type[j];
  if (tj < 0) return CorrectedOrders{false, 0.0, 0.0, 0.0, 0.0};
  BondEnds e = r.e;
  e.val_j = v.ff.sbp[tj].valency;
  bond_end_deltap(v.ws.bo_prime_total[j], v.ff.sbp[tj], &e.Deltap_j, &e.Deltap_boc_j);
  BondOrder &b = v.bonds.bo[p];
  correct_bond_order(b, v.ff.two(r.ti, tj), e, v.ff.gp[0], v.ff.gp[1]);
  store_torsion_arm(b, v.ff.gp, v.control.thb_cut);
  return CorrectedOrders{true, b.BO, b.BO_s, b.BO_pi, b.BO_pi2};
}

PMD_HD PMD_INLINE void corrected_bo_bond(const CorrectedBoRow &r, int p, const StepView &v,
                                         CorrectedBoSums &s) {
  const CorrectedOrders o = correct_row_copy(r, p, v);
  if (o.ok) s.sum_bo += o.BO;
}

// The same pass once a bond, as pair_style reaxff runs it: from the row of
// its lower index i (entry p, partner j > i) the coefficients go into row i's
// copy and the corrected orders into both copies (from either end they are
// the same to the last bit, see correct_bond_order; the higher row's
// coefficients are never read: bond_chain_rule takes row i's). The order goes
// to row i's sum s and, atomically, to j's total (total_bond_order, zeroed at
// the step's start; row i's sum joins it in the caller): corrected_bo_finish
// then takes each total, with no second pass over the records.
PMD_HD PMD_INLINE void corrected_bo_lower(const CorrectedBoRow &r, int p, const StepView &v,
                                          CorrectedBoSums &s) {
  const int j = v.bonds.nbr[p], mirror = v.bonds.sym[p];
  if (j < r.i) return;     // done from the partner's row
  if (mirror < 0) return;  // an inconsistent list, reported by the list build after this pass
  const CorrectedOrders o = correct_row_copy(r, p, v);
  if (!o.ok) return;
  const BondOrder &b = v.bonds.bo[p];
  BondOrder &m = v.bonds.bo[mirror];
  m.BO = o.BO;
  m.BO_s = o.BO_s;
  m.BO_pi = o.BO_pi;
  m.BO_pi2 = o.BO_pi2;
  // the whole last sector (the same dBOp_pi2), so that none is fetched to be merged
  m.dBOp_pi2 = b.dBOp_pi2;
  m.arm_exp_tor2 = b.arm_exp_tor2;
  m.arm_exp_cot2 = b.arm_exp_cot2;
  m.unused = 0.0;
  s.sum_bo += o.BO;
  atomic_add(&v.ws.total_bond_order[j], o.BO);
}

PMD_HD PMD_INLINE void corrected_bo_finish(const CorrectedBoRow &r, const CorrectedBoSums &s,
                                           const StepView &v) {
  if (!r.active) return;
  const int i = r.i;
  const SingleBodyParams &si = v.ff.sbp[r.ti];
  const Workspace &w = v.ws;
  const double p_lp1 = v.ff.gp[15];
  const double sum_bo = s.sum_bo;
  w.total_bond_order[i] = sum_bo;
  w.Delta[i] = sum_bo - si.valency;
  w.Delta_e[i] = sum_bo - si.valency_e;
  w.Delta_boc[i] = sum_bo - si.valency_boc;
  w.Delta_val[i] = sum_bo - si.valency_val;

  // Lone pairs from the electron excess Delta_e (truncating division by 2).
  const double half_e = static_cast<double>(static_cast<int>(w.Delta_e[i] / 2.0));
  const double vlpex = w.Delta_e[i] - 2.0 * half_e;
  const double explp1 = exp(-p_lp1 * sqr(2.0 + vlpex));
  const double nlp = explp1 - half_e;
  const double clp = 2.0 * p_lp1 * explp1 * (2.0 + vlpex);
  w.vlpex[i] = vlpex;
  w.nlp[i] = nlp;
  w.Delta_lp[i] = si.nlp_opt - nlp;
  w.Clp[i] = clp;
  w.dDelta_lp[i] = clp;
  if (si.mass > 21.0) {  // heavier than the first row: fixed lone-pair count
    w.nlp_temp[i] = 0.5 * (si.valency_e - si.valency);
    w.Delta_lp_temp[i] = si.nlp_opt - w.nlp_temp[i];
    w.dDelta_lp_temp[i] = 0.0;
  } else {
    w.nlp_temp[i] = nlp;
    w.Delta_lp_temp[i] = si.nlp_opt - nlp;
    w.dDelta_lp_temp[i] = clp;
  }
}

PMD_HD PMD_INLINE void corrected_bond_order_atom(int i, const StepView &v) {
  const CorrectedBoRow r = corrected_bo_row(i, v);
  if (!r.active) return;
  CorrectedBoSums s{0.0};
  for (int p = r.first; p < r.last; ++p) corrected_bo_bond(r, p, v, s);
  corrected_bo_finish(r, s, v);
}

// ---------------------------------------------------------------------------
// Chain rule: dE/dBO, dE/dBO_pi, dE/dBO_pi2 (both rows of the bond) and
// dE/dDelta of both atoms, times the derivatives of the corrected orders.
// ---------------------------------------------------------------------------

// dE/dBO and dE/dBO_pi (= dE/dBO_pi2) of bond i-j through the SBO of the
// valence angles centred on i and on j (valence_angle.h): a centre's SBO
// depends on BO_pi and BO_pi2 of each of its bonds and on BO through BO^7
// (val_dSBO_dBO7), and val_dE_dSBO sums dE/dSBO over its angles. Taken here,
// once a bond, rather than added into every bond record of the centre after
// its angles.
struct SboTerms {
  double dBO, dBOpi;
};
PMD_HD PMD_INLINE SboTerms valence_sbo_terms(int i, int j, double BO, const Workspace &w) {
  const double ei = w.val_dE_dSBO[i], ej = w.val_dE_dSBO[j];
  SboTerms t{0.0, ei + ej};
  if (ei != 0.0 || ej != 0.0) {
    const double bo7 = cube(BO) * cube(BO) * BO;
    t.dBO = ei * w.val_dSBO_dBO7[i] * bo7 + ej * w.val_dSBO_dBO7[j] * bo7;
  }
  return t;
}

// Gradients of bond p (row i, partner j) on i, j and every bonded neighbour
// of i and of j. Uses the coefficients of row i's copy of the bond; call it
// once per bond (from the row of the lower index). Reference atom i.
PMD_HD PMD_INLINE void bond_chain_rule(int i, int p, const StepView &v) {
  const int j = v.bonds.nbr[p];
  const BondOrder &bij = v.bonds.bo[p];
  const BondOrder &bji = v.bonds.bo[v.bonds.sym[p]];
  const Workspace &w = v.ws;

  // dE/dBO of both directions (and through the centres' SBO) times the
  // derivative coefficients.
  const SboTerms sbo = valence_sbo_terms(i, j, bij.BO, w);
  const double e_bo = bij.Cdbo + bji.Cdbo + sbo.dBO;
  const double e_pi = bij.Cdbopi + bji.Cdbopi + sbo.dBOpi;
  const double e_pipi = bij.Cdbopi2 + bji.Cdbopi2 + sbo.dBOpi;
  const double e_delta = w.CdDelta[i] + w.CdDelta[j];  // dDelta_i/dBO = dDelta_j/dBO = 1

  const double bo1 = bij.C1dbo * e_bo, bo2 = bij.C2dbo * e_bo, bo3 = bij.C3dbo * e_bo;
  const double pi1 = bij.C1dbopi * e_pi, pi2 = bij.C2dbopi * e_pi, pi3 = bij.C3dbopi * e_pi,
               pi4 = bij.C4dbopi * e_pi;
  const double pp1 = bij.C1dbopi2 * e_pipi, pp2 = bij.C2dbopi2 * e_pipi,
               pp3 = bij.C3dbopi2 * e_pipi, pp4 = bij.C4dbopi2 * e_pipi;
  const double de1 = bij.C1dbo * e_delta, de2 = bij.C2dbo * e_delta, de3 = bij.C3dbo * e_delta;

  // Coefficients of dBO'_ij, dDeltap_i and dDeltap_j.
  const double c_bond = bo1 + de1 + pi2 + pp2;
  const double c_i = bo2 + de2 + pi3 + pp3;
  const double c_j = bo3 + de3 + pi4 + pp4;

  const vec3 d = v.bonds.dvec[p];
  const vec3 dbo = bij.dBOp * d, dpi = bij.dBOp_pi * d, dpipi = bij.dBOp_pi2 * d;
  vec3 gi = c_bond * dbo;
  gi += pi1 * dpi;
  gi += pp1 * dpipi;
  v.tally.add_grad(i, gi, i);

  vec3 gj = -c_bond * dbo;
  gj -= pi1 * dpi;
  gj -= pp1 * dpipi;
  v.tally.add_grad(j, gj, i);

  // through Deltap_i and Deltap_j: summed over the bonds first
  // (deltap_chain_rule_atom), one gradient per bond entry instead of one
  // per bond entry of i and of j for every bond
  atomic_add(&w.CdDeltap[i], c_i);
  atomic_add(&w.CdDeltap[j], c_j);
}

// Deltap_i depends on x_i and on the position of every neighbour k of i
// through BO'_ik (row i holds dBO'_ik/dx_i = -dBO'_ik/dx_k): with dE/dDeltap_i
// of all of i's bonds (bond_chain_rule), its gradients. Reference atom i.
// dDeltap_i/dx_i, the sum of the row's dBO'/dx_i, is summed here, from the
// values the neighbours' gradients read anyway, not kept from pass 1.
PMD_HD PMD_INLINE void deltap_chain_rule_atom(int i, const StepView &v) {
  const double c = v.ws.CdDeltap[i];
  if (c == 0.0) return;
  vec3 self = make_vec3(0.0, 0.0, 0.0);
  for (int q = v.bonds.start[i]; q < v.bonds.end[i]; ++q) {
    const vec3 g = v.bonds.bo[q].dBOp * v.bonds.dvec[q];
    self += g;
    v.tally.add_grad(v.bonds.nbr[q], -c * g, i);
  }
  v.tally.add_grad(i, c * self, i);
}

// All bonds of atom i towards higher indices (every bond exactly once over
// all atoms 0..n_total-1).
PMD_HD PMD_INLINE void bond_order_chain_rule_atom(int i, const StepView &v) {
  for (int p = v.bonds.start[i]; p < v.bonds.end[i]; ++p)
    if (i < v.bonds.nbr[p]) bond_chain_rule(i, p, v);
}

}  // namespace puremd
