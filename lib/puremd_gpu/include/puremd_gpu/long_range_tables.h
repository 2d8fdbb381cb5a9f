// Host builder of the cubic-spline tables for the tapered van der Waals and
// Coulomb terms (control tabulate_long_range > 0); looked up by
// physics/long_range_table.h.
#pragma once

#include <vector>

#include "puremd_gpu/control.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/lists.h"

namespace puremd {

// Fills `tables` with num_types^2 entries, [ti * num_types + tj] (symmetric:
// both orders share one set of coefficients), sampled on the grid
// m * nonb_cut / tabulate, m = 1 .. tabulate, exactly as LAMMPS's pair_style
// reaxff builds its tables (so that tabulated results agree with it).
//
// Every table's four coefficient arrays (vdW, CEvd, ele, CEclmb, n entries
// each) point into `coefs`, which is resized here and must not be resized or
// copied afterwards without re-pointing. A device copy can rebase each pointer
// by its offset from coefs.data().
//
// `used` (optional, num_types entries): build only pairs of used elements;
// other tables get n = 0 and null arrays. Empty = all element pairs.
// Throws InputError when control.tabulate <= 0 or nonb_cut <= nonb_low.
void build_long_range_tables(const ForceField &ff, const Control &control,
                             std::vector<LongRangeTable> &tables, std::vector<CubicCoef> &coefs,
                             const std::vector<bool> &used = {});

}  // namespace puremd
