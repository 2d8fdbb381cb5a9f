// The CUDA QEq solver's ghosts of this rank's own atoms (qeq_cuda_ghost_map.cu
// says how they are used): each ghost's owner, found by id once per
// reordering of the atoms, and the owner -> images map that folds ghost rows
// into their owners after each product. One owner for these arrays; the
// solver (qeq_cuda_solver.h) composes it.
#pragma once

#include <cuda_runtime.h>

#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/device_buffer.h"
#include "cuda/engine_atoms.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

class CudaGhostMap {
 public:
  // On the solver's stream, memory tracker, CUB scratch and read-back slots.
  CudaGhostMap(cudaStream_t stream, MemoryTracker &mem, DeviceArray<unsigned char> &cub_scratch,
               Readback<QEqSlot, kNumQEqSlots> &slots)
      : stream_(stream), mem_(mem), cub_tmp_(cub_scratch), slots_(slots) {}

  // Each ghost's owner on this rank (-1: another rank's atom), by id, kept
  // until the atoms are reordered or their counts change; `iota` holds the
  // owned indices 0..n_local-1. One rank (`several_ranks` false): a ghost
  // without an owner here is a RuntimeError.
  void find_owners(const QEqInput &in, const EngineAtoms &atoms, const int *iota,
                   bool several_ranks);
  // per ghost (n_total - n_local; null without ghosts): its owner or -1
  const int *owners(int n_local, int n_total) const {
    return n_total > n_local ? owner_.data() : nullptr;
  }
  // Ghost entries of q (n_total) from their owners, on the GPU (one rank).
  void gather(double *q, int n_local, int n_total);

  // The fold's map for the ghost rows that have entries: row_count is the
  // stored matrix's per-row count, or a model's own (int).
  void build_image_map(const long long *row_count, int n_local, int n_total);
  void build_image_map(const int *row_count, int n_local, int n_total);
  ImageMap image_map() const {
    return ImageMap{img_start_.data(), img_end_.data(), img_idx_.data()};
  }

 private:
  template <class Count>
  void build_map(const Count *row_count, int n_local, int n_total);

  cudaStream_t stream_;
  MemoryTracker &mem_;
  DeviceArray<unsigned char> &cub_tmp_;
  Readback<QEqSlot, kNumQEqSlots> &slots_;
  // owners found for n_total owners_of_ (-1: none kept) and n_local
  // owners_nl_; the ghosts without one on this rank
  int owners_of_ = -1, owners_nl_ = 0;
  long long owners_missing_ = 0;
  DeviceArray<int> owner_{"QEq: ghost owners", &mem_};
  DeviceArray<long long> tag_sorted_{"QEq: sorted owned ids", &mem_};
  DeviceArray<int> key_{"QEq: sort keys", &mem_}, key_sorted_{"QEq: sorted keys", &mem_},
      idx_{"QEq: sort values", &mem_}, idx_sorted_{"QEq: sorted values", &mem_};
  DeviceArray<int> img_start_{"QEq: ghost image starts", &mem_},
      img_end_{"QEq: ghost image ends", &mem_}, img_idx_{"QEq: ghost images", &mem_};
};

}  // namespace puremd::cuda
