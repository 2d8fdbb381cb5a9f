/* Several MPI ranks on one GPU without NVIDIA's Multi-Process Service take
   turns on it: a rank's charge-solver iteration (an MPI sum, then the next
   kernels) waits for the other ranks' time slices. Measured on an H100
   (bench/README, issue 22): 2 ranks, 105 atoms, 40 steps with QEq, 4.3 s
   without MPS, 0.6 s with it, 0.3 s on one rank. */
#ifndef LMP_REAXFF_GPU_SHARED_GPU_H
#define LMP_REAXFF_GPU_SHARED_GPU_H

#include "lammps.h"

namespace LAMMPS_NS {

// Whether an MPS control daemon answers on this node (its pipe in
// CUDA_MPS_PIPE_DIRECTORY, default /tmp/nvidia-mps).
bool mps_running();

// Warns (rank 0) when ranks of one node share a GPU and MPS does not run
// there. gpu_id: this rank's GPU, -1 when it has none. Collective.
void warn_if_gpu_shared_without_mps(LAMMPS *lmp, int gpu_id);

}  // namespace LAMMPS_NS

#endif
