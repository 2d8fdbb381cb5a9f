// QEqMatrix::Half in rows: each pair once, in the row of its owned
// lower-index atom, where a tile's partners do not fit its table (atoms far
// from LAMMPS's spatial sort, qeq_matrix_half_tiles.cu). The product adds
// the transpose by atomics, in a run-dependent order.
#include <cuda_runtime.h>

#include <memory>

#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_matrix_list.cuh"

namespace puremd::cuda {
namespace {

// y += H v, y zeroed before: owned row i gathers its entries (i, j) and its
// diagonal into y_i, and scatters each entry's transpose H_ij v_i to y_j (a
// column of this rank's images is its owner's, qeq_column). Ghost rows are
// empty.
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

class CudaHalfRows final : public QEqMatrixStore {
 public:
  explicit CudaHalfRows(QEqMatrixPool &pool) : p_(pool) {}
  QEqMatrix format() const override { return QEqMatrix::Half; }
  bool once() const override { return true; }
  bool build(const QEqMatrixSolve &s) override {
    list_rows<true, true>(s, p_);
    return true;
  }
  // The products add into y, zeroed here (after the last iteration an extra
  // queued product may zero it for nothing: nothing reads y then).
  void multiply(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                const int *running) override {
    PMD_CUDA_CHECK(cudaMemsetAsync(y, 0, s.n_total * sizeof(double2), s.stream));
    with_threads_per_row(s.threads_per_row, [&](auto tpr) {
      constexpr int L = decltype(tpr)::value;
      k_spmv_once<L><<<blocks_for(static_cast<long long>(s.n_local) * L, kQEqBlock), kQEqBlock, 0,
                       s.stream>>>(s.n_local, p_.row_start.data(), p_.row_end.data(), p_.col.data(),
                                   p_.val.data(), s.diag, v, y, running);
    });
    PMD_CUDA_CHECK_LAUNCH("k_spmv", s.stream);
  }

 private:
  QEqMatrixPool &p_;
};

const QEqMatrixStores::Add<CudaHalfRows> kHalfRows(QEqStore::HalfRows);

}  // namespace

}  // namespace puremd::cuda
