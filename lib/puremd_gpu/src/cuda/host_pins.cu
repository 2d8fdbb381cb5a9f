// See host_pins.h.
#include <cuda_runtime.h>

#include <cstdio>

#include "cuda/device_buffer.h"
#include "cuda/host_pins.h"

namespace puremd::cuda {
namespace {

// Below this an array is not worth pinning (and may share pages with others).
constexpr std::size_t kMinPinnedBytes = std::size_t(1) << 20;

}  // namespace

HostPins::~HostPins() {
  for (Entry &e : slots_) release(e);
}

void HostPins::release(Entry &e) {
  if (e.pinned) {
    cudaHostUnregister(const_cast<void *>(e.p));
    cudaGetLastError();  // a caller that freed the array first leaves nothing to undo
  }
  e = Entry{};
}

void HostPins::follow(int capacity, const void *x, const void *q) {
  if (capacity == capacity_ && x == x_ && q == q_) return;
  for (Entry &e : slots_) release(e);
  capacity_ = capacity;
  x_ = x;
  q_ = q;
}

void HostPins::keep(Slot slot, const void *p, std::size_t bytes) {
  Entry &e = slots_[slot];
  if (p == e.p && bytes == e.bytes) return;
  release(e);
  e.p = p;
  e.bytes = bytes;
  if (!p || bytes < kMinPinnedBytes) return;
  // Refused (another engine of this process may have pinned it already), the
  // array stays as it is: nothing of ours to undo later.
  const cudaError_t err = cudaHostRegister(const_cast<void *>(p), bytes, cudaHostRegisterDefault);
  e.pinned = err == cudaSuccess;
  if (!e.pinned) {
    cudaGetLastError();
    if (debug_mode() && err != cudaErrorHostMemoryAlreadyRegistered)
      std::fprintf(stderr, "[reaxff/gpu] host array of %zu bytes left pageable: %s\n", bytes,
                   cudaGetErrorString(err));
  }
}

}  // namespace puremd::cuda
