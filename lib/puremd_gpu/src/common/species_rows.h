// fix reaxff/species's view of one atom's bonds, written once for both
// drivers: what LAMMPS's PairReaxFF::FindBond gives it (partners j >= i whose
// corrected total bond order is at least min_bo), in ascending j.
//
// Ascending j rather than the order of the engine's bond list: the fix
// averages each slot (tmpbo[i][k]) over Nrepeat steps and takes the partner
// from the last step's slot, so a partner must keep its slot through the
// window. LAMMPS's atom indices stay put between re-neighbourings (which the
// fix moves to the windows' ends); our lists are rebuilt in an order that can
// change from step to step, so the slots are ordered by the index itself.
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

// Returns how many partners of row i qualify; writes them to j_out / bo_out
// (ascending j) while they fit in cap (cap 0: count only; the drivers count
// first, then fill with cap = count).
PMD_HD PMD_INLINE int species_row(const BondList &b, int i, double min_bo, int cap, int *j_out,
                                  double *bo_out) {
  int count = 0;
  for (int p = b.start[i]; p < b.end[i]; ++p) {
    const int j = b.nbr[p];
    const double bo = b.bo[p].BO;
    if (j < i || !(bo >= min_bo)) continue;
    if (count < cap) {  // insertion, keeping j ascending
      int k = count;
      for (; k > 0 && j_out[k - 1] > j; --k) {
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
