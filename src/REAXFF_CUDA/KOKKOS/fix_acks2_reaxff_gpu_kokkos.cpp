// fix acks2/reaxff/gpu under `-k on`: its KOKKOS form (charge_fix_kokkos.h).
#include "charge_fix_kokkos.h"
#include "fix_acks2_reaxff_gpu.h"

namespace {
const reaxff_gpu::KokkosChargeFix<LAMMPS_NS::FixAcks2ReaxFFGPU> registered;
}  // namespace
