#include "pair_reaxff_gpu.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "atom.h"
#include "atom_masks.h"
#include "charge_fix_gpu.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "force.h"
#include "kokkos_atoms.h"
#include "library_call.h"
#include "memory.h"
#include "memory_report.h"
#include "modify.h"
#include "neigh_list.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "reaxff_api.h"
#include "reaxff_defs.h"
#include "respa.h"
#include "style_registry.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;

namespace {
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::pair_style(
    {"reaxff/gpu"}, "ReaxFF on lib/puremd_gpu (CUDA driver, or host reference driver)",
    &reaxff_gpu::new_pair<PairReaxFFGPU>)};
}  // namespace

PairReaxFFGPU::PairReaxFFGPU(LAMMPS *lmp) : PairReaxFF(lmp) {
  // The base constructor prepares PairReaxFF's own (CPU) data; we only use
  // its control block and bond list to publish data to the analysis styles.
  fixbond_flag = 0;
  fixspecies_flag = 0;
  api->lists[ReaxFF::BONDS].error_ptr = error;
  // Under `-k on` a KOKKOS style: LAMMPS keeps the atoms where the engine
  // reads them (init_style) and syncs the arrays below there before
  // compute(); the engine writes the forces in place.
  if (reaxff_gpu::kokkos_running(lmp)) {
    kokkosable = 1;
    execution_space = Device;
    datamask_read = X_MASK | Q_MASK | F_MASK | TAG_MASK | TYPE_MASK | ENERGY_MASK | VIRIAL_MASK;
    datamask_modify = F_MASK | ENERGY_MASK | VIRIAL_MASK;
  }
}

PairReaxFFGPU::~PairReaxFFGPU() {
  if (copymode) return;
  if (bond_list_made) ReaxFF::Delete_List(api->lists + ReaxFF::BONDS);
  api->workspace->total_bond_order = nullptr;
  api->workspace->nlp = nullptr;
  delete own_list;
}

void PairReaxFFGPU::init_style() {
  if (!atom->q_flag) error->all(FLERR, "Pair style reaxff/gpu requires atom attribute q");
  if (atom->tag_enable == 0) error->all(FLERR, "Pair style reaxff/gpu requires atom IDs");
  if (force->newton_pair == 0)
    error->all(FLERR, "Pair style reaxff/gpu requires newton pair on{}",
               lmp->kokkos ? " (KOKKOS on a GPU defaults to off: -pk kokkos newton on)" : "");
  if (!have_ffield)
    error->all(FLERR, "Pair style reaxff/gpu: pair_coeff * * ffield ... was not given");

  Fix *charge_fix_itself = nullptr;
  charge_fix = find_charge_fix(lmp, qeqflag, charge_fix_itself);
  pre_force_after_solve = charge_fix && pre_force_fix_after(charge_fix_itself);

  cutmax = std::max({control.nonb_cut, control.hbond_cut, control.bond_cut});
  if (cutmax < 2.0 * control.bond_cut && comm->me == 0)
    error->warning(
        FLERR, "Total cutoff < 2*bond cutoff. May need to use an increased neighbor list skin.");

  // No LAMMPS neighbour list is requested: lib/puremd_gpu builds its own.
  // The analysis styles only read list->inum / ilist, so we keep a list
  // object holding the owned atoms for them.
  analysis_styles = !modify->get_fix_by_style("^reaxff/bonds").empty() ||
                    !modify->get_fix_by_style("^reaxff/species").empty() ||
                    !modify->get_compute_by_style("^reaxff/atom").empty();
  bond_table_of = atom_table_of = species_filled_of = -1;
  rows_of[0] = rows_of[1] = -1;
  if (!own_list) own_list = new NeighList(lmp);
  list = own_list;

  // The CUDA driver keeps its pair list between LAMMPS's re-neighbourings,
  // with LAMMPS's own skin unless `skin` says otherwise (and its own
  // displacement check). The skin is an engine's for its life: when the
  // neighbor command has changed it since the last run, a new engine.
  const double skin = list_skin >= 0.0 ? list_skin : neighbor->skin;
  if (skin != engine_settings.list_skin) engine_stale = true;
  engine_settings.list_skin = skin;
  if (engine_stale) make_engine();
  // KOKKOS: the CUDA driver reads Kokkos's device arrays (on the GPU, or the
  // host's for a host backend); the host driver the host's
  if (kokkosable) {
    // (LAMMPS's rRESPA is no KOKKOS integrator: it clears and reads the forces on
    // the host, past the arrays' sync, while a KOKKOS style keeps them on the GPU)
    if (utils::strmatch(update->integrate_style, "^respa"))
      error->all(FLERR,
                 "pair_style reaxff/gpu under -k on (KOKKOS) cannot run with run_style respa: "
                 "use run_style verlet, or run without -k on (-sf gpu alone supports respa)");
    execution_space = engine->driver() == puremd::Driver::Cuda ? Device : Host;
    // A request (occasional, never built) puts LAMMPS's KOKKOS neighbour code on
    // the device, whose displacement check runs every step: without one it runs
    // on the host, the positions copied home each step (bench/README, "Issue 55").
    if (execution_space == Device)
      neighbor->add_request(this, NeighConst::REQ_OCCASIONAL)->set_kokkos_device(1);
    if (comm->me == 0)
      utils::logmesg(lmp,
                     "ReaxFF/GPU: a KOKKOS style: the atoms are Kokkos's, read and written in {}\n",
                     execution_space == Host              ? "host memory (host driver)"
                     : reaxff_gpu::kokkos_device_is_gpu() ? "GPU memory"
                                                          : "host memory (Kokkos's host backend)");
  } else if (lmp->kokkos && comm->me == 0)
    error->warning(FLERR,
                   "pair_style reaxff/gpu was built without LAMMPS's KOKKOS package: under -k on "
                   "LAMMPS copies every atom array to the host for it and back on each step "
                   "(build the plugin against this LAMMPS, with KOKKOS, to keep them on the GPU)");
}

reaxff_gpu::AtomArrays PairReaxFFGPU::atom_arrays() {
  return kokkosable ? reaxff_gpu::kokkos_arrays(lmp, execution_space)
                    : reaxff_gpu::host_arrays(lmp);
}

// Whether a fix after `charge_fix` runs at this run's pre-force hook: it
// may change the charges or move atoms after the solve (fix adapt), so the
// forces must not reuse the solve's (step_key). Only the hook this run
// calls counts: fix nvt/npt have PRE_FORCE_RESPA, which Verlet never calls
// (counting it made every NVT step upload the atoms and build the GPU's
// pair list twice).
bool PairReaxFFGPU::pre_force_fix_after(const Fix *charge_fix) const {
  const bool respa = utils::strmatch(update->integrate_style, "^respa");
  const int hook = update->whichflag == 2 ? FixConst::MIN_PRE_FORCE
                   : respa                ? (FixConst::PRE_FORCE | FixConst::PRE_FORCE_RESPA)
                                          : FixConst::PRE_FORCE;
  bool after = false;
  for (int k = 0; k < modify->nfix; ++k) {
    if (modify->fix[k] == charge_fix)
      after = true;
    else if (after && (modify->fmask[k] & hook))
      return true;
  }
  return false;
}

PairReaxFFGPU *PairReaxFFGPU::find(LAMMPS *lmp) {
  return dynamic_cast<PairReaxFFGPU *>(lmp->force->pair_match("^reaxff", 0));
}

double PairReaxFFGPU::init_one(int i, int j) {
  if (setflag[i][j] == 0) error->all(FLERR, "All pair coeffs are not set");
  cutghost[i][j] = cutghost[j][i] = cutmax;
  return cutmax;
}

// LAMMPS's own arrays, as they are: the library maps types to elements
// through `map` and widens the ids itself (on the GPU for the CUDA driver).
void PairReaxFFGPU::fill_step_input(puremd::StepInput &in) {
  const int nlocal = atom->nlocal;
  const int nall = nlocal + atom->nghost;
  const reaxff_gpu::AtomArrays a = atom_arrays();
  in.n_local = nlocal;
  in.n_total = nall;
  in.x = nall ? a.x : nullptr;
  in.type = a.type;
  in.type_map = map;
  in.num_mapped = atom->ntypes + 1;
  in.tag = a.tag;
  in.q = a.q;
  in.u = charge_fix ? charge_fix->effective_potentials() : nullptr;
  in.on_gpu = a.on_gpu;
  in.capacity = atom->nmax;                   // x, q, type and tag have room for nmax atoms
  in.atoms_reordered = (neighbor->ago == 0);  // re-neighboured: indices / ghosts changed
}

// For fix qeq/reaxff/gpu's charge stage, which runs on this style's atoms
// and engine: the CUDA driver uploads the atoms and builds the neighbours
// there, once for the solve and the compute() keyed as it.
puremd::Engine &PairReaxFFGPU::charge_engine() {
  if (!engine) error->all(FLERR, "pair_style reaxff/gpu has no engine yet (no init)");
  return *engine;
}

// The key of this rank's next call (puremd::StepKey): the timestep, the
// rRESPA level of the call and the compute() calls so far. LAMMPS calls the
// pair style right after the pre_force fixes (the charge fix's solve) in
// Verlet, rerun and the minimizers (level 0); under rRESPA the fix solves at
// the outermost level and the pair computes at its own, so only a pair on
// the outermost level shares the solve's key (at the inner levels the atoms
// have moved since). Any other integrator, or a solve that another
// pre-force fix follows (pre_force_fix_after): unset, so nothing is reused.
puremd::StepKey PairReaxFFGPU::step_key(StepCall call) const {
  puremd::StepKey key;
  key.timestep = update->ntimestep;
  key.evaluation = computes;
  if (call == StepCall::ChargeSolve && pre_force_after_solve) return puremd::StepKey{};
  // (verlet/kk, LAMMPS's Verlet under KOKKOS, calls them in the same order)
  if (update->whichflag == 2 || utils::strmatch(update->integrate_style, "^verlet$") ||
      utils::strmatch(update->integrate_style, "^verlet/kk$"))
    return key;
  if (auto *respa = dynamic_cast<Respa *>(update->integrate))
    if (utils::strmatch(update->integrate_style, "^respa$")) {
      key.level = call == StepCall::ChargeSolve ? respa->nlevels - 1 : respa->level_pair;
      return key;
    }
  return puremd::StepKey{};
}

void PairReaxFFGPU::compute(int eflag, int vflag) {
  ev_init(eflag, vflag);
  // (LAMMPS's KOKKOS integrators sync before and mark after; a caller that
  // does not, finds the same here, as LAMMPS's own KOKKOS styles do)
  if (kokkosable) reaxff_gpu::kokkos_sync(lmp, execution_space, datamask_read);
  const int nall = atom->nlocal + atom->nghost;
  puremd::StepInput in;
  fill_step_input(in);
  in.key = step_key(StepCall::Forces);

  puremd::StepRequest req;
  req.eatom = eflag_atom != 0;
  req.vatom = vflag_atom != 0;

  puremd::StepOutput out;
  // Verlet, minimizers and rerun clear f just before the pair style
  // computes (and pair eatom / vatom are cleared by ev_init): when this is
  // the only pair style, the library writes its results over them. Under
  // pair hybrid or r-RESPA other terms may be in f already, so it adds.
  out.overwrite = force->pair == this && !utils::strmatch(update->integrate_style, "^respa");
  const reaxff_gpu::AtomArrays a = atom_arrays();
  out.f = nall ? a.f : nullptr;
  out.capacity = atom->nmax;
  out.eatom = eflag_atom ? eatom : nullptr;
  out.vatom = vflag_atom ? &vatom[0][0] : nullptr;

  call_library(lmp, "pair_style reaxff/gpu", "compute", [&] { engine->compute(in, req, out); });

  const puremd::Energies &en = out.energy;
  if (eflag_global) {
    // Same split as pair_style reaxff: Coulomb and polarization are ecoul.
    eng_coul += en.e_ele + en.e_pol;
    eng_vdwl += en.total() - en.e_ele - en.e_pol;
    en.to_pair_vector(pvector);
  }
  // The library returns sum x.f over owned and ghost atoms of its own forces:
  // the fdotr virial, valid in either LAMMPS virial mode.
  if (vflag_global || vflag_fdotr)
    for (int k = 0; k < 6; ++k) virial[k] += out.virial[k];

  if (kokkosable) reaxff_gpu::kokkos_modified(lmp, execution_space, datamask_modify);
  ++computes;
  if (analysis_styles) export_for_analysis();
}

void *PairReaxFFGPU::extract(const char *str, int &dim) {
  dim = 1;
  auto per_type = [&](double *out, auto field) -> void * {
    out[0] = 0.0;
    for (int i = 1; i <= atom->ntypes; ++i) out[i] = map[i] >= 0 ? ffield.sbp[map[i]].*field : 0.0;
    return out;
  };
  if (strcmp(str, "chi") == 0 && chi) return per_type(chi, &puremd::SingleBodyParams::chi);
  if (strcmp(str, "eta") == 0 && eta) return per_type(eta, &puremd::SingleBodyParams::eta);
  if (strcmp(str, "gamma") == 0 && gamma) return per_type(gamma, &puremd::SingleBodyParams::gamma);
  if (strcmp(str, "bcut_acks2") == 0 && bcut_acks2)
    return per_type(bcut_acks2, &puremd::SingleBodyParams::bcut_acks2);
  if (strcmp(str, "bond_softness") == 0 && have_ffield) return &ffield.gp[34];
  return nullptr;
}

// End of run: with `timing yes` the per-phase device times (ms per step,
// like Table 3 of the PuReMD-GPU paper) and the driver's peak memory.
void PairReaxFFGPU::finish() {
  if (!engine) return;
  // LAMMPS's "Neighs" and "Total # of neighbors" below count LAMMPS's own
  // lists, which this style does not request: say what ours holds.
  long long pairs = engine->far_pairs(), all = 0;
  MPI_Reduce(&pairs, &all, 1, MPI_LONG_LONG, MPI_SUM, 0, world);
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "ReaxFF/GPU: {} pairs in the far-neighbour lists of the last step (all ranks; "
                   "LAMMPS's neighbour counts below are of its own lists, which reaxff/gpu does "
                   "not use)\n",
                   all);
  if (comm->me != 0 || !engine_settings.timing) return;
  const puremd::PhaseTimes p = engine->phase_times();
  if (p.steps > 0) {
    const double n = static_cast<double>(p.steps);
    utils::logmesg(lmp,
                   "ReaxFF/GPU phase ms/step over {} steps: neighbors {:.3f} charges {:.3f} "
                   "lists {:.3f} bond_orders {:.3f} bonded {:.3f} hbonds {:.3f} nonbonded {:.3f} "
                   "chain_rule {:.3f} transfer {:.3f}\n",
                   p.steps, p.neighbors_ms / n, p.charges_ms / n, p.lists_ms / n,
                   p.bond_orders_ms / n, p.bonded_ms / n, p.hbonds_ms / n, p.nonbonded_ms / n,
                   p.chain_rule_ms / n, p.transfer_ms / n);
  }
  utils::logmesg(
      lmp, memory_report("ReaxFF/GPU", engine->device_memory_table(), atom->nlocal + atom->nghost));
}

double PairReaxFFGPU::memory_usage() {
  return static_cast<double>((export_total_bo.capacity() + export_nlp.capacity()) * sizeof(double));
}
