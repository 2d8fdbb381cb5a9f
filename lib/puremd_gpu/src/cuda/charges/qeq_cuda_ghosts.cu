// Ghosts of the CUDA QEq solver. Every ghost gets its value on the GPU:
//   - a ghost that is an image of one of this rank's own atoms (found by id,
//     k_find_owners, once per reordering of the atoms): matrix columns that
//     are such ghosts are stored as their owner (the gather is the SpMV's
//     own) and the ghost rows are added into their owners by a deterministic
//     gather over an owner -> images map (qeq_cuda_matrix.cu) fused into the
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

#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

// Each ghost's owner: the owned atom with its id (ids of the owned atoms
// sorted, with their indices), or -1, counted.
__global__ void k_find_owners(const long long *sorted_tag, const int *sorted_idx, int n_local,
                              const long long *tag, int n_ghost, int *owner,
                              unsigned long long *slots) {
  const int g = blockIdx.x * kQEqBlock + threadIdx.x;
  if (g >= n_ghost) return;
  const long long want = tag[n_local + g];
  int lo = 0, hi = n_local;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (sorted_tag[mid] < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  const int o = (lo < n_local && sorted_tag[lo] == want) ? sorted_idx[lo] : -1;
  owner[g] = o;
  if (o < 0) atomicAdd(slots + kQEqNoOwner, 1ull);
}

// Ghost charges from their owners (device ghost refresh).
__global__ void k_ghost_charges(const int *owner, int n_local, int n_ghost, double *q) {
  const int g = blockIdx.x * kQEqBlock + threadIdx.x;
  if (g < n_ghost) q[n_local + g] = q[owner[g]];
}

}  // namespace

// Each ghost's owner on this rank (owner_dev_, -1 for another rank's atom),
// found by id on the GPU once per reordering of the atoms; on one rank a
// ghost without one is an error.
void CudaQEqSolver::find_ghost_owners(const QEqInput &in) {
  const int n = in.n_total, nl = in.n_local, n_ghost = n - nl;
  if (n_ghost == 0) {
    owners_of_ = -1;
    return;
  }
  if (in.atoms_reordered || owners_of_ != n || owners_nl_ != nl) {
    owners_of_ = -1;
    owner_dev_.reserve_discarding(n_ghost, kGrowHeadroom);
    tag_sorted_.reserve_discarding(nl, kGrowHeadroom);
    idx_sorted_.reserve_discarding(nl, kGrowHeadroom);
    if (nl > 0) {  // owned ids sorted with their indices (iota_, from k_prepare_atoms)
      sort_pairs(cub_tmp_, atoms_.tag, tag_sorted_.data(), iota_.data(), idx_sorted_.data(), nl, 64,
                 stream_);
    }
    k_find_owners<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
        tag_sorted_.data(), idx_sorted_.data(), nl, atoms_.tag, n_ghost, owner_dev_.data(),
        slots_.all());
    PMD_CUDA_CHECK_LAUNCH("k_find_owners", stream_);
    slots_.read(stream_, kQEqRows, kNumQEqSlots);
    owners_missing_ = slots_.value(kQEqNoOwner);
    owners_of_ = n;
    owners_nl_ = nl;
  }
  // (several ranks: the ghosts without an owner here are other ranks' atoms)
  if (!halo_mode_ && owners_missing_ > 0)
    throw RuntimeError(
        "QEq (CUDA): on one rank every ghost must be a periodic image of an owned "
        "atom (the same id), but " +
        std::to_string(owners_missing_) + " of " + std::to_string(n_ghost) +
        " ghosts have none; give the atoms of every rank's sub-domain, or run "
        "with QEqComm::size() > 1 and a halo that brings those ghosts");
}

// Ghost entries of a per-atom result from their owners: the halo exchange
// (several ranks: every rank joins it, ghosts or not), else the gather.
void CudaQEqSolver::refresh_ghost_charges(double *q, QEqComm &comm) {
  if (halo_mode_) {
    halo_.forward(q, comm);
    return;
  }
  const int n_ghost = n_total_ - n_local_;
  if (n_ghost <= 0) return;
  k_ghost_charges<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(owner_dev_.data(),
                                                                             n_local_, n_ghost, q);
  PMD_CUDA_CHECK_LAUNCH("k_ghost_charges", stream_);
}

// The solve's per-atom results into the caller's arrays, for every model:
// the owned atoms outside the rows keep the caller's values (uploaded
// first), set_rows writes the rows' on the GPU, the ghosts get their
// owners' values there, and everything (n_total each) comes home.
void CudaQEqSolver::results_home(const ResultHome *out, int count, QEqComm &comm,
                                 const std::function<void()> &set_rows) {
  const int n = n_total_, nl = n_local_, nr = n_rows_;
  if (nr == 0 && !halo_mode_ && n == nl) return;  // nothing set, no ghost to refresh
  if (nr < nl)
    for (int k = 0; k < count; ++k)
      PMD_CUDA_CHECK(cudaMemcpyAsync(out[k].dev->data(), out[k].host, nl * sizeof(double),
                                     kCallerCopy, stream_));
  if (nr > 0) set_rows();
  if (n > nl || halo_mode_)
    for (int k = 0; k < count; ++k) refresh_ghost_charges(out[k].dev->data(), comm);
  if (n > 0)
    for (int k = 0; k < count; ++k)
      PMD_CUDA_CHECK(cudaMemcpyAsync(out[k].host, out[k].dev->data(), n * sizeof(double),
                                     kCallerCopy, stream_));
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

}  // namespace puremd::cuda
