// What every driver shares of an Engine: the charge stage's input, a problem
// on the step's atoms.
#include "puremd_gpu/engine.h"

namespace puremd {

QEqInput Engine::charge_input(const StepInput &atoms, const QEqProblem &problem, bool reordered) {
  QEqInput in;
  static_cast<QEqProblem &>(in) = problem;
  in.n_local = atoms.n_local;
  in.n_total = atoms.n_total;
  in.x = atoms.x;
  in.tag = atoms.tag;
  in.type = problem.num_types > 0 ? atoms.type : nullptr;
  in.type_map = atoms.type_map;
  in.num_mapped = atoms.num_mapped;
  in.atoms_reordered = reordered;
  return in;
}

}  // namespace puremd
