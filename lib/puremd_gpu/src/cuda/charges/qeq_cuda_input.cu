// The CUDA QEq solver's input: the atoms are the engine's (EngineAtoms:
// positions, 64-bit ids and the caller's types already on the GPU); the
// group (LAMMPS's mask with the group bit) and the parameters go up as they
// are, the group flags and rows of H (cub::DeviceSelect) are found and the
// input is checked on the GPU. The history of past solutions stays on the
// GPU between solves.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cub/device/device_select.cuh>
#include <memory>
#include <string>
#include <vector>

#include "common/charges/qeq_rows.h"
#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

struct PrepArgs {
  int n_local, n_total;
  const int *active_in;  // the caller's flags (null: all in the group)
  int active_bits;
  int *active;      // 0/1, for the kernels (null: every atom takes part)
  const int *type;  // null: per-atom parameters
  int num_types;
  const int *type_map;  // null: every type takes part
  int num_mapped;
  const double *eta;
  int *row_flag, *iota;       // n_local: owned atom is a row of H; its index
  unsigned long long *slots;  // QEqSlot
};

// 0/1 flags of the atoms that take part, and which owned atoms are rows of
// H (each checked as the host solver checks them).
__global__ void k_prepare_atoms(PrepArgs a) {
  const int i = blockIdx.x * kQEqBlock + threadIdx.x;
  if (i >= a.n_total) return;
  const bool in_group =
      qeq_takes_part(a.active_in, a.active_bits, a.type, a.type_map, a.num_mapped, i);
  if (a.active) a.active[i] = in_group ? 1 : 0;
  if (i >= a.n_local) return;
  a.iota[i] = i;
  bool row = in_group;
  if (row && !qeq_row_parameters_ok(a.type, a.num_types, a.eta, i)) {
    atomicMin(a.slots + kQEqBadRow, static_cast<unsigned long long>(i));
    row = false;
  }
  a.row_flag[i] = row ? 1 : 0;
}

// Each ghost's owner: the owned atom with its id (ids of the owned atoms

}  // namespace

// Checks the input as the host solver does (on the GPU; the verdict comes
// home with the matrix size), uploads the caller's arrays as they are,
// selects the rows, finds the ghost owners, sizes the work vectors.
void CudaQEqSolver::setup(const QEqInput &in, ChargeHistory &history) {
  if (in.n_local < 0 || in.n_total < in.n_local) throw RuntimeError("QEq: invalid atom counts");
  if (in.n_total > 0 && (!in.chi || !in.eta || !in.gamma))
    throw RuntimeError("QEq: missing parameters");
  n_local_ = in.n_local;
  n_total_ = in.n_total;
  mem_.n_atoms = in.n_total;
  mem_.n_local = in.n_local;
  n_rows_ = 0;

  const int n = in.n_total, nl = in.n_local;
  if (atoms_.n_local != nl || atoms_.n_total != n)
    throw RuntimeError("QEq (CUDA): the engine's atoms are not those of the solve");
  flags_ = qeq_has_exclusions(in);
  if (in.active) upload(active_in_, in.active, n);
  if (flags_) active_dev_.reserve_discarding(n, kGrowHeadroom);
  if (in.type && in.type_map) upload(type_map_dev_, in.type_map, std::max(in.num_mapped, 0));
  if (in.type) {
    const int nt = std::max(in.num_types, 0);
    upload(chi_dev_, in.chi, nt);
    upload(eta_dev_, in.eta, nt);
    upload(gamma_dev_, in.gamma, nt);
    shield_.assign(static_cast<std::size_t>(nt) * nt, 0.0);
    for (int a = 0; a < nt; ++a)
      for (int c = 0; c < nt; ++c)
        shield_[static_cast<std::size_t>(a) * nt + c] = qeq_shielding(in.gamma[a], in.gamma[c]);
    upload(shield_dev_, shield_.data(), shield_.size());
  } else {
    upload(chi_dev_, in.chi, n);
    upload(eta_dev_, in.eta, n);
    upload(gamma_dev_, in.gamma, n);
  }
  if (in.chi_shift) upload(shift_dev_, in.chi_shift, nl);
  params_.type = in.type ? atoms_.type_given : nullptr;
  params_.chi = chi_dev_.data();
  params_.eta = eta_dev_.data();
  params_.chi_shift = in.chi_shift ? shift_dev_.data() : nullptr;
  params_.chi_eff = nullptr;
  if (!precond_ || precond_name_ != settings_.preconditioner) {  // (solve_on's, resolved)
    precond_ = CudaPreconditioners::make(settings_.preconditioner, "CUDA", mem_);
    precond_name_ = settings_.preconditioner;
  }
  // another model's checks and input, and its electronegativities
  model_ = in.model ? models_.of(in.model, "CUDA", mem_) : &plain_qeq_;
  model_->setup(in, *this);
  params_.chi_eff = model_->electronegativities(in, *this);

  // ids widened, group flags, rows flagged and listed in index order
  slots_.clear(stream_, kQEqRows, kNumQEqSlots);
  slots_.clear(stream_, kQEqBadRow, 1, 0x7f);  // kNoIndex: none yet
  row_flag_.reserve_discarding(nl, kGrowHeadroom);
  iota_.reserve_discarding(nl, kGrowHeadroom);
  rows_dev_.reserve_discarding(nl, kGrowHeadroom);
  if (n > 0) {
    PrepArgs a{};
    a.n_local = nl;
    a.n_total = n;
    a.active_in = in.active ? active_in_.data() : nullptr;
    a.active_bits = in.active_bits;
    a.active = flags_ ? active_dev_.data() : nullptr;
    a.type = in.type ? atoms_.type_given : nullptr;
    a.num_types = in.num_types;
    a.type_map = in.type && in.type_map ? type_map_dev_.data() : nullptr;
    a.num_mapped = in.num_mapped;
    a.eta = eta_dev_.data();
    a.row_flag = row_flag_.data();
    a.iota = iota_.data();
    a.slots = slots_.all();
    k_prepare_atoms<<<blocks_for(n, kQEqBlock), kQEqBlock, 0, stream_>>>(a);
    PMD_CUDA_CHECK_LAUNCH("k_prepare_atoms", stream_);
  }
  if (nl > 0) {
    std::size_t bytes = 0;
    PMD_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, iota_.data(), row_flag_.data(),
                                              rows_dev_.data(), slots_.at(kQEqRows), nl, stream_));
    cub_tmp_.reserve_discarding(bytes, kGrowHeadroom);
    PMD_CUDA_CHECK(cub::DeviceSelect::Flagged(cub_tmp_.data(), bytes, iota_.data(),
                                              row_flag_.data(), rows_dev_.data(),
                                              slots_.at(kQEqRows), nl, stream_));
  }
  ghosts_.find_owners(in, atoms_, iota_.data(), halo_mode_);
  hist_dev_ = history_on_device(history, nl);
  global_hist_ = history.global_block();
  hist_depth_ = history.depth();

  krylov_.size(nl, n);
  diag_.reserve_discarding(nl, kGrowHeadroom);
  diag_inv_.reserve_discarding(nl, kGrowHeadroom);
  q_dev_.reserve_discarding(n, kGrowHeadroom);
}

// The history of the owned atoms on the GPU, in the mirror attached to the
// caller's ChargeHistory (one of this GPU's, else a new one): uploaded when
// the host copy is the newest (first solve, or the history's host API was
// used since), else kept; atoms new since the last solve start with none
// (zeros). From here on the mirror holds the newest values (the kernels
// write the history only once the solve has its result).
double *CudaQEqSolver::history_on_device(ChargeHistory &history, int nl) {
  auto *mirror = dynamic_cast<CudaHistoryMirror *>(history.mirror());
  if (!mirror || mirror->device() != device_) {
    auto made = std::make_unique<CudaHistoryMirror>(device_);
    mirror = made.get();
    history.attach(std::move(made));
  }
  const std::size_t block = history.per_atom();
  DeviceArray<double> &dev = mirror->values;
  int rows = history.mirror_rows();
  // growing drops the contents: then the values go home (host_blocks) and up again
  if (rows >= 0 && dev.capacity() < static_cast<std::size_t>(nl) * block) rows = -1;
  if (rows < 0) {
    const double *host = history.host_blocks(nl);  // brings the mirror's values home first
    dev.reserve_discarding(static_cast<std::size_t>(nl) * block, kGrowHeadroom);
    if (nl > 0)
      PMD_CUDA_CHECK(cudaMemcpyAsync(dev.data(), host, nl * block * sizeof(double),
                                     cudaMemcpyHostToDevice, stream_));
    rows = nl;
  } else if (nl > rows) {
    PMD_CUDA_CHECK(cudaMemsetAsync(dev.data() + rows * block, 0,
                                   (nl - rows) * block * sizeof(double), stream_));
    rows = nl;
  }
  history.mirror_is_newest(rows);
  return dev.data();
}

// (synchronous: the caller's kernels that follow may run on any stream)
double *CudaHistoryMirror::gpu_room(std::size_t kept, std::size_t count, const double *host,
                                    std::size_t uploaded) {
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  if (values.capacity() < count) {
    DeviceArray<double> grown{"QEq: charge history (the caller's)", nullptr};
    // (a new array each time: its headroom is that of values' growth)
    grown.reserve_discarding(grown_capacity(count, kGrowHeadroom, !values.allocated_before()));
    if (kept > 0)
      PMD_CUDA_CHECK(
          cudaMemcpy(grown.data(), values.data(), kept * sizeof(double), cudaMemcpyDeviceToDevice));
    values = std::move(grown);
  }
  if (count > kept)
    PMD_CUDA_CHECK(cudaMemset(values.data() + kept, 0, (count - kept) * sizeof(double)));
  if (host && uploaded > 0)
    PMD_CUDA_CHECK(
        cudaMemcpy(values.data(), host, uploaded * sizeof(double), cudaMemcpyHostToDevice));
  return values.data();
}

// Called by the history's host API, after the solve that wrote the values
// (CudaEngine::solve_charges ends with its stream idle).
void CudaHistoryMirror::fetch(double *host, std::size_t count) {
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  PMD_CUDA_CHECK(cudaMemcpy(host, values.data(), count * sizeof(double), cudaMemcpyDeviceToHost));
}

}  // namespace puremd::cuda
