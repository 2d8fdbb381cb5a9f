// fix qtpie/reaxff/gpu under `-k on`: its KOKKOS form (charge_fix_kokkos.h).
#include "charge_fix_kokkos.h"
#include "fix_qtpie_reaxff_gpu.h"

namespace {
const reaxff_gpu::KokkosChargeFix<LAMMPS_NS::FixQtpieReaxFFGPU> registered;
}  // namespace
