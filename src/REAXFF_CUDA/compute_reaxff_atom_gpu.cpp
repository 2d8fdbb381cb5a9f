#include "compute_reaxff_atom_gpu.h"

#include "error.h"
#include "pair_reaxff_gpu.h"
#include "style_registry.h"

using namespace LAMMPS_NS;

void ComputeReaxFFAtomGPU::init() {
  ComputeReaxFFAtom::init();
  ours = dynamic_cast<PairReaxFFGPU *>(reaxff);
  if (!ours)
    error->all(FLERR,
               "Compute reaxff/atom/gpu needs pair_style reaxff/gpu; with pair_style {} use "
               "compute reaxff/atom",
               reaxff ? "reaxff" : "none");
}

// compute_local() and compute_peratom() both read the bonds through here.
void ComputeReaxFFAtomGPU::compute_bonds() {
  ours->export_bond_table();
  ComputeReaxFFAtom::compute_bonds();
}

namespace {
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::compute_style(
    {"reaxff/atom/gpu"},
    "compute reaxff/atom for pair_style reaxff/gpu (bonds copied when invoked)",
    &reaxff_gpu::new_compute<ComputeReaxFFAtomGPU>)};
}  // namespace
