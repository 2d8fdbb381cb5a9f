// The host reference solver's factory (the solver: host_qeq_solver.h).
#include "host/host_qeq_solver.h"

namespace puremd {

std::unique_ptr<QEqSolver> make_host_qeq_solver(const QEqSettings &settings, long long engine_id) {
  return std::make_unique<host::HostQEqSolver>(settings, engine_id);
}

}  // namespace puremd
