// What every driver shares of an Engine: its id, and the charge stage's
// input taken from the step's atoms (the drivers implement charge_stage).
#include "puremd_gpu/engine.h"

#include <atomic>

namespace puremd {

Engine::Engine() {
  static std::atomic<long long> made{0};
  id_ = ++made;
}

QEqResult Engine::solve_charges(const StepInput &atoms, QEqInput qeq, QEqSolver &solver,
                                QEqComm &comm, double *q) {
  qeq.n_local = atoms.n_local;
  qeq.n_total = atoms.n_total;
  qeq.x = atoms.x;
  qeq.tag = atoms.tag;
  if (qeq.type) qeq.type = atoms.type;  // per-type parameters index the atoms' types
  return charge_stage(atoms, qeq, solver, comm, q);
}

}  // namespace puremd
