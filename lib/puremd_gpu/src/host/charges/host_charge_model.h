// A charge model's host implementation (charge_model.h): what the host
// reference solver (host_qeq_solver.h) asks of a model, at the points of its
// solve where a model differs from QEq. A model registers itself in its own
// source (host_<model>.cpp):
//   const HostModels::Add<MyInput, HostMy> kHostMy;
#pragma once

#include <cstddef>

#include "common/charges/model_registry.h"
#include "puremd_gpu/qeq.h"

namespace puremd::host {

class HostQEqSolver;

class HostChargeModel {
 public:
  virtual ~HostChargeModel() = default;
  // The model's own checks of `in` (InputError, the messages its CUDA
  // implementation gives too), after the solver's and before H is built.
  virtual void setup(const QEqInput &in) = 0;
  // A model that changes QEq's right-hand side: every row's electronegativity
  // in place of the parameters' chi (n_total entries, read at the rows;
  // QEqProblem::chi_shift is still added), after H is built; null keeps chi.
  virtual const double *electronegativities(const QEqInput &, HostQEqSolver &) { return nullptr; }
  // A model that solves another system: the whole solve (q, the history and
  // its own outputs) in place of QEq's two CG solves, or false.
  virtual bool solve(const QEqInput &, HostQEqSolver &, QEqComm &, double * /*q*/,
                     QEqResult & /*res*/) {
    return false;
  }
  virtual std::size_t memory_bytes() const { return 0; }
};

using HostModels = ModelRegistry<HostChargeModel>;

}  // namespace puremd::host
