// What the ways of holding the CUDA QEq solver's matrix share
// (qeq_matrix_store.h): the rows' listing from the engine's far list, one
// warp per row, stored or only counted; a row's product with the diagonal;
// the products' lanes per row as a compile-time constant.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/charges/qeq_matrix_store.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {

// The rows (qeq_cuda_rows.cuh): one warp per row writes, when kStore, the
// kept entries straight into room reserved by the two lists (row i at
// far.start[i] + far.rev_start[i]; at far.start[i] when kOnce, each pair in
// one row only): no count pass, no sort, and the same order on every run.
// Without kStore (matrix-free product) it only counts, for the image map and
// the product's lanes, and checks the types.
struct RowCounts {
  long long *row_start, *row_end, *row_count;
  int *col;
  double *val;
  int *x_count;             // ACKS2: X's entries per row (null without)
  unsigned long long *nnz;  // H's entries, then X's (slots kQEqEntries, kQEqEntries2)
  unsigned long long *nonempty_rows;
};

template <bool kStore, bool kOnce>
__global__ void __launch_bounds__(kQEqBlock) k_list_rows(QEqRowArgs a, RowCounts out) {
  const LaneGroup<32> g;  // one warp per row
  const long long warp = g.row();
  if (warp >= a.far.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  const long long base = static_cast<long long>(a.far.start[i]) + (kOnce ? 0 : a.far.rev_start[i]);
  int count = 0, x_count = 0;
  qeq_row_chunks<kOnce>(g, a, i, [&](const QEqCandidate &c) {
    int kept = 0;
    const int before = g.rank(c.take, kept);
    if (c.take) {
      if (kStore) {
        const long long pos = base + count + before;
        out.col[pos] = c.col;
        out.val[pos] = qeq_row_value(a, c);
      } else {
        qeq_row_shield(a, c);  // the type check
      }
    }
    count += kept;
    if (out.x_count) {
      int x_kept = 0;
      g.rank(acks2_x_entry(a, c) != 0.0, x_kept);
      x_count += x_kept;
    }
  });
  if (g.lane == 0) {
    out.row_start[i] = base;
    out.row_end[i] = base + count;
    out.row_count[i] = count;
    if (count > 0) {
      atomicAdd(out.nonempty_rows, 1ull);
      atomicAdd(out.nnz, static_cast<unsigned long long>(count));
    }
    if (out.x_count) {
      out.x_count[i] = x_count;
      if (x_count > 0) atomicAdd(out.nnz + 1, static_cast<unsigned long long>(x_count));
    }
  }
}

// The rows of H (k_list_rows): stored (kStore, into room the far list and
// the reverse index reserve: each pair once for kOnce, else both triangles)
// or only counted; ACKS2's X entries counted beside them where s.x_count is
// given; the sizes then come home (s.read_sizes).
template <bool kStore, bool kOnce>
void list_rows(const QEqMatrixSolve &s, QEqMatrixPool &p) {
  const EngineAtoms &f = s.rows->far;
  const int n = s.n_total;
  if (!kOnce && !f.rev_start)
    throw RuntimeError("QEq (CUDA): the engine lent no reverse far index for a full matrix");
  const long long room = kOnce ? f.row_room : f.row_room + f.rev_total;
  p.row_count.reserve_discarding(static_cast<std::size_t>(n) + 1, kGrowHeadroom);
  p.row_start.reserve_discarding(static_cast<std::size_t>(n) + 1, kGrowHeadroom);
  p.row_end.reserve_discarding(static_cast<std::size_t>(n) + 1, kGrowHeadroom);
  if (kStore) {
    p.col.reserve_discarding(room, kMatrixHeadroom);
    p.val.reserve_discarding(room, kMatrixHeadroom);
  } else {
    p.col.release();
    p.val.release();
  }
  RowCounts out{};
  out.row_start = p.row_start.data();
  out.row_end = p.row_end.data();
  out.row_count = p.row_count.data();
  out.col = p.col.data();
  out.val = p.val.data();
  out.x_count = s.x_count;
  out.nnz = s.slots->at(kQEqEntries);
  out.nonempty_rows = s.slots->at(kQEqNonEmptyRows);
  k_list_rows<kStore, kOnce>
      <<<blocks_for(static_cast<long long>(n) * 32, kQEqBlock), kQEqBlock, 0, s.stream>>>(*s.rows,
                                                                                          out);
  PMD_CUDA_CHECK_LAUNCH("k_list_rows", s.stream);
  s.read_sizes();
}

// y = H v's sums of one row, both systems.
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

// launch(std::integral_constant<int, TPR>) with the lanes per row `tpr`
// (pick_threads_per_row's 4, 8, 16 or 32).
template <class Launch>
void with_threads_per_row(int tpr, Launch &&launch) {
  switch (tpr) {
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
