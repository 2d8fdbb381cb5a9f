// Ghosts of the CUDA QEq solver (CudaGhostMap, qeq_cuda_ghost_map.h, and the
// solver's halo). Every ghost gets its value on the GPU:
//   - a ghost that is an image of one of this rank's own atoms (found by id,
//     k_find_owners, once per reordering of the atoms): matrix columns that
//     are such ghosts are stored as their owner (the gather is the SpMV's
//     own) and the ghost rows are added into their owners by a deterministic
//     gather over an owner -> images map (build_image_map) fused into the
//     next reduction. That is a local fold, no communication;
//   - several ranks (QEqComm::size() > 1): another rank's atom gets its value
//     through the halo exchange (halo_exchange.h, QEqComm::halo) before each
//     product, its pairs kept in full in the owned rows (nothing goes back);
//     the final charges of every ghost come through the exchange too;
//   - one rank: every ghost must be an image of an owned atom (else a
//     RuntimeError); no exchange runs during CG, the final charges of the
//     ghosts are a gather from their owners.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cuda/charges/qeq_cuda_ghost_map.h"
#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/ghost_owner.h"

namespace puremd::cuda {
namespace {

// Each ghost's owner by the one rule (physics/ghost_owner.h; the owned
// atoms' ids sorted, with their indices), or -1, counted.
__global__ void k_find_owners(const long long *sorted_tag, const int *sorted_idx, int n_local,
                              const long long *tag, int n_ghost, int *owner,
                              unsigned long long *slots) {
  const int g = blockIdx.x * kQEqBlock + threadIdx.x;
  if (g >= n_ghost) return;
  const int o = owner_by_id(sorted_tag, sorted_idx, n_local, tag[n_local + g]);
  owner[g] = o;
  if (o < 0) atomicAdd(slots + kQEqNoOwner, 1ull);
}

// Ghost charges from their owners (device ghost refresh).
__global__ void k_ghost_charges(const int *owner, int n_local, int n_ghost, double *q) {
  const int g = blockIdx.x * kQEqBlock + threadIdx.x;
  if (g < n_ghost) q[n_local + g] = q[owner[g]];
}

// Segment bounds of sorted keys: [start[k], end[k]) holds key k (k < nseg);
// start and end must be zero on entry.
__global__ void k_segment_bounds(const int *key, int n, int nseg, int *start, int *end) {
  const int p = blockIdx.x * kQEqBlock + threadIdx.x;
  if (p >= n) return;
  const int k = key[p];
  if (k < 0 || k >= nseg) return;
  if (p == 0 || key[p - 1] != k) start[k] = p;
  if (p == n - 1 || key[p + 1] != k) end[k] = p + 1;
}

// Owner -> images map key per ghost: the owner if the ghost row has entries,
// else n_local (sorted past every owner).
template <class Count>
__global__ void k_image_keys(const int *owner, const Count *row_count, int n_local, int n_ghost,
                             int *key, int *idx) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_ghost) return;
  key[k] = row_count[n_local + k] > 0 ? owner[k] : n_local;
  idx[k] = n_local + k;
}

int bits_for(int max_value) {
  int b = 1;
  while (b < 31 && (1ll << b) <= max_value) ++b;
  return b;
}

}  // namespace

// Each ghost's owner on this rank (-1 for another rank's atom), found by id
// on the GPU once per reordering of the atoms; on one rank a ghost without
// one is an error.
void CudaGhostMap::find_owners(const QEqInput &in, const EngineAtoms &atoms, const int *iota,
                               bool several_ranks) {
  const int n = in.n_total, nl = in.n_local, n_ghost = n - nl;
  if (n_ghost == 0) {
    owners_of_ = -1;
    return;
  }
  if (in.atoms_reordered || owners_of_ != n || owners_nl_ != nl) {
    owners_of_ = -1;
    owner_.reserve_discarding(n_ghost, kGrowHeadroom);
    tag_sorted_.reserve_discarding(nl, kGrowHeadroom);
    idx_sorted_.reserve_discarding(nl, kGrowHeadroom);
    if (nl > 0)  // owned ids sorted with their indices
      sort_pairs(cub_tmp_, atoms.tag, tag_sorted_.data(), iota, idx_sorted_.data(), nl, 64,
                 stream_);
    k_find_owners<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
        tag_sorted_.data(), idx_sorted_.data(), nl, atoms.tag, n_ghost, owner_.data(),
        slots_.all());
    PMD_CUDA_CHECK_LAUNCH("k_find_owners", stream_);
    slots_.read(stream_, kQEqRows, kNumQEqSlots);
    owners_missing_ = slots_.value(kQEqNoOwner);
    owners_of_ = n;
    owners_nl_ = nl;
  }
  // (several ranks: the ghosts without an owner here are other ranks' atoms)
  if (!several_ranks && owners_missing_ > 0)
    throw RuntimeError(
        "QEq (CUDA): on one rank every ghost must be a periodic image of an owned "
        "atom (the same id), but " +
        std::to_string(owners_missing_) + " of " + std::to_string(n_ghost) +
        " ghosts have none; give the atoms of every rank's sub-domain, or run "
        "with QEqComm::size() > 1 and a halo that brings those ghosts");
}

// Ghost entries of q from their owners: a gather.
void CudaGhostMap::gather(double *q, int n_local, int n_total) {
  const int n_ghost = n_total - n_local;
  if (n_ghost <= 0) return;
  k_ghost_charges<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(owner_.data(), n_local,
                                                                             n_ghost, q);
  PMD_CUDA_CHECK_LAUNCH("k_ghost_charges", stream_);
}

// The fold of ghost rows: for each owner, its images whose rows have entries,
// by ascending ghost index (a deterministic sum). A matrix with each pair
// once has no ghost rows: its product scatters to the owners' columns.
template <class Count>
void CudaGhostMap::build_map(const Count *row_count, int n_local, int n_total) {
  const int n = n_total, nl = n_local, n_ghost = n - nl;
  img_start_.reserve_discarding(nl, kGrowHeadroom);
  img_end_.reserve_discarding(nl, kGrowHeadroom);
  img_idx_.reserve_discarding(n_ghost, kGrowHeadroom);
  key_.reserve_discarding(n_ghost, kGrowHeadroom);
  key_sorted_.reserve_discarding(n_ghost, kGrowHeadroom);
  idx_.reserve_discarding(n_ghost, kGrowHeadroom);
  if (nl > 0) {
    PMD_CUDA_CHECK(cudaMemsetAsync(img_start_.data(), 0, nl * sizeof(int), stream_));
    PMD_CUDA_CHECK(cudaMemsetAsync(img_end_.data(), 0, nl * sizeof(int), stream_));
  }
  if (n_ghost <= 0) return;
  k_image_keys<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
      owner_.data(), row_count, nl, n_ghost, key_.data(), idx_.data());
  PMD_CUDA_CHECK_LAUNCH("k_image_keys", stream_);
  sort_pairs(cub_tmp_, key_.data(), key_sorted_.data(), idx_.data(), img_idx_.data(), n_ghost,
             bits_for(nl), stream_);
  k_segment_bounds<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
      key_sorted_.data(), n_ghost, nl, img_start_.data(), img_end_.data());
  PMD_CUDA_CHECK_LAUNCH("k_segment_bounds(images)", stream_);
}

void CudaGhostMap::build_image_map(const long long *row_count, int n_local, int n_total) {
  build_map(row_count, n_local, n_total);
}
void CudaGhostMap::build_image_map(const int *row_count, int n_local, int n_total) {
  build_map(row_count, n_local, n_total);
}

}  // namespace puremd::cuda
