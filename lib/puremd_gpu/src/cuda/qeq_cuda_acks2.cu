// ACKS2 in the CUDA solver: BiCGStab on the extended system, step for step
// as the host solver runs it (src/host/host_acks2.cpp, after fix
// acks2/reaxff): same guesses, stopping rules, early exit and preconditioner.
//
// A vector is a double2 per atom, (q part, u part), plus the two
// multipliers, which stay on the host (v_l[0] multiplies sum u = 0, v_l[1]
// sum q = 0): the product's device part is H and X over the rows in one
// pass (the stored X beside H, or both evaluated, QEqMatrix::Free), ghost
// rows folded; a row kernel then adds the diagonal, the identity blocks
// and the multipliers' columns, and sums what the multipliers' rows need.
// Every dot product is block partials finished on the GPU, brought home and
// summed over the ranks (QEqComm::sum), with the multipliers' part added
// there. Four round trips per iteration; the scalars stay on the host.
#include <cuda_runtime.h>

#include <cmath>
#include <type_traits>

#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/qeq_cuda_rows.cuh"
#include "cuda/qeq_cuda_solver.h"
#include "cuda/qeq_cuda_sums.cuh"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::cuda {
namespace {

constexpr int kSums = 4;  // partial sums every ACKS2 row kernel writes

struct Acks2RowSums {
  double h, x;
};

// y = (H v.q, X v.u) off the diagonal, every row (ghost rows to be folded).
template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_spmv(int n_rows, const long long *__restrict__ row_start,
                 const long long *__restrict__ row_end, const int *__restrict__ col,
                 const double *__restrict__ val, const double *__restrict__ xval,
                 const double2 *__restrict__ v, double2 *__restrict__ y) {
  const LaneGroup<TPR> g;
  const long long row = g.row();
  Acks2RowSums acc{0.0, 0.0};
  if (row < n_rows) {
    const long long end = row_end[row];
    for (long long p = row_start[row] + g.lane; p < end; p += TPR) {
      const double2 vj = v[col[p]];
      acc.h += val[p] * vj.x;
      acc.x += xval[p] * vj.y;
    }
  }
  g.sum_all(acc);
  if (row < n_rows && g.lane == 0) y[row] = make_double2(acc.h, acc.x);
}

// The same without a stored matrix: H and X evaluated where used.
template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_free_spmv(QEqRowArgs a, const double2 *__restrict__ v, double2 *__restrict__ y) {
  const LaneGroup<TPR> g;
  const long long row = g.row();
  if (row >= a.n_total) return;  // whole groups
  const int i = static_cast<int>(row);
  Acks2RowSums acc{0.0, 0.0};
  qeq_row_chunks(g, a, i, [&](const QEqCandidate &c) {
    if (!c.take) return;
    const double2 vj = v[c.col];
    acc.h += qeq_row_value(a, c) * vj.x;
    acc.x += acks2_row_value(a, c) * vj.y;
  });
  g.sum_all(acc);
  if (g.lane == 0) y[i] = make_double2(acc.h, acc.x);
}

// Right-hand side (-chi, 0), H's Jacobi diagonal and the cubic guesses of
// q and u from the history, rounded as the host does.
__global__ void k_acks2_init(int n_rows, const int *rows, ParamArgs pa, const double *hist,
                             double2 *b, double2 *x, double *diag, double *diag_inv) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const int p = pa.type ? pa.type[i] : i;
  double bq = -pa.chi[p];
  if (pa.chi_shift) bq -= pa.chi_shift[i];
  b[i] = make_double2(bq, 0.0);
  diag[i] = pa.eta[p];
  diag_inv[i] = 1.0 / pa.eta[p];
  const double *h = hist + static_cast<long long>(i) * QEqSolver::kHistoryPerAtom;
  x[i] = make_double2(qeq_guess_s(h), qeq_guess_s(h + QEqSolver::kHistoryDepth));
}

// X's diagonal from its folded off-diagonal row sums (in w.y), and 1/X_ii
// (1 where X_ii = 0), as fix acks2/reaxff preconditions.
__global__ void k_acks2_x_diagonal(int n_rows, const int *rows, ImageMap im, double2 *w,
                                   double *xdiag, double *xdiag_inv) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double d = -qeq_fold(i, w, im).y;
  xdiag[i] = d;
  xdiag_inv[i] = d == 0.0 ? 1.0 : 1.0 / d;
}

// The product's rows: w = A v on the group's owned rows (ghost rows folded,
// the diagonals, the identity blocks, the multipliers v_l); partial sums of
// v.q and v.u (the multipliers' rows), a . w (a given) and w . w.
__global__ void k_acks2_finish(int n_rows, const int *rows, ImageMap im, const double *diag,
                               const double *xdiag, const double2 *v, double lu, double lq,
                               double2 *w, const double2 *a, double *partial) {
  double s[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 vi = v[i];
    double2 wi = qeq_fold(i, w, im);
    wi.x += diag[i] * vi.x + vi.y + lq;
    wi.y += xdiag[i] * vi.y + vi.x + lu;
    w[i] = wi;
    s[0] += vi.x;
    s[1] += vi.y;
    if (a) {
      const double2 ai = a[i];
      s[2] += ai.x * wi.x + ai.y * wi.y;
    }
    s[3] += wi.x * wi.x + wi.y * wi.y;
  }
  qeq_block_partials<kSums>(s, partial);
}

// r = b - w, r_hat = r; partial sums of b . b and r . r.
__global__ void k_acks2_residual(int n_rows, const int *rows, const double2 *b, const double2 *w,
                                 double2 *r, double2 *r_hat, double *partial) {
  double s[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 bi = b[i], wi = w[i];
    const double2 ri = make_double2(bi.x - wi.x, bi.y - wi.y);
    r[i] = ri;
    r_hat[i] = ri;
    s[0] += bi.x * bi.x + bi.y * bi.y;
    s[1] += ri.x * ri.x + ri.y * ri.y;
  }
  qeq_block_partials<kSums>(s, partial);
}

// p = r (first iteration) or r + beta (p - omega z); d = M^-1 p.
__global__ void k_acks2_direction(int n_rows, const int *rows, bool first, double beta,
                                  double omega, const double2 *r, const double2 *z,
                                  const double *diag_inv, const double *xdiag_inv, double2 *p,
                                  double2 *d) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 ri = r[i];
  double2 pi = ri;
  if (!first) {
    const double2 po = p[i], zi = z[i];
    pi.x = ri.x + beta * (po.x - omega * zi.x);
    pi.y = ri.y + beta * (po.y - omega * zi.y);
  }
  p[i] = pi;
  d[i] = make_double2(pi.x * diag_inv[i], pi.y * xdiag_inv[i]);
}

// s = r - alpha z, s_hat = M^-1 s; partial sums of s . s.
__global__ void k_acks2_half_step(int n_rows, const int *rows, double alpha, const double2 *r,
                                  const double2 *z, const double *diag_inv, const double *xdiag_inv,
                                  double2 *s, double2 *s_hat, double *partial) {
  double v[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 ri = r[i], zi = z[i];
    const double2 si = make_double2(ri.x - alpha * zi.x, ri.y - alpha * zi.y);
    s[i] = si;
    s_hat[i] = make_double2(si.x * diag_inv[i], si.y * xdiag_inv[i]);
    v[0] += si.x * si.x + si.y * si.y;
  }
  qeq_block_partials<kSums>(v, partial);
}

// x += alpha d (the early exit).
__global__ void k_acks2_early(int n_rows, const int *rows, double alpha, const double2 *d,
                              double2 *x) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 di = d[i];
  double2 xi = x[i];
  xi.x += alpha * di.x;
  xi.y += alpha * di.y;
  x[i] = xi;
}

// x += alpha d + omega s_hat, r = s - omega y; partial sums of r . r and r_hat . r.
__global__ void k_acks2_step_end(int n_rows, const int *rows, double alpha, double omega,
                                 const double2 *d, const double2 *s_hat, const double2 *s,
                                 const double2 *y, const double2 *r_hat, double2 *x, double2 *r,
                                 double *partial) {
  double v[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 di = d[i], shi = s_hat[i], si = s[i], yi = y[i], rhi = r_hat[i];
    double2 xi = x[i];
    xi.x += alpha * di.x + omega * shi.x;
    xi.y += alpha * di.y + omega * shi.y;
    x[i] = xi;
    const double2 ri = make_double2(si.x - omega * yi.x, si.y - omega * yi.y);
    r[i] = ri;
    v[0] += ri.x * ri.x + ri.y * ri.y;
    v[1] += rhi.x * ri.x + rhi.y * ri.y;
  }
  qeq_block_partials<kSums>(v, partial);
}

// q and u of the rows, and the history shifted to take them.
__global__ void k_acks2_results(int n_rows, const int *rows, const double2 *x, double *q, double *u,
                                double *hist) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 xi = x[i];
  q[i] = xi.x;
  u[i] = xi.y;
  qeq_push_history(hist + static_cast<long long>(i) * QEqSolver::kHistoryPerAtom, xi.x, xi.y);
}

// Every entry (owned and ghost) of v set to (0, 1).
__global__ void k_acks2_ones(int n, double2 *v) {
  const int i = blockIdx.x * kQEqBlock + threadIdx.x;
  if (i < n) v[i] = make_double2(0.0, 1.0);
}

// The two multipliers of a vector: [0] sum u, [1] sum q.
struct Pair {
  double u = 0.0, q = 0.0;
};
double dot(const Pair &a, const Pair &b) { return a.u * b.u + a.q * b.q; }

}  // namespace

template <int TPR>
void CudaQEqSolver::launch_acks2_spmv(const double2 *v, double2 *y) {
  const int n = n_total_;
  const unsigned blocks = blocks_for(static_cast<long long>(n) * TPR, kQEqBlock);
  if (matrix_free_) {
    k_acks2_free_spmv<TPR><<<blocks, kQEqBlock, 0, stream_>>>(row_args_, v, y);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_free_spmv", stream_);
  } else {
    k_acks2_spmv<TPR><<<blocks, kQEqBlock, 0, stream_>>>(
        n, row_start_.data(), row_end_.data(), col_.data(), val_.data(), xval_.data(), v, y);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_spmv", stream_);
  }
}

// y = (H v.q, X v.u) off the diagonal over every row; on the comm path v's
// ghosts come through QEqComm first and y's ghost rows go home after (the
// device path gathers owners' columns and folds in k_acks2_finish).
void CudaQEqSolver::acks2_product(const double2 *v, double2 *y, QEqComm &comm) {
  if (!device_comm_) forward_host(const_cast<double2 *>(v), 3, comm);
  if (n_total_ > 0) {
    switch (pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row)) {
      case 4:
        launch_acks2_spmv<4>(v, y);
        break;
      case 8:
        launch_acks2_spmv<8>(v, y);
        break;
      case 16:
        launch_acks2_spmv<16>(v, y);
        break;
      default:
        launch_acks2_spmv<32>(v, y);
        break;
    }
  }
  if (!device_comm_) reverse_host(y, 3, comm);
}

// X_ii = -(sum of row i's X, its images' rows included): X times (0, 1).
void CudaQEqSolver::acks2_x_diagonal(QEqComm &comm) {
  const int n = n_total_, nr = n_rows_;
  const ImageMap im =
      device_comm_ ? ImageMap{img_start_.data(), img_end_.data(), img_idx_.data()} : ImageMap{};
  if (n > 0) {
    k_acks2_ones<<<blocks_for(n, kQEqBlock), kQEqBlock, 0, stream_>>>(n, d_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_ones", stream_);
  }
  acks2_product(d_.data(), w_.data(), comm);
  if (nr > 0) {
    k_acks2_x_diagonal<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows_dev_.data(), im, w_.data(), xdiag_.data(), xdiag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_x_diagonal", stream_);
  }
}

QEqResult CudaQEqSolver::solve_acks2(const QEqInput &in, QEqComm &comm, double *q) {
  const int n = in.n_total, nl = in.n_local, nr = n_rows_;
  double *u = in.acks2->u;
  const int *rows = rows_dev_.data();
  const ImageMap im =
      device_comm_ ? ImageMap{img_start_.data(), img_end_.data(), img_idx_.data()} : ImageMap{};
  // b, r, p, r_hat and s are read at rows only; products read and write every atom
  for (DeviceArray<double2> *a : {&r_hat_, &s_}) a->reserve(nl, kQEqHeadroom);
  for (DeviceArray<double2> *a : {&z_, &s_hat_, &y_}) a->reserve(n, kQEqHeadroom);
  xdiag_.reserve(nl, kQEqHeadroom);
  xdiag_inv_.reserve(nl, kQEqHeadroom);
  u_dev_.reserve(n, kQEqHeadroom);
  double2 *x = x_.data(), *b = b_.data(), *r = r_.data(), *p = p_.data(), *d = d_.data(),
          *w = w_.data(), *r_hat = r_hat_.data(), *z = z_.data(), *s = s_.data(),
          *s_hat = s_hat_.data(), *y = y_.data();
  acks2_x_diagonal(comm);  // (uses d and w)
  // entries off the rows stay zero in every vector a product reads
  if (n > 0)
    for (double2 *v : {x, d, s_hat})
      PMD_CUDA_CHECK(cudaMemsetAsync(v, 0, n * sizeof(double2), stream_));
  if (nl > 0) PMD_CUDA_CHECK(cudaMemsetAsync(diag_.data(), 0, nl * sizeof(double), stream_));
  if (nr > 0) {
    k_acks2_init<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows, params_, hist_dev_.data(), b, x, diag_.data(), diag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_init", stream_);
  }
  Pair x_l{qeq_guess_s(acks2_hist_), qeq_guess_s(acks2_hist_ + kQEqHistoryDepth)};

  const unsigned g = reduce_blocks();
  double sums[kSums];
  // the block partials of the last row kernel, finished and brought home
  auto home = [&]() {
    std::fill(sums, sums + kSums, 0.0);
    if (nr > 0) finish_sums(g, kSums, sums);
  };
  // w = A v with v's multipliers v_l; returns w's (sum u, sum q over every
  // rank); sums[2] and [3] are then a . w and w . w of this rank
  auto product = [&](const double2 *v, const Pair &v_l, double2 *out, const double2 *a) {
    acks2_product(v, out, comm);
    if (nr > 0) {
      k_acks2_finish<<<g, kQEqBlock, 0, stream_>>>(nr, rows, im, diag_.data(), xdiag_.data(), v,
                                                   v_l.u, v_l.q, out, a, partial_.data());
      PMD_CUDA_CHECK_LAUNCH("k_acks2_finish", stream_);
    }
    home();
    Pair out_l;
    out_l.u = comm.sum(sums[1]);  // collective calls, in this order on every rank
    out_l.q = comm.sum(sums[0]);
    return out_l;
  };

  // r = b - A x, r_hat = r
  const Pair w_l = product(x, x_l, w, nullptr);
  if (nr > 0) {
    k_acks2_residual<<<g, kQEqBlock, 0, stream_>>>(nr, rows, b, w, r, r_hat, partial_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_residual", stream_);
  }
  home();
  Pair r_l{-w_l.u, -w_l.q};
  Pair r_hat_l = r_l, p_l, d_l, z_l, s_l, y_l;
  double b_norm = std::sqrt(comm.sum(sums[0]));
  const double rr = comm.sum(sums[1]);
  double r_norm = std::sqrt(rr + dot(r_l, r_l));
  double r_hat_r = rr;  // r_hat . r of the device part (r_hat = r)
  if (b_norm == 0.0) b_norm = 1.0;

  const double tol = settings_.tolerance;
  double omega = 1.0, rho = 1.0, rho_old = 1.0, alpha = 0.0;
  int it = 1;
  for (; it < settings_.max_iter && r_norm / b_norm > tol; ++it) {
    rho = r_hat_r + dot(r_hat_l, r_l);
    if (rho == 0.0) break;
    const bool first = it == 1;
    const double beta = first ? 0.0 : (rho / rho_old) * (alpha / omega);
    if (first) {
      p_l = r_l;
    } else {
      p_l.u = r_l.u + beta * (p_l.u - omega * z_l.u);
      p_l.q = r_l.q + beta * (p_l.q - omega * z_l.q);
    }
    if (nr > 0) {
      k_acks2_direction<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
          nr, rows, first, beta, omega, r, z, diag_inv_.data(), xdiag_inv_.data(), p, d);
      PMD_CUDA_CHECK_LAUNCH("k_acks2_direction", stream_);
    }
    d_l = p_l;  // the multipliers are not preconditioned
    z_l = product(d, d_l, z, r_hat);
    alpha = rho / (comm.sum(sums[2]) + dot(r_hat_l, z_l));
    s_l = Pair{r_l.u - alpha * z_l.u, r_l.q - alpha * z_l.q};
    if (nr > 0) {
      k_acks2_half_step<<<g, kQEqBlock, 0, stream_>>>(nr, rows, alpha, r, z, diag_inv_.data(),
                                                      xdiag_inv_.data(), s, s_hat, partial_.data());
      PMD_CUDA_CHECK_LAUNCH("k_acks2_half_step", stream_);
    }
    home();
    if (comm.sum(sums[0]) + dot(s_l, s_l) < tol) {
      if (nr > 0) {
        k_acks2_early<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(nr, rows, alpha, d, x);
        PMD_CUDA_CHECK_LAUNCH("k_acks2_early", stream_);
      }
      x_l.u += alpha * d_l.u;
      x_l.q += alpha * d_l.q;
      break;
    }
    y_l = product(s_hat, s_l, y, s);  // s_hat's multipliers are s's
    const double sigma = comm.sum(sums[2]) + dot(y_l, s_l);
    const double yy = comm.sum(sums[3]) + dot(y_l, y_l);
    omega = sigma / yy;
    if (nr > 0) {
      k_acks2_step_end<<<g, kQEqBlock, 0, stream_>>>(nr, rows, alpha, omega, d, s_hat, s, y, r_hat,
                                                     x, r, partial_.data());
      PMD_CUDA_CHECK_LAUNCH("k_acks2_step_end", stream_);
    }
    home();
    x_l.u += alpha * d_l.u + omega * s_l.u;
    x_l.q += alpha * d_l.q + omega * s_l.q;
    r_l = Pair{s_l.u - omega * y_l.u, s_l.q - omega * y_l.q};
    const double r2 = comm.sum(sums[0]);
    r_hat_r = comm.sum(sums[1]);
    r_norm = std::sqrt(r2 + dot(r_l, r_l));
    if (omega == 0.0) break;
    rho_old = rho;
  }

  QEqResult res;
  res.iter_s = it;
  res.iter_t = 0;
  res.converged_s = it < settings_.max_iter;
  res.breakdown = omega == 0.0 || rho == 0.0;
  res.matrix_free = matrix_free_;
  qeq_push_history(acks2_hist_, x_l.u, x_l.q);

  // q and u straight into the caller's arrays: owned atoms outside the rows
  // keep theirs (uploaded first), ghosts get their owners' on the device
  // path, else through QEqComm::forward.
  if (nr > 0) {
    if (nr < nl) {
      PMD_CUDA_CHECK(
          cudaMemcpyAsync(q_dev_.data(), q, nl * sizeof(double), cudaMemcpyHostToDevice, stream_));
      PMD_CUDA_CHECK(
          cudaMemcpyAsync(u_dev_.data(), u, nl * sizeof(double), cudaMemcpyHostToDevice, stream_));
    }
    k_acks2_results<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows, x, q_dev_.data(), u_dev_.data(), hist_dev_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_results", stream_);
    const int n_down = device_comm_ ? n : nl;
    if (device_comm_ && n > nl) {
      refresh_ghost_charges(q_dev_.data());
      refresh_ghost_charges(u_dev_.data());
    }
    PMD_CUDA_CHECK(cudaMemcpyAsync(q, q_dev_.data(), n_down * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaMemcpyAsync(u, u_dev_.data(), n_down * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  if (nr == 0 || !device_comm_) {
    comm.forward(q);
    comm.forward(u);
  }
  return res;
}

}  // namespace puremd::cuda
