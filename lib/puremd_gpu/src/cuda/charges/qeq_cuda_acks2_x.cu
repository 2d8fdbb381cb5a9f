// ACKS2's X in the CUDA solver: its own rows beside H's (counted by H's row
// kernel, k_list_rows, where H has rows; on their own beside H's tiles),
// then stored (qeq_cuda_matrix.cu builds H).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

// ACKS2's X entries per row, counted on their own where H is in tiles
// (k_list_rows counts them beside H's rows otherwise).
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_x_counts(QEqRowArgs a, int *x_count, unsigned long long *x_nnz) {
  const LaneGroup<32> g;
  const long long warp = g.row();
  if (warp >= a.far.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  int count = 0;
  qeq_row_chunks(g, a, i, [&](const QEqCandidate &c) {
    int kept = 0;
    g.rank(acks2_x_entry(a, c) != 0.0, kept);
    count += kept;
  });
  if (g.lane == 0) {
    x_count[i] = count;
    if (count > 0) atomicAdd(x_nnz, static_cast<unsigned long long>(count));
  }
}

// ACKS2's X rows, stored apart from H's: X_ij is non-zero only within
// bcut_ij, a few Angstrom, so its rows hold a few per cent of H's entries
// (water: 3.4 A against H's 10 A), and the product reads those alone. The
// same candidates in the same order as k_list_rows, the non-zero ones
// written from x_start[i].
__global__ void __launch_bounds__(kQEqBlock)
    k_acks2_x_rows(QEqRowArgs a, const int *x_start, int *x_col, double *x_val) {
  const LaneGroup<32> g;
  const long long warp = g.row();
  if (warp >= a.far.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  int count = 0;
  const long long base = x_start[i];
  qeq_row_chunks(g, a, i, [&](const QEqCandidate &c) {
    const double v = acks2_x_entry(a, c);
    int kept = 0;
    const int before = g.rank(v != 0.0, kept);
    if (v != 0.0) {
      x_col[base + count + before] = c.col;
      x_val[base + count + before] = v;
    }
    count += kept;
  });
}

}  // namespace

// ACKS2 with H in tiles: X's rows counted, stored (both triangles, ghost
// rows included, as beside a Full H), and the image map of X's ghost rows
// (H's tiles scatter to the owners' columns and need none).
void CudaQEqSolver::build_x_beside_tiles(int n, int nl) {
  x_count_.reserve_discarding(static_cast<std::size_t>(n), kGrowHeadroom);
  x_start_.reserve_discarding(static_cast<std::size_t>(n), kGrowHeadroom);
  slots_.clear(stream_, kQEqEntries2);
  k_acks2_x_counts<<<blocks_for(static_cast<long long>(n) * 32, kQEqBlock), kQEqBlock, 0,
                     stream_>>>(row_args_, x_count_.data(), slots_.at(kQEqEntries2));
  PMD_CUDA_CHECK_LAUNCH("k_acks2_x_counts", stream_);
  slots_.read(stream_, kQEqEntries2);
  x_nnz_ = slots_.value(kQEqEntries2);
  build_x_rows(n);
  build_image_map(n, nl, true);
}

// X's rows (k_acks2_x_rows) where the counts of k_list_rows put them.
void CudaQEqSolver::build_x_rows(int n) {
  if (x_nnz_ > INT32_MAX)
    throw RuntimeError("ACKS2 (CUDA): " + std::to_string(x_nnz_) +
                       " bond-softness entries exceed the 32-bit index; use more GPUs / MPI ranks");
  exclusive_sum(cub_tmp_, x_count_.data(), x_start_.data(), n, stream_);
  x_col_.reserve_discarding(static_cast<std::size_t>(std::max<long long>(x_nnz_, 1)),
                            kMatrixHeadroom);
  x_val_.reserve_discarding(static_cast<std::size_t>(std::max<long long>(x_nnz_, 1)),
                            kMatrixHeadroom);
  k_acks2_x_rows<<<blocks_for(static_cast<long long>(n) * 32, kQEqBlock), kQEqBlock, 0, stream_>>>(
      row_args_, x_start_.data(), x_col_.data(), x_val_.data());
  PMD_CUDA_CHECK_LAUNCH("k_acks2_x_rows", stream_);
}

}  // namespace puremd::cuda
