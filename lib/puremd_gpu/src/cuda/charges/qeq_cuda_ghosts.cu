// Ghosts of the CUDA QEq solver. Per CG iteration:
//   - halo mode (several ranks, QEqComm::halo): as the device path for the
//     ghosts of this rank's atoms (found by id); the other ranks' atoms get
//     their values through the halo exchange (halo_exchange.h) before each
//     product, and their pairs are kept in full in the owned rows, so there
//     is nothing to send back;
//   - device path (every ghost's owner known: QEqInput::ghost_owner all >= 0,
//     or found by id for ghosts_are_images, once per reordering of the
//     atoms): matrix columns that are ghosts are stored as their owner (the
//     forward comm is a gather done by the SpMV itself) and ghost rows are
//     added into their owners by a deterministic gather over an owner ->
//     images map (qeq_cuda_matrix.cu) fused into the next reduction. QEqComm
//     is called only for sums; the final q of ghosts is set on the device;
//   - comm path (otherwise): the vector is downloaded, moved with
//     QEqComm::forward / reverse on the host and uploaded (forward: owned
//     part down, ghost part up; reverse: all down, owned part up).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/charges/qeq_cuda_solver.h"
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

// Owners given by the caller: each one owned or -1.
__global__ void k_check_owners(const int *owner, int n_local, int n_ghost,
                               unsigned long long *slots) {
  const int g = blockIdx.x * kQEqBlock + threadIdx.x;
  if (g >= n_ghost) return;
  const int o = owner[g];
  if (o < -1 || o >= n_local) atomicMin(slots + kQEqBadOwner, static_cast<unsigned long long>(g));
  if (o == -1) atomicAdd(slots + kQEqNoOwner, 1ull);
}

// Ghost charges from their owners (device ghost refresh).
__global__ void k_ghost_charges(const int *owner, int n_local, int n_ghost, double *q) {
  const int g = blockIdx.x * kQEqBlock + threadIdx.x;
  if (g < n_ghost) q[n_local + g] = q[owner[g]];
}

}  // namespace

// Whether ghosts are refreshed on the device (device_comm_), with owner_dev_:
// the caller's owners (checked), or, for ghosts_are_images, found by id on
// the GPU once per reordering of the atoms.
void CudaQEqSolver::find_ghost_owners(const QEqInput &in) {
  const int n = in.n_total, nl = in.n_local, n_ghost = n - nl;
  const bool by_id = in.ghosts_are_images || halo_mode_;
  if (n_ghost == 0 || (!in.ghost_owner && !by_id)) {
    // Without owner information every exchange goes through QEqComm, also
    // on a rank with no ghosts: LAMMPS pairs each rank's sends with its
    // neighbours' receives, and this rank's atoms may be their ghosts.
    device_comm_ = n_ghost == 0 && (in.ghost_owner || by_id);
    owners_of_ = -1;
    return;
  }
  if (in.ghost_owner) {
    owners_of_ = -1;
    upload(owner_dev_, in.ghost_owner, n_ghost);
    k_check_owners<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
        owner_dev_.data(), nl, n_ghost, slots_.all());
    PMD_CUDA_CHECK_LAUNCH("k_check_owners", stream_);
  } else {
    if (!in.atoms_reordered && owners_of_ == n && owners_nl_ == nl) {
      device_comm_ = owners_known_ || halo_mode_;
      return;
    }
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
  }
  slots_.read(stream_, kQEqRows, kNumQEqSlots);
  if (slots_[kQEqBadOwner] != kNoIndex) {
    const int k = static_cast<int>(slots_[kQEqBadOwner]);
    throw RuntimeError("QEq: ghost_owner[" + std::to_string(k) + "] = " +
                       std::to_string(in.ghost_owner[k]) + " is neither an owned atom nor -1");
  }
  // (halo mode: the ghosts without an owner here are other ranks' atoms)
  device_comm_ = halo_mode_ || slots_[kQEqNoOwner] == 0;
  if (!in.ghost_owner) {
    owners_of_ = n;
    owners_nl_ = nl;
    owners_known_ = device_comm_;
  }
}

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

// Comm path: ghosts of the systems in `which` (bit 0 s, bit 1 t) get their
// owners' values through QEqComm::forward.
void CudaQEqSolver::forward_host(double2 *v, int which, QEqComm &comm) {
  const int n = n_total_, nl = n_local_;
  through_comm(v, nl, nl, n, which, [&](double *a) { comm.forward(a); });
}

// Comm path: ghost rows of the systems in `which` are added into their
// owners through QEqComm::reverse.
void CudaQEqSolver::reverse_host(double2 *y, int which, QEqComm &comm) {
  const int n = n_total_, nl = n_local_;
  through_comm(y, n, 0, nl, which, [&](double *a) { comm.reverse(a); });
}

template <class Move>
void CudaQEqSolver::through_comm(double2 *v, int down, int up_begin, int up_end, int which,
                                 Move &&move) {
  double2 *st = stage_.data();
  if (down > 0) {
    PMD_CUDA_CHECK(cudaMemcpyAsync(st, v, down * sizeof(double2), cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  double *vs = comm_s_.data(), *vt = comm_t_.data();
  for (int i = 0; i < down; ++i) {
    vs[i] = st[i].x;
    vt[i] = st[i].y;
  }
  if (which & 1) move(vs);
  if (which & 2) move(vt);
  for (int i = up_begin; i < up_end; ++i) st[i] = make_double2(vs[i], vt[i]);
  if (up_end > up_begin) {
    PMD_CUDA_CHECK(cudaMemcpyAsync(v + up_begin, st + up_begin,
                                   (up_end - up_begin) * sizeof(double2), cudaMemcpyHostToDevice,
                                   stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the stage is reused right away
  }
}

}  // namespace puremd::cuda
