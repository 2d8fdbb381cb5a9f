// The CUDA QEq solver's solve(), top-down: prepare (qeq_cuda_input.cu), the
// matrix (qeq_cuda_matrix.cu), both CG systems in lock step, the charges.
// See qeq_cuda_solver.h.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <memory>
#include <string>
#include <vector>

#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/qeq_cuda_solver.h"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

// Block sum of NC values per thread into partial[c * gridDim.x + blockIdx.x].
template <int NC>
__device__ __forceinline__ void qeq_block_partials(const double (&v)[NC], double *partial) {
  using Reduce = cub::BlockReduce<double, kQEqBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < NC; ++c) {
    const double s = Reduce(tmp).Sum(v[c]);
    if (threadIdx.x == 0) partial[c * gridDim.x + blockIdx.x] = s;
    __syncthreads();
  }
}

// out[c] = sum over b of partial[c * nblocks + b] (one block, fixed order).
__global__ void k_finish_sums(const double *partial, int nblocks, int nc, double *out) {
  using Reduce = cub::BlockReduce<double, kQEqBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < nc; ++c) {
    double s = 0.0;
    for (int b = threadIdx.x; b < nblocks; b += kQEqBlock) s += partial[c * nblocks + b];
    s = Reduce(tmp).Sum(s);
    if (threadIdx.x == 0) out[c] = s;
    __syncthreads();
  }
}

// y = H v for both systems; a group of TPR lanes per row.
struct SpmvSums {
  double s, t;
};

template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_spmv(int n_rows, int n_local, const long long *__restrict__ row_start,
           const long long *__restrict__ row_end, const int *__restrict__ col,
           const double *__restrict__ val, const double *__restrict__ diag,
           const double2 *__restrict__ v, double2 *__restrict__ y) {
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
  if (row < n_rows && g.lane == 0) {
    if (row < n_local) {
      const double dg = diag[row];
      const double2 vi = v[row];
      acc.s += dg * vi.x;
      acc.t += dg * vi.y;
    }
    y[row] = make_double2(acc.s, acc.t);
  }
}

// w[i] plus what its images' rows got (device reverse comm), stored back.
__device__ __forceinline__ double2 qeq_fold(int i, double2 *w, const ImageMap &m) {
  double2 wi = w[i];
  if (m.start) {
    const int e = m.end[i];
    for (int p = m.start[i]; p < e; ++p) {
      const double2 wg = w[m.idx[p]];
      wi.x += wg.x;
      wi.y += wg.y;
    }
    w[i] = wi;
  }
  return wi;
}

// Right-hand sides, Jacobi diagonal and the extrapolated initial guesses.
__global__ void k_init(int n_rows, const int *rows, ParamArgs pa, const double *hist, double2 *b,
                       double2 *x, double *diag, double *diag_inv) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const int p = pa.type ? pa.type[i] : i;
  double bs = -pa.chi[p];
  if (pa.chi_shift) bs -= pa.chi_shift[i];
  b[i] = make_double2(bs, -1.0);
  diag[i] = pa.eta[p];
  diag_inv[i] = 1.0 / pa.eta[p];
  const double *hs = hist + static_cast<long long>(i) * QEqSolver::kHistoryPerAtom;
  const double *ht = hs + QEqSolver::kHistoryDepth;
  // cubic extrapolation of s, quadratic of t, rounded as the host does
  const double s0 =
      __dsub_rn(__dmul_rn(4.0, __dadd_rn(hs[0], hs[2])), __dadd_rn(__dmul_rn(6.0, hs[1]), hs[3]));
  const double t0 = __dadd_rn(ht[2], __dmul_rn(3.0, __dsub_rn(ht[0], ht[1])));
  x[i] = make_double2(s0, t0);
}

// r = b - H x, d = M^-1 r; partial sums of b.b and r.d for s and t.
__global__ void k_residual(int n_rows, const int *rows, ImageMap im, double2 *w, const double2 *b,
                           const double *diag_inv, double2 *r, double2 *d, double *partial) {
  double v[4] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 wi = qeq_fold(i, w, im);
    const double2 bi = b[i];
    const double2 ri = make_double2(bi.x - wi.x, bi.y - wi.y);
    const double di = diag_inv[i];
    const double2 zi = make_double2(ri.x * di, ri.y * di);
    r[i] = ri;
    d[i] = zi;
    v[0] += bi.x * bi.x;
    v[1] += bi.y * bi.y;
    v[2] += ri.x * zi.x;
    v[3] += ri.y * zi.y;
  }
  qeq_block_partials<4>(v, partial);
}

// Partial sums of d.w (w folded first).
__global__ void k_dot_dw(int n_rows, const int *rows, ImageMap im, double2 *w, const double2 *d,
                         double *partial) {
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 wi = qeq_fold(i, w, im);
    const double2 di = d[i];
    v[0] += di.x * wi.x;
    v[1] += di.y * wi.y;
  }
  qeq_block_partials<2>(v, partial);
}

// x += alpha d, r -= alpha w, p = M^-1 r for the systems still running
// (bit 0: s, bit 1: t); partial sums of r.p.
__global__ void k_update(int n_rows, const int *rows, int running, double alpha_s, double alpha_t,
                         const double2 *d, const double2 *w, const double *diag_inv, double2 *x,
                         double2 *r, double2 *p, double *partial) {
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 di = d[i], wi = w[i];
    double2 xi = x[i], ri = r[i], pi = p[i];
    const double m = diag_inv[i];
    if (running & 1) {
      xi.x += alpha_s * di.x;
      ri.x -= alpha_s * wi.x;
      pi.x = ri.x * m;
      v[0] += ri.x * pi.x;
    }
    if (running & 2) {
      xi.y += alpha_t * di.y;
      ri.y -= alpha_t * wi.y;
      pi.y = ri.y * m;
      v[1] += ri.y * pi.y;
    }
    x[i] = xi;
    r[i] = ri;
    p[i] = pi;
  }
  qeq_block_partials<2>(v, partial);
}

// d = p + beta d for the systems still running.
__global__ void k_direction(int n_rows, const int *rows, int running, double beta_s, double beta_t,
                            const double2 *p, double2 *d) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 pi = p[i];
  double2 di = d[i];
  if (running & 1) di.x = pi.x + beta_s * di.x;
  if (running & 2) di.y = pi.y + beta_t * di.y;
  d[i] = di;
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

// q = s - mu t; shift the history and store the new s and t.
__global__ void k_charges(int n_rows, const int *rows, double mu, const double2 *x, double *q,
                          double *hist) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 xi = x[i];
  q[i] = __dsub_rn(xi.x, __dmul_rn(mu, xi.y));
  double *hs = hist + static_cast<long long>(i) * QEqSolver::kHistoryPerAtom;
  double *ht = hs + QEqSolver::kHistoryDepth;
  for (int m = QEqSolver::kHistoryDepth - 1; m > 0; --m) {
    hs[m] = hs[m - 1];
    ht[m] = ht[m - 1];
  }
  hs[0] = xi.x;
  ht[0] = xi.y;
}

}  // namespace

CudaQEqSolver::CudaQEqSolver(const QEqSettings &settings, long long engine_id,
                             std::shared_ptr<CudaStream> stream)
    : QEqSolver(settings, engine_id), stream_owner_(std::move(stream)) {
  stream_ = stream_owner_->get();
  mem_.stream = stream_;  // growing an array waits for the work that may use it
  sums_dev_.reserve(8);
  partial_.reserve(static_cast<std::size_t>(6) * kQEqMaxReduceBlocks);
  sums_host_.reserve(8);
  grid_host_.reserve(8);
  checks_host_.reserve(kNumChecks);
}

// Arrays are freed after the work that may still use them.
CudaQEqSolver::~CudaQEqSolver() { cudaStreamSynchronize(stream_); }

QEqResult CudaQEqSolver::solve(const QEqInput &, QEqComm &, double *) {
  throw RuntimeError("QEq (CUDA): the CUDA solver runs through its engine (Engine::solve_charges)");
}

// Charges of owned atoms outside the rows were uploaded with the solve's q
// (or are not part of it: no rows), ghosts refreshed on the device path only.
bool CudaQEqSolver::copy_charges(double *dst) {
  if (n_rows_ == 0 || !device_comm_ || n_total_ == 0) return false;
  PMD_CUDA_CHECK(cudaMemcpyAsync(dst, q_dev_.data(), n_total_ * sizeof(double),
                                 cudaMemcpyDeviceToDevice, stream_));
  return true;
}

QEqResult CudaQEqSolver::solve_on(const EngineAtoms &atoms, const QEqInput &in, QEqComm &comm,
                                  double *q) {
  atoms_ = atoms;
  setup(in);
  build_matrix(in);

  const int n = in.n_total, nl = in.n_local, nr = n_rows_;
  double2 *x = x_.data(), *b = b_.data(), *r = r_.data(), *d = d_.data(), *p = p_.data(),
          *w = w_.data();
  const ImageMap im =
      device_comm_ ? ImageMap{img_start_.data(), img_end_.data(), img_idx_.data()} : ImageMap{};
  // Entries off the rows stay zero (inactive atoms, and ghosts of the device path).
  if (n > 0) {
    PMD_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(double2), stream_));
    PMD_CUDA_CHECK(cudaMemsetAsync(d, 0, n * sizeof(double2), stream_));
  }
  if (nl > 0) PMD_CUDA_CHECK(cudaMemsetAsync(diag_.data(), 0, nl * sizeof(double), stream_));
  if (nr > 0) {
    k_init<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows_dev_.data(), params_, hist_dev_.data(), b, x, diag_.data(), diag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_init", stream_);
  }

  // r = b - H x, d = M^-1 r (both systems).
  if (!device_comm_) forward_host(x, 3, comm);
  multiply(x, w);
  if (!device_comm_) reverse_host(w, 3, comm);
  double s4[4] = {0, 0, 0, 0};
  if (nr > 0) {
    const unsigned g = reduce_blocks();
    k_residual<<<g, kQEqBlock, 0, stream_>>>(nr, rows_dev_.data(), im, w, b, diag_inv_.data(), r, d,
                                             partial_.data());
    PMD_CUDA_CHECK_LAUNCH("k_residual", stream_);
    finish_sums(g, 4, s4);
  }
  const double bb_s = comm.sum(s4[0]), bb_t = comm.sum(s4[1]);
  double rho_s = comm.sum(s4[2]), rho_t = comm.sum(s4[3]);
  const double b_norm_s = std::sqrt(bb_s), b_norm_t = std::sqrt(bb_t);
  const double tol = settings_.tolerance;
  const int max_iter = settings_.max_iter;

  // Both CG runs in lock step; each stops on its own test, as the host's.
  QEqResult res;
  int it_s = 1, it_t = 1;
  for (;;) {
    const bool run_s = it_s < max_iter && std::sqrt(rho_s) / b_norm_s > tol;
    const bool run_t = it_t < max_iter && std::sqrt(rho_t) / b_norm_t > tol;
    if (!run_s && !run_t) break;
    const int running = (run_s ? 1 : 0) | (run_t ? 2 : 0);

    if (!device_comm_) forward_host(d, running, comm);
    multiply(d, w);
    if (!device_comm_) reverse_host(w, running, comm);
    double dw[2] = {0, 0};
    unsigned g = reduce_blocks();
    if (nr > 0) {
      k_dot_dw<<<g, kQEqBlock, 0, stream_>>>(nr, rows_dev_.data(), im, w, d, partial_.data());
      PMD_CUDA_CHECK_LAUNCH("k_dot_dw", stream_);
      finish_sums(g, 2, dw);
    }
    const double alpha_s = run_s ? rho_s / comm.sum(dw[0]) : 0.0;
    const double alpha_t = run_t ? rho_t / comm.sum(dw[1]) : 0.0;

    double rp[2] = {0, 0};
    if (nr > 0) {
      k_update<<<g, kQEqBlock, 0, stream_>>>(nr, rows_dev_.data(), running, alpha_s, alpha_t, d, w,
                                             diag_inv_.data(), x, r, p, partial_.data());
      PMD_CUDA_CHECK_LAUNCH("k_update", stream_);
      finish_sums(g, 2, rp);
    }
    double beta_s = 0.0, beta_t = 0.0;
    if (run_s) {
      const double rho_old = rho_s;
      rho_s = comm.sum(rp[0]);
      beta_s = rho_s / rho_old;
      ++it_s;
    }
    if (run_t) {
      const double rho_old = rho_t;
      rho_t = comm.sum(rp[1]);
      beta_t = rho_t / rho_old;
      ++it_t;
    }
    if (nr > 0) {
      k_direction<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
          nr, rows_dev_.data(), running, beta_s, beta_t, p, d);
      PMD_CUDA_CHECK_LAUNCH("k_direction", stream_);
    }
  }
  res.iter_s = it_s;
  res.iter_t = it_t;
  res.converged_s = it_s < max_iter;
  res.converged_t = it_t < max_iter;

  // q = s - mu t with mu chosen so that the charges sum to zero.
  double st[2] = {0, 0};
  if (nr > 0) {
    const unsigned g = reduce_blocks();
    k_sum_solution<<<g, kQEqBlock, 0, stream_>>>(nr, rows_dev_.data(), x, partial_.data());
    PMD_CUDA_CHECK_LAUNCH("k_sum_solution", stream_);
    finish_sums(g, 2, st);
  }
  const double s_sum = comm.sum(st[0]);
  const double t_sum = comm.sum(st[1]);
  const double mu = s_sum / t_sum;
  // Charges straight into the caller's q: the owned atoms outside the rows
  // keep theirs (uploaded first), ghosts get their owners' on the device
  // path, else through QEqComm::forward.
  if (nr > 0) {
    if (nr < nl)
      PMD_CUDA_CHECK(
          cudaMemcpyAsync(q_dev_.data(), q, nl * sizeof(double), cudaMemcpyHostToDevice, stream_));
    k_charges<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows_dev_.data(), mu, x, q_dev_.data(), hist_dev_.data());
    PMD_CUDA_CHECK_LAUNCH("k_charges", stream_);
    const int n_down = device_comm_ ? n : nl;
    if (device_comm_ && n > nl) {
      refresh_ghost_charges(q_dev_.data());
    }
    PMD_CUDA_CHECK(cudaMemcpyAsync(q, q_dev_.data(), n_down * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  if (nr == 0 || !device_comm_) comm.forward(q);
  return res;
}

// Device arrays (all on mem_), pinned staging and host vectors.
std::size_t CudaQEqSolver::memory_bytes() const {
  std::size_t b = QEqSolver::memory_bytes() + mem_.current;
  b += stage_.capacity() * sizeof(double2) +
       (sums_host_.capacity() + grid_host_.capacity()) * sizeof(double) +
       checks_host_.capacity() * sizeof(int);
  b += (shield_.capacity() + comm_s_.capacity() + comm_t_.capacity()) * sizeof(double);
  return b;
}

unsigned CudaQEqSolver::reduce_blocks() const {
  return static_cast<unsigned>(std::min<long long>(
      kQEqMaxReduceBlocks, std::max<long long>(1, blocks_for(n_rows_, kQEqBlock))));
}

// Finishes the block partial sums of the last row kernel and brings nc sums home.
void CudaQEqSolver::finish_sums(unsigned nblocks, int nc, double *out) {
  k_finish_sums<<<1, kQEqBlock, 0, stream_>>>(partial_.data(), static_cast<int>(nblocks), nc,
                                              sums_dev_.data());
  PMD_CUDA_CHECK_LAUNCH("k_finish_sums", stream_);
  PMD_CUDA_CHECK(cudaMemcpyAsync(sums_host_.data(), sums_dev_.data(), nc * sizeof(double),
                                 cudaMemcpyDeviceToHost, stream_));
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  std::copy_n(sums_host_.data(), nc, out);
}

template <int TPR>
void CudaQEqSolver::launch_spmv(const double2 *v, double2 *y) {
  const int n = n_total_;
  const unsigned blocks = blocks_for(static_cast<long long>(n) * TPR, kQEqBlock);
  k_spmv<TPR><<<blocks, kQEqBlock, 0, stream_>>>(n, n_local_, row_start_.data(), row_end_.data(),
                                                 col_.data(), val_.data(), diag_.data(), v, y);
  PMD_CUDA_CHECK_LAUNCH("k_spmv", stream_);
}

// y = H v over all rows (owned and ghost); ghost rows still to be folded.
void CudaQEqSolver::multiply(const double2 *v, double2 *y) {
  if (n_total_ == 0) return;
  switch (pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row)) {
    case 4:
      launch_spmv<4>(v, y);
      break;
    case 8:
      launch_spmv<8>(v, y);
      break;
    case 16:
      launch_spmv<16>(v, y);
      break;
    default:
      launch_spmv<32>(v, y);
      break;
  }
}

int pick_threads_per_row(long long nnz, long long nonempty_rows, int forced) {
  if (forced) return forced;
  const double mean = nonempty_rows > 0 ? static_cast<double>(nnz) / nonempty_rows : 0.0;
  if (mean >= 96.0) return 32;
  if (mean >= 32.0) return 16;
  if (mean >= 12.0) return 8;
  return 4;
}

}  // namespace puremd::cuda
