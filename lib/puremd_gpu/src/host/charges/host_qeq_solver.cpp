// The host reference solve for tests and callers without an engine (the
// solver: host_qeq_solver.h).
#include "host/charges/host_qeq_solver.h"

namespace puremd {

QEqResult solve_qeq_reference(const QEqInput &in, ChargeHistory &history, QEqComm &comm,
                              double *q) {
  host::HostQEqSolver solver;
  return solver.solve(in, history, comm, q);
}

}  // namespace puremd
