// QEqMatrix::Half in tiles of 32 rows (qeq_matrix_half_tiles.cu says how and
// why; qeq_matrix_half_tiles_product.cu multiplies).
#pragma once

#include "cuda/charges/qeq_matrix_store.h"

namespace puremd::cuda {

class CudaHalfTiles final : public QEqMatrixStore {
 public:
  explicit CudaHalfTiles(QEqMatrixPool &pool) : p_(pool) {}
  QEqMatrix format() const override { return QEqMatrix::Half; }
  bool once() const override { return true; }
  bool build(const QEqMatrixSolve &s) override;
  void multiply(const QEqMatrixSolve &s, const double2 *v, double2 *y, const int *running) override;
  void release() override;
  bool tiles_reused() const override { return reused_; }
  // y.x += H v.x over the tiles' pairs, without the diagonal (ACKS2's q
  // part: its finish adds it), y zeroed before; nothing while *phase (given)
  // is not 0 (kAcks2Run).
  void multiply_first(const QEqMatrixSolve &s, const double2 *v, double2 *y, const int *phase);

 private:
  bool find_partners(const QEqMatrixSolve &s);
  template <bool kBoth>
  void launch(const QEqMatrixSolve &s, const double2 *v, double2 *y, const int *running);

  QEqMatrixPool &p_;
  // the list build (EngineAtoms::list_build) and atom counts the partners
  // were found for (-1: none held)
  long partners_of_ = -1;
  int partners_n_local_ = 0, partners_n_total_ = 0;
  long overflowed_for_ = -1;  // the list build whose tiles overflowed their tables
  bool reused_ = false;       // this solve's tiles kept an earlier solve's partners
};

}  // namespace puremd::cuda
