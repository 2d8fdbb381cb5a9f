// Host stage: torsion and four-body conjugation energies about the bonds of
// the owned atoms (reads the three-body list built by compute_valence_angles).
#include "host/host_context.h"
#include "puremd_gpu/physics/torsion.h"

namespace puremd::host {

void compute_torsions(HostContext &c) {
  const int n_local = c.view.atoms.n_local;
  for (int j = 0; j < n_local; ++j) torsions_atom(j, c.view);
}

}  // namespace puremd::host
