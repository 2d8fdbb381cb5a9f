// The CUDA driver's step pipeline (read compute() top-down), construction
// (force field and long-range tables copied once) and the once-per-step
// transfers. The stages live in cuda_neighbors.cu, cuda_lists.cu and
// cuda_stages.cu.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/driver_entry.h"
#include "common/non_finite.h"
#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/cuda_engine.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/long_range_tables.h"
#include "puremd_gpu/physics/bond_order.h"
#include "puremd_gpu/physics/qtpie.h"

namespace puremd {
namespace cuda {
namespace {

// The caller's atom types and ids into the driver's: force-field elements
// (mapped_element) and 64-bit ids.
__global__ void k_map_atoms(int n, const int *type_in, const int *map, int num_mapped,
                            const void *tag_in, bool wide, int *type, long long *tag) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  type[i] = mapped_element(map, num_mapped, type_in[i]);
  tag[i] = id_at(tag_in, wide, i);
}

// v = sign * v, plus the caller's old values when they are kept (old != null):
// the gradient becomes forces, energies and virials stay as they are.
__global__ void k_to_caller(double *v, const double *old, double sign, long long count) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= count) return;
  v[k] = old ? old[k] + sign * v[k] : sign * v[k];
}

template <class T>
void copy_to_device(DeviceArray<T> &dst, const std::vector<T> &src, size_t expected,
                    const char *what) {
  if (src.size() < expected)
    throw RuntimeError(std::string("CUDA driver: force field has ") + std::to_string(src.size()) +
                       " " + what + " entries, expected " + std::to_string(expected));
  dst.reserve_discarding(std::max<size_t>(expected, 1));
  if (expected)
    PMD_CUDA_CHECK(
        cudaMemcpy(dst.data(), src.data(), expected * sizeof(T), cudaMemcpyHostToDevice));
}

}  // namespace

// ---------------------------------------------------------------------------
// StepTimer

void StepTimer::init(bool enabled) {
  enabled_ = enabled;
  if (!enabled_) return;
  for (cudaEvent_t &e : events_) PMD_CUDA_CHECK(cudaEventCreate(&e));
}

StepTimer::~StepTimer() {
  for (cudaEvent_t e : events_)
    if (e) cudaEventDestroy(e);
}

void StepTimer::mark(Phase phase, cudaStream_t stream) {
  if (!enabled_) return;
  if (used_ >= kMaxMarks) throw RuntimeError("CUDA driver: StepTimer: too many phase marks");
  PMD_CUDA_CHECK(cudaEventRecord(events_[used_], stream));
  phase_[used_++] = phase;
}

void StepTimer::end_step(cudaStream_t stream) {
  if (!enabled_ || used_ == 0) return;
  PMD_CUDA_CHECK(cudaEventRecord(events_[used_], stream));
  PMD_CUDA_CHECK(cudaEventSynchronize(events_[used_]));
  double *bucket[kNumPhases] = {&times_.transfer_ms, &times_.neighbors_ms,   &times_.charges_ms,
                                &times_.lists_ms,    &times_.bond_orders_ms, &times_.bonded_ms,
                                &times_.hbonds_ms,   &times_.nonbonded_ms,   &times_.chain_rule_ms};
  for (int k = 0; k < used_; ++k) {
    if (phase_[k] == kNumPhases) continue;  // a pause
    float ms = 0.0f;
    PMD_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[k], events_[k + 1]));
    *bucket[phase_[k]] += ms;
  }
  ++times_.steps;
  used_ = 0;
}

// ---------------------------------------------------------------------------
// Construction

CudaEngine::CudaEngine(const ForceField &ff, const Control &control,
                       const EngineSettings &settings) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    throw RuntimeError(std::string("CUDA driver: no usable CUDA device (") +
                       (err != cudaSuccess ? cudaGetErrorString(err) : "no device found") + ")");
  }
  PMD_CUDA_CHECK(cudaGetDevice(&device_));
  cudaDeviceProp prop{};
  PMD_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
  char buf[320];
  std::snprintf(buf, sizeof buf, "CUDA driver on %s (sm_%d%d, %.0f GB)", prop.name, prop.major,
                prop.minor, prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
  description_ = buf;
  if (prop.major < 6)
    throw RuntimeError(description_ + ": compute capability 6.0 or newer is required");
  check_cuda_code();
  stream_ = std::make_unique<CudaStream>();
  c_.stream = stream_->get();
  c_.mem.stream = c_.stream;
  c_.mem.device_name = prop.name;
  c_.mem.ranks = std::max(settings.ranks, 1);
  timer_.init(settings.timing);

  c_.control = control;
  c_.far_cut = control.nonb_cut;
  if (!std::isfinite(settings.list_skin) || settings.list_skin < 0.0)
    throw RuntimeError("CUDA driver: neighbour-list skin " + std::to_string(settings.list_skin) +
                       " A: expected a finite distance >= 0");
  c_.skin = settings.list_skin;
  c_.lanes = settings.lanes;
  c_.resident_threads =
      static_cast<long long>(prop.multiProcessorCount) * prop.maxThreadsPerMultiProcessor;
  copy_force_field(ff);

  c_.totals.reserve();
  c_.h_probe.reserve_discarding(1);
  c_.energy_slots.reserve_discarding(static_cast<size_t>(kEnergySlots) * kEnergySlotStride);
  c_.scalars.reserve_discarding(1);
  h_scalars_.reserve_discarding(1);
}

void CudaEngine::copy_force_field(const ForceField &ff) {
  const size_t nt = static_cast<size_t>(ff.num_types);
  c_.num_types = ff.num_types;
  c_.vdw_type = ff.vdw_type;
  copy_to_device(c_.ff_gp, ff.gp, kNumGlobalParams, "general-parameter");
  copy_to_device(c_.ff_sbp, ff.sbp, nt, "single-body");
  std::vector<TwoBodyParams> tbp = ff.tbp;
  set_bond_reach(tbp, ff.sbp, ff.num_types, c_.control.bo_cut);
  copy_to_device(c_.ff_tbp, tbp, nt * nt, "two-body");
  copy_to_device(c_.ff_thbp, ff.thbp, nt * nt * nt, "three-body");
  copy_to_device(c_.ff_hbp, ff.hbp, nt * nt * nt, "hydrogen-bond");
  copy_to_device(c_.ff_fbp, ff.fbp, nt * nt * nt * nt, "four-body");

  // Spline tables: built on the host once, coefficients copied, and each
  // table's pointers rebased from the host coefficient array onto the copy.
  if (c_.control.tabulate > 0) {
    std::vector<LongRangeTable> tables;
    std::vector<CubicCoef> coefs;
    build_long_range_tables(ff, c_.control, tables, coefs);
    copy_to_device(c_.lr_coefs, coefs, coefs.size(), "long-range coefficient");
    const CubicCoef *host_base = coefs.data();
    CubicCoef *dev_base = c_.lr_coefs.data();
    auto rebase = [&](const CubicCoef *p) -> const CubicCoef * {
      return p ? dev_base + (p - host_base) : nullptr;
    };
    for (LongRangeTable &t : tables) {
      t.vdW = rebase(t.vdW);
      t.CEvd = rebase(t.CEvd);
      t.ele = rebase(t.ele);
      t.CEclmb = rebase(t.CEclmb);
    }
    copy_to_device(c_.lr_tables, tables, tables.size(), "long-range table");
    c_.have_lr_tables = true;
  }
}

// The arrays are freed after the work that may use them.
CudaEngine::~CudaEngine() {
  if (c_.stream) cudaStreamSynchronize(c_.stream);  // errors ignored: may follow a device fault
}

// ---------------------------------------------------------------------------
// The step: prepare_atoms (once per step) -> [solve_charges] -> compute

void CudaEngine::check_counts(const StepInput &in) const {
  if (in.n_total < 0 || in.n_local < 0 || in.n_local > in.n_total)
    throw RuntimeError("CUDA driver: bad atom counts n_local = " + std::to_string(in.n_local) +
                       ", n_total = " + std::to_string(in.n_total));
  if (in.n_total > 0 && (!in.x || !in.type || !in.tag))
    throw RuntimeError("CUDA driver: StepInput needs x, type and tag for every atom");
}

// Atoms up, then this step's far list: the skin list, rebuilt if due
// (cuda_neighbors.cu).
void CudaEngine::prepare_atoms(const StepInput &in) {
  CudaContext &c = c_;
  solve_key_ = StepKey{};
  charges_on_gpu_ = false;
  last_step_complete_ = false;  // the bond tables of the last step are gone from here on
  reordered_since_solve_ = reordered_since_solve_ || in.atoms_reordered;
  timer_.begin_step();
  timer_.mark(kPhaseTransfer, c.stream);
  upload_atoms(in);
  if (c.n_total > 0) {
    timer_.mark(kPhaseNeighbors, c.stream);
    update_far_neighbors(c, in.atoms_reordered);
  }
}

// The charge stage, before compute() on the same atoms: the solver builds
// its matrix from this step's far list and leaves the charges on the GPU
// (c.q) when it has every one of them there (one rank), besides writing q.
QEqResult CudaEngine::solve_charges(const StepInput &in, const QEqProblem &problem,
                                    ChargeHistory &history, QEqComm &comm, double *q) {
  check_qeq_settings(problem.settings);
  check_counts(in);
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  CudaContext &c = c_;
  if (!qeq_) qeq_ = std::make_unique<CudaQEqSolver>(device_, c.stream, c.mem, c.cub_temp);
  c.mem.charges = true;  // the list count's estimate includes the solver's matrix
  c.mem.fsai = qeq_preconditioner(problem.settings, problem.model) == kQEqFsai;  // and G
  // The far list reaches the QEq cut-off and QTPIE's overlap cut-off (for
  // good, once asked; the nonbonded stage keeps to its own cut-off).
  const double reach =
      std::max(problem.settings.cut_hi, problem.model ? problem.model->reach() : 0.0);
  if (reach > c.far_cut) {
    c.far_cut = reach;
    c.skin_valid = false;
  }
  prepare_atoms(in);
  // The reverse far index gives a row its partners of lower index: only a
  // matrix with both triangles, ACKS2's and QTPIE's sums read it; a matrix
  // with each pair once does not (nor its memory). The solver says which.
  if (c.n_total > 0 &&
      qeq_->reads_reverse_index(problem, c.n_local, c.n_total, static_cast<long long>(c.far_total)))
    update_reverse_far_index(c);
  timer_.mark(kPhaseCharges, c.stream);
  const QEqInput qeq = charge_input(in, problem, reordered_since_solve_);
  const QEqResult res = qeq_->solve_on(lend_atoms(), qeq, history, comm, q);
  reordered_since_solve_ = false;
  charges_on_gpu_ = qeq_->copy_charges(c.q.data());
  solve_key_ = in.key;
  solved_n_total_ = in.n_total;
  timer_.pause(c.stream);  // LAMMPS's work until compute() counts in no phase
  // idle before the history's host API may read its mirror (another stream)
  PMD_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  return res;
}

void CudaEngine::compute(const StepInput &in, const StepRequest &req, StepOutput &out) {
  check_counts(in);
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  CudaContext &c = c_;
  cudaStream_t st = c.stream;
  // The atoms, far list and charges of the solve serve only the compute()
  // keyed as the solve (forces_follow_solve); every other call takes x and q
  // anew. The charges stay on the GPU only when the solve left all of them
  // there (one rank, ghosts included).
  const bool reuse = forces_follow_solve(solve_key_, in.key) && in.n_total == solved_n_total_;
  const bool q_up = !(reuse && charges_on_gpu_);
  if (!reuse) prepare_atoms(in);
  solve_key_ = StepKey{};  // a solve serves one compute()
  last_step_complete_ = false;

  timer_.mark(kPhaseTransfer, st);
  if (q_up) upload_charges(in);
  upload_potentials(in);
  clear_step_arrays(req);
  if (c.n_total == 0) {
    c.skin_valid = false;
    out.energy = Energies{};
    for (double &v : out.virial) v = 0.0;
    timer_.end_step(st);
    last_step_complete_ = true;
    return;
  }

  timer_.mark(kPhaseLists, st);
  build_bond_and_hbond_lists(c);

  timer_.mark(kPhaseBondOrders, st);
  compute_bond_orders(c);

  timer_.mark(kPhaseLists, st);
  build_three_body_list(c);  // needs the corrected bond orders

  timer_.mark(kPhaseBonded, st);
  compute_bonded(c);  // physics/stages.h

  timer_.mark(kPhaseHbonds, st);
  compute_hydrogen_bonds(c);

  timer_.mark(kPhaseNonbonded, st);
  compute_nonbonded(c);

  timer_.mark(kPhaseChainRule, st);
  apply_bond_order_chain_rule(c);

  timer_.mark(kPhaseTransfer, st);
  reduce_outputs(c);  // energies + virial on the device
  enqueue_download(req, out);
  timer_.end_step(st);
  finish_download(out);  // waits for the step's results
  if (!step_scalars_finite(out.energy, out.virial)) refuse_non_finite();
  last_step_complete_ = true;
}

// The atom whose charge or force made the step's scalars non-finite
// (common/non_finite.h; positions were checked by the neighbour stage):
// the arrays come home only then.
void CudaEngine::refuse_non_finite() const {
  const CudaContext &c = c_;
  const std::size_t n = static_cast<std::size_t>(c.n_total);
  std::vector<double> q(n), f(3 * n);
  PMD_CUDA_CHECK(cudaMemcpy(q.data(), c.q.data(), n * sizeof(double), cudaMemcpyDeviceToHost));
  PMD_CUDA_CHECK(cudaMemcpy(f.data(), c.grad.data(), n * sizeof(vec3), cudaMemcpyDeviceToHost));
  const NonFiniteAtom bad = first_non_finite(c.n_total, nullptr, q.data(), f.data());
  if (bad.atom < 0)
    throw RuntimeError(
        "CUDA driver: the step's energy or virial is not finite, though every "
        "atom's charge and force is");
  long long id = -1;
  PMD_CUDA_CHECK(cudaMemcpy(&id, c.tag.data() + bad.atom, sizeof id, cudaMemcpyDeviceToHost));
  throw RuntimeError(non_finite_message("CUDA driver", bad, id, c.n_local));
}

// What the QEq solver borrows for one solve (engine_atoms.h).
EngineAtoms CudaEngine::lend_atoms() const {
  const CudaContext &c = c_;
  EngineAtoms a;
  a.n_local = c.n_local;
  a.n_total = c.n_total;
  a.x = c.x.data();
  a.tag = c.tag.data();
  a.type_given = c.type_in.data();
  a.cut_local = c.far_cut;
  const CudaContext::PairRows far = c.far_rows();
  a.start = far.start;
  a.end = far.end;
  a.nbr = far.nbr;
  a.row_room = static_cast<long long>(c.far_total);
  a.list_build = c.list_builds;
  if (c.rev_built_for == c.list_builds) {  // else none: the solver says if it needs one
    a.rev_start = c.rev_start.data();
    a.rev_row = c.rev_row.data();
    a.rev_total = static_cast<long long>(c.rev_total);
  }
  return a;
}

void CudaEngine::reserve_atoms(int n_total) {
  CudaContext &c = c_;
  c.mem.n_atoms = n_total;
  const size_t n = static_cast<size_t>(n_total);
  if (n > atom_capacity_ || c.x.data() == nullptr) {
    // (the first time nearly exact, as every array: grown_capacity)
    const size_t cap = grown_capacity(n, kGrowHeadroom, !c.x.allocated_before()) + 1;
    atom_capacity_ = 0;  // until every array below has its rows (an allocation may fail)
    c.x.reserve_discarding(cap);
    c.type.reserve_discarding(cap);
    c.tag.reserve_discarding(cap);
    c.q.reserve_discarding(cap);
    c.cell_key.reserve_discarding(cap);
    c.cell_key_sorted.reserve_discarding(cap);
    c.atom_index.reserve_discarding(cap);
    c.cell_atoms.reserve_discarding(cap);
    c.cell_x.reserve_discarding(cap);
    c.cell_type.reserve_discarding(cap);
    for (DeviceArray<int> *a : {&c.far_count, &c.bond_count, &c.bond_start, &c.bond_end,
                                &c.hb_count, &c.hb_start, &c.hb_end})
      a->reserve_discarding(cap + 1);
    c.far_start.reserve_discarding(cap + 1);
    c.far_end.reserve_discarding(cap + 1);
    c.grad.reserve_discarding(cap);
    c.ws_block.reserve_discarding(kWorkspaceBlockDoubles * cap);
    c.ws_stride = cap;
    c.type_in.reserve_discarding(cap);
    c.tag_in.reserve_discarding(cap);
    atom_capacity_ = cap;
    // eatom / vatom follow in clear_step_arrays, on request
    c.eatom.release();
    c.vatom.release();
  }
}

// Straight from the caller's arrays (x and q page-locked in place when their
// capacity is given, host_pins.h), no copy of ours on the host.
void CudaEngine::upload_atoms(const StepInput &in) {
  CudaContext &c = c_;
  cudaStream_t st = c.stream;
  const int N = in.n_total;
  c.mem.n_local = in.n_local;
  reserve_atoms(N);
  c.n_local = in.n_local;
  c.n_total = N;
  c.far_total = c.bond_total = c.hb_total = c.thb_total = 0;
  const size_t n = static_cast<size_t>(N);
  if (n == 0) return;
  upload_type_map(in);
  // Before any copy: a new capacity or array means the caller reallocated,
  // so every registration of the old arrays goes (HostPins::follow).
  // (GPU arrays need no pinning: the copies stay on the device)
  caller_on_gpu_ = in.on_gpu;
  const int pinned = in.on_gpu ? 0 : in.capacity;
  pins_.follow(pinned >= N ? pinned : 0, in.x, in.q);
  if (pinned >= N) {
    pins_.keep(HostPins::kPositions, in.x, static_cast<size_t>(in.capacity) * sizeof(vec3));
    pins_.keep(HostPins::kCharges, in.q, static_cast<size_t>(in.capacity) * sizeof(double));
    // (LAMMPS grows these with x and q: follow() lets them go together)
    pins_.keep(HostPins::kTypes, in.type, static_cast<size_t>(in.capacity) * sizeof(int));
    pins_.keep(HostPins::kIds, in.tag.data(),
               static_cast<size_t>(in.capacity) * in.tag.bytes_per_id());
  }
  PMD_CUDA_CHECK(cudaMemcpyAsync(c.x.data(), in.x, n * sizeof(vec3), kCallerCopy, st));
  PMD_CUDA_CHECK(cudaMemcpyAsync(c.type_in.data(), in.type, n * sizeof(int), kCallerCopy, st));
  PMD_CUDA_CHECK(
      cudaMemcpyAsync(c.tag_in.data(), in.tag.data(), n * in.tag.bytes_per_id(), kCallerCopy, st));
  k_map_atoms<<<blocks_for(N, kAtomBlock), kAtomBlock, 0, st>>>(
      N, c.type_in.data(), c.num_mapped ? c.type_map.data() : nullptr, c.num_mapped,
      c.tag_in.data(), in.tag.wide(), c.type.data(), c.tag.data());
  PMD_CUDA_CHECK_LAUNCH("k_map_atoms", st);
}

void CudaEngine::upload_charges(const StepInput &in) {
  CudaContext &c = c_;
  const size_t n = static_cast<size_t>(c.n_total);
  if (n == 0) return;
  if (in.q)
    PMD_CUDA_CHECK(cudaMemcpyAsync(c.q.data(), in.q, n * sizeof(double), kCallerCopy, c.stream));
  else
    PMD_CUDA_CHECK(cudaMemsetAsync(c.q.data(), 0, n * sizeof(double), c.stream));
}

// ACKS2's effective potentials (StepInput::u), for the nonbonded stage.
void CudaEngine::upload_potentials(const StepInput &in) {
  CudaContext &c = c_;
  c.have_u = in.u != nullptr;
  const size_t n = static_cast<size_t>(c.n_total);
  if (!c.have_u || n == 0) return;
  c.u.reserve_discarding(atom_capacity_);
  PMD_CUDA_CHECK(cudaMemcpyAsync(c.u.data(), in.u, n * sizeof(double), kCallerCopy, c.stream));
}

void CudaEngine::clear_step_arrays(const StepRequest &req) {
  CudaContext &c = c_;
  cudaStream_t st = c.stream;
  c.terms = req.terms;
  c.want_eatom = req.eatom;
  c.want_vatom = req.vatom;
  c.bond_total = c.hb_total = c.thb_total = 0;
  if (req.eatom) c.eatom.reserve_discarding(atom_capacity_);
  if (req.vatom) c.vatom.reserve_discarding(6 * atom_capacity_);
  const size_t n = static_cast<size_t>(c.n_total);
  if (n) {
    PMD_CUDA_CHECK(cudaMemsetAsync(c.grad.data(), 0, n * sizeof(vec3), st));
    PMD_CUDA_CHECK(cudaMemsetAsync(c.ws_block.data(), 0,
                                   kWorkspaceBlockDoubles * c.ws_stride * sizeof(double), st));
    if (req.eatom) PMD_CUDA_CHECK(cudaMemsetAsync(c.eatom.data(), 0, n * sizeof(double), st));
    if (req.vatom) PMD_CUDA_CHECK(cudaMemsetAsync(c.vatom.data(), 0, 6 * n * sizeof(double), st));
  }
  PMD_CUDA_CHECK(cudaMemsetAsync(c.energy_slots.data(), 0,
                                 sizeof(double) * kEnergySlots * kEnergySlotStride, st));
}

void CudaEngine::upload_type_map(const StepInput &in) {
  CudaContext &c = c_;
  const int nm = in.type_map ? std::max(in.num_mapped, 0) : 0;
  const bool same = have_type_map_ && static_cast<int>(type_map_.size()) == nm &&
                    std::equal(type_map_.begin(), type_map_.end(), in.type_map);
  if (same) return;
  type_map_.assign(in.type_map, in.type_map + nm);
  have_type_map_ = true;
  c.num_mapped = nm;
  if (nm == 0) return;
  c.type_map.reserve_discarding(static_cast<size_t>(nm));
  PMD_CUDA_CHECK(cudaMemcpyAsync(c.type_map.data(), type_map_.data(), nm * sizeof(int),
                                 cudaMemcpyHostToDevice, c.stream));
}

void CudaEngine::enqueue_download(const StepRequest &req, const StepOutput &out) {
  CudaContext &c = c_;
  cudaStream_t st = c.stream;
  const size_t n = static_cast<size_t>(c.n_total);
  PMD_CUDA_CHECK(cudaMemcpyAsync(h_scalars_.data(), c.scalars.data(), sizeof(StepScalars),
                                 cudaMemcpyDeviceToHost, st));
  // One array at a time: finished on the device (the caller's old values
  // added unless overwrite), then copied into the caller's array.
  auto deliver = [&](double *dev, double *caller, size_t count, double sign, const char *what) {
    if (count == 0) return;
    const double *old = nullptr;
    if (!out.overwrite) {
      c.out_in.reserve_discarding(6 * atom_capacity_);
      PMD_CUDA_CHECK(
          cudaMemcpyAsync(c.out_in.data(), caller, count * sizeof(double), kCallerCopy, st));
      old = c.out_in.data();
    }
    k_to_caller<<<blocks_for(static_cast<long long>(count), kAtomBlock), kAtomBlock, 0, st>>>(
        dev, old, sign, static_cast<long long>(count));
    PMD_CUDA_CHECK_LAUNCH(what, st);
    PMD_CUDA_CHECK(cudaMemcpyAsync(caller, dev, count * sizeof(double), kCallerCopy, st));
  };
  if (out.f && !caller_on_gpu_ && out.capacity >= c.n_total)
    pins_.keep(HostPins::kForces, out.f, static_cast<size_t>(out.capacity) * sizeof(vec3));
  if (out.f)
    deliver(reinterpret_cast<double *>(c.grad.data()), out.f, 3 * n, -1.0, "k_to_caller(forces)");
  if (req.eatom && out.eatom) deliver(c.eatom.data(), out.eatom, n, 1.0, "k_to_caller(eatom)");
  if (req.vatom && out.vatom) deliver(c.vatom.data(), out.vatom, 6 * n, 1.0, "k_to_caller(vatom)");
}

void CudaEngine::finish_download(StepOutput &out) {
  PMD_CUDA_CHECK(cudaStreamSynchronize(c_.stream));
  const StepScalars &s = h_scalars_[0];
  std::memcpy(static_cast<void *>(&out.energy), s.energy, sizeof(Energies));
  for (int k = 0; k < 6; ++k) out.virial[k] = s.virial[k];
}

}  // namespace cuda

std::unique_ptr<Engine> make_cuda_engine(const ForceField &ff, const Control &control,
                                         const EngineSettings &settings) {
  return std::make_unique<cuda::CudaEngine>(ff, control, settings);
}

}  // namespace puremd
