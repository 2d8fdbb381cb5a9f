#include "puremd_gpu/device_choice.h"

#include <algorithm>
#include <string>

#include "puremd_gpu/errors.h"

namespace puremd {

int gpu_for_rank(const GpuAssignment &a, int device_count) {
  if (a.node_ranks < 1 || a.node_rank < 0 || a.node_rank >= a.node_ranks)
    throw RuntimeError("GPU assignment: rank " + std::to_string(a.node_rank) + " of " +
                       std::to_string(a.node_ranks) + " on the node");
  if (a.count < 0) throw InputError("package gpu: the number of GPUs must be 0 or more");
  if (device_count < 1) throw InputError("no GPU is visible to this process");
  const int first = a.first < 0 ? 0 : a.first;
  const std::string visible = "this node shows " + std::to_string(device_count) +
                              " GPU(s) (ids 0.." + std::to_string(device_count - 1) +
                              "; CUDA_VISIBLE_DEVICES selects which)";
  if (first >= device_count)
    throw InputError("package gpu: gpuID " + std::to_string(first) + " does not exist: " + visible);
  int count = a.count;
  if (count == 0) count = std::min(device_count - first, a.node_ranks);
  if (first + count > device_count)
    throw InputError("package gpu: " + std::to_string(count) + " GPU(s) from id " +
                     std::to_string(first) + " asked for, but " + visible);
  const int ranks_per_gpu = (a.node_ranks + count - 1) / count;
  return first + a.node_rank / ranks_per_gpu;
}

}  // namespace puremd
