// fix qeq/reaxff/gpu under `-k on`: its KOKKOS form (charge_fix_kokkos.h).
#include "charge_fix_kokkos.h"
#include "fix_qeq_reaxff_gpu.h"

namespace {
const reaxff_gpu::KokkosChargeFix<LAMMPS_NS::FixQEqReaxFFGPU> registered;
}  // namespace
