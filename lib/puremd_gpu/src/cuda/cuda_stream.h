// The CUDA driver's one stream, owned by the engine (its charge stage runs
// on it too).
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_buffer.h"

namespace puremd::cuda {

class CudaStream {
 public:
  CudaStream() { PMD_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CudaStream() {
    cudaStreamSynchronize(stream_);  // errors ignored: may follow a device fault
    cudaStreamDestroy(stream_);
  }
  CudaStream(const CudaStream &) = delete;
  CudaStream &operator=(const CudaStream &) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace puremd::cuda
