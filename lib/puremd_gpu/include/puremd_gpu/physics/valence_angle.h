// Valence-angle family: angle bending, the double-bond penalty and the
// three-body coalition energy of every angle i-j-k around a centre atom j
// (van Duin et al. 2001; Chenoweth et al. 2008), and the three-body list that
// these terms and the torsions read.
//
// Three-body list. Its rows are bond entries: row p is the bond i-j stored in
// the bond row of the centre j (i = bonds.nbr[p]). A row is built when
// BO_ij > thb_cut and j or i is owned (so ghost centres get rows whenever the
// torsions of an owned atom may need them). Its entries, in this order:
//   1. for each earlier bond entry q of j (q < p) whose row is built: the angle
//      k-j-i read back from row q (k = nbr[q]), with i and k swapped;
//   2. for each later bond entry q > p of j, whatever its bond order: the angle
//      i-j-k with k = nbr[q], computed from the geometry.
// pthb = q is k's entry in j's bond row; theta and cos(theta) are stored, the
// gradients of cos(theta) are formed where they are used (angle_dcos of the
// two bonds' dvecs: 72 bytes an entry less to write and read, bench/README).
// The list is built in three passes that work on a GPU too:
// three_body_count_atom (counts per row), a prefix sum into thb.start, and
// three_body_fill_atom (entries and thb.end).
#pragma once

#include "puremd_gpu/force_field.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"
#include "puremd_gpu/physics/angle_items.h"

namespace puremd {

// ReaxFF turns theta_0 from degrees into radians with pi cut to 9 digits; the
// same constant keeps angle energies identical to pair_style reaxff.
constexpr double kValencePi = 3.14159265;
// sin(theta) is held at least this large where dE/dtheta becomes dE/dcos(theta).
constexpr double kValenceMinSin = 1.0e-5;

// ---------------------------------------------------------------------------
// Geometry of one angle i-j-k, from r_ji = x_i - x_j and r_jk = x_k - x_j
// (bond-list dvecs of the centre's row) and their lengths.

// cos(theta) clamped to [-1, 1], and theta = acos of it.
PMD_HD PMD_INLINE void angle_theta(vec3 r_ji, double d_ji, vec3 r_jk, double d_jk, double *theta,
                                   double *cos_theta) {
  double c = dot(r_ji, r_jk) / (d_ji * d_jk);
  if (c > 1.0) c = 1.0;
  if (c < -1.0) c = -1.0;
  *cos_theta = c;
  *theta = acos(c);
}

// sin(theta) of a bond angle from its cosine (theta in [0, pi], so sin >= 0):
// a square root where sin(acos(c)) would take two transcendental calls; the
// same value to round-off, (1 - c)(1 + c) keeping it accurate near 0 and pi.
PMD_HD PMD_INLINE double angle_sin(double cos_theta) {
  const double s2 = (1.0 - cos_theta) * (1.0 + cos_theta);
  return s2 > 0.0 ? sqrt(s2) : 0.0;
}

// Gradients of cos(theta) = (r_ji . r_jk) / (d_ji d_jk) with respect to the
// positions of i, j and k (unclamped; dcos_dj = -(dcos_di + dcos_dk)).
PMD_HD PMD_INLINE void angle_dcos(vec3 r_ji, double d_ji, vec3 r_jk, double d_jk, vec3 *dcos_di,
                                  vec3 *dcos_dj, vec3 *dcos_dk) {
  const double dji2 = d_ji * d_ji;
  const double djk2 = d_jk * d_jk;
  const double inv_dd = 1.0 / (d_ji * d_jk);
  // (r_ji . r_jk) / (d_ji d_jk)^3: scales the part along each bond
  const double along = dot(r_ji, r_jk) * cube(inv_dd);
  *dcos_di = inv_dd * r_jk - (along * djk2) * r_ji;
  *dcos_dk = inv_dd * r_ji - (along * dji2) * r_jk;
  *dcos_dj = -inv_dd * (r_jk + r_ji) + along * (djk2 * r_ji + dji2 * r_jk);
}

// ---------------------------------------------------------------------------
// Quantities of the centre atom j shared by all of its angles.

struct ValenceCentre {
  double SBO;          // sum of pi bond orders, corrected by the lone pairs
  double SBO2;         // SBO mapped onto [0, 2]; sets the equilibrium angle
  double dSBO2;        // dSBO2 / dSBO
  double dSBO_dBO7;    // dSBO / dBO_t = dSBO_dBO7 * BO_t^7 for every bond t of j
  double dSBO_dDelta;  // dSBO / dDelta_j (through Delta_boc and the lone pairs)
  double exp6;         // exp(p_val6 Delta_boc_j)
};

// SBO2 and its derivative as a function of SBO (p_val9 = gp[16]).
PMD_HD PMD_INLINE void valence_sbo2(double SBO, double p_val9, double *SBO2, double *dSBO2) {
  if (SBO <= 0.0) {
    *SBO2 = 0.0;
    *dSBO2 = 0.0;
  } else if (SBO <= 1.0) {
    *SBO2 = pow(SBO, p_val9);
    *dSBO2 = p_val9 * pow(SBO, p_val9 - 1.0);
  } else if (SBO < 2.0) {
    *SBO2 = 2.0 - pow(2.0 - SBO, p_val9);
    *dSBO2 = p_val9 * pow(2.0 - SBO, p_val9 - 1.0);
  } else {
    *SBO2 = 2.0;
    *dSBO2 = 0.0;
  }
}

PMD_HD PMD_INLINE ValenceCentre valence_centre(int j, const StepView &v) {
  const double *gp = v.ff.gp;
  const double p_val6 = gp[14], p_val8 = gp[33], p_val9 = gp[16];
  double pi_sum = 0.0;  // sum over bonds of BO_pi + BO_pi2
  double damp = 1.0;    // product over bonds of exp(-BO^8)
  for (int t = v.bonds.start[j]; t < v.bonds.end[j]; ++t) {
    const BondOrder &b = v.bonds.bo[t];
    pi_sum += b.BO_pi + b.BO_pi2;
    double bo8 = b.BO * b.BO;
    bo8 *= bo8;
    bo8 *= bo8;
    damp *= exp(-bo8);
  }
  // Lone pairs count only for atoms with a lone-pair deficit (vlpex < 0).
  double lone = 0.0;
  double dlone = 1.0;  // d(Delta_boc + p_val8 lone) / dDelta
  if (v.ws.vlpex[j] < 0.0) {
    lone = v.ws.nlp[j];
    dlone = 1.0 - p_val8 * v.ws.dDelta_lp[j];
  }
  const double Delta_boc = v.ws.Delta_boc[j];
  ValenceCentre c;
  c.SBO = pi_sum + (1.0 - damp) * (-Delta_boc - p_val8 * lone);
  c.dSBO_dBO7 = -8.0 * damp * (Delta_boc + p_val8 * lone);
  c.dSBO_dDelta = (damp - 1.0) * dlone;
  valence_sbo2(c.SBO, p_val9, &c.SBO2, &c.dSBO2);
  c.exp6 = exp(p_val6 * Delta_boc);
  return c;
}

// ---------------------------------------------------------------------------
// Evaluators of one angle and one parameter set. BOA_xy = BO_xy - thb_cut.

struct AngleTerm {
  double e;
  double dE_dBOij, dE_dBOjk;  // through f7 (bond-order damping)
  double dE_dDelta;           // through f8 and through SBO's lone-pair term
  double dE_dSBO;             // dSBO/dBO_pi = dSBO/dBO_pi2 = 1; dSBO/dBO_t = dSBO_dBO7 BO_t^7
  double dE_dcos;             // times dcos(theta)/dx gives the direct gradient
};

// theta in radians (BOA_ij, BOA_jk > 0); sin_theta already held >= kValenceMinSin.
PMD_HD PMD_INLINE AngleTerm angle_energy(const ThreeBodyParams &p, double p_val3, double p_val5,
                                         const double *gp, const ValenceCentre &cen,
                                         double Delta_boc, double BOA_ij, double BOA_jk,
                                         double theta, double sin_theta) {
  const double p_val6 = gp[14], p_val10 = gp[17];
  const double p_val1 = p.p_val1, p_val2 = p.p_val2, p_val4 = p.p_val4, p_val7 = p.p_val7;

  // f7: switches the angle off with either bond order (BOA > 0 here, so
  // BOA^(p - 1) = BOA^p / BOA: one power per bond instead of two, taken as
  // exp(p log BOA), a few ulps from pow at a third of its cost on the GPU)
  const double pij = pow_positive(BOA_ij, p_val4), pjk = pow_positive(BOA_jk, p_val4);
  const double e3ij = exp(-p_val3 * pij);
  const double f7ij = 1.0 - e3ij;
  const double df7ij = p_val3 * p_val4 * (pij / BOA_ij) * e3ij;
  const double e3jk = exp(-p_val3 * pjk);
  const double f7jk = 1.0 - e3jk;
  const double df7jk = p_val3 * p_val4 * (pjk / BOA_jk) * e3jk;

  // f8: over/under-coordination of the centre
  const double exp6 = cen.exp6;
  const double exp7 = exp(-p_val7 * Delta_boc);
  const double den8 = 1.0 + exp6 + exp7;
  const double f8 = p_val5 - ((p_val5 - 1.0) * (2.0 + exp6) / den8);
  const double df8 = ((1.0 - p_val5) / sqr(den8)) *
                     (p_val6 * exp6 * den8 - (2.0 + exp6) * (p_val6 * exp6 - p_val7 * exp7));

  // equilibrium angle from SBO2
  const double shift = exp(-p_val10 * (2.0 - cen.SBO2));
  const double theta0 = (180.0 - p.theta_00 * (1.0 - shift)) * kValencePi / 180.0;
  const double dtheta0 = p_val10 * (p.theta_00 * kValencePi / 180.0) * shift;  // d/dSBO2

  const double gauss = exp(-p_val2 * sqr(theta0 - theta));
  // p_val1 < 0 keeps only the Gaussian well (for bridging-H angles that must not go linear).
  const double bend = p_val1 >= 0.0 ? p_val1 * (1.0 - gauss) : p_val1 * -gauss;
  const double f778 = f7ij * f7jk * f8;

  AngleTerm r;
  r.e = f778 * bend;
  r.dE_dBOij = df7ij * f7jk * f8 * bend;
  r.dE_dBOjk = df7jk * f7ij * f8 * bend;
  const double dE_df8part = df8 * f7ij * f7jk * bend;
  const double dE_dtheta = -2.0 * p_val1 * p_val2 * f778 * gauss * (theta0 - theta);
  r.dE_dSBO = -dE_dtheta * dtheta0 * cen.dSBO2;
  r.dE_dDelta = dE_df8part + r.dE_dSBO * cen.dSBO_dDelta;
  r.dE_dcos = -dE_dtheta / sin_theta;
  return r;
}

struct PenaltyTerm {
  double e, dE_dBOij, dE_dBOjk, dE_dDelta;
};

// Penalty on two double bonds at one centre (allenes). Delta = Delta_j.
PMD_HD PMD_INLINE PenaltyTerm penalty_energy(double p_pen1, const double *gp, double Delta,
                                             double BOA_ij, double BOA_jk) {
  const double p_pen2 = gp[19], p_pen3 = gp[20], p_pen4 = gp[21];
  const double gij = exp(-p_pen2 * sqr(BOA_ij - 2.0));
  const double gjk = exp(-p_pen2 * sqr(BOA_jk - 2.0));
  const double e3 = exp(-p_pen3 * Delta);
  const double e4 = exp(p_pen4 * Delta);
  const double den = 1.0 + e3 + e4;
  const double f9 = (2.0 + e3) / den;
  const double df9 = (-p_pen3 * e3 * den - (2.0 + e3) * (-p_pen3 * e3 + p_pen4 * e4)) / sqr(den);
  PenaltyTerm r;
  r.e = p_pen1 * f9 * gij * gjk;
  r.dE_dDelta = r.e * df9 / f9;
  const double c = -2.0 * p_pen2 * r.e;
  r.dE_dBOij = c * (BOA_ij - 2.0);
  r.dE_dBOjk = c * (BOA_jk - 2.0);
  return r;
}

struct CoalitionTerm {
  double e;
  double dE_dBOij, dE_dBOjk;    // at fixed total bond orders of i and k
  double dE_dDelta_j;           // through Delta_val of the centre
  double dE_dTBO_i, dE_dTBO_k;  // through the total bond orders of the end atoms
};

// Three-body conjugation (coalition), e.g. NO2 groups. Delta_val = Delta_val_j;
// tbo_i / tbo_k = total (corrected) bond orders of the end atoms.
PMD_HD PMD_INLINE CoalitionTerm coalition_energy(double p_coa1, const double *gp, double Delta_val,
                                                 double tbo_i, double tbo_k, double BOA_ij,
                                                 double BOA_jk) {
  const double p_coa2 = gp[2], p_coa3 = gp[38], p_coa4 = gp[30];
  const double e2 = exp(p_coa2 * Delta_val);
  CoalitionTerm r;
  r.e = p_coa1 / (1.0 + e2) * exp(-p_coa3 * sqr(tbo_i - BOA_ij)) *
        exp(-p_coa3 * sqr(tbo_k - BOA_jk)) * exp(-p_coa4 * sqr(BOA_ij - 1.5)) *
        exp(-p_coa4 * sqr(BOA_jk - 1.5));
  const double dBOij = -2.0 * p_coa4 * (BOA_ij - 1.5) * r.e;
  const double dBOjk = -2.0 * p_coa4 * (BOA_jk - 1.5) * r.e;
  r.dE_dDelta_j = -p_coa2 * e2 * r.e / (1.0 + e2);
  r.dE_dTBO_i = -2.0 * p_coa3 * (tbo_i - BOA_ij) * r.e;
  r.dE_dTBO_k = -2.0 * p_coa3 * (tbo_k - BOA_jk) * r.e;
  r.dE_dBOij = dBOij - r.dE_dTBO_i;
  r.dE_dBOjk = dBOjk - r.dE_dTBO_k;
  return r;
}

// ---------------------------------------------------------------------------
// Three-body list.

// Whether the row of bond entry p (in the bond row of centre j) is built.
PMD_HD PMD_INLINE bool three_body_row_built(int j, int p, const StepView &v) {
  return v.bonds.bo[p].BO - v.control.thb_cut > 0.0 &&
         (j < v.atoms.n_local || v.bonds.nbr[p] < v.atoms.n_local);
}

// Number of entries of every three-body row of centre j: row_count[p] for the
// bond entries p of j's bond row. Returns their sum. Atoms with type < 0 have
// empty rows. Any atom 0..n_total-1. Spare bond entries (headroom between bond
// rows) belong to no atom: the caller zeroes their counts.
PMD_HD PMD_INLINE int three_body_count_atom(int j, const StepView &v, int *row_count) {
  const int s = v.bonds.start[j], e = v.bonds.end[j];
  const bool skip = v.atoms.type[j] < 0;
  int built_before = 0;  // built rows among the earlier entries of j
  int total = 0;
  for (int p = s; p < e; ++p) {
    int n = 0;
    if (!skip && three_body_row_built(j, p, v)) {
      n = built_before + (e - p - 1);
      ++built_before;
    }
    row_count[p] = n;
    total += n;
  }
  return total;
}

// Entry w of row p (bond entry p of centre j, whose bond row ends at e) for
// the bond q: for an earlier bond q < p a copy of row q's entry for bond p
// (the (p - q)-th of q's own angles, which are the last (e - q - 1) entries
// of that row), with i and k swapped; for a later bond q > p computed.
PMD_HD PMD_INLINE void three_body_copied_entry(const StepView &v, int w, int p, int q, int e) {
  const ThreeBodyList &L = v.thb;
  const int src = L.end[q] - e + p;
  L.thb[w] = v.bonds.nbr[q];
  L.pthb[w] = q;
  L.theta[w] = L.theta[src];
  L.cos_theta[w] = L.cos_theta[src];
}
PMD_HD PMD_INLINE void three_body_new_entry(const StepView &v, int w, int p, int q) {
  const ThreeBodyList &L = v.thb;
  const BondList &B = v.bonds;
  L.thb[w] = B.nbr[q];
  L.pthb[w] = q;
  angle_theta(B.dvec[p], B.d[p], B.dvec[q], B.d[q], &L.theta[w], &L.cos_theta[w]);
}

// One lane: what three_body_fill_atom needs of a group of lanes (the CUDA
// driver passes its LaneGroup, which has the same members).
struct SerialLanes {
  static constexpr int kSize = 1;
  int lane = 0;
  // among the lanes that keep, how many come before this one; kept = how many
  PMD_HD int rank(bool keep, int &kept) const {
    kept = keep ? 1 : 0;
    return 0;
  }
  PMD_HD void sync() const {}
};

// Fill the three-body rows of centre j; thb.start[p] must hold the prefix sum
// of three_body_count_atom's counts. Sets thb.end[p]. Any atom 0..n_total-1.
// Row p lists 1. the earlier bonds q < p whose rows are built, ascending, then
// 2. every later bond q > p. Rows are filled one after the other (a row copies
// from the earlier rows of j), the entries of a row split over the group's
// lanes, the copied ones compacted in order.
template <class Lanes = SerialLanes>
PMD_HD PMD_INLINE void three_body_fill_atom(int j, const StepView &v, const Lanes &g = Lanes{}) {
  constexpr int kLanes = Lanes::kSize;
  const ThreeBodyList &L = v.thb;
  const BondList &B = v.bonds;
  const int s = B.start[j], e = B.end[j];
  const bool skip = v.atoms.type[j] < 0;
  for (int p = s; p < e; ++p) {
    int w = L.start[p];
    if (!skip && three_body_row_built(j, p, v)) {
      for (int q0 = s; q0 < p; q0 += kLanes) {
        const int q = q0 + g.lane;
        const bool take = q < p && L.end[q] != L.start[q];  // row q built
        int kept;
        const int before = g.rank(take, kept);
        if (take) three_body_copied_entry(v, w + before, p, q, e);
        w += kept;
      }
      for (int q = p + 1 + g.lane; q < e; q += kLanes)
        three_body_new_entry(v, w + (q - p - 1), p, q);
      w += e - p - 1;
    }
    if (g.lane == 0) L.end[p] = w;
    g.sync();  // row p, entries and end, before a later row copies from it
  }
}

// ---------------------------------------------------------------------------
// The angle energies of a step as work items (angle_items.h): centre j owned,
// row pi (bond i-j) built, entry s one of the later bonds pk > pi of j, so
// each unordered pair of bonds i-j, k-j is one item. Energy goes to j's
// per-atom energy in full. What every angle of j shares (ValenceCentre) is
// stored per centre before the items; dE/dSBO, summed over j's angles
// (val_dE_dSBO), reaches j's bonds in the chain rule (bond_order.h,
// valence_sbo_terms).

PMD_HD PMD_INLINE bool valence_centre_on(int j, const StepView &v) {
  const Tally &T = v.tally;
  return j < v.atoms.n_local && (T.on(kTermAngle) || T.on(kTermPenalty) || T.on(kTermCoalition)) &&
         v.atoms.type[j] >= 0;
}

PMD_HD PMD_INLINE void valence_centre_store(int j, const StepView &v) {
  const ValenceCentre c = valence_centre(j, v);
  const Workspace &W = v.ws;
  W.val_SBO2[j] = c.SBO2;
  W.val_dSBO2[j] = c.dSBO2;
  W.val_dSBO_dBO7[j] = c.dSBO_dBO7;
  W.val_dSBO_dDelta[j] = c.dSBO_dDelta;
  W.val_exp6[j] = c.exp6;
}

PMD_HD PMD_INLINE ValenceCentre valence_centre_stored(int j, const StepView &v) {
  const Workspace &W = v.ws;
  ValenceCentre c;
  c.SBO = 0.0;  // not needed past SBO2
  c.SBO2 = W.val_SBO2[j];
  c.dSBO2 = W.val_dSBO2[j];
  c.dSBO_dBO7 = W.val_dSBO_dBO7[j];
  c.dSBO_dDelta = W.val_dSBO_dDelta[j];
  c.exp6 = W.val_exp6[j];
  return c;
}

// The angle i-j-k of bond entries pi (i) and pk = thb.pthb[s] > pi (k) of j.
PMD_HD PMD_INLINE void valence_angle_item(int j, int pi, int s, const StepView &v) {
  const Tally &T = v.tally;
  const bool on_ang = T.on(kTermAngle), on_pen = T.on(kTermPenalty), on_coa = T.on(kTermCoalition);
  const BondList &B = v.bonds;
  const ThreeBodyList &L = v.thb;
  const Workspace &W = v.ws;
  const double thb_cut = v.control.thb_cut, thb_cutsq = v.control.thb_cutsq;

  const int pk = L.pthb[s];
  const double BO_ij = B.bo[pi].BO, BO_jk = B.bo[pk].BO;
  const double BOA_ij = BO_ij - thb_cut, BOA_jk = BO_jk - thb_cut;
  if (!(BOA_jk > 0.0 && BO_ij > thb_cut && BO_jk > thb_cut && BO_ij * BO_jk > thb_cutsq)) return;
  const int i = B.nbr[pi], k = L.thb[s];
  const int type_j = v.atoms.type[j];
  const ThreeBodySets &sets = v.ff.three(v.atoms.type[i], type_j, v.atoms.type[k]);
  const SingleBodyParams &sj = v.ff.sbp[type_j];
  const double *gp = v.ff.gp;
  const ValenceCentre cen = valence_centre_stored(j, v);
  const double Delta_boc = W.Delta_boc[j], Delta = W.Delta[j], Delta_val = W.Delta_val[j];
  const double theta = L.theta[s];
  double sin_theta = angle_sin(L.cos_theta[s]);  // = sin(theta), without the call
  if (sin_theta < kValenceMinSin) sin_theta = kValenceMinSin;

  double e_ang = 0.0, e_pen = 0.0, e_coa = 0.0;
  double dE_dBOij = 0.0, dE_dBOjk = 0.0, dE_dcos = 0.0, dE_dTBO_i = 0.0, dE_dTBO_k = 0.0;
  double dE_dDelta_j = 0.0, dE_dSBO = 0.0;
  for (int n = 0; n < sets.cnt; ++n) {
    const ThreeBodyParams &prm = sets.prm[n];
    if (!(fabs(prm.p_val1) > 0.001)) continue;
    if (on_ang) {
      const AngleTerm a = angle_energy(prm, sj.p_val3, sj.p_val5, gp, cen, Delta_boc, BOA_ij,
                                       BOA_jk, theta, sin_theta);
      e_ang += a.e;
      dE_dBOij += a.dE_dBOij;
      dE_dBOjk += a.dE_dBOjk;
      dE_dDelta_j += a.dE_dDelta;
      dE_dSBO += a.dE_dSBO;
      dE_dcos += a.dE_dcos;
    }
    if (on_pen) {
      const PenaltyTerm p = penalty_energy(prm.p_pen1, gp, Delta, BOA_ij, BOA_jk);
      e_pen += p.e;
      dE_dBOij += p.dE_dBOij;
      dE_dBOjk += p.dE_dBOjk;
      dE_dDelta_j += p.dE_dDelta;
    }
    if (on_coa) {
      const CoalitionTerm c = coalition_energy(prm.p_coa1, gp, Delta_val, W.total_bond_order[i],
                                               W.total_bond_order[k], BOA_ij, BOA_jk);
      e_coa += c.e;
      dE_dBOij += c.dE_dBOij;
      dE_dBOjk += c.dE_dBOjk;
      dE_dDelta_j += c.dE_dDelta_j;
      dE_dTBO_i += c.dE_dTBO_i;
      dE_dTBO_k += c.dE_dTBO_k;
    }
  }
  if (dE_dBOij != 0.0) atomic_add(&B.bo[pi].Cdbo, dE_dBOij);
  if (dE_dBOjk != 0.0) atomic_add(&B.bo[pk].Cdbo, dE_dBOjk);
  if (dE_dTBO_i != 0.0) atomic_add(&W.CdDelta[i], dE_dTBO_i);
  if (dE_dTBO_k != 0.0) atomic_add(&W.CdDelta[k], dE_dTBO_k);
  if (dE_dDelta_j != 0.0) atomic_add(&W.CdDelta[j], dE_dDelta_j);
  if (dE_dSBO != 0.0) atomic_add(&W.val_dE_dSBO[j], dE_dSBO);
  if (dE_dcos != 0.0) {
    vec3 dcos_di, dcos_dj, dcos_dk;
    angle_dcos(B.dvec[pi], B.d[pi], B.dvec[pk], B.d[pk], &dcos_di, &dcos_dj, &dcos_dk);
    T.add_grad(i, dE_dcos * dcos_di, j);
    T.add_grad(j, dE_dcos * dcos_dj, j);
    T.add_grad(k, dE_dcos * dcos_dk, j);
  }
  const double e = e_ang + e_pen + e_coa;
  if (e != 0.0) T.add_eatom(j, e);  // LAMMPS: ev_tally(j, j, ...), all to j
  if (on_ang && e_ang != 0.0) T.add_energy(&T.energy->e_ang, e_ang);
  if (on_pen && e_pen != 0.0) T.add_energy(&T.energy->e_pen, e_pen);
  if (on_coa && e_coa != 0.0) T.add_energy(&T.energy->e_coa, e_coa);
}

struct ValenceAnglesItems {
  static constexpr bool kBefore = true;
  PMD_HD static bool centre_on(int j, const StepView &v) { return valence_centre_on(j, v); }
  // the later bonds pk > pi: the last (end of j's bond row - pi - 1) entries of a built row
  PMD_HD static void range(int j, int pi, const StepView &v, int &first, int &last) {
    first = last = v.thb.end[pi];
    if (v.thb.end[pi] != v.thb.start[pi]) first = last - (v.bonds.end[j] - pi - 1);
  }
  PMD_HD static void before(int j, const StepView &v) { valence_centre_store(j, v); }
  PMD_HD static void item(int j, int pi, int s, const StepView &v) {
    valence_angle_item(j, pi, s, v);
  }
};

// All angles centred on owned atom j (other atoms return at once).
PMD_HD PMD_INLINE void valence_angles_atom(int j, const StepView &v) {
  angle_items_atom<ValenceAnglesItems>(j, v);
}

}  // namespace puremd
