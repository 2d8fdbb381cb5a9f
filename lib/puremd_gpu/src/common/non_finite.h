// A NaN or inf in a step's atoms (an unstable simulation: a time step too
// long, atoms too close) stops the step with an error naming the atom,
// never a silent NaN. Both drivers check positions before they use them;
// charges and forces are found through the step's scalars: any non-finite
// position, charge or force reaches the energies or the virial (the virial
// sums x (x) f over every atom), so the per-atom search runs only when those
// are not finite and costs nothing while they are.
#pragma once

#include <string>

#include "puremd_gpu/atom_input.h"
#include "puremd_gpu/energies.h"

namespace puremd {

bool step_scalars_finite(const Energies &e, const double virial[6]);

// The first atom, in index order, with a non-finite position (x: 3 per
// atom), charge (q) or force (f: 3 per atom); each array may be null.
struct NonFiniteAtom {
  int atom = -1;          // none
  const char *what = "";  // "position", "charge", "force"
  double value[3] = {};   // its components (one for a charge)
};
NonFiniteAtom first_non_finite(int n, const double *x, const double *q, const double *f);

// The error's text: the atom's ID (-1: ids not given) and index, owned or
// ghost, its value, and what a user may do.
std::string non_finite_message(const char *driver, const NonFiniteAtom &bad, long long id,
                               int n_local);

}  // namespace puremd
