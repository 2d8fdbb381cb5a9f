// Device discovery (the CUDA driver's entry point is in cuda_engine.cu).
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>

#include "common/driver_entry.h"
#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"

namespace puremd {
namespace {
__global__ void k_architecture_probe() {}
}  // namespace

// The architectures this library was compiled for (CMAKE_CUDA_ARCHITECTURES).
#ifndef PUREMD_CUDA_ARCHITECTURES
#define PUREMD_CUDA_ARCHITECTURES "unknown"
#endif

void check_cuda_code() {
  int count = 0, dev = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
      cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, k_architecture_probe);
  if (e == cudaSuccess) return;
  cudaGetLastError();
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, dev);
  const std::string arch = std::to_string(prop.major) + std::to_string(prop.minor);
  if (e == cudaErrorUnsupportedPtxVersion || e == cudaErrorInvalidPtx)
    // PTX only for this GPU, newer than the driver can compile
    throw RuntimeError(std::string("GPU ") + std::to_string(dev) + " (" + prop.name + ", sm_" +
                       arch + ") has only this build's PTX, which its driver cannot compile (" +
                       cudaGetErrorString(e) +
                       "): update the NVIDIA driver, or rebuild with "
                       "-DCMAKE_CUDA_ARCHITECTURES=" +
                       arch + " (built with " PUREMD_CUDA_ARCHITECTURES ")");
  if (e != cudaErrorInvalidDeviceFunction && e != cudaErrorNoKernelImageForDevice)
    // e.g. a fault earlier in this process, which stays with the context
    throw RuntimeError(std::string("GPU ") + std::to_string(dev) + " (" + prop.name + ", sm_" +
                       arch + ") is unusable: " + cudaGetErrorString(e));
  throw RuntimeError(std::string("this build has no GPU code for GPU ") + std::to_string(dev) +
                     " (" + prop.name + ", sm_" + arch +
                     "): it was built with "
                     "CMAKE_CUDA_ARCHITECTURES=" PUREMD_CUDA_ARCHITECTURES
                     "; rebuild with "
                     "-DCMAKE_CUDA_ARCHITECTURES=" +
                     arch + " (or a list that holds " + arch +
                     ", e.g. the default \"80-real;86-real;89-real;90\")");
}

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

// Why there is no GPU, in words a user can act on. Without any NVIDIA driver
// the runtime reports cudaErrorInsufficientDriver, which reads as "update
// your driver": that is said only when a driver is there (libcuda loads).
static std::string no_gpu_reason(cudaError_t err) {
  const std::string detail = std::string(" (cudaGetDeviceCount: ") + cudaGetErrorString(err) + ")";
  if (err == cudaErrorNoDevice) return "no NVIDIA GPU found" + detail;
  if (err == cudaErrorInsufficientDriver) {
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver) return "no NVIDIA GPU or driver found (libcuda.so.1 is not installed)";
    dlclose(driver);
    return "the NVIDIA driver is older than the CUDA runtime this plugin was built with" + detail +
           ": update the driver";
  }
  return "cudaGetDeviceCount: " + std::string(cudaGetErrorString(err));
}

bool cuda_device_available(std::string *why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why) *why = no_gpu_reason(err);
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
