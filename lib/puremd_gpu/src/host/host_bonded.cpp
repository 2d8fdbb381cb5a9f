// Host stage: the bonded energies of physics/stages.h, each over the owned
// atoms, in list order.
#include "host/host_context.h"
#include "puremd_gpu/physics/stages.h"

namespace puremd::host {

void compute_bonded(HostContext &c) {
  const StepView &v = c.view;
  const int n_local = v.atoms.n_local;
#define PUREMD_HOST_STAGE(Name, body, lanes) \
  for (int i = 0; i < n_local; ++i) body(i, v);
  PUREMD_BONDED_STAGES(PUREMD_HOST_STAGE)
#undef PUREMD_HOST_STAGE
}

}  // namespace puremd::host
