// Host stage: hydrogen bonds, one owned hydrogen at a time (physics in
// physics/hydrogen_bond.h). Needs the bond list with final bond orders and the
// hydrogen-bond partner list.
#include "host/host_context.h"
#include "puremd_gpu/physics/hydrogen_bond.h"

namespace puremd::host {

void compute_hydrogen_bonds(HostContext &c) {
  const StepView &v = c.view;
  if (v.control.hbond_cut <= 0.0 || !v.tally.on(kTermHbond)) return;
  const int n = v.atoms.n_local;
  for (int h = 0; h < n; ++h) hydrogen_bonds_atom(h, v);
}

}  // namespace puremd::host
