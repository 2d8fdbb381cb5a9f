// Which owned atom a ghost is an image of: the owned atom with the same id,
// or none (-1: another rank's atom). The one rule of both drivers (the CUDA
// solver's k_find_owners on the GPU, the host FSAI's columns through
// common/charges/ghost_owners.h). By id, not by the route the halo took: an
// image of this rank's own atom that LAMMPS brings through another rank (a
// sub-domain thinner than the cut-off) is still this rank's atom, and the
// matrix's pair rule (pair_ownership.h) needs both sides of such a pair to
// see it so, or the pair would be in neither owned row.
#pragma once

#include "puremd_gpu/hd.h"

namespace puremd {

// The owner of id `want` among the owned atoms whose ids are sorted_tag
// (ascending, n_local of them) with their indices sorted_idx; -1 if none.
PMD_HD PMD_INLINE int owner_by_id(const long long *sorted_tag, const int *sorted_idx, int n_local,
                                  long long want) {
  int lo = 0, hi = n_local;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (sorted_tag[mid] < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (lo < n_local && sorted_tag[lo] == want) ? sorted_idx[lo] : -1;
}

}  // namespace puremd
