// Which driver runs: the one asked for, or with Driver::Auto the CUDA driver
// whenever this build has it and a GPU is usable, else the host reference.
#include "common/driver_entry.h"
#include "puremd_gpu/engine.h"

namespace puremd {

bool cuda_available(std::string *why) { return cuda_device_available(why); }

std::unique_ptr<Engine> make_engine(Driver driver, const ForceField &ff, const Control &control,
                                    const EngineSettings &settings) {
  if (driver == Driver::Auto) driver = cuda_available(nullptr) ? Driver::Cuda : Driver::Host;
  if (driver == Driver::Cuda) return make_cuda_engine(ff, control, settings);
  return make_host_engine(ff, control, settings);
}

}  // namespace puremd
