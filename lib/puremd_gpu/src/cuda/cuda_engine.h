// The CUDA driver: the host driver's step (host/host_engine.cpp) with every
// stage on the GPU, calling the same per-atom bodies of physics/*.h.
//
// Environment variables (read when the engine is made):
//   REAXFF_GPU_TIMING=1  per-phase cudaEvent timings, see phase_times()
//   REAXFF_GPU_SKIN=d    skin (A) of the reused neighbour list, overriding
//                        set_list_skin(); 0 rebuilds the far list every step
//   REAXFF_GPU_LANES=... threads per row of the long-row stages (thread_mapping.h)
//   REAXFF_GPU_DEBUG=1   synchronise and check after every kernel; log list
//                        sizes and every device allocation to stderr
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_context.h"
#include "cuda/device_buffer.h"
#include "puremd_gpu/engine.h"

namespace puremd::cuda {

// Skin (A) of the reused far-neighbour list until set_list_skin() is called
// (LAMMPS passes its neighbor skin); 0 = fresh build every step.
constexpr double kDefaultSkin = 2.0;

// Phase buckets of PhaseTimes.
enum Phase : int {
  kPhaseTransfer = 0,
  kPhaseNeighbors,
  kPhaseLists,
  kPhaseBondOrders,
  kPhaseBonded,
  kPhaseHbonds,
  kPhaseNonbonded,
  kPhaseChainRule,
  kNumPhases
};

// cudaEvent timings of consecutive phases of one step, accumulated over steps.
// Disabled (no events, no synchronisation) unless REAXFF_GPU_TIMING=1.
class StepTimer {
 public:
  StepTimer() = default;
  ~StepTimer();
  void init();  // reads REAXFF_GPU_TIMING; creates the events (device must be set)
  StepTimer(const StepTimer &) = delete;
  StepTimer &operator=(const StepTimer &) = delete;
  bool enabled() const { return enabled_; }
  void begin_step() { used_ = 0; }
  void mark(Phase phase, cudaStream_t stream);  // the phase starting now
  // Nothing of the step runs from now to the next mark (the QEq solve between
  // prepare_far_list and compute): that interval counts in no phase.
  void pause(cudaStream_t stream) { mark(kNumPhases, stream); }
  void end_step(cudaStream_t stream);  // waits for the step's last event
  const PhaseTimes &times() const { return times_; }

 private:
  static constexpr int kMaxMarks = 24;
  bool enabled_ = false;
  cudaEvent_t events_[kMaxMarks + 1] = {};
  Phase phase_[kMaxMarks] = {};
  int used_ = 0;
  PhaseTimes times_;
};

class CudaEngine : public Engine {
 public:
  CudaEngine(const ForceField &ff, const Control &control);
  ~CudaEngine() override;

  Driver driver() const override { return Driver::Cuda; }
  std::string description() const override { return description_; }
  void compute(const StepInput &in, const StepRequest &req, StepOutput &out) override;
  void bond_table(std::vector<int> &row_start, std::vector<BondRecord> &bonds) override;
  void atom_table(std::vector<double> &total_bo, std::vector<double> &nlp) override;
  PhaseTimes phase_times() const override { return timer_.times(); }
  size_t device_bytes() const override { return c_.mem.peak; }
  void set_list_skin(double skin) override;
  bool prepare_far_list(const StepInput &in, DeviceFarList &out) override;

 private:
  void copy_force_field(const ForceField &ff);
  void reserve_atoms(int n_total, const StepRequest &req);
  // positions false: x, type and tag are on the device already (prepare_far_list).
  void upload(const StepInput &in, const StepRequest &req, bool positions);
  void upload_type_map(const StepInput &in);
  // Results into the caller's arrays, straight from the device.
  void enqueue_download(const StepRequest &req, const StepOutput &out);
  void finish_download(StepOutput &out);
  void require_complete_step(const char *what) const;
  void check_counts(const StepInput &in) const;

  int device_ = 0;
  std::string description_;
  CudaContext c_;
  StepTimer timer_;
  size_t atom_capacity_ = 0;        // rows of the per-atom device arrays
  bool last_step_complete_ = true;  // false while (or after a failed) compute()
  bool skin_from_env_ = false;      // REAXFF_GPU_SKIN set: set_list_skin() is ignored
  // prepare_far_list() built the far list for the atoms of the next compute()
  bool far_prepared_ = false;
  int prepared_n_total_ = -1;
  const double *prepared_x_ = nullptr;

  // the type map of the last upload (copied to the device when it changes)
  std::vector<int> type_map_;
  bool have_type_map_ = false;
  PinnedArray<StepScalars> h_scalars_{"step scalars (pinned)"};
};

}  // namespace puremd::cuda
