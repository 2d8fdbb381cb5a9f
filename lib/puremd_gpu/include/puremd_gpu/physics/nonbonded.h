// Non-bonded terms: tapered van der Waals (Morse-type, with optional shielding,
// inner wall and low-gradient dispersion) and shielded Coulomb over the far
// neighbour list, plus the charge polarization (self) energy.
//
// Conventions of LAMMPS's pair_style reaxff reproduced here:
//  - the vdW form is ForceFieldView::vdw_type (set by the reader as LAMMPS
//    does: from the first element, shielding when gamma_w > 0.5, inner wall
//    when rcore2 and acore2 both exceed 0.01);
//  - a pair (i owned, j) within nonb_cut is evaluated by i's rank when j is
//    owned, or when tag_i < tag_j, or for equal tags (i's own image) when
//    x_j - x_i points "up" (z, then y, then x, beyond 1e-4 A);
//  - the pair's energy goes half to each atom's per-atom energy;
//  - the Coulomb constant is 332.06371 kcal/mol A/e^2 and the polarization
//    energy is 23.02 (chi q + eta/2 q^2) with eta stored as the reader does
//    (twice the file's value, like LAMMPS).
#pragma once

#include "puremd_gpu/energies.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/long_range_table.h"
#include "puremd_gpu/physics/pair_ownership.h"
#include "puremd_gpu/physics/pair_term.h"
#include "puremd_gpu/physics/taper.h"

namespace puremd {

// Van der Waals variants (bit 0: shielding, bit 1: inner wall), as LAMMPS's
// reaxff numbers them; the force field reader stores the one the elements
// ask for in ForceField(View)::vdw_type.
enum VdwKind : int {
  kVdwPlain = 0,  // not a valid force field; evaluated as neither
  kVdwShielding = 1,
  kVdwInnerWall = 2,
  kVdwShieldingInnerWall = 3,
};

// The per-pair constants of TwoBodyParams that vdw_pair reads instead of
// dividing by parameters each evaluated pair (p_vdw1: general parameter 28).
// The force field reader calls it for every pair once the file is read.
PMD_HD PMD_INLINE void derive_vdw_constants(TwoBodyParams &p, double p_vdw1) {
  p.vdw_p = p_vdw1;
  p.vdw_inv_p = 1.0 / p_vdw1;
  p.vdw_shield = pow(1.0 / p.gamma_w, p_vdw1);
  p.alpha_over_r_vdW = p.alpha / p.r_vdW;
  p.acore_over_rcore = p.acore / p.rcore;
}

// Tapered van der Waals energy of one pair at distance r (inv_r = 1 / r), with
// the constants of derive_vdw_constants; tap, dtap = Tap(r), Tap'(r)/r.
// One division per pair (df13 / r), where the formulas as written take seven:
// a double division costs a dozen instructions on the GPU.
PMD_HD PMD_INLINE PairTerm vdw_pair(const TwoBodyParams &p, int kind, bool lgvdw, double r,
                                    double inv_r, double tap, double dtap) {
  double e_m, ce;
  if (kind & kVdwShielding) {
    // shielded distance f13 = (r^p + gamma_w^-p)^(1/p). Its derivative over r,
    // (r^p + gamma_w^-p)^(1/p - 1) r^(p - 2), and e1 = e2^2 are formed from the
    // powers already taken: three pow and one exp fewer per pair than written
    // out, the same values to round-off.
    const double rp = pow_positive(r, p.vdw_p);
    const double gp = p.vdw_shield;
    const double f13 = pow_positive(rp + gp, p.vdw_inv_p);
    const double e2 = exp(0.5 * p.alpha - 0.5 * p.alpha_over_r_vdW * f13);
    const double e1 = e2 * e2;
    e_m = p.D * (e1 - 2.0 * e2);
    const double df13_over_r = (f13 * rp) / ((rp + gp) * (r * r));
    ce = dtap * e_m - tap * p.D * p.alpha_over_r_vdW * (e1 - e2) * df13_over_r;
  } else {
    const double e2 = exp(0.5 * p.alpha - 0.5 * p.alpha_over_r_vdW * r);
    const double e1 = e2 * e2;
    e_m = p.D * (e1 - 2.0 * e2);
    ce = dtap * e_m - tap * p.D * p.alpha_over_r_vdW * (e1 - e2) * inv_r;
  }
  double e = tap * e_m;
  if (kind & kVdwInnerWall) {
    const double e_core = p.ecore * exp(p.acore - p.acore_over_rcore * r);
    const double de_core = -p.acore_over_rcore * e_core;
    e += tap * e_core;
    ce += dtap * e_core + tap * de_core * inv_r;
    if (lgvdw) {  // low-gradient dispersion -C / (r^6 + re^6)
      const double r2 = r * r, re2 = p.lgre * p.lgre;
      const double r5 = r2 * r2 * r;
      const double r6 = r5 * r;
      const double re6 = re2 * re2 * re2;
      const double e_lg = -(p.lgcij / (r6 + re6));
      const double de_lg = -6.0 * e_lg * r5 / (r6 + re6);
      e += tap * e_lg;
      ce += dtap * e_lg + tap * de_lg * inv_r;
    }
  }
  return PairTerm{e, ce};
}

// Tapered shielded Coulomb energy C q_i q_j Tap(r) / (r^3 + gamma)^(1/3), with
// gamma = TwoBodyParams::gamma. Pass q_i = q_j = 1 for the per-charge value.
PMD_HD PMD_INLINE PairTerm coulomb_pair(double gamma, double qi, double qj, double r, double tap,
                                        double dtap) {
  const double s = r * r * r + gamma;
  // ReaxFF's codes take s^0.33333333333333 (a truncated 1/3); the cube root
  // differs from it by a factor s^(3.3e-15), 2e-14 at most within 10 A: far
  // below the agreement asked of the energies, at a third of pow's cost.
  const double inv13 = inv_cbrt(s);
  const double cqq = kCoulombCele * qi * qj;
  return PairTerm{cqq * tap * inv13, cqq * (dtap - tap * r * (inv13 * inv13 * inv13)) * inv13};
}

// Ownership rule for a far pair (i owned, j = any) found in i's row.
PMD_HD PMD_INLINE bool nonbonded_pair_is_mine(int j, int n_local, long long tag_i, long long tag_j,
                                              vec3 d) {
  return j < n_local || ghost_pair_is_mine(tag_i, tag_j, d);
}

// vdW + Coulomb of owned atom i with the pairs of its far-neighbour row, in
// three parts so that a driver may split a row over several threads:
// nonbonded_row (what the row's pairs share), nonbonded_pair (one far entry;
// partner-side tallies go straight out) and nonbonded_row_finish (atom i's
// sums, which are plain doubles and may be added up from partial sums).
// Analytic, or by spline look-up when v.lr is set. Reference atom: i.
struct NonbondedRow {
  bool active = false;  // false: i has no nonbonded pairs to evaluate
  bool do_vdw = false, do_ele = false;
  int i = 0, ti = 0;
  // the row's far entries: partners[first .. last), counted from the row's
  // start (a 32-bit count; the list's 64-bit position sits in the pointer)
  const int *partners = nullptr;
  int first = 0, last = 0;
  double qi = 0.0;
  vec3 xi{};
  long long tag_i = 0;
};

struct NonbondedSums {
  double e_vdw, e_ele;
  vec3 grad_i;
};

PMD_HD PMD_INLINE NonbondedRow nonbonded_row(int i, const StepView &v) {
  NonbondedRow r;
  r.do_vdw = v.tally.on(kTermVdw);
  r.do_ele = v.tally.on(kTermCoulomb);
  const AtomsView &a = v.atoms;
  if ((!r.do_vdw && !r.do_ele) || i >= a.n_local) return r;
  r.ti = a.type[i];
  if (r.ti < 0) return r;
  r.active = true;
  r.i = i;
  const ListPos start = v.far.start[i];
  r.partners = v.far.nbr + start;
  r.last = static_cast<int>(v.far.end[i] - start);
  r.qi = a.q[i];
  r.xi = a.x[i];
  r.tag_i = a.tag[i];
  return r;
}

PMD_HD PMD_INLINE void nonbonded_pair(const NonbondedRow &r, int p, const StepView &v,
                                      NonbondedSums &s) {
  const AtomsView &a = v.atoms;
  const int j = r.partners[p];
  // the distance first: rows may hold partners beyond the cut-off (lists.h)
  const PairGeometry geo = pair_geometry(r.xi, a.x[j]);
  const double rij = geo.d;
  if (rij > v.control.nonb_cut) return;
  const int tj = a.type[j];
  if (tj < 0) return;
  const vec3 d = geo.dvec;
  if (!nonbonded_pair_is_mine(j, a.n_local, r.tag_i, a.tag[j], d)) return;

  double e_vdw = 0.0, ce_vdw = 0.0, e_ele = 0.0, ce_ele = 0.0;
  if (v.lr) {
    const LongRangeValues lr = long_range_lookup(v.lr[r.ti * v.ff.num_types + tj], rij);
    if (r.do_vdw) {
      e_vdw = lr.e_vdw;
      ce_vdw = lr.ce_vdw;
    }
    if (r.do_ele) {
      const double qq = r.qi * a.q[j];
      e_ele = lr.e_ele * qq;
      ce_ele = lr.ce_ele * qq;
    }
  } else {
    double tap, dtap;
    const double inv_r = 1.0 / rij;
    taper_eval(v.nonb_taper, rij, inv_r, tap, dtap);
    const TwoBodyParams &tb = v.ff.two(r.ti, tj);
    if (r.do_vdw) {
      const PairTerm t = vdw_pair(tb, v.ff.vdw_type, v.control.lgvdw, rij, inv_r, tap, dtap);
      e_vdw = t.e;
      ce_vdw = t.ce;
    }
    if (r.do_ele) {
      const PairTerm t = coulomb_pair(tb.gamma, r.qi, a.q[j], rij, tap, dtap);
      e_ele = t.e;
      ce_ele = t.ce;
    }
  }
  if (r.do_ele && a.u) {  // ACKS2's bond-softness term, counted as Coulomb (as reaxff does)
    const double bcut = acks2_pair_cutoff(v.ff.sbp[r.ti].bcut_acks2, v.ff.sbp[tj].bcut_acks2);
    const PairTerm t = acks2_pair(rij, bcut, v.ff.gp[kAcks2SoftnessParam], a.u[r.i] - a.u[j]);
    e_ele += t.e;
    ce_ele += t.ce;
  }

  s.e_vdw += e_vdw;
  s.e_ele += e_ele;
  const double half = 0.5 * (e_vdw + e_ele);
  v.tally.add_eatom(r.i, half);
  v.tally.add_eatom(j, half);
  const vec3 g = (ce_vdw + ce_ele) * d;  // dE/dx_j
  s.grad_i -= g;
  v.tally.add_grad(j, g, r.i);
}

PMD_HD PMD_INLINE void nonbonded_row_finish(const NonbondedRow &r, const NonbondedSums &s,
                                            const StepView &v) {
  if (!r.active) return;
  v.tally.add_grad(r.i, s.grad_i, r.i);
  if (r.do_vdw) v.tally.add_energy(&v.tally.energy->e_vdW, s.e_vdw);
  if (r.do_ele) v.tally.add_energy(&v.tally.energy->e_ele, s.e_ele);
}

PMD_HD PMD_INLINE void nonbonded_atom(int i, const StepView &v) {
  const NonbondedRow r = nonbonded_row(i, v);
  if (!r.active) return;
  NonbondedSums s{0.0, 0.0, make_vec3(0.0, 0.0, 0.0)};
  for (int p = r.first; p < r.last; ++p) nonbonded_pair(r, p, v, s);
  nonbonded_row_finish(r, s, v);
}

// Polarization (self) energy of one atom with charge q, kcal/mol.
PMD_HD PMD_INLINE double polarization_energy(const SingleBodyParams &s, double q) {
  return kPolarizationEvToKcal * (s.chi * q + (s.eta / 2.0) * (q * q));
}

// Polarization energy of owned atom i (no gradient: it depends on q and,
// with ACKS2, u only).
PMD_HD PMD_INLINE void polarization_atom(int i, const StepView &v) {
  if (!v.tally.on(kTermPolarization)) return;
  const AtomsView &a = v.atoms;
  if (i >= a.n_local) return;
  const int ti = a.type[i];
  if (ti < 0) return;
  double e = polarization_energy(v.ff.sbp[ti], a.q[i]);
  if (a.u) e += acks2_polarization(a.q[i], a.u[i]);
  v.tally.add_energy(&v.tally.energy->e_pol, e);
  v.tally.add_eatom(i, e);
}

}  // namespace puremd
