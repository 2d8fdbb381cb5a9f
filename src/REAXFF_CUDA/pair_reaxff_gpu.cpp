#include "pair_reaxff_gpu.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "atom.h"
#include "atom_masks.h"
#include "charge_fix_gpu.h"
#include "comm.h"
#include "command_line_settings.h"
#include "error.h"
#include "fix.h"
#include "fix_package_gpu.h"
#include "force.h"
#include "kokkos_atoms.h"
#include "library_call.h"
#include "memory.h"
#include "memory_report.h"
#include "modify.h"
#include "neigh_list.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "platform.h"
#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/errors.h"
#include "reaxff_api.h"
#include "reaxff_defs.h"
#include "respa.h"
#include "shared_gpu.h"
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

void PairReaxFFGPU::settings(int narg, char **arg) {
  if (narg < 1)
    error->all(FLERR, "Illegal pair_style reaxff/gpu command: control file or NULL expected");

  control = puremd::Control{};
  if (strcmp(arg[0], "NULL") != 0) {
    // by its path, as pair_style reaxff opens it (no potential-file search)
    std::vector<std::string> warnings;
    call_library_all(lmp, "pair_style reaxff/gpu", "control_file", [&] {
      auto result = puremd::read_control_file(arg[0], control);
      control = result.control;
      warnings = result.warnings;
    });
    if (comm->me == 0)
      for (const auto &w : warnings) error->warning(FLERR, w);
  }

  qeqflag = 1;
  control.lgvdw = false;
  control.enobonds = true;
  requested_driver = puremd::Driver::Auto;
  engine_settings = puremd::EngineSettings{};
  list_skin = -1.0;

  // Same keywords as pair_style reaxff (safezone, mincap, minhbonds and
  // list/blocking size CPU lists there; our lists size themselves, so they
  // are accepted and checked but have no effect), plus ours: driver, skin,
  // lanes, timing (doc/pair_reaxff_gpu.md), which -var reaxff_gpu may give
  // too: after the input's, so that they win and are checked as the input's
  // are (command_line_settings.h).
  std::vector<std::string> w(arg, arg + narg);
  for (const reaxff_gpu::CommandLineSetting &c :
       reaxff_gpu::command_line_settings(lmp, reaxff_gpu::SettingsTaker::Pair)) {
    reaxff_gpu::log_command_line_setting(lmp, "pair_style reaxff/gpu", c,
                                         reaxff_gpu::input_value(w, 1, c.keyword));
    w.insert(w.end(), {c.keyword, c.value});
  }
  const int nw = static_cast<int>(w.size());
  int iarg = 1;
  auto need = [&](const char *kw) {
    if (iarg + 2 > nw)
      error->all(FLERR, "Illegal pair_style reaxff/gpu {} command: value missing", kw);
  };
  while (iarg < nw) {
    const std::string &kw = w[iarg];
    if (kw == "checkqeq") {
      need("checkqeq");
      qeqflag = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "enobonds") {
      need("enobonds");
      control.enobonds = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "lgvdw") {
      need("lgvdw");
      control.lgvdw = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "safezone") {
      need("safezone");
      if (utils::numeric(FLERR, w[iarg + 1], false, lmp) < 0.0)
        error->all(FLERR, "Illegal pair_style reaxff/gpu safezone value: must be >= 0");
    } else if (kw == "mincap" || kw == "minhbonds") {
      need(kw.c_str());
      if (utils::inumeric(FLERR, w[iarg + 1], false, lmp) < 0)
        error->all(FLERR, "Illegal pair_style reaxff/gpu {} value: must be >= 0", kw);
    } else if (kw == "list/blocking") {
      need("list/blocking");
      utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "tabulate") {
      need("tabulate");
      control.tabulate = utils::inumeric(FLERR, w[iarg + 1], false, lmp);
      if (control.tabulate < 0)
        error->all(FLERR, "Illegal pair_style reaxff/gpu tabulate value: must be >= 0");
    } else if (kw == "driver") {
      need("driver");
      const std::string v = w[iarg + 1];
      if (v == "auto")
        requested_driver = puremd::Driver::Auto;
      else if (v == "host")
        requested_driver = puremd::Driver::Host;
      else if (v == "cuda")
        requested_driver = puremd::Driver::Cuda;
      else
        error->all(FLERR, "Illegal pair_style reaxff/gpu driver '{}': use auto, host or cuda", v);
    } else if (kw == "skin") {
      need("skin");
      list_skin = utils::numeric(FLERR, w[iarg + 1], false, lmp);
      if (!(list_skin >= 0.0))
        error->all(FLERR,
                   "Illegal pair_style reaxff/gpu skin {}: a distance >= 0 (A) is expected; 0 "
                   "builds the GPU's pair list every step",
                   w[iarg + 1]);
    } else if (kw == "lanes") {
      need("lanes");
      call_library_all(lmp, "Illegal pair_style reaxff/gpu lanes", "lanes",
                       [&] { engine_settings.lanes = puremd::parse_lanes(w[iarg + 1]); });
    } else if (kw == "timing") {
      need("timing");
      engine_settings.timing = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else {
      error->all(FLERR, "Unknown pair_style reaxff/gpu keyword '{}'", kw);
    }
    iarg += 2;
  }

  // The analysis styles read these from PairReaxFF's control block.
  api->control->bond_cut = control.bond_cut;
  api->control->hbond_cut = control.hbond_cut;
  api->control->thb_cut = control.thb_cut;
  api->control->thb_cutsq = control.thb_cutsq;
  api->control->bg_cut = control.bg_cut;
  api->control->tabulate = control.tabulate;
  api->control->lgflag = control.lgvdw;
  api->control->enobondsflag = control.enobonds;
  engine_stale = true;
  check_gpu_code();
}

// A GPU this build has no code for stops the input at pair_style, naming the
// GPU, its architecture and CMAKE_CUDA_ARCHITECTURES, rather than at the
// first run (or, unchecked, at the first kernel). On the GPU the engine will
// use (the device choice of make_engine).
void PairReaxFFGPU::check_gpu_code() {
  if (requested_driver == puremd::Driver::Host) return;
  const puremd::GpuAssignment assignment = gpu_assignment();  // collective: on every rank
  call_library_all(lmp, "pair_style reaxff/gpu", "check_cuda_code", [&] {
    if (!puremd::cuda_available(nullptr)) return;
    puremd::select_cuda_device(assignment);
    puremd::check_cuda_code();
  });
}

void PairReaxFFGPU::coeff(int narg, char **arg) {
  if (!allocated) allocate();
  if (narg != 3 + atom->ntypes)
    error->all(FLERR,
               "Incorrect args for pair_coeff: expected * * ffield-file and {} element names",
               atom->ntypes);
  if (!utils::strmatch(arg[0], "^\\*$") || !utils::strmatch(arg[1], "^\\*$"))
    error->all(FLERR, "pair_coeff for reaxff/gpu must be '* * ffield-file elements...'");

  // Found as pair_style reaxff finds it: LAMMPS's potential-file search
  // (the name as given, then LAMMPS_POTENTIALS), with its units check and
  // DATE log line (open_potential, on rank 0 as there).
  const std::string path = utils::get_potential_file_path(arg[2]);
  std::string missing;
  if (path.empty()) {
    FILE *fp = fopen(arg[2], "r");  // for the system's reason
    missing = fmt::format("The ReaxFF parameter file {} cannot be opened: {}", arg[2],
                          fp ? "not readable" : utils::getsyserror());
    if (fp) fclose(fp);
  } else if (comm->me == 0) {
    if (FILE *fp = utils::open_potential(arg[2], lmp, nullptr)) fclose(fp);
  }
  stop_all_if_any(lmp, missing);
  call_library_all(lmp, "pair_coeff reaxff/gpu", "force_field",
                   [&] { ffield = puremd::read_force_field(path, control.lgvdw); });
  have_ffield = true;
  if (comm->me == 0) {
    for (const auto &w : ffield.warnings) error->warning(FLERR, w);
    // what pair_style reaxff skips without a word: one line in the log
    if (!ffield.ignored_entries.empty())
      utils::logmesg(lmp, "ReaxFF/GPU: " + ffield.ignored_entries + "\n");
  }
  control.nonb_low = ffield.nonb_low();
  control.nonb_cut = ffield.nonb_cut();
  control.bo_cut = ffield.bo_cut();
  api->control->nonb_low = control.nonb_low;
  api->control->nonb_cut = control.nonb_cut;
  api->control->bo_cut = control.bo_cut;

  const int n = atom->ntypes;
  eletype.assign(n + 1, "");
  int mapped = 0;
  for (int i = 1; i <= n; ++i) {
    const char *name = arg[2 + i];
    eletype[i] = name;
    setflag[i][i] = 0;
    if (strcmp(name, "NULL") == 0) {
      map[i] = -1;
      continue;
    }
    map[i] = ffield.find_element(name);
    if (map[i] < 0)
      error->all(FLERR, "Element '{}' in pair_coeff is not in ReaxFF force field file {}", name,
                 arg[2]);
    ++mapped;
  }
  int count = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = i; j <= n; ++j) {
      setflag[i][j] = (map[i] >= 0 && map[j] >= 0) ? 1 : 0;
      count += setflag[i][j];
    }
  if (count == 0 || mapped == 0)
    error->all(FLERR, "Incorrect args for pair_coeff: no atom type is mapped to a ReaxFF element");
  engine_stale = true;
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

// The GPU of this rank (selected in make_engine): the one LAMMPS's GPU
// package has made current when it is active (both then share it);
// otherwise by the GPU package's rule, with `package gpu Ngpu gpuID first`
// settings when given (FixPackageGPU). Collective (the ranks of a node).
puremd::GpuAssignment PairReaxFFGPU::gpu_assignment() {
  MPI_Comm node;
  puremd::GpuAssignment a;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, comm->me, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &a.node_rank);
  MPI_Comm_size(node, &a.node_ranks);
  MPI_Comm_free(&node);

  Fix *package = modify->get_fix_by_id("package_gpu");
  if (reaxff_gpu::kokkos_running(lmp) && reaxff_gpu::kokkos_device_is_gpu()) {
    a.count = 1;  // Kokkos's GPU (`-k on g N`), current since Kokkos started
    a.first = puremd::current_cuda_device();
  } else if (auto *ours = dynamic_cast<FixPackageGPU *>(package)) {
    a.count = ours->ngpu();
    a.first = ours->first_gpu();
  } else if (package) {
    a.count = 1;
    a.first = puremd::current_cuda_device();
  }
  return a;
}

void PairReaxFFGPU::make_engine() {
  std::string why;
  const bool gpu = puremd::cuda_available(&why);
  const puremd::Driver d = requested_driver;
  // every rank stops together, or none (ranks without a GPU among ranks with
  // one would otherwise leave those in the collective GPU assignment)
  int without = (d == puremd::Driver::Cuda && !gpu) ? 1 : 0, any_without = 0;
  MPI_Allreduce(&without, &any_without, 1, MPI_INT, MPI_MAX, world);
  if (any_without)
    error->all(FLERR, "pair_style reaxff/gpu driver cuda requested but {} has no usable GPU{}{}",
               without ? "this rank" : "another rank", without ? ": " : "", without ? why : "");
  const bool on_gpu_rank = gpu && d != puremd::Driver::Host;
  const std::string context = fmt::format("pair_style reaxff/gpu: cannot start the {} driver",
                                          on_gpu_rank ? "CUDA" : "host");
  // collective (every rank, whether or not it has a GPU)
  const puremd::GpuAssignment assignment =
      d != puremd::Driver::Host ? gpu_assignment() : puremd::GpuAssignment{};
  engine_settings.ranks = comm->nprocs;  // for the advice of an out-of-memory error
  call_library_all(lmp, context.c_str(), "make_engine", [&] {
    if (on_gpu_rank) gpu_id = puremd::select_cuda_device(assignment);
    engine = puremd::make_engine(d, ffield, control, engine_settings);
  });
  // Which GPU each rank uses (rank:GPU), so a job script's layout can be checked.
  const bool on_gpu = engine->driver() == puremd::Driver::Cuda;
  std::vector<int> ids(comm->me == 0 ? comm->nprocs : 0);
  MPI_Gather(&gpu_id, 1, MPI_INT, ids.data(), 1, MPI_INT, 0, world);
  if (comm->me == 0) {
    std::string msg = "ReaxFF/GPU: using the " + engine->description();
    if (on_gpu) msg += " (GPU " + std::to_string(gpu_id) + ")";
    if (engine->driver() == puremd::Driver::Host && requested_driver == puremd::Driver::Auto)
      msg += " (no GPU: " + why + ")";
    if (on_gpu && comm->nprocs > 1) {
      msg += "\nReaxFF/GPU: rank:GPU";
      for (int r = 0; r < comm->nprocs; ++r) msg += fmt::format(" {}:{}", r, ids[r]);
    }
    utils::logmesg(lmp, msg + "\n");
  }
  warn_if_gpu_shared_without_mps(lmp, on_gpu ? gpu_id : -1);
  // `-pk gpu N` (or `package gpu N`) asked for GPUs this machine does not have
  auto *package = dynamic_cast<FixPackageGPU *>(modify->get_fix_by_id("package_gpu"));
  if (!on_gpu && requested_driver == puremd::Driver::Auto && package && package->ngpu() > 0 &&
      comm->me == 0)
    error->warning(FLERR,
                   "package gpu {} asks for GPUs, but {}: pair_style reaxff/gpu runs its host "
                   "reference driver (serial, slow; 'driver cuda' makes this an error)",
                   package->ngpu(), why.empty() ? "none is usable" : why);
  engine_stale = false;
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
