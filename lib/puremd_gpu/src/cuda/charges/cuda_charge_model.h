// A charge model's CUDA implementation (charge_model.h): what the CUDA QEq
// solver (qeq_cuda_solver.h) asks of a model, at the points of its solve where
// a model differs from QEq, the same points as the host reference solver's
// (host/host_charge_model.h). A model registers itself in its own source
// (qeq_cuda_<model>.cu), its device arrays on the engine's tracker:
//   const CudaModels::Add<MyInput, CudaMy> kCudaMy;   // CudaMy(MemoryTracker &)
#pragma once

#include "common/charges/model_registry.h"
#include "cuda/charges/cuda_solve_context.h"
#include "cuda/device_buffer.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

class CudaChargeModel {
 public:
  virtual ~CudaChargeModel() = default;
  // Whether the solve reads the engine's reverse far index (engine_atoms.h),
  // which the engine then builds before the solve.
  virtual bool reads_reverse_index() const { return false; }
  // The model's checks of `in` (InputError, the messages of its host
  // implementation) and its input up, in the solver's setup, once the QEq
  // parameters are up (CudaSolveContext::params) and before H is built.
  virtual void setup(const QEqInput &in, CudaSolveContext &s) = 0;
  // A model that changes QEq's right-hand side: every owned atom's
  // electronegativity on the GPU (n_local entries, the model's array) in
  // place of the parameters' chi (QEqProblem::chi_shift still added), queued
  // on the solver's stream after setup; null keeps chi.
  virtual const double *electronegativities(const QEqInput &, CudaSolveContext &) {
    return nullptr;
  }
  // --- A model with a matrix of its own beside H (ACKS2's X), whose
  // products read H themselves (own_product): H is then kept in both
  // triangles where it is evaluated (Free), never once in rows (Half only in
  // tiles), and ghost rows are folded beside tiles too (the model's own).
  virtual bool own_product() const { return false; }
  // What its rows read beside H's (the row rules' inputs), before H is built.
  virtual void row_args(QEqRowArgs &) const {}
  // Before H's rows are listed: where the model's entries per row are
  // counted beside H's (n_total ints; k_list_rows), null for none; `stored`:
  // H is stored in rows (else evaluated: the model keeps nothing).
  virtual int *count_beside_rows(CudaSolveContext &, bool /*stored*/) { return nullptr; }
  // After H is built (in tiles, or in rows whose sizes came home): the
  // model's own matrix beside it.
  virtual void beside_matrix(CudaSolveContext &, bool /*tiles*/) {}
  // A model that solves another system: the whole solve (q, the history and
  // its own outputs) in place of QEq's CG, after H is built, or false.
  virtual bool solve(const QEqInput &, CudaSolveContext &, QEqComm &, double * /*q*/,
                     QEqResult & /*res*/) {
    return false;
  }
};

using CudaModels = ModelRegistry<CudaChargeModel, MemoryTracker &>;

}  // namespace puremd::cuda
