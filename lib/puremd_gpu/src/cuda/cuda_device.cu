// Device discovery (the CUDA driver's entry point is in cuda_engine.cu).
#include <cuda_runtime.h>

#include <string>

#include "common/driver_entry.h"
#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"

namespace puremd {

int select_cuda_device(const GpuAssignment &a) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return -1;
  }
  const int dev = gpu_for_rank(a, count);
  const cudaError_t err = cudaSetDevice(dev);
  if (err != cudaSuccess)
    throw RuntimeError(std::string("cudaSetDevice(") + std::to_string(dev) +
                       "): " + cudaGetErrorString(err));
  return dev;
}

int current_cuda_device() {
  int dev = -1;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return dev;
}

bool cuda_device_available(std::string *why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why) *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err);
    cudaGetLastError();  // clear the sticky error so later calls are not poisoned
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  if (why) *why = std::string(prop.name);
  return true;
}

}  // namespace puremd
