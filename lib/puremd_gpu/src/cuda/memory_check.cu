// The CUDA driver's out-of-memory errors: one kind of message (common/
// memory_estimate.h's memory_shortage_message) whether the estimate at a
// list count refuses the step before anything large is allocated
// (check_memory_need), a cudaMalloc fails (throw_out_of_memory) or a call of
// the runtime does (throw_runtime_out_of_memory); never a bare CUDA error
// text. The object that threw stays usable: an array whose growth failed is
// left empty and regrown by the next step that needs it.
#include <cuda_runtime.h>

#include <algorithm>

#include "common/memory_estimate.h"
#include "cuda/device_buffer.h"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

struct GpuMemory {
  double free = 0.0, total = 0.0;
};

GpuMemory gpu_memory() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) cudaGetLastError();
  return GpuMemory{static_cast<double>(free_b), static_cast<double>(total_b)};
}

std::string current_gpu_name() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return "?";
  }
  return prop.name;
}

MemoryShortage shortage(const MemoryTracker &t, const GpuMemory &g) {
  MemoryShortage s;
  s.n_local = t.n_local;
  s.n_total = t.n_atoms;
  s.gpu = t.device_name == "?" ? current_gpu_name() : t.device_name;
  s.gpu_total = g.total;
  s.available = g.free + static_cast<double>(t.current);
  s.held = static_cast<double>(t.current);
  return s;
}

}  // namespace

void check_memory_need(MemoryTracker &t, const MemoryEstimateInput &in) {
  t.need = in;
  t.need_known = true;
  const MemoryEstimate e = estimate_device_memory(in);
  // What the tracker holds already serves the step (its arrays are reused or
  // regrown in place): no question to the runtime in the usual step.
  if (e.required() <= static_cast<double>(t.current)) return;
  const GpuMemory g = gpu_memory();
  const double available = g.free + static_cast<double>(t.current);
  if (e.required() <= available) return;
  MemoryShortage s = shortage(t, g);
  s.n_local = in.n_local;
  s.n_total = in.n_total;
  s.need = e.bytes;
  s.gpus = gpus_to_hold(in, t.ranks, available);
  throw GpuMemoryError(memory_shortage_message(s));
}

void throw_out_of_memory(const char *name, size_t bytes, const MemoryTracker *t, cudaError_t) {
  cudaGetLastError();  // an allocation failure is not sticky; clear it
  const GpuMemory g = gpu_memory();
  MemoryTracker none;
  MemoryShortage s = shortage(t ? *t : none, g);
  s.failed = name;
  s.failed_bytes = static_cast<double>(bytes);
  // This rank needs at least what it holds plus what it asked for; the
  // estimate of the last count where it is known and larger.
  const double at_least = s.held + s.failed_bytes;
  const double estimate = t && t->need_known ? estimate_device_memory(t->need).bytes : 0.0;
  if (estimate > 0.0) {
    s.need = std::max(estimate, at_least);
    s.gpus = gpus_to_hold(t->need, t->ranks, s.available, s.need / estimate);
  } else {
    // Before the first count the need is known only from below: the GPUs
    // that would give every rank that much are the least that could do.
    s.need = at_least;
    const int ranks = t ? t->ranks : 1;
    s.gpus = s.available > 0.0
                 ? std::max<long long>(ranks + 1,
                                       static_cast<long long>(ranks * at_least / s.available) + 1)
                 : -1;
  }
  throw GpuMemoryError(memory_shortage_message(s));
}

void throw_runtime_out_of_memory(const std::string &what) {
  cudaGetLastError();
  MemoryShortage s = shortage(MemoryTracker{}, gpu_memory());
  s.failed = what;
  s.gpus = -1;  // not known: no estimate, no ranks here
  throw GpuMemoryError(memory_shortage_message(s));
}

}  // namespace puremd::cuda
