/* The per-array device memory at the peak of a run, as pair_style
   reaxff/gpu and fix qeq/reaxff/gpu print it with `timing yes`. */
#ifndef LMP_REAXFF_GPU_MEMORY_REPORT_H
#define LMP_REAXFF_GPU_MEMORY_REPORT_H

#include <string>

#include "puremd_gpu/memory_table.h"

namespace LAMMPS_NS {

// "<who> peak device memory X MB = Y KB/atom (N owned+ghost), by array:"
// then one line per array of at least 0.5 % of the peak, largest first,
// and the rest in one line. Empty for an empty table.
std::string memory_report(const std::string &who, const puremd::MemoryTable &table, int n_atoms);

}  // namespace LAMMPS_NS

#endif
