// The analysis styles' views of one owned atom's bonds, written once for both
// drivers (the rule of each is LAMMPS's; engine.h's BondRowRule names them):
//   Species: what PairReaxFF::FindBond gives fix reaxff/species (partners
//     j >= i whose corrected total bond order is at least cut), in ascending j;
//   Bonds: what fix reaxff/bonds's own FindBond writes (every partner whose
//     order is above cut, the bond_graph_cutoff), in the bond list's order.
//
// Species rows are in ascending j rather than in the bond list's order: the
// fix averages each slot (tmpbo[i][k]) over Nrepeat steps and takes the
// partner from the last step's slot, so a partner must keep its slot through
// the window. LAMMPS's atom indices stay put between re-neighbourings (which
// the fix moves to the windows' ends); our lists are rebuilt in an order that
// can change from step to step, so the slots are ordered by the index itself.
#pragma once

#include "puremd_gpu/engine.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

// Returns how many partners of row i qualify; writes them to j_out / bo_out
// while they fit in cap (cap 0: count only; the drivers count first, then
// fill with cap = count).
PMD_HD PMD_INLINE int bond_row(BondRowRule rule, const BondList &b, int i, double cut, int cap,
                               int *j_out, double *bo_out) {
  int count = 0;
  for (int p = b.start[i]; p < b.end[i]; ++p) {
    const int j = b.nbr[p];
    const double bo = b.bo[p].BO;
    if (rule == BondRowRule::Species ? (j < i || !(bo >= cut)) : !(bo > cut)) continue;
    if (count < cap) {
      int k = count;  // Species: insertion, keeping j ascending
      for (; rule == BondRowRule::Species && k > 0 && j_out[k - 1] > j; --k) {
        j_out[k] = j_out[k - 1];
        bo_out[k] = bo_out[k - 1];
      }
      j_out[k] = j;
      bo_out[k] = bo;
    }
    ++count;
  }
  return count;
}

}  // namespace puremd
