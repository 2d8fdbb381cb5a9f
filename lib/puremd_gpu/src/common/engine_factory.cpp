#include "host/host_engine.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"

namespace puremd {

// The CUDA driver (src/cuda/cuda_engine.cu) runs the whole step on the GPU,
// so Driver::Auto may pick it whenever the build has CUDA and a GPU is found.
#if defined(PUREMD_WITH_CUDA) && !defined(PUREMD_CUDA_DRIVER_COMPLETE)
#define PUREMD_CUDA_DRIVER_COMPLETE 1
#endif

#if defined(PUREMD_CUDA_DRIVER_COMPLETE)
constexpr bool kCudaDriverComplete = true;
#else
constexpr bool kCudaDriverComplete = false;
#endif

#if defined(PUREMD_WITH_CUDA)
std::unique_ptr<Engine> make_cuda_engine(const ForceField &ff, const Control &control);
bool cuda_device_available(std::string *why);
#endif

bool cuda_available(std::string *why) {
#if defined(PUREMD_WITH_CUDA)
  return cuda_device_available(why);
#else
  if (why) *why = "library built without CUDA";
  return false;
#endif
}

std::unique_ptr<Engine> make_engine(Driver driver, const ForceField &ff, const Control &control) {
  // Auto picks the GPU once the CUDA driver covers the whole step.
  if (driver == Driver::Auto)
    driver = kCudaDriverComplete && cuda_available(nullptr) ? Driver::Cuda : Driver::Host;
  if (driver == Driver::Cuda) {
#if defined(PUREMD_WITH_CUDA)
    return make_cuda_engine(ff, control);
#else
    throw InputError("the CUDA driver was requested but this build has no CUDA support");
#endif
  }
  return std::make_unique<host::HostEngine>(ff, control);
}

}  // namespace puremd
