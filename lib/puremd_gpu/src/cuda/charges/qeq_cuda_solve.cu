// The CUDA QEq solver's solve(), top-down: prepare (qeq_cuda_input.cu), the
// matrix (qeq_cuda_matrix.cu), both CG systems in lock step, the charges.
// See qeq_cuda_solver.h.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/charges/qeq_rows.h"
#include "common/charges/qeq_scalars_home.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_matrix_store.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::cuda {
namespace {

// Right-hand sides, H's diagonal and its inverse (Jacobi's M^-1, and the
// preconditioners' input) and the extrapolated initial guesses.
__global__ void k_init(int n_rows, const int *rows, ParamArgs pa, const double *hist, int depth,
                       QEqPredictor predictor, QEqXl xl, double2 *b, double2 *x, double *diag,
                       double *diag_inv) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const int p = pa.type ? pa.type[i] : i;
  double bs = pa.chi_eff ? -pa.chi_eff[i] : -pa.chi[p];
  if (pa.chi_shift) bs -= pa.chi_shift[i];
  b[i] = make_double2(bs, -1.0);
  diag[i] = pa.eta[p];
  diag_inv[i] = 1.0 / pa.eta[p];
  // the predictor's extrapolations of s and t, or the extended Lagrangian's
  // auxiliary vectors, rounded as the host does
  const double *h = qeq_history_block(hist, i, depth);
  x[i] = make_double2(qeq_start_s(h, predictor, xl), qeq_start_t(h, depth, predictor, xl));
}

__global__ void k_sum_solution(int n_rows, const int *rows, const double2 *x, double *partial) {
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const double2 xi = x[rows[k]];
    v[0] += xi.x;
    v[1] += xi.y;
  }
  qeq_block_partials<2>(v, partial);
}

// mu = sum s / sum t, from k_sum_solution's partials, left on the device.
__global__ void k_mu(const double *partial, int nblocks, double *mu) {
  double st[2];
  qeq_finish_partials<2>(partial, nblocks, st);
  if (threadIdx.x == 0) *mu = st[0] / st[1];
}

// q = s - mu t (mu from the device when mu_dev is given); the history takes
// the new s and t (qeq_record).
__global__ void k_charges(int n_rows, const int *rows, double mu_given, const double *mu_dev,
                          const double2 *x, QEqXl xl, QEqXlScheme scheme, double *q, double *hist,
                          int depth) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const double mu = mu_dev ? *mu_dev : mu_given;
  const int i = rows[k];
  const double2 xi = x[i];
  q[i] = qeq_charge(xi.x, xi.y, mu);
  qeq_record(qeq_history_block(hist, i, depth), depth, xi.x, xi.y, xl, scheme);
}

}  // namespace

CudaQEqSolver::CudaQEqSolver(int device, cudaStream_t stream, MemoryTracker &mem,
                             DeviceArray<unsigned char> &cub_scratch)
    : device_(device),
      stream_(stream),
      mem_(mem),
      cub_tmp_(cub_scratch),
      ms_(std::make_unique<QEqMatrixSolve>()) {
  take_store(QEqStore::Full);
  slots_.reserve();
}

// Arrays are freed after the work that may still use them.
CudaQEqSolver::~CudaQEqSolver() { cudaStreamSynchronize(stream_); }

// Charges of owned atoms outside the rows were uploaded with the solve's q
// (or are not part of it: no rows), ghosts refreshed on the GPU.
bool CudaQEqSolver::copy_charges(double *dst) {
  if (n_rows_ == 0 || n_total_ == 0) return false;
  PMD_CUDA_CHECK(cudaMemcpyAsync(dst, q_dev_.data(), n_total_ * sizeof(double),
                                 cudaMemcpyDeviceToDevice, stream_));
  return true;
}

QEqResult CudaQEqSolver::solve_on(const EngineAtoms &atoms, const QEqInput &in,
                                  ChargeHistory &history, QEqComm &comm, double *q) {
  check_xl_input(in, history.depth());
  check_model_preconditioner(in);
  // checked by the engine (CudaEngine::solve_charges); the defaults filled in,
  // the CG's limits as xl has them
  settings_ = qeq_solve_settings(in.settings, in.model);
  taper_ = make_taper(settings_.cut_lo, settings_.cut_hi);
  atoms_ = atoms;
  // several ranks replay the caller's halo pattern on the GPU (halo_exchange.h)
  halo_mode_ = comm.size() > 1;
  const HaloPattern *halo = comm.halo();
  if (!halo && in.n_total > in.n_local)
    throw RuntimeError(
        "QEq (CUDA): the sub-domain has ghosts but QEqComm::halo() gives no "
        "pattern; every ghost's value comes through the halo (one rank: "
        "image_halo of the ghosts' owners)");
  setup(in, history);
  if (halo_mode_) {
    static const HaloPattern kNoGhosts{};  // (this rank's atoms may still be others' ghosts)
    halo_.update(halo ? *halo : kNoGhosts, comm, in.n_local, in.n_total, comm.peer_copies());
  }
  build_matrix(in);
  ++solves_;
  QEqResult res;
  if (model_->solve(in, *this, comm, q, res)) return res;  // (ACKS2)

  const int n = in.n_total, nl = in.n_local, nr = n_rows_;
  double2 *x = krylov_.x();
  // Entries off the rows stay zero (inactive atoms, and ghosts of this rank's atoms).
  if (n > 0) {
    PMD_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(double2), stream_));
    PMD_CUDA_CHECK(cudaMemsetAsync(krylov_.d(), 0, n * sizeof(double2), stream_));
  }
  if (nl > 0) PMD_CUDA_CHECK(cudaMemsetAsync(diag_.data(), 0, nl * sizeof(double), stream_));
  if (nr > 0) {
    k_init<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows_dev_.data(), params_, hist_dev_, hist_depth_, settings_.predictor, settings_.xl,
        krylov_.b(), x, diag_.data(), diag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_init", stream_);
  }
  precond_->setup({stream_, nr, rows_dev_.data(), diag_.data(), diag_inv_.data(), &row_args_,
                   params_.eta, &settings_, in.atoms_reordered});

  CgProblem cg;
  cg.n_rows = nr;
  cg.rows = rows_dev_.data();
  cg.im = image_map();
  cg.precond = precond_.get();
  cg.diag_inv = diag_inv_.data();
  cg.tolerance = settings_.tolerance;
  cg.max_iter = settings_.max_iter;
  cg.multiply = [this](const double2 *v, double2 *y, const int *running) {
    multiply(v, y, running);
  };
  cg.forward_halo = [this, &comm](double2 *v) { forward_halo(v, comm); };
  cg.halo = halo_mode_ ? &halo_ : nullptr;
  res = krylov_.conjugate_gradients(cg, comm);  // qeq_cuda_cg.cu
  res.matrix = store_->format();
  res.matrix_free = res.matrix == QEqMatrix::Free;
  res.tiles_reused = store_->tiles_reused();
  note_halo(res);

  // q = s - mu t with mu chosen so that the charges sum to zero (mu stays on
  // the GPU when CG's scalars did).
  const bool on_device = scalars_on_device(comm);
  double st[2] = {0, 0};
  if (nr > 0) {
    const unsigned g = reduce_blocks();
    k_sum_solution<<<g, kQEqBlock, 0, stream_>>>(nr, rows_dev_.data(), x, krylov_.partial());
    PMD_CUDA_CHECK_LAUNCH("k_sum_solution", stream_);
    if (on_device) {
      k_mu<<<1, kQEqBlock, 0, stream_>>>(krylov_.partial(), static_cast<int>(g), krylov_.sums());
      PMD_CUDA_CHECK_LAUNCH("k_mu", stream_);
    } else {
      finish_sums(g, 2, st);
    }
  }
  double mu = 0.0;
  if (!on_device) {
    comm.sum(st, 2);  // one collective call on every rank
    mu = st[0] / st[1];
  }
  const ResultHome out[] = {{q, &q_dev_}};
  results_home(out, 1, comm, [&] {
    k_charges<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows_dev_.data(), mu, on_device ? krylov_.sums() : nullptr, x, settings_.xl,
        qeq_xl_scheme(settings_.xl_order), q_dev_.data(), hist_dev_, hist_depth_);
    PMD_CUDA_CHECK_LAUNCH("k_charges", stream_);
  });
  return res;
}

// Whether CG's scalars stay on the GPU (common/charges/qeq_scalars_home.h).
bool CudaQEqSolver::scalars_on_device(const QEqComm &comm) const {
  return qeq_scalars_home(comm.size(), n_rows_ > 0, false, 0) == QEqScalarsHome::Gpu;
}

CudaSolveParts CudaQEqSolver::parts() {
  CudaSolveParts p;
  p.stream = stream_;
  p.mem = &mem_;
  p.cub = &cub_tmp_;
  p.slots = &slots_;
  p.settings = &settings_;
  p.params = &params_;
  p.row_args = &row_args_;
  p.n_local = n_local_;
  p.n_total = n_total_;
  p.n_rows = n_rows_;
  p.rows = rows_dev_.data();
  p.x = krylov_.x();
  p.b = krylov_.b();
  p.r = krylov_.r();
  p.d = krylov_.d();
  p.p = krylov_.p();
  p.w = krylov_.w();
  p.diag = diag_.data();
  p.diag_inv = diag_inv_.data();
  p.partial = krylov_.partial();
  p.q = &q_dev_;
  p.hist = hist_dev_;
  p.global_hist = global_hist_;
  p.hist_depth = hist_depth_;
  p.pool = &pool_;
  p.store = store_;
  p.matrix = ms_.get();
  p.tiles = qeq_store_traits(store_kind_).tiles;
  return p;
}

// y = H v over all rows (owned and ghost); ghost rows still to be folded
// (the store of this solve's format, qeq_matrix_store.h).
void CudaQEqSolver::multiply(const double2 *v, double2 *y, const int *running) {
  if (n_total_ == 0) return;
  store_->multiply(*ms_, v, y, running);
}

// Ghost entries of a per-atom result from their owners: the halo exchange
// (several ranks: every rank joins it, ghosts or not), else the gather.
void CudaQEqSolver::refresh_ghost_charges(double *q, QEqComm &comm) {
  if (halo_mode_) {
    halo_.forward(q, comm);
    return;
  }
  ghosts_.gather(q, n_local_, n_total_);
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
