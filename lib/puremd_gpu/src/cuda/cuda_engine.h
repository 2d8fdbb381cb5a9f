// The CUDA driver: the host driver's step (host/host_engine.cpp) with every
// stage on the GPU, calling the same per-atom bodies of physics/*.h, on one
// stream. The step, top-down, is in cuda_engine.cu (prepare_atoms,
// solve_charges, compute).
//
// Settings come from EngineSettings (timing, lanes, list_skin), fixed at the engine's making;
// the one environment variable, for debugging, is REAXFF_GPU_DEBUG
// (device_buffer.h).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_context.h"
#include "cuda/cuda_stream.h"
#include "cuda/device_buffer.h"
#include "cuda/engine_atoms.h"
#include "cuda/host_pins.h"
#include "puremd_gpu/engine.h"

namespace puremd::cuda {

class CudaQEqSolver;  // the charge stage (charges/qeq_cuda_solver.h)

// Phase buckets of PhaseTimes.
enum Phase : int {
  kPhaseTransfer = 0,
  kPhaseNeighbors,
  kPhaseCharges,
  kPhaseLists,
  kPhaseBondOrders,
  kPhaseBonded,
  kPhaseHbonds,
  kPhaseNonbonded,
  kPhaseChainRule,
  kNumPhases
};

// cudaEvent timings of consecutive phases of one step, accumulated over steps.
// Disabled (no events, no synchronisation) unless EngineSettings::timing.
class StepTimer {
 public:
  StepTimer() = default;
  ~StepTimer();
  void init(bool enabled);  // creates the events (the device must be set)
  StepTimer(const StepTimer &) = delete;
  StepTimer &operator=(const StepTimer &) = delete;
  bool enabled() const { return enabled_; }
  void begin_step() { used_ = 0; }
  void mark(Phase phase, cudaStream_t stream);  // the phase starting now
  // Nothing of the step runs from now to the next mark (between
  // solve_charges and compute): that interval counts in no phase.
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
  CudaEngine(const ForceField &ff, const Control &control, const EngineSettings &settings);
  ~CudaEngine() override;

  Driver driver() const override { return Driver::Cuda; }
  std::string description() const override { return description_; }
  void compute(const StepInput &in, const StepRequest &req, StepOutput &out) override;
  void bond_table(std::vector<int> &row_start, std::vector<BondRecord> &bonds) override;
  void atom_table(std::vector<double> &total_bo, std::vector<double> &nlp) override;
  void bond_rows(BondRowRule rule, double cut, BondRows &out) override;
  long long far_pairs() const override { return static_cast<long long>(c_.far_total); }
  PhaseTimes phase_times() const override { return timer_.times(); }
  size_t device_bytes() const override { return c_.mem.peak; }
  MemoryTable device_memory_table() const override { return c_.mem.peak_table(); }
  QEqResult solve_charges(const StepInput &atoms, const QEqProblem &problem, ChargeHistory &history,
                          QEqComm &comm, double *q) override;

 private:
  // Positions, types and ids up, this step's far list (reaching far_cut):
  // by solve_charges, and by every compute() that does not follow it
  // (forces_follow_solve).
  void prepare_atoms(const StepInput &in);
  EngineAtoms lend_atoms() const;
  void copy_force_field(const ForceField &ff);
  void reserve_atoms(int n_total);
  void upload_atoms(const StepInput &in);  // x, type, tag (types mapped, ids widened)
  void upload_charges(const StepInput &in);
  void upload_potentials(const StepInput &in);
  void clear_step_arrays(const StepRequest &req);  // gradients, workspace, energy slots
  void upload_type_map(const StepInput &in);
  // Results into the caller's arrays, straight from the device.
  void enqueue_download(const StepRequest &req, const StepOutput &out);
  void finish_download(StepOutput &out);
  [[noreturn]] void refuse_non_finite() const;
  void require_complete_step(const char *what) const;
  void check_counts(const StepInput &in) const;

  int device_ = 0;
  std::string description_;
  std::unique_ptr<CudaStream> stream_;  // c_.stream, the whole step's
  CudaContext c_;
  StepTimer timer_;
  size_t atom_capacity_ = 0;        // rows of the per-atom device arrays
  bool last_step_complete_ = true;  // false while (or after a failed) compute()
  // What the last solve_charges() left for the compute() keyed as it
  // (until a compute() takes it or prepares atoms of its own): its key (unset:
  // none), its atoms and far list, with solved_n_total_ atoms, and
  // (charges_on_gpu_) every charge of the solve in c_.q.
  StepKey solve_key_;
  int solved_n_total_ = -1;
  bool charges_on_gpu_ = false;
  // Some prepare_atoms() since the last solve had atoms_reordered (the
  // solver's ghost owners are then found again).
  bool reordered_since_solve_ = true;

  // the type map of the last upload (copied to the device when it changes)
  std::vector<int> type_map_;
  bool have_type_map_ = false;
  PinnedArray<StepScalars> h_scalars_{"step scalars (pinned)"};
  HostPins pins_;               // the caller's x, q and f, page-locked in place (host_pins.h)
  bool caller_on_gpu_ = false;  // the last atoms' AtomsInput::on_gpu
  // The charge stage (made at the first solve), on c_'s stream, tracker and
  // CUB scratch; declared last, so it goes first.
  std::unique_ptr<CudaQEqSolver> qeq_;
};

}  // namespace puremd::cuda
