// Which far pairs go into the bond list and the hydrogen-bond partner list:
// the inclusion rules of pair_style reaxff, shared by the host stage
// (host_bond_lists.cpp) and the CUDA count kernel (cuda_lists.cu).
//
// A far pair (i, j), j > i, stored in row i, is
//   a bond          when both atoms are typed, d <= bond_cut and the
//                   uncorrected bond order reaches bo_cut (stored in both rows);
//   an hbond entry  of an owned hydrogen (p_hbond 1) for an acceptor (p_hbond 2)
//                   within hbond_cut: in row i when i is the owned hydrogen
//                   (kPairHbondRow), in row j when j is an owned hydrogen and i
//                   an owned acceptor (kPairHbondNbr). Ghost hydrogens get no
//                   entries.
#pragma once

#include "puremd_gpu/lists.h"
#include "puremd_gpu/physics/bond_order.h"

namespace puremd {

enum PairListFlag : unsigned char {
  kPairBond = 1,
  kPairHbondRow = 2,  // hbond partner in the row of the far row's atom (the hydrogen)
  kPairHbondNbr = 4,  // hbond partner in the row of the far partner (the hydrogen)
};

// The per-row facts of the rules, computed once per far row.
struct PairListRow {
  int i, ti, hi;
  vec3 xi;
  bool hb_row;  // an owned hydrogen-bond donor hydrogen (1) or acceptor (2)
};

PMD_HD PMD_INLINE PairListRow pair_list_row(int i, const StepView &v) {
  const AtomsView &a = v.atoms;
  PairListRow r{i, a.type[i], 0, a.x[i], false};
  r.hi = r.ti >= 0 ? v.ff.sbp[r.ti].p_hbond : 0;
  r.hb_row = v.control.hbond_cut > 0 && i < a.n_local && (r.hi == 1 || r.hi == 2);
  return r;
}

// The hbond bit of the pair (r's atom, j of element tj) if it lies within
// hbond_cut (0: none): the hydrogen's row gets it, and only an owned one.
PMD_HD PMD_INLINE unsigned char pair_hbond_bit(const PairListRow &r, int j, int tj,
                                               const StepView &v) {
  if (!r.hb_row) return 0;
  const int hj = v.ff.sbp[tj].p_hbond;
  if (r.hi == 1 && hj == 2) return kPairHbondRow;
  if (j < v.atoms.n_local && r.hi == 2 && hj == 1) return kPairHbondNbr;
  return 0;
}

// The rules in two parts, so that a driver may take the costly one (the bond
// order of a pair within its bond_candidate_cut, a few percent of the far
// entries) apart: pair_list_entry gives the hbond bits and whether the entry
// is a bond candidate; pair_list_is_bond decides a candidate at distance d.
struct PairListEntry {
  unsigned char flags = 0;  // hbond bits
  bool bond_candidate = false;
  double d = 0.0;
};

PMD_HD PMD_INLINE PairListEntry pair_list_entry(const PairListRow &r, int j, const StepView &v) {
  PairListEntry e;
  if (r.ti < 0) return e;
  const int tj = v.atoms.type[j];
  if (tj < 0) return e;
  // Most far pairs lie beyond both cut-offs: they are left on |x_j - x_i|^2
  // (against a hair more than the cut-off, so the tests below on d decide).
  const double bond_cut = v.control.bond_cut, hbond_cut = v.control.hbond_cut;
  const double reach = r.hb_row ? fmax(bond_cut, hbond_cut) : bond_cut;
  const double d2 = norm2_host_rounding(v.atoms.x[j] - r.xi);
  if (!(d2 <= sqr(reach * (1.0 + 1e-12)))) return e;
  e.d = sqrt(d2);  // pair_geometry's d
  e.bond_candidate = e.d <= bond_candidate_cut(v.ff.two(r.ti, tj), bond_cut);
  if (e.d <= hbond_cut) e.flags = pair_hbond_bit(r, j, tj, v);
  return e;
}

// A bond candidate (pair_list_entry) j at distance d: a bond when its
// uncorrected bond order reaches bo_cut.
// BO' is evaluated only within the pair's bracket of the crossing
// (set_bond_bracket): the same decisions, without six transcendental calls
// for nearly every candidate.
PMD_HD PMD_INLINE bool pair_list_is_bond(const PairListRow &r, int j, double d, const StepView &v) {
  const int tj = v.atoms.type[j];
  const TwoBodyParams &t = v.ff.two(r.ti, tj);
  if (d < t.bond_sure) return true;
  if (t.bond_never > 0.0 && d >= t.bond_never) return false;
  const double bo_cut = v.control.bo_cut;
  return is_bond(bond_order_prime(v.ff.sbp[r.ti], v.ff.sbp[tj], t, d, bo_cut), bo_cut);
}

// The PairListFlag bits of the far pair (r's atom, j) (0: in neither list).
PMD_HD PMD_INLINE unsigned char pair_list_flags(const PairListRow &r, int j, const StepView &v) {
  const PairListEntry e = pair_list_entry(r, j, v);
  unsigned char f = e.flags;
  if (e.bond_candidate && pair_list_is_bond(r, j, e.d, v)) f |= kPairBond;
  return f;
}

// Whether the pair (r's atom, j) at squared distance d2 may get a non-zero
// pair_list_flags while each atom moves by less than margin / 2: within its
// bond reach (and bond_cut), or a hydrogen and an acceptor of the hbond rule
// within hbond_cut, plus the margin. The CUDA driver keeps these pairs of
// its Verlet list (cut-off + skin, margin = skin) once per build of that
// list, and looks for bonds and hbonds among them only.
PMD_HD PMD_INLINE bool pair_list_near(const PairListRow &r, int j, double d2, double margin,
                                      const StepView &v) {
  if (r.ti < 0) return false;
  const int tj = v.atoms.type[j];
  if (tj < 0) return false;
  double reach = bond_candidate_cut(v.ff.two(r.ti, tj), v.control.bond_cut);
  if (pair_hbond_bit(r, j, tj, v)) reach = fmax(reach, v.control.hbond_cut);
  reach += margin;
  // the square root only near the bound (where d2's rounding could decide)
  if (!(d2 <= sqr(reach * (1.0 + 1e-12)))) return false;
  return sqrt(d2) <= reach;
}

}  // namespace puremd
