#include "compute_reaxff_atom_gpu.h"

#include "atom_masks.h"
#include "error.h"
#include "kokkos_atoms.h"
#include "pair_reaxff_gpu.h"
#include "style_registry.h"

using namespace LAMMPS_NS;

ComputeReaxFFAtomGPU::ComputeReaxFFAtomGPU(LAMMPS *lmp, int narg, char **arg)
    : ComputeReaxFFAtom(lmp, narg, arg) {
  // (what LAMMPS's init asks of a compute beside a KOKKOS pair; it runs on
  // the host, as the analysis of the pair's bonds does)
  if (reaxff_gpu::kokkos_running(lmp)) {
    kokkosable = 1;
    execution_space = Host;
    datamask_read = TAG_MASK | MASK_MASK;
    datamask_modify = EMPTY_MASK;
  }
}

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
  // (invoked before any run has set it up, e.g. gathered through the library
  // after a failed run)
  if (!ours)
    error->all(FLERR, "Compute reaxff/atom/gpu is invoked before a run has set it up: run 0 first");
  // (LAMMPS's FindBond reads the owned atoms' tags and groups on the host)
  reaxff_gpu::host_arrays_current(lmp, TAG_MASK | MASK_MASK);
  ours->export_bond_table();
  ComputeReaxFFAtom::compute_bonds();
}

namespace {
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::compute_style(
    {"reaxff/atom/gpu"},
    "compute reaxff/atom for pair_style reaxff/gpu (bonds copied when invoked)",
    &reaxff_gpu::new_compute<ComputeReaxFFAtomGPU>)};
}  // namespace
