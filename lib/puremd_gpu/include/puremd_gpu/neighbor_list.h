// Half neighbour list over owned + ghost atoms by cell binning (host side).
#pragma once

#include <vector>

#include "puremd_gpu/hd.h"

namespace puremd {

struct HalfNeighborList {
  std::vector<int> start, end;  // row bounds, one row per atom (n_total rows)
  std::vector<int> nbr;         // partners only: pair_geometry (hd.h) gives x[nbr] - x[row]
};

// Each pair (i, j) with i < j is stored once, in row i, when
// |x_j - x_i| <= (i < n_local ? cut_local : cut_ghost). Atoms with
// skip[i] != 0 (if skip is given) get no pairs. Row order is deterministic (cell order).
void build_half_neighbor_list(const vec3 *x, int n_local, int n_total, double cut_local,
                              double cut_ghost, const int *skip, HalfNeighborList &out);

}  // namespace puremd
