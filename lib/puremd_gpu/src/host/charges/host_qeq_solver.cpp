// The host reference solve for tests and callers without an engine (the
// solver: host_qeq_solver.h), and the preconditioners' names.
#include "host/charges/host_qeq_solver.h"

#include "host/charges/host_preconditioner.h"

namespace puremd {

QEqResult solve_qeq_reference(const QEqInput &in, ChargeHistory &history, QEqComm &comm,
                              double *q) {
  host::HostQEqSolver solver;
  return solver.solve(in, history, comm, q);
}

// The host driver's registry: each preconditioner is written once for both
// drivers, and the host driver is always built.
std::vector<std::string> qeq_preconditioner_names() { return host::HostPreconditioners::names(); }

}  // namespace puremd
