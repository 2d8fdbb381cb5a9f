// QEqMatrix::Full: H in rows of both triangles, (i, j) and (j, i), and a row
// for every ghost of this rank's atoms (folded into its owner after the
// product): the product only gathers, and its sums are the same on every run.
#include <cuda_runtime.h>

#include <memory>

#include "cuda/charges/qeq_matrix_list.cuh"

namespace puremd::cuda {
namespace {

// y = H v for both systems; a group of TPR lanes per row.
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

class CudaFullMatrix final : public QEqMatrixStore {
 public:
  explicit CudaFullMatrix(QEqMatrixPool &pool) : p_(pool) {}
  QEqMatrix format() const override { return QEqMatrix::Full; }
  bool once() const override { return false; }
  bool build(const QEqMatrixSolve &s) override {
    list_rows<true, false>(s, p_);
    return true;
  }
  void multiply(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                const int *running) override {
    with_threads_per_row(s.threads_per_row, [&](auto tpr) {
      constexpr int L = decltype(tpr)::value;
      k_spmv<L><<<blocks_for(static_cast<long long>(s.n_total) * L, kQEqBlock), kQEqBlock, 0,
                  s.stream>>>(s.n_total, s.n_local, p_.row_start.data(), p_.row_end.data(),
                              p_.col.data(), p_.val.data(), s.diag, v, y, running);
    });
    PMD_CUDA_CHECK_LAUNCH("k_spmv", s.stream);
  }

 private:
  QEqMatrixPool &p_;
};

const QEqMatrixStores::Add<CudaFullMatrix> kFull(QEqStore::Full);

}  // namespace

}  // namespace puremd::cuda
