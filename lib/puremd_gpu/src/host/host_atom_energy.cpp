// Host stage: lone-pair, then over/under-coordination energy, over owned atoms.
#include "host/host_context.h"
#include "puremd_gpu/physics/atom_energy.h"

namespace puremd::host {

void compute_atom_energy(HostContext &c) {
  const StepView &v = c.view;
  const int n_local = v.atoms.n_local;
  for (int i = 0; i < n_local; ++i) lone_pair_atom(i, v);
  for (int i = 0; i < n_local; ++i) over_under_coordination_atom(i, v);
}

}  // namespace puremd::host
