// fix qeq/rel/reaxff/gpu under `-k on`: its KOKKOS form (charge_fix_kokkos.h).
#include "charge_fix_kokkos.h"
#include "fix_qeq_rel_reaxff_gpu.h"

namespace {
const reaxff_gpu::KokkosChargeFix<LAMMPS_NS::FixQEqRelReaxFFGPU> registered;
}  // namespace
