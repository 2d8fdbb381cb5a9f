// The one way the CUDA driver brings small device results home: N named
// 64-bit slots (an enum's values) that kernels add to, lower or flag (a
// list's total, a count, the lowest bad index, error bits), cleared on the
// stream and copied home in one copy and one wait. The engine's list builds
// own one (TotalSlot, cuda_context.h), the QEq solver another (QEqSlot,
// qeq_cuda_types.h); each reads its slots with one call where a decision
// waits on them (build_lists: the totals of one count; the QEq solver: the
// matrix's size with the input's checks).
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_buffer.h"

namespace puremd::cuda {

// What a slot that keeps the lowest index holds while none was written: a
// clear() with byte 0x7f (above any index an atomicMin can bring).
constexpr unsigned long long kNoIndex = 0x7f7f7f7f7f7f7f7full;

template <class Slot, int N>
class Readback {
 public:
  Readback(const char *name, MemoryTracker *mem) : dev_(name, mem), host_(name) {}
  // Both copies' room, once before the first use.
  void reserve() {
    dev_.reserve_discarding(N);
    host_.reserve_discarding(N);
  }
  // Every slot, indexed by the enum (for a kernel that writes several).
  unsigned long long *all() const { return dev_.data(); }
  // A slot's device address (adjacent slots follow it in the enum's order).
  unsigned long long *at(Slot s) const { return dev_.data() + s; }
  // Slots first .. first + count - 1 set, every byte to `byte` (0: zero).
  void clear(cudaStream_t st, Slot first, int count = 1, int byte = 0) const {
    PMD_CUDA_CHECK(cudaMemsetAsync(at(first), byte, count * sizeof(unsigned long long), st));
  }
  // Slots first .. first + count - 1 copied home; waits for the stream.
  void read(cudaStream_t st, Slot first, int count = 1) const {
    PMD_CUDA_CHECK(cudaMemcpyAsync(host_.data() + first, at(first),
                                   count * sizeof(unsigned long long), cudaMemcpyDeviceToHost, st));
    PMD_CUDA_CHECK(cudaStreamSynchronize(st));
  }
  // A slot as the last read() of it brought it.
  unsigned long long operator[](Slot s) const { return host_[s]; }
  // The same, a signed value a kernel stored (a type, an index).
  long long value(Slot s) const { return static_cast<long long>(host_[s]); }

 private:
  DeviceArray<unsigned long long> dev_;
  PinnedArray<unsigned long long> host_;
};

}  // namespace puremd::cuda
