// CG's preconditioner M in the host reference solver (host_qeq_solver.h),
// chosen by QEqSettings::preconditioner among those registered for the host
// driver (common/charges/preconditioner_registry.h). Its source registers it:
//   const HostPreconditioners::Add<HostMine> kHostMine("mine");
// It works on the solver's owned rows only: each row holds all of its
// partners, so M^-1 r needs nothing from another rank but what M's setup
// takes from the solver.
#pragma once

#include <cstddef>

#include "common/charges/preconditioner_registry.h"

namespace puremd::host {

class HostQEqSolver;

class HostPreconditioner {
 public:
  virtual ~HostPreconditioner() = default;
  // After H is built, before the solve's CG runs (the solver's accessors:
  // rows(), h(), diag()).
  virtual void setup(const HostQEqSolver &s) = 0;
  // p = M^-1 r at the solver's rows (n_total entries, the rest untouched).
  virtual void apply(const HostQEqSolver &s, const double *r, double *p) = 0;
  virtual std::size_t memory_bytes() const { return 0; }
};

using HostPreconditioners = PreconditionerRegistry<HostPreconditioner>;

}  // namespace puremd::host
