// Half neighbour list over owned + ghost atoms by cell binning (host side).
#pragma once

#include <vector>

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

struct HalfNeighborList {
  std::vector<ListPos> start, end;  // row bounds, one row per atom (n_total rows)
  std::vector<int> nbr;             // partners only: pair_geometry (hd.h) gives x[nbr] - x[row]
  size_t cell_slots = 0;            // the last build's cell index entries (follows the atoms)
};

// Each pair (i, j) with i < j is stored once, in row i, when
// |x_j - x_i| <= (i < n_local ? cut_local : cut_ghost). Atoms with
// skip[i] != 0 (if skip is given) get no pairs. Row order is deterministic (cell order).
// Time and memory follow the atoms, not the space they span: a grid of cells
// where the atoms fill it, occupied cells by key where they do not (one atom
// far from the rest, a dilute gas, a shrink-wrapped box after a blow-up).
void build_half_neighbor_list(const vec3 *x, int n_local, int n_total, double cut_local,
                              double cut_ghost, const int *skip, HalfNeighborList &out);

}  // namespace puremd
