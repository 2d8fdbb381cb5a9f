// The CUDA driver's entry points in a build without CUDA (src/cuda/ is not
// compiled then): callers link either way, and asking for the GPU gives an
// error that says why.
#if !defined(PUREMD_WITH_CUDA)
#include "common/driver_entry.h"
#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/errors.h"

namespace puremd {

std::unique_ptr<Engine> make_cuda_engine(const ForceField &, const Control &,
                                         const EngineSettings &) {
  throw InputError("the CUDA driver was requested but this build has no CUDA support");
}

bool cuda_device_available(std::string *why) {
  if (why) *why = "library built without CUDA";
  return false;
}

int select_cuda_device(const GpuAssignment &) { return -1; }
int current_cuda_device() { return -1; }
void check_cuda_code() {}

}  // namespace puremd
#endif
