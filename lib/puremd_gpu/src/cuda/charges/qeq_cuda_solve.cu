// The CUDA QEq solver's solve(), top-down: prepare (qeq_cuda_input.cu), the
// matrix (qeq_cuda_matrix.cu), both CG systems in lock step, the charges.
// See qeq_cuda_solver.h.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/qeq_rows.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::cuda {
namespace {

// y = H v for both systems; a group of TPR lanes per row.
struct SpmvSums {
  double s, t;
};

// Row i's product: its off-diagonal sum plus, for an owned row, the diagonal term.
__device__ __forceinline__ double2 qeq_row_product(int i, int n_local, const double *diag,
                                                   const double2 *v, SpmvSums acc) {
  if (i < n_local) {
    const double dg = diag[i];
    const double2 vi = v[i];
    acc.s += dg * vi.x;
    acc.t += dg * vi.y;
  }
  return make_double2(acc.s, acc.t);
}

template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_spmv(int n_rows, int n_local, const long long *__restrict__ row_start,
           const long long *__restrict__ row_end, const int *__restrict__ col,
           const double *__restrict__ val, const double *__restrict__ diag,
           const double2 *__restrict__ v, double2 *__restrict__ y, const int *running) {
  if (running && !*running) return;
  const LaneGroup<TPR> g;
  const long long row = g.row();
  SpmvSums acc{0.0, 0.0};
  if (row < n_rows) {
    const long long end = row_end[row];
    for (long long p = row_start[row] + g.lane; p < end; p += TPR) {
      const double h = val[p];
      const double2 vj = v[col[p]];
      acc.s += h * vj.x;
      acc.t += h * vj.y;
    }
  }
  g.sum_all(acc);  // every lane gets here
  if (row < n_rows && g.lane == 0)
    y[row] = qeq_row_product(static_cast<int>(row), n_local, diag, v, acc);
}

// y += H v with each pair stored once (QEqMatrix::Half), y zeroed before:
// owned row i gathers its entries (i, j) and its diagonal into y_i, and
// scatters each entry's transpose H_ij v_i to y_j (a column of this rank's
// images is its owner's, qeq_column). Ghost rows are empty.
template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_spmv_once(int n_local, const long long *__restrict__ row_start,
                const long long *__restrict__ row_end, const int *__restrict__ col,
                const double *__restrict__ val, const double *__restrict__ diag,
                const double2 *__restrict__ v, double2 *__restrict__ y, const int *running) {
  if (running && !*running) return;
  const LaneGroup<TPR> g;
  const long long row = g.row();
  if (row >= n_local) return;  // whole groups
  const int i = static_cast<int>(row);
  const double2 vi = v[i];
  SpmvSums acc{0.0, 0.0};
  const long long end = row_end[i];
  for (long long p = row_start[i] + g.lane; p < end; p += TPR) {
    const double h = val[p];
    const int j = col[p];
    const double2 vj = v[j];
    acc.s += h * vj.x;
    acc.t += h * vj.y;
    qeq_atomic_add(y, j, h * vi.x, h * vi.y);  // the transpose's share
  }
  g.sum_all(acc);
  if (g.lane == 0) {
    const double2 yi = qeq_row_product(i, n_local, diag, v, acc);
    qeq_atomic_add(y, i, yi.x, yi.y);
  }
}

// The same products without a stored matrix (QEqMatrix::Free): the group of
// TPR lanes walks the row's candidates (qeq_cuda_rows.cuh) and evaluates
// each kept element where it is used; kOnce: each pair once, as
// k_spmv_once (y zeroed before), else both triangles, as k_spmv.
template <int TPR, bool kOnce>
__global__ void __launch_bounds__(kQEqBlock)
    k_free_product(QEqRowArgs a, const double *__restrict__ diag, const double2 *__restrict__ v,
                   double2 *__restrict__ y, const int *running) {
  if (running && !*running) return;
  const LaneGroup<TPR> g;
  const long long row = g.row();
  if (row >= (kOnce ? a.far.n_local : a.far.n_total)) return;  // whole groups
  const int i = static_cast<int>(row);
  const double2 vi = v[i];
  SpmvSums acc{0.0, 0.0};
  qeq_row_chunks<kOnce>(g, a, i, [&](const QEqCandidate &c) {
    if (!c.take) return;
    const double h = qeq_row_value(a, c);
    const double2 vj = v[c.col];
    acc.s += h * vj.x;
    acc.t += h * vj.y;
    if (kOnce) qeq_atomic_add(y, c.col, h * vi.x, h * vi.y);  // the transpose's share
  });
  g.sum_all(acc);
  if (g.lane != 0) return;
  const double2 yi = qeq_row_product(i, a.far.n_local, diag, v, acc);
  if (kOnce) {
    qeq_atomic_add(y, i, yi.x, yi.y);
  } else {
    y[i] = yi;
  }
}

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
    : device_(device), stream_(stream), mem_(mem), cub_tmp_(cub_scratch) {
  sums_dev_.reserve_discarding(8);
  partial_.reserve_discarding(static_cast<std::size_t>(6) * kQEqMaxReduceBlocks);
  sums_host_.reserve_discarding(8);
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
  // checked by the engine (CudaEngine::solve_charges); the CG's limits as xl has them
  settings_ = qeq_cg_settings(in.settings);
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
  if (model_now_ && model_now_->solve(in, *this, comm, q, res)) return res;  // (ACKS2)

  const int n = in.n_total, nl = in.n_local, nr = n_rows_;
  double2 *x = x_.data();
  // Entries off the rows stay zero (inactive atoms, and ghosts of this rank's atoms).
  if (n > 0) {
    PMD_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(double2), stream_));
    PMD_CUDA_CHECK(cudaMemsetAsync(d_.data(), 0, n * sizeof(double2), stream_));
  }
  if (nl > 0) PMD_CUDA_CHECK(cudaMemsetAsync(diag_.data(), 0, nl * sizeof(double), stream_));
  if (nr > 0) {
    k_init<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows_dev_.data(), params_, hist_dev_, hist_depth_, settings_.predictor, settings_.xl,
        b_.data(), x, diag_.data(), diag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_init", stream_);
  }
  precond_->setup({stream_, nr, rows_dev_.data(), diag_.data(), diag_inv_.data()});

  res = conjugate_gradients(comm);  // qeq_cuda_cg.cu
  note_halo(res);

  // q = s - mu t with mu chosen so that the charges sum to zero (mu stays on
  // the GPU when CG's scalars did).
  const bool on_device = scalars_on_device(comm);
  double st[2] = {0, 0};
  if (nr > 0) {
    const unsigned g = reduce_blocks();
    k_sum_solution<<<g, kQEqBlock, 0, stream_>>>(nr, rows_dev_.data(), x, partial_.data());
    PMD_CUDA_CHECK_LAUNCH("k_sum_solution", stream_);
    if (on_device) {
      k_mu<<<1, kQEqBlock, 0, stream_>>>(partial_.data(), static_cast<int>(g), sums_dev_.data());
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
        nr, rows_dev_.data(), mu, on_device ? sums_dev_.data() : nullptr, x, settings_.xl,
        qeq_xl_scheme(settings_.xl_order), q_dev_.data(), hist_dev_, hist_depth_);
    PMD_CUDA_CHECK_LAUNCH("k_charges", stream_);
  });
  return res;
}

template <int TPR>
void CudaQEqSolver::launch_spmv(const double2 *v, double2 *y, const int *running) {
  const int n = once_ ? n_local_ : n_total_;
  const unsigned blocks = blocks_for(static_cast<long long>(n) * TPR, kQEqBlock);
  if (once_)
    k_spmv_once<TPR><<<blocks, kQEqBlock, 0, stream_>>>(n, row_start_.data(), row_end_.data(),
                                                        col_.data(), val_.data(), diag_.data(), v,
                                                        y, running);
  else
    k_spmv<TPR><<<blocks, kQEqBlock, 0, stream_>>>(n, n_local_, row_start_.data(), row_end_.data(),
                                                   col_.data(), val_.data(), diag_.data(), v, y,
                                                   running);
  PMD_CUDA_CHECK_LAUNCH("k_spmv", stream_);
}

template <int TPR>
void CudaQEqSolver::launch_free_product(const double2 *v, double2 *y, const int *running) {
  const int n = once_ ? n_local_ : n_total_;
  const unsigned blocks = blocks_for(static_cast<long long>(n) * TPR, kQEqBlock);
  if (once_)
    k_free_product<TPR, true>
        <<<blocks, kQEqBlock, 0, stream_>>>(row_args_, diag_.data(), v, y, running);
  else
    k_free_product<TPR, false>
        <<<blocks, kQEqBlock, 0, stream_>>>(row_args_, diag_.data(), v, y, running);
  PMD_CUDA_CHECK_LAUNCH("k_free_product", stream_);
}

// y = H v over all rows (owned and ghost); ghost rows still to be folded.
// With each pair once (once_) the products add into y, zeroed here: after
// the last iteration an extra queued product may zero it for nothing, as
// nothing reads y once CG has stopped.
void CudaQEqSolver::multiply(const double2 *v, double2 *y, const int *running) {
  if (n_total_ == 0) return;
  if (once_) PMD_CUDA_CHECK(cudaMemsetAsync(y, 0, n_total_ * sizeof(double2), stream_));
  if (tiles_) {
    multiply_tiles(v, y, running);
    return;
  }
  auto launch = [&](auto tpr) {
    constexpr int L = decltype(tpr)::value;
    if (matrix_free_)
      launch_free_product<L>(v, y, running);
    else
      launch_spmv<L>(v, y, running);
  };
  switch (pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row)) {
    case 4:
      launch(std::integral_constant<int, 4>{});
      break;
    case 8:
      launch(std::integral_constant<int, 8>{});
      break;
    case 16:
      launch(std::integral_constant<int, 16>{});
      break;
    default:
      launch(std::integral_constant<int, 32>{});
      break;
  }
}

}  // namespace puremd::cuda
