// Public API of lib/puremd_gpu: one ReaxFF force/energy evaluation per call.
// Two drivers implement it, a serial host reference driver and a CUDA driver,
// both calling the same __host__ __device__ physics in physics/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "puremd_gpu/atom_input.h"
#include "puremd_gpu/charge_history.h"
#include "puremd_gpu/control.h"
#include "puremd_gpu/energies.h"
#include "puremd_gpu/engine_settings.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/memory_table.h"
#include "puremd_gpu/qeq.h"

namespace puremd {

enum class Driver { Auto, Host, Cuda };

// Which force evaluation a call serves, as the caller counts them: its
// timestep, the rRESPA level it comes at (0 without rRESPA) and the caller's
// own evaluation counter. A compute() with the key of the last
// solve_charges() comes right after that solve, with no atom moved and no
// charge changed in between (LAMMPS's call order, which only the caller
// knows: PairReaxFFGPU::step_key). A driver that kept the solve's atoms (the
// CUDA driver: positions, far list and charges on the GPU) then reuses them;
// the host driver checks that they are unchanged. A caller that cannot vouch
// for the order leaves the key unset, which matches nothing.
struct StepKey {
  long long timestep = 0;
  int level = 0;
  long long evaluation = -1;  // < 0: unset
  bool set() const { return evaluation >= 0; }
};

// The one rule: does a compute() keyed `forces` follow the solve keyed `solve`?
inline bool forces_follow_solve(const StepKey &solve, const StepKey &forces) {
  return solve.set() && forces.set() && solve.timestep == forces.timestep &&
         solve.level == forces.level && solve.evaluation == forces.evaluation;
}

// The atoms of a force step (AtomsInput, as LAMMPS holds them: the CUDA
// driver copies the arrays to the GPU and maps types and widens ids there),
// with their charges.
struct StepInput : AtomsInput {
  const double *q = nullptr;  // n_total charges
  // ACKS2 (fix acks2/reaxff/gpu): n_total effective potentials u from the
  // charge solve (Acks2Input::u); the forces then include the bond-softness
  // terms and the polarization energy q u. Null for every other charge model.
  const double *u = nullptr;
  // Atoms that the caller's x, q, type and tag arrays have room for
  // (>= n_total; 0: unknown). Given, the CUDA driver page-locks them in place for
  // faster copies (they must then stay allocated while the engine has them:
  // LAMMPS's arrays do, until the engine is deleted or they are reallocated).
  int capacity = 0;
  // Which force evaluation this call serves (StepKey): the engine alone
  // decides from it whether compute() reuses the last solve_charges()'s
  // atoms and charges.
  StepKey key;
};

struct StepRequest {
  bool eatom = false;         // accumulate per-atom energy
  bool vatom = false;         // accumulate per-atom virial
  unsigned terms = kTermAll;  // energy terms to include
};

struct StepOutput {
  // overwrite: f, eatom and vatom are written, not added to (the caller had
  // them zeroed, as LAMMPS has when this is the only pair style).
  bool overwrite = false;
  double *f = nullptr;                    // 3 * n_total: forces are added here
  int capacity = 0;                       // atoms f has room for (as StepInput::capacity)
  double *eatom = nullptr;                // n_total, added to (if requested)
  double *vatom = nullptr;                // 6 * n_total, added to (if requested)
  Energies energy;                        // this rank's share of each term
  double virial[6] = {0, 0, 0, 0, 0, 0};  // sum over atoms of x (x) f (xx yy zz xy xz yz)
};

// Per-phase device time accumulated over steps (milliseconds), for drivers
// that measure it (the CUDA driver with EngineSettings::timing); all zero
// otherwise. transfer_ms: uploads, downloads and the output reductions;
// charges_ms: solve_charges() after the neighbours (matrix, CG, charges).
struct PhaseTimes {
  double neighbors_ms = 0, charges_ms = 0, lists_ms = 0, bond_orders_ms = 0, bonded_ms = 0,
         hbonds_ms = 0, nonbonded_ms = 0, chain_rule_ms = 0, transfer_ms = 0;
  long steps = 0;
};

// One bond as the analysis fixes (reaxff/bonds, reaxff/species) see it.
struct BondRecord {
  int j;      // partner (local index, may be a ghost)
  double bo;  // corrected total bond order
};

// Which bonds of each owned atom an analysis style reads (the rules are
// LAMMPS's; common/analysis_rows.h writes them once for both drivers).
enum class BondRowRule {
  Species,  // PairReaxFF::FindBond, for fix reaxff/species: partners j >= i of
            // order >= cut, in ascending j
  Bonds     // fix reaxff/bonds: every partner of order > cut, in the bond list's order
};

// Those bonds in compact rows: per owned atom i, partners (local index,
// ghosts included) and orders in [start[i], start[i + 1]).
struct BondRows {
  std::vector<int> start;  // n_local + 1
  std::vector<int> partner;
  std::vector<double> bo;
  int widest = 0;  // most partners of one atom
};

class Engine {
 public:
  Engine() = default;
  virtual ~Engine() = default;
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;
  virtual Driver driver() const = 0;
  virtual std::string description() const = 0;  // e.g. "host reference driver"
  virtual void compute(const StepInput &in, const StepRequest &req, StepOutput &out) = 0;

  // Bond data of the last compute(), for analysis fixes (host copies).
  // row_start has n_total+1 entries; bonds of atom i are [row_start[i], row_start[i+1]).
  virtual void bond_table(std::vector<int> &row_start, std::vector<BondRecord> &bonds) = 0;
  // Per-atom quantities of the last compute(): total bond order, lone pairs.
  virtual void atom_table(std::vector<double> &total_bo, std::vector<double> &nlp) = 0;
  // The bonds an analysis style reads of the last compute(), made where the
  // bond list is (on the GPU for the CUDA driver, which sends only these).
  virtual void bond_rows(BondRowRule rule, double cut, BondRows &out) = 0;

  // Pairs in the far-neighbour list of the last step (for the run summary).
  virtual long long far_pairs() const = 0;

  // Device time per phase so far (zero unless the driver measures it).
  virtual PhaseTimes phase_times() const { return {}; }
  // Peak device memory held by this engine, bytes (0 for host drivers), and
  // by array at that peak (empty for host drivers).
  virtual size_t device_bytes() const { return 0; }
  virtual MemoryTable device_memory_table() const { return {}; }

  // --- The charge stage: charge equilibration before the forces ---
  // Equilibrate the charges of `atoms` (as for the compute() that follows;
  // atoms.q is not read) for `problem` (model, settings, group, parameters:
  // per-type parameters index atoms.type), starting from and updating
  // `history` (the caller's: LAMMPS moves it with the atoms). The new
  // charges go to q (n_total entries; other atoms' entries are left alone).
  // The engine's own solver runs it: the CUDA driver's on its GPU, with the
  // step's atoms and far list, which the compute() that follows reuses (and
  // the charges) only when its StepInput::key is this solve's
  // (forces_follow_solve); the host driver's is the reference solver. Throws InputError for bad
  // settings or parameters (QEqSettings, solve_qeq_reference).
  virtual QEqResult solve_charges(const StepInput &atoms, const QEqProblem &problem,
                                  ChargeHistory &history, QEqComm &comm, double *q) = 0;

 protected:
  // The solvers' input: `problem` on `atoms`, reordered as the engine saw
  // the atoms since its last solve.
  static QEqInput charge_input(const StepInput &atoms, const QEqProblem &problem, bool reordered);
};

// True if a CUDA device is usable; `why` says what was found (or not).
bool cuda_available(std::string *why);

std::unique_ptr<Engine> make_engine(Driver driver, const ForceField &ff, const Control &control,
                                    const EngineSettings &settings = {});

}  // namespace puremd
