// Host stage: bond energy, over owned atoms.
#include "host/host_context.h"
#include "puremd_gpu/physics/bonds.h"

namespace puremd::host {

void compute_bond_energy(HostContext &c) {
  const StepView &v = c.view;
  const int n_local = v.atoms.n_local;
  for (int i = 0; i < n_local; ++i) bond_energy_atom(i, v);
}

}  // namespace puremd::host
