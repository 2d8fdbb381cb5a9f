// Which GPU a rank uses. The rule is LAMMPS's GPU package's, so that
// `package gpu Ngpu gpuID first` (or -pk gpu ...) means the same for
// reaxff/gpu: the ranks of a node, in order, are split into equal blocks, one
// block per GPU first, first + 1, ..., first + Ngpu - 1.
#pragma once

namespace puremd {

struct GpuAssignment {
  int node_rank = 0;   // this rank's index among the ranks of its node
  int node_ranks = 1;  // ranks on the node
  int count = 0;       // GPUs to use; 0: every GPU from `first` on, at most one per rank
  int first = -1;      // first GPU id; -1: 0
};

// The device index of this rank when the node shows device_count GPUs.
// Throws InputError when the request does not fit the node.
int gpu_for_rank(const GpuAssignment &a, int device_count);

// Make this rank's GPU (gpu_for_rank) current for the process. Returns its
// index, or -1 without CUDA or without a GPU.
int select_cuda_device(const GpuAssignment &a);

// Throws RuntimeError when this build has no code the current GPU can run
// (machine code for its architecture, or PTX the driver can compile for it):
// the message names the GPU, its architecture, the architectures built and
// CMAKE_CUDA_ARCHITECTURES. Nothing without CUDA or without a GPU.
void check_cuda_code();

// The GPU the process's CUDA calls go to now, which another library in the
// process (LAMMPS's GPU package) may have chosen; -1 without CUDA or GPU.
int current_cuda_device();

}  // namespace puremd
