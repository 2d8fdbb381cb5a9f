// What every driver shares of an Engine: the charge stage's input, a problem
// on the step's atoms.
#include "puremd_gpu/engine.h"

namespace puremd {

QEqInput Engine::charge_input(const StepInput &atoms, const QEqProblem &problem, bool reordered) {
  QEqInput in;
  static_cast<QEqProblem &>(in) = problem;
  static_cast<AtomsInput &>(in) = atoms;
  in.type = problem.num_types > 0 ? atoms.type : nullptr;  // else per-atom parameters
  in.atoms_reordered = reordered;
  return in;
}

}  // namespace puremd
