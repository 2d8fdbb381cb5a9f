// QEqMatrix::Free: no matrix; every product evaluates each kept pair where it
// is used, from the far list (qeq_cuda_rows.cuh). QEq's evaluates each pair
// once and scatters the transpose by atomics, as Half does; ACKS2's, which
// reads H's rows beside X's, both triangles and the rows of this rank's
// images (folded after). The rows are only counted at the build (the image
// map, the lanes per row, the type checks).
#include <cuda_runtime.h>

#include <memory>

#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_matrix_list.cuh"

namespace puremd::cuda {
namespace {

// The group of TPR lanes walks the row's candidates and evaluates each kept
// element; kOnce: each pair once, as k_spmv_once (y zeroed before), else
// both triangles, as k_spmv.
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

template <bool kOnce>
class CudaFreeMatrix final : public QEqMatrixStore {
 public:
  explicit CudaFreeMatrix(QEqMatrixPool &pool) : p_(pool) {}
  QEqMatrix format() const override { return QEqMatrix::Free; }
  bool once() const override { return kOnce; }
  bool build(const QEqMatrixSolve &s) override {
    list_rows<false, kOnce>(s, p_);
    return true;
  }
  // Each pair once: the products add into y, zeroed here.
  void multiply(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                const int *running) override {
    if (kOnce) PMD_CUDA_CHECK(cudaMemsetAsync(y, 0, s.n_total * sizeof(double2), s.stream));
    const int n = kOnce ? s.n_local : s.n_total;
    with_threads_per_row(s.threads_per_row, [&](auto tpr) {
      constexpr int L = decltype(tpr)::value;
      k_free_product<L, kOnce>
          <<<blocks_for(static_cast<long long>(n) * L, kQEqBlock), kQEqBlock, 0, s.stream>>>(
              *s.rows, s.diag, v, y, running);
    });
    PMD_CUDA_CHECK_LAUNCH("k_free_product", s.stream);
  }

 private:
  QEqMatrixPool &p_;
};

const QEqMatrixStores::Add<CudaFreeMatrix<true>> kFreeOnce(QEqStore::FreeOnce);
const QEqMatrixStores::Add<CudaFreeMatrix<false>> kFreeRows(QEqStore::FreeRows);

}  // namespace

}  // namespace puremd::cuda
