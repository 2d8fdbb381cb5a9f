// ACKS2's X in the CUDA solver: its own rows beside H's (counted by H's row
// kernel, k_list_rows, where H has rows; on their own beside H's tiles),
// then stored, through the model's hooks (cuda_charge_model.h) in the
// solver's build of H (qeq_cuda_matrix.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda/charges/qeq_cuda_acks2.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_matrix_store.h"
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

// Before H's rows are listed: X's entries counted beside them where H is
// stored (k_list_rows), else X is not kept (the product evaluates it).
int *CudaAcks2::count_beside_rows(CudaSolveContext &s, bool stored) {
  const std::size_t n = static_cast<std::size_t>(s.atoms().n_total);
  if (!stored) {
    x_count_.release();
    x_start_.release();
    x_col_.release();
    x_val_.release();
    return nullptr;
  }
  x_count_.reserve_discarding(n, kGrowHeadroom);
  x_start_.reserve_discarding(n, kGrowHeadroom);
  return x_count_.data();
}

// After H: X's rows stored where H's rows counted them; with H in tiles,
// X's rows counted on their own, stored (both triangles, ghost rows
// included, as beside a Full H), and the fold's map from X's ghost rows
// (H's tiles scatter to the owners' columns and need none).
void CudaAcks2::beside_matrix(CudaSolveContext &s, bool tiles) {
  const CudaSolveParts p = s.parts();
  const int n = p.n_total;
  if (!tiles) {
    if (p.store->format() == QEqMatrix::Free) return;
    x_nnz_ = p.slots->value(kQEqEntries2);  // (counted beside H's, home with its sizes)
    build_x_rows(p);
    return;
  }
  x_count_.reserve_discarding(static_cast<std::size_t>(n), kGrowHeadroom);
  x_start_.reserve_discarding(static_cast<std::size_t>(n), kGrowHeadroom);
  p.slots->clear(p.stream, kQEqEntries2);
  k_acks2_x_counts<<<blocks_for(static_cast<long long>(n) * 32, kQEqBlock), kQEqBlock, 0,
                     p.stream>>>(*p.row_args, x_count_.data(), p.slots->at(kQEqEntries2));
  PMD_CUDA_CHECK_LAUNCH("k_acks2_x_counts", p.stream);
  p.slots->read(p.stream, kQEqEntries2);
  x_nnz_ = p.slots->value(kQEqEntries2);
  build_x_rows(p);
  s.build_image_map(x_count_.data());
}

// X's rows (k_acks2_x_rows) where the counts put them.
void CudaAcks2::build_x_rows(const CudaSolveParts &p) {
  const int n = p.n_total;
  if (x_nnz_ > INT32_MAX)
    throw RuntimeError("ACKS2 (CUDA): " + std::to_string(x_nnz_) +
                       " bond-softness entries exceed the 32-bit index; use more GPUs / MPI ranks");
  exclusive_sum(*p.cub, x_count_.data(), x_start_.data(), n, p.stream);
  x_col_.reserve_discarding(static_cast<std::size_t>(std::max<long long>(x_nnz_, 1)),
                            kMatrixHeadroom);
  x_val_.reserve_discarding(static_cast<std::size_t>(std::max<long long>(x_nnz_, 1)),
                            kMatrixHeadroom);
  k_acks2_x_rows<<<blocks_for(static_cast<long long>(n) * 32, kQEqBlock), kQEqBlock, 0, p.stream>>>(
      *p.row_args, x_start_.data(), x_col_.data(), x_val_.data());
  PMD_CUDA_CHECK_LAUNCH("k_acks2_x_rows", p.stream);
}

}  // namespace puremd::cuda
