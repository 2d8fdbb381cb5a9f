// ACKS2's product in the CUDA solver (qeq_cuda_acks2.cu runs BiCGStab with
// it): y = (H v.q, X v.u) off the diagonal over every row, ghost rows to be
// folded, H from its stored rows, from the tiles (each pair once: the tile
// product over the q part, then X's short rows), or evaluated where used
// (QEqMatrix::Free); and X's diagonal from X's row sums.
#include <cuda_runtime.h>

#include "common/charges/acks2_bicgstab.h"
#include "cuda/charges/qeq_cuda_acks2.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_matrix_half_tiles.h"
#include "cuda/charges/qeq_matrix_list.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"

namespace puremd::cuda {
namespace {

struct Acks2RowSums {
  double h, x;
};

// y = (H v.q, X v.u) off the diagonal, every row (ghost rows to be folded);
// nothing when the iteration has stopped (phase given and not running).
// H's row, then X's (its own short rows: see k_acks2_x_rows).
template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_spmv(int n_rows, const long long *__restrict__ row_start,
                 const long long *__restrict__ row_end, const int *__restrict__ col,
                 const double *__restrict__ val, const int *__restrict__ x_start,
                 const int *__restrict__ x_count, const int *__restrict__ x_col,
                 const double *__restrict__ x_val, const double2 *__restrict__ v,
                 double2 *__restrict__ y, const int *phase) {
  if (phase && *phase != kAcks2Run) return;
  const LaneGroup<TPR> g;
  const long long row = g.row();
  Acks2RowSums acc{0.0, 0.0};
  if (row < n_rows) {
    const long long end = row_end[row];
    for (long long p = row_start[row] + g.lane; p < end; p += TPR) acc.h += val[p] * v[col[p]].x;
    const int x_end = x_start[row] + x_count[row];
    for (int p = x_start[row] + g.lane; p < x_end; p += TPR) acc.x += x_val[p] * v[x_col[p]].y;
  }
  g.sum_all(acc);
  if (row < n_rows && g.lane == 0) y[row] = make_double2(acc.h, acc.x);
}

// X's part alone, after H's tiles (which leave y.u at 0): y.u = X v.u over
// every row.
template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_x_spmv(int n_rows, const int *__restrict__ x_start, const int *__restrict__ x_count,
                   const int *__restrict__ x_col, const double *__restrict__ x_val,
                   const double2 *__restrict__ v, double2 *__restrict__ y, const int *phase) {
  if (phase && *phase != kAcks2Run) return;
  const LaneGroup<TPR> g;
  const long long row = g.row();
  double acc = 0.0;
  if (row < n_rows) {
    const int x_end = x_start[row] + x_count[row];
    for (int p = x_start[row] + g.lane; p < x_end; p += TPR) acc += x_val[p] * v[x_col[p]].y;
  }
  g.sum_all(acc);
  if (row < n_rows && g.lane == 0) y[row].y = acc;
}

// The same without a stored matrix: H and X evaluated where used.
template <int TPR>
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_free_spmv(QEqRowArgs a, const double2 *__restrict__ v, double2 *__restrict__ y,
                      const int *phase) {
  if (phase && *phase != kAcks2Run) return;
  const LaneGroup<TPR> g;
  const long long row = g.row();
  if (row >= a.far.n_total) return;  // whole groups
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

// Every entry (owned and ghost) of v set to (0, 1).
__global__ void k_acks2_ones(int n, double2 *v) {
  const int i = blockIdx.x * kQEqBlock + threadIdx.x;
  if (i < n) v[i] = make_double2(0.0, 1.0);
}

}  // namespace

template <int TPR>
void CudaAcks2::launch_product(const CudaSolveParts &p, const double2 *v, double2 *y,
                               const int *phase) {
  const int n = p.n_total;
  const unsigned blocks = blocks_for(static_cast<long long>(n) * TPR, kQEqBlock);
  if (p.store->format() == QEqMatrix::Free) {
    k_acks2_free_spmv<TPR><<<blocks, kQEqBlock, 0, p.stream>>>(*p.row_args, v, y, phase);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_free_spmv", p.stream);
  } else {
    k_acks2_spmv<TPR><<<blocks, kQEqBlock, 0, p.stream>>>(
        n, p.pool->row_start.data(), p.pool->row_end.data(), p.pool->col.data(), p.pool->val.data(),
        x_start_.data(), x_count_.data(), x_col_.data(), x_val_.data(), v, y, phase);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_spmv", p.stream);
  }
}

// y = (H v.q, X v.u) off the diagonal over every row; other ranks' ghosts of
// v come through the halo first (this rank's images are gathered as their
// owners' columns and their rows folded in k_acks2_finish).
void CudaAcks2::product(CudaSolveContext &s, const CudaSolveParts &p, const double2 *v, double2 *y,
                        QEqComm &comm, const int *phase) {
  s.forward_halo(const_cast<double2 *>(v), comm);
  const int n = p.n_total;
  if (n == 0) return;
  if (p.tiles) {
    PMD_CUDA_CHECK(cudaMemsetAsync(y, 0, n * sizeof(double2), p.stream));
    static_cast<CudaHalfTiles *>(p.store)->multiply_first(*p.matrix, v, y, phase);
    k_acks2_x_spmv<4>
        <<<blocks_for(static_cast<long long>(n) * 4, kQEqBlock), kQEqBlock, 0, p.stream>>>(
            n, x_start_.data(), x_count_.data(), x_col_.data(), x_val_.data(), v, y, phase);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_x_spmv", p.stream);
    return;
  }
  with_threads_per_row(p.matrix->threads_per_row,
                       [&](auto tpr) { launch_product<decltype(tpr)::value>(p, v, y, phase); });
}

// X_ii = -(sum of row i's X, its images' rows included): X times (0, 1).
void CudaAcks2::x_diagonal(CudaSolveContext &s, const CudaSolveParts &p, QEqComm &comm) {
  const int n = p.n_total, nr = p.n_rows;
  const ImageMap im = s.image_map();
  if (n > 0) {
    k_acks2_ones<<<blocks_for(n, kQEqBlock), kQEqBlock, 0, p.stream>>>(n, p.d);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_ones", p.stream);
  }
  product(s, p, p.d, p.w, comm, nullptr);
  if (nr > 0) {
    k_acks2_x_diagonal<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, p.stream>>>(
        nr, p.rows, im, p.w, xdiag_.data(), xdiag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_x_diagonal", p.stream);
  }
}

}  // namespace puremd::cuda
