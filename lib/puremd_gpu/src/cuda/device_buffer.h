// CUDA error checking and RAII device / pinned-host arrays for the CUDA
// driver. Every runtime call goes through PMD_CUDA_CHECK, every kernel launch
// through PMD_CUDA_CHECK_LAUNCH, so a failure throws puremd::RuntimeError
// naming the call (or kernel), file:line and the CUDA error string.
//
// Environment: REAXFF_GPU_DEBUG=1 synchronises after every kernel launch, so an
// asynchronous fault (illegal address, ...) is reported at the kernel that
// caused it instead of at the next copy; it also logs list sizes and growth.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "common/memory_estimate.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/memory_table.h"

namespace puremd::cuda {

// A copy to or from the caller's arrays, which are host memory or this GPU's
// (AtomsInput::on_gpu: LAMMPS's KOKKOS views): with unified addressing the
// runtime tells which from the address, so one call serves both.
constexpr cudaMemcpyKind kCallerCopy = cudaMemcpyDefault;

inline bool env_flag(const char *name) {
  const char *v = std::getenv(name);
  return v && v[0] != '\0' && v[0] != '0';
}

// REAXFF_GPU_DEBUG=1 (read once).
inline bool debug_mode() {
  static const bool on = env_flag("REAXFF_GPU_DEBUG");
  return on;
}

// A runtime call or kernel launch that failed for want of device memory the
// runtime takes itself (a kernel's local memory, a module loaded lazily):
// throws GpuMemoryError, as an array that does not fit (memory_check.cu).
[[noreturn]] void throw_runtime_out_of_memory(const std::string &what);

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char *what, const char *file,
                                          int line) {
  if (err == cudaErrorMemoryAllocation)
    throw_runtime_out_of_memory(std::string(what) + " at " + file + ":" + std::to_string(line));
  throw RuntimeError(std::string("CUDA driver: ") + what + " failed at " + file + ":" +
                     std::to_string(line) + ": " + cudaGetErrorName(err) + " (" +
                     cudaGetErrorString(err) + ")");
}

#define PMD_CUDA_CHECK(call)                                                      \
  do {                                                                            \
    const cudaError_t pmd_cuda_err_ = (call);                                     \
    if (pmd_cuda_err_ != cudaSuccess)                                             \
      ::puremd::cuda::throw_cuda_error(pmd_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: launch errors (bad configuration, too many
// resources) always; with REAXFF_GPU_DEBUG=1 also faults during execution.
inline void check_launch(const char *kernel, cudaStream_t stream, const char *file, int line) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess && debug_mode()) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess)
    throw_cuda_error(err, (std::string("kernel ") + kernel).c_str(), file, line);
}
#define PMD_CUDA_CHECK_LAUNCH(kernel, stream) \
  ::puremd::cuda::check_launch(kernel, stream, __FILE__, __LINE__)

// Device bytes held by one engine or solver (current and peak, in all and
// by array name), and what an out-of-memory message should say about the
// step that asked (memory_check.cu).
struct MemoryTracker {
  size_t current = 0, peak = 0;
  long long n_atoms = 0;          // n_total of the step being set up
  long long n_local = 0;          // of them owned
  cudaStream_t stream = nullptr;  // work that may still use an array being replaced
  int ranks = 1;                  // EngineSettings::ranks, for the advice
  bool charges = false;           // a charge solver allocates through this tracker too
  bool fsai = false;              // its CG runs FSAI (qeq_preconditioner): G per owned atom
  std::string device_name = "?";  // the GPU's, for messages
  // What the last list count said this rank needs (memory_estimate.h):
  // valid once need.list_pairs is counted (need_known).
  MemoryEstimateInput need;
  bool need_known = false;
  std::map<std::string, size_t> held, held_at_peak;  // bytes by array name
  void add(const char *name, size_t b) {
    current += b;
    held[name] += b;
    if (current > peak) {
      peak = current;
      held_at_peak = held;
    }
  }
  void sub(const char *name, size_t b) {
    current -= b;
    held[name] -= b;
  }
  // held_at_peak, largest first (arrays of size 0 left out)
  MemoryTable peak_table() const {
    MemoryTable t;
    for (const auto &[what, bytes] : held_at_peak)
      if (bytes) t.push_back({what, bytes});
    std::stable_sort(t.begin(), t.end(),
                     [](const MemoryEntry &a, const MemoryEntry &b) { return a.bytes > b.bytes; });
    return t;
  }
};

// A cudaMalloc of `bytes` for `name` failed: throws GpuMemoryError saying
// what this rank's atoms need, what the GPU has and how many GPUs would hold
// the system (memory_check.cu).
[[noreturn]] void throw_out_of_memory(const char *name, size_t bytes, const MemoryTracker *t,
                                      cudaError_t err);

// Before a list count's entries are allocated: records `in` in the tracker
// and throws GpuMemoryError, allocating nothing, where the estimate of this
// rank's need (memory_estimate.h) exceeds what the GPU can give it (free
// memory plus what the tracker holds).
void check_memory_need(MemoryTracker &t, const MemoryEstimateInput &in);

// The capacity an array takes when it grows, for every array of the driver
// (lists, the QEq solver's): at its first allocation kFirstHeadroom x what
// is needed (memory_estimate.h: nearly exact, since the largest systems are
// bounded by these arrays), at every later one `headroom` (kGrowHeadroom,
// 1.2 x: an array that had to grow once creeps, and should not reallocate
// at every step). (The QEq matrix, written into room that is already an
// upper bound, takes less: kMatrixHeadroom in qeq_matrix_choice.h.)
constexpr double kGrowHeadroom = 1.2;

// A device array that only grows. Growing does not keep the contents (the
// name says so: reserve_discarding): the driver rebuilds every list each
// step, after counting how much it needs.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const char *name, MemoryTracker *tracker) : name_(name), tracker_(tracker) {}
  ~DeviceArray() { release(); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  DeviceArray(DeviceArray &&o) noexcept { swap(o); }
  DeviceArray &operator=(DeviceArray &&o) noexcept {
    if (this != &o) {
      release();
      swap(o);
    }
    return *this;
  }

  T *data() const { return ptr_; }
  size_t capacity() const { return cap_; }
  const char *name() const { return name_; }
  // Whether an allocation succeeded before (release() does not reset it).
  bool allocated_before() const { return allocated_before_; }

  // Make room for at least n elements (grown_capacity: n * headroom when it
  // has to grow, at most n * kFirstHeadroom the first time). Returns true if
  // it reallocated: the old contents are then gone, and when
  // the tracker names a stream, the host first waited for that stream's
  // queued work (which may still read the old array), so a growth mid-step is
  // a synchronisation point (REAXFF_GPU_DEBUG=1 logs each allocation).
  bool reserve_discarding(size_t n, double headroom = 1.0) {
    if (n <= cap_ && ptr_) return false;
    const size_t want = grown_capacity(n, headroom, !allocated_before_);
    if (ptr_ && tracker_ && tracker_->stream) {
      // Growing mid-step: let queued kernels finish with the old array first.
      const cudaError_t e = cudaStreamSynchronize(tracker_->stream);
      if (e != cudaSuccess)
        throw_cuda_error(e, (std::string("cudaStreamSynchronize before growing ") + name_).c_str(),
                         __FILE__, __LINE__);
    }
    release();
    void *p = nullptr;
    const cudaError_t err = cudaMalloc(&p, want * sizeof(T));
    if (err == cudaErrorMemoryAllocation)
      throw_out_of_memory(name_, want * sizeof(T), tracker_, err);
    if (err != cudaSuccess)
      throw_cuda_error(err, (std::string("cudaMalloc for ") + name_).c_str(), __FILE__, __LINE__);
    ptr_ = static_cast<T *>(p);
    cap_ = want;
    allocated_before_ = true;
    if (tracker_) tracker_->add(name_, cap_ * sizeof(T));
    if (debug_mode())
      std::fprintf(stderr, "[reaxff/gpu] allocated %s: %zu elements (%.2f MiB)\n", name_, cap_,
                   cap_ * sizeof(T) / (1024.0 * 1024.0));
    return true;
  }

  void release() noexcept {
    if (ptr_) {
      cudaFree(ptr_);  // errors ignored: may run during unwinding after a fault
      if (tracker_) tracker_->sub(name_, cap_ * sizeof(T));
    }
    ptr_ = nullptr;
    cap_ = 0;
  }

 private:
  void swap(DeviceArray &o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(cap_, o.cap_);
    std::swap(name_, o.name_);
    std::swap(tracker_, o.tracker_);
    std::swap(allocated_before_, o.allocated_before_);
  }
  T *ptr_ = nullptr;
  size_t cap_ = 0;
  const char *name_ = "device array";
  MemoryTracker *tracker_ = nullptr;
  bool allocated_before_ = false;
};

// Page-locked host staging buffer (fast, asynchronous copies). Grows only.
template <class T>
class PinnedArray {
 public:
  PinnedArray() = default;
  explicit PinnedArray(const char *name) : name_(name) {}
  ~PinnedArray() { release(); }
  PinnedArray(const PinnedArray &) = delete;
  PinnedArray &operator=(const PinnedArray &) = delete;

  T *data() const { return ptr_; }
  size_t capacity() const { return cap_; }
  T &operator[](size_t i) const { return ptr_[i]; }

  // As DeviceArray::reserve_discarding (no stream to wait for: host memory).
  void reserve_discarding(size_t n, double headroom = 1.0) {
    if (n <= cap_ && ptr_) return;
    size_t want = static_cast<size_t>(static_cast<double>(n) * headroom);
    if (want < n) want = n;
    if (want == 0) want = 1;
    release();
    void *p = nullptr;
    const cudaError_t err = cudaMallocHost(&p, want * sizeof(T));
    if (err != cudaSuccess)
      throw_cuda_error(err, (std::string("cudaMallocHost for ") + name_).c_str(), __FILE__,
                       __LINE__);
    ptr_ = static_cast<T *>(p);
    cap_ = want;
  }
  void release() noexcept {
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    cap_ = 0;
  }

 private:
  T *ptr_ = nullptr;
  size_t cap_ = 0;
  const char *name_ = "pinned array";
};

}  // namespace puremd::cuda
