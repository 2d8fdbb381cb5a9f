// How much GPU memory the CUDA driver (engine + charge solver) will need on
// one rank, predicted from what it knows right after its first big count
// (the skin list's pairs, before any entry of them is allocated), and how
// many GPUs would hold the system: the numbers of the out-of-memory errors
// (cuda/memory_check.cu). Pure host code, so that the model is tested
// without a GPU. The model and its calibration: memory_estimate.cpp.
#pragma once

#include <cstddef>
#include <string>

namespace puremd {

// Headroom of an array's first allocation (DeviceArray::reserve_discarding;
// later growths take kGrowHeadroom): a list's count changes by a few per cent
// between rebuilds at most, and the largest systems are bounded by exactly
// these arrays, so 20 % of room nobody uses is memory a larger system lacks.
constexpr double kFirstHeadroom = 1.05;

// Elements to allocate for n (at least 1): n x headroom, at most n x
// kFirstHeadroom at an array's first allocation.
inline std::size_t grown_capacity(std::size_t n, double headroom, bool first_allocation) {
  const double h = first_allocation && headroom > kFirstHeadroom ? kFirstHeadroom : headroom;
  std::size_t want = static_cast<std::size_t>(static_cast<double>(n) * h);
  if (want < n) want = n;
  return want == 0 ? 1 : want;
}

struct MemoryEstimateInput {
  long long n_local = 0;     // owned atoms of this rank
  long long n_total = 0;     // owned + ghost
  long long list_pairs = 0;  // entries of the skin list (the far list without one)
  bool charges = false;      // a charge solver (QEq matrix and vectors) too
  bool fsai = false;         // with charges: its CG preconditioned by FSAI (G, per owned atom)
};

struct MemoryEstimate {
  double bytes = 0.0;           // engine + charge solver, peak, this rank
  double optional_bytes = 0.0;  // of it the stored QEq matrix (QEqMatrix::Auto goes matrix-free)
  double required() const { return bytes - optional_bytes; }
};

MemoryEstimate estimate_device_memory(const MemoryEstimateInput &in);

// This rank's share of the system on `gpus` GPUs in all instead of `ranks`
// (owned atoms / (gpus / ranks); ghosts shrink less: memory_estimate.cpp).
MemoryEstimateInput scaled_to_gpus(const MemoryEstimateInput &in, int ranks, long long gpus);

// The fewest GPUs (one MPI rank each), more than `ranks`, on which a rank's
// share, estimated as `in` x `scale`, fits in `per_gpu` bytes; 0 if no
// number of GPUs would do (the ghosts alone exceed it).
long long gpus_to_hold(const MemoryEstimateInput &in, int ranks, double per_gpu,
                       double scale = 1.0);

// What an out-of-memory error says (memory_shortage_message).
struct MemoryShortage {
  long long n_local = 0, n_total = 0;
  double need = 0.0;                        // bytes this rank needs (0: unknown)
  std::string gpu;                          // the GPU's name
  double gpu_total = 0.0, available = 0.0;  // the GPU's memory; free + held by this rank
  long long gpus = 0;                       // gpus_to_hold (0: none would do; -1: not known)
  // the allocation (failed_bytes > 0) or runtime call that failed; "" for
  // the estimate's check
  std::string failed;
  double failed_bytes = 0.0, held = 0.0;
};

// "ReaxFF/GPU: this rank's N owned + M ghost atoms need about X GiB of GPU
// memory; GPU <name> has Y GiB (Z GiB of it available to this rank). Run on
// at least R GPUs (...) or a GPU with more memory."
std::string memory_shortage_message(const MemoryShortage &s);

}  // namespace puremd
