// How the CUDA QEq solver holds H for its products (QEqMatrix), one
// implementation per way (QEqStore), each in its own file, the one of a solve
// chosen on the host (common/charges/qeq_matrix_choice.h: qeq_matrix_format,
// qeq_store_for):
//   qeq_matrix_full.cu        Full: rows of both triangles, ghost rows folded
//   qeq_matrix_half_tiles.cu  Half: each pair once, in tiles of 32 rows
//   qeq_matrix_half_rows.cu   Half in rows, where a tile's partners overflow
//   qeq_matrix_free.cu        Free: no matrix, each pair evaluated where used
// The arrays are one pool (QEqMatrixPool), the solver's: a format taken
// after another reuses the room the other left, as the memory shares
// (kQEqStoredShare*) count on; ACKS2's product reads them too.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>

#include "common/charges/qeq_matrix_choice.h"
#include "common/registry.h"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/charges/qeq_matrix_pool.h"

namespace puremd::cuda {

// What a store reads of the solve in progress (the solver's, lent).
struct QEqMatrixSolve {
  cudaStream_t stream = nullptr;
  const QEqRowArgs *rows = nullptr;  // the row rules' inputs (far list, group, parameters)
  const double *diag = nullptr;      // H's diagonal (owned rows)
  int n_local = 0, n_total = 0;
  Readback<QEqSlot, kNumQEqSlots> *slots = nullptr;
  // the matrix's sizes home (CudaQEqSolver::read_matrix_size, which throws
  // on bad input), H's entries then in *nnz
  std::function<void()> read_sizes;
  const long long *nnz = nullptr;
  int *x_count = nullptr;    // ACKS2: X's entries per row, counted beside H's rows (null without)
  int threads_per_row = 32;  // the products' lanes per row (pick_threads_per_row, after the build)
};

class QEqMatrixStore {
 public:
  virtual ~QEqMatrixStore() = default;
  virtual QEqMatrix format() const = 0;
  // Each pair once, in its owned atom's row: the product scatters the
  // transpose, there are no ghost rows to fold.
  virtual bool once() const = 0;
  // This solve's H from the engine's far list (rows and sizes; the sizes come
  // home, s.read_sizes); false, with nothing kept, where it cannot be built
  // (tiles whose partners overflow their tables).
  virtual bool build(const QEqMatrixSolve &s) = 0;
  // y = H v for both systems, the diagonal included, ghost rows still to be
  // folded; nothing while *running == 0 (running given).
  virtual void multiply(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                        const int *running) = 0;
  // The memory of a format not taken this solve given back.
  virtual void release() {}
  // The tiles' partners were found by an earlier solve (QEqResult::tiles_reused).
  virtual bool tiles_reused() const { return false; }
};

// The stores, each registered in its own file under its key (QEqStore,
// whose traits the host rule reads: common/charges/qeq_matrix_choice.h), each
// made once, by the solver, when a solve first takes it:
//   const QEqMatrixStores::Add<MyStore> kMy(QEqStore::...);  // MyStore(QEqMatrixPool &)
using QEqMatrixStores = Registry<QEqStore, QEqMatrixStore, QEqMatrixPool &>;

}  // namespace puremd::cuda
