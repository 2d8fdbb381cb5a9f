/* compute reaxff/atom/gpu: LAMMPS's compute reaxff/atom for pair_style
   reaxff/gpu (what `-sf gpu` makes of it). The same output; it asks the pair
   for the bond table when it is invoked, so the table leaves the GPU only on
   the steps something reads it (LAMMPS's own style cannot ask, and with it
   the pair copies the table after every step). Under `-k on` a KOKKOS
   style beside the KOKKOS pair (LAMMPS's compute refuses a KOKKOS pair
   otherwise), reading the host's tags and masks, brought up to date. */
#ifndef LMP_COMPUTE_REAXFF_ATOM_GPU_H
#define LMP_COMPUTE_REAXFF_ATOM_GPU_H

#include "asks_pair.h"
#include "compute_reaxff_atom.h"

namespace LAMMPS_NS {

class ComputeReaxFFAtomGPU : public ComputeReaxFFAtom, public reaxff_gpu::AsksPair {
 public:
  ComputeReaxFFAtomGPU(class LAMMPS *, int, char **);
  void init() override;
  void compute_bonds() override;

 private:
  class PairReaxFFGPU *ours = nullptr;
};

}  // namespace LAMMPS_NS

#endif
