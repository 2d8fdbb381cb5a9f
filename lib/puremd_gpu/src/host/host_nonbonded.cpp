// Host stage: van der Waals + Coulomb (analytic or tabulated) and the
// polarization energy, over owned atoms. The per-atom bodies live in
// physics/nonbonded.h; view.lr is set when the engine built spline tables.
#include "host/host_context.h"
#include "puremd_gpu/physics/nonbonded.h"

namespace puremd::host {

void compute_nonbonded(HostContext &c) {
  const StepView &v = c.view;
  const int n = v.atoms.n_local;
  for (int i = 0; i < n; ++i) nonbonded_atom(i, v);
  for (int i = 0; i < n; ++i) polarization_atom(i, v);
}

}  // namespace puremd::host
