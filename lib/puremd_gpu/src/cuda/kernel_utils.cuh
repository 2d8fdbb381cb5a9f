// Small device helpers shared by the CUDA driver's kernels: launch shapes,
// per-block energy slots, 64-bit warp-aggregated counters.
#pragma once

#include <cuda_runtime.h>

#include "cuda/cuda_context.h"
#include "puremd_gpu/lists.h"

namespace puremd::cuda {

constexpr int kAtomBlock = 128;    // threads per block of the one-thread-per-atom kernels
constexpr int kReduceBlock = 256;  // threads per block of the reductions

// Blocks of `block` threads for n items; at least one (a launch of none is an error).
inline unsigned blocks_for(long long n, int block) {
  return static_cast<unsigned>(n > 0 ? (n + block - 1) / block : 1);
}

// The energy terms add into one of kEnergySlots copies of Energies (one
// 128-byte line each, chosen by block) instead of a single struct, so that
// thousands of blocks do not serialise on the same 13 addresses. The slots
// are summed in a fixed order by the output stage.
__device__ __forceinline__ StepView with_energy_slot(const StepView &v) {
  StepView w = v;
  w.tally.energy = reinterpret_cast<Energies *>(reinterpret_cast<double *>(v.tally.energy) +
                                                kEnergySlotStride * (blockIdx.x % kEnergySlots));
  return w;
}

// Add `value` from every lane of the warp to *total with one atomic per warp.
// All 32 lanes must call it (threads beyond the range pass 0).
__device__ __forceinline__ void warp_add_total(unsigned long long *total,
                                               unsigned long long value) {
  for (int off = 16; off > 0; off >>= 1) value += __shfl_down_sync(0xffffffffu, value, off);
  if ((threadIdx.x & 31) == 0 && value) atomicAdd(total, value);
}

}  // namespace puremd::cuda
