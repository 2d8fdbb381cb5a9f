/* fix qeq/reaxff/gpu: see fix_qeq_reaxff_gpu.h. */
#include "fix_qeq_reaxff_gpu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "fix_qeq_reaxff.h"
#include "force.h"
#include "group.h"
#include "library_call.h"
#include "modify.h"
#include "neighbor.h"
#include "pair.h"
#include "pair_reaxff_gpu.h"
#include "platform.h"
#include "puremd_gpu/qeq.h"
#include "qeq_efield.h"
#include "qeq_lammps_comm.h"
#include "read_on_root.h"
#include "respa.h"
#include "style_registry.h"
#include "text_file_reader.h"
#include "tokenizer.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;
using namespace FixConst;

namespace {
constexpr double kNetChargeWarn = 1.0e-5;  // net group charge that triggers a warning
}  // namespace

// Ghost entries of v (one double per atom) from their owners, through the
// recorded halo as the solvers move them (collective).
void FixQEqReaxFFGPU::forward_per_atom(double *v) {
  qcomm->update_halo();
  call_library(lmp, context().c_str(), "forward_through_halo", [&] {
    puremd::forward_through_halo(*qcomm, v, atom->nlocal, atom->nlocal + atom->nghost);
  });
}

/* ---------------------------------------------------------------------- */

FixQEqReaxFFGPU::FixQEqReaxFFGPU(LAMMPS *lmp, int narg, char **arg)
    : FixQEqReaxFFGPU(lmp, narg, arg, 8) {}

FixQEqReaxFFGPU::FixQEqReaxFFGPU(LAMMPS *lmp, int narg, char **arg, int first_keyword)
    : Fix(lmp, narg, arg),
      nevery(1),
      swa(0.0),
      swb(10.0),
      tolerance(1e-6),
      imax(200),
      maxwarn(1),
      nlevels_respa(0),
      iter_s(0),
      iter_t(0),
      pertype_option(nullptr),
      reaxflag(0),
      reaxff(nullptr),
      solver_logged(false) {
  // fix qtpie/reaxff/gpu's and qeq/rel/reaxff/gpu's gauss file comes before
  // the keywords, and their `scale` among them
  const bool overlap_model = first_keyword > 8;
  // extended-Lagrangian charges: QEq's alone (not ACKS2's, QTPIE's or QEqR's)
  const bool plain_qeq = !overlap_model && !utils::strmatch(style, "^acks2/reax");
  const std::string usage = fmt::format(
      "fix ID group {} Nevery cutlo cuthi tol params{} [nowarn] [maxiter N]{}{} "
      "[threads_per_row N] [matrix auto|full|half|free] [predictor lammps|aspc|quadratic|linear] "
      "[halo auto|mpi] [cuda_aware auto|yes|no]",
      style, overlap_model ? " gauss_file" : "", overlap_model ? " [scale S]" : " [matfree]",
      plain_qeq ? " [xlmd yes|no] [xlcg N] [xlk K]" : "");
  if (narg < first_keyword)
    error->all(FLERR, "Illegal fix {} command: expected '{}'", style, usage);

  scalar_flag = 1;
  extscalar = 0;
  vector_flag = 1;
  size_vector = 2;
  extvector = 0;
  comm_forward = QEqLammpsComm::kForwardSize;  // (the halo's recording)

  nevery = utils::inumeric(FLERR, arg[3], false, lmp);
  if (nevery <= 0)
    error->all(FLERR, "Fix {}: Nevery must be a positive integer, got {}", style, arg[3]);
  swa = utils::numeric(FLERR, arg[4], false, lmp);
  swb = utils::numeric(FLERR, arg[5], false, lmp);
  tolerance = utils::numeric(FLERR, arg[6], false, lmp);
  if (tolerance <= 0.0)
    error->all(FLERR, "Fix {}: the CG tolerance must be positive, got {}", style, arg[6]);
  pertype_option = utils::strdup(arg[7]);

  for (int iarg = first_keyword; iarg < narg; ++iarg) {
    if (strcmp(arg[iarg], "nowarn") == 0) {
      maxwarn = 0;
    } else if (strcmp(arg[iarg], "dual") == 0) {
      // as fix qeq/reaxff, whose post_constructor refuses it
      error->all(FLERR, "Dual keyword only supported with fix qeq/reaxff/omp (fix {})", style);
    } else if (strcmp(arg[iarg], "maxiter") == 0) {
      if (iarg + 1 >= narg) error->all(FLERR, "Fix {}: keyword 'maxiter' needs a value", style);
      imax = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (imax < 1)
        error->all(FLERR, "Fix {}: maxiter must be at least 1, got {}", style, arg[iarg + 1]);
      ++iarg;
    } else if (!overlap_model && strcmp(arg[iarg], "matfree") == 0) {
      // fix qeq/reaxff's and acks2/reaxff's keyword from LAMMPS 4Jul2026 on
      // (acted on by their KOKKOS versions): H evaluated in every product
      matrix_mode = 3;
    } else if (strcmp(arg[iarg], "xlmd") == 0 || strcmp(arg[iarg], "xlcg") == 0 ||
               strcmp(arg[iarg], "xlk") == 0) {
      if (!plain_qeq)
        error->all(FLERR,
                   "Fix {}: keyword '{}' (extended-Lagrangian charges) is defined for fix "
                   "qeq/reaxff/gpu only",
                   style, arg[iarg]);
      if (iarg + 1 >= narg)
        error->all(FLERR, "Fix {}: keyword '{}' needs a value", style, arg[iarg]);
      if (strcmp(arg[iarg], "xlmd") == 0) {
        xlmd = utils::logical(FLERR, arg[iarg + 1], false, lmp) != 0;
      } else if (strcmp(arg[iarg], "xlk") == 0) {
        xlk = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
        xlk_given = true;
        if (xlk < puremd::kQEqXlMinOrder || xlk > puremd::kQEqXlMaxOrder)
          error->all(FLERR,
                     "Fix {}: xlk (the order K of the auxiliary vectors' dissipation) must be "
                     "{} to {}, got {}",
                     style, puremd::kQEqXlMinOrder, puremd::kQEqXlMaxOrder, arg[iarg + 1]);
      } else {
        xlcg = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
        xlcg_given = true;
        if (xlcg < 1)
          error->all(FLERR, "Fix {}: xlcg must be at least 1 CG iteration a step, got {}", style,
                     arg[iarg + 1]);
      }
      ++iarg;
    } else if (overlap_model && strcmp(arg[iarg], "scale") == 0) {
      if (iarg + 1 >= narg) error->all(FLERR, "Fix {}: keyword 'scale' needs a value", style);
      phi_scale = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      ++iarg;
    } else if (strcmp(arg[iarg], "threads_per_row") == 0) {
      if (iarg + 1 >= narg)
        error->all(FLERR, "Fix {}: keyword 'threads_per_row' needs a value", style);
      // checked with the other settings below (puremd::check_qeq_settings)
      threads_per_row = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      ++iarg;
    } else if (strcmp(arg[iarg], "matrix") == 0) {
      if (iarg + 1 >= narg) error->all(FLERR, "Fix {}: keyword 'matrix' needs a value", style);
      // (`stored` is the earlier spelling of `full`)
      const char *modes[] = {"auto", "full", "half", "free", "stored"};
      matrix_mode = -1;
      for (int m = 0; m < 5; ++m)
        if (strcmp(arg[iarg + 1], modes[m]) == 0) matrix_mode = m == 4 ? 1 : m;
      if (matrix_mode < 0)
        error->all(FLERR, "Fix {}: matrix must be 'auto', 'full', 'half' or 'free', got '{}'",
                   style, arg[iarg + 1]);
      ++iarg;
    } else if (strcmp(arg[iarg], "halo") == 0) {
      if (iarg + 1 >= narg) error->all(FLERR, "Fix {}: keyword 'halo' needs a value", style);
      const std::string v = arg[iarg + 1];
      if (v != "auto" && v != "mpi")
        error->all(FLERR, "Fix {}: halo must be 'auto' or 'mpi', got '{}'", style, v);
      halo_peer_copies = v == "auto";
      ++iarg;
    } else if (strcmp(arg[iarg], "cuda_aware") == 0) {
      if (iarg + 1 >= narg) error->all(FLERR, "Fix {}: keyword 'cuda_aware' needs a value", style);
      const std::string v = arg[iarg + 1];
      if (v != "auto" && v != "yes" && v != "no")
        error->all(FLERR, "Fix {}: cuda_aware must be 'auto', 'yes' or 'no', got '{}'", style, v);
      cuda_aware =
          v == "yes" ? QEqLammpsComm::CudaAware::Yes
                     : (v == "no" ? QEqLammpsComm::CudaAware::No : QEqLammpsComm::CudaAware::Auto);
      ++iarg;
    } else if (strcmp(arg[iarg], "predictor") == 0) {
      if (iarg + 1 >= narg) error->all(FLERR, "Fix {}: keyword 'predictor' needs a value", style);
      // in the order of puremd::QEqPredictor
      const char *names[] = {"lammps", "aspc", "quadratic", "linear"};
      int p = -1;
      for (int m = 0; m < puremd::kQEqPredictors; ++m)
        if (strcmp(arg[iarg + 1], names[m]) == 0) p = m;
      if (p < 0)
        error->all(FLERR,
                   "Fix {}: predictor must be 'lammps', 'aspc', 'quadratic' or 'linear', got '{}'",
                   style, arg[iarg + 1]);
      predictor = static_cast<puremd::QEqPredictor>(p);
      predictor_given = true;
      ++iarg;
    } else {
      error->all(FLERR, "Unknown fix {} keyword: {} (expected '{}')", style, arg[iarg], usage);
    }
  }
  if (xlmd && comm->me == 0) {
    if (nevery > 1)
      error->warning(FLERR,
                     "Fix {} xlmd with Nevery {}: the auxiliary vectors advance once a solve, "
                     "every {} steps",
                     style, nevery, nevery);
    if (predictor_given)
      error->warning(FLERR,
                     "Fix {}: with xlmd the predictor starts the converged solves only; each "
                     "step starts from the auxiliary vectors",
                     style);
  }
  if (xlcg_given && !xlmd)
    error->all(FLERR, "Fix {}: keyword 'xlcg' sets the CG iterations of 'xlmd yes'; add 'xlmd yes'",
               style);
  if (xlk_given && !xlmd)
    error->all(FLERR, "Fix {}: keyword 'xlk' sets the order of 'xlmd yes'; add 'xlmd yes'", style);
  check_taper();
  call_library_all(lmp, context().c_str(), "check_qeq_settings",
                   [&] { puremd::check_qeq_settings(qeq_settings()); });
  qcomm = std::make_unique<QEqLammpsComm>(lmp, this, cuda_aware, halo_peer_copies);

  // the history of past solutions is per-atom data; with xlmd it holds the
  // extended Lagrangian's auxiliary vectors (K + 1 past values), which
  // restart files keep
  // (the library's errors reach LAMMPS through its one translation)
  call_library_all(lmp, context().c_str(), "ChargeHistory", [&] {
    history = puremd::ChargeHistory(
        puremd::qeq_history_depth(xlmd ? puremd::QEqXl::Step : puremd::QEqXl::Off, xlk));
  });
  atom->add_callback(Atom::GROW);
  if (xlmd) {
    restart_global = 1;
    restart_peratom = 1;
    create_attribute = 1;  // set_arrays: new atoms have no auxiliary vectors
    atom->add_callback(Atom::RESTART);
  }
}

/* ---------------------------------------------------------------------- */

FixQEqReaxFFGPU::~FixQEqReaxFFGPU() {
  if (copymode) return;
  atom->delete_callback(id, Atom::GROW);
  if (restart_peratom) atom->delete_callback(id, Atom::RESTART);
  delete[] pertype_option;
}

/* ---------------------------------------------------------------------- */

void FixQEqReaxFFGPU::post_constructor() {
  grow_arrays(atom->nmax);
  history_call("clear_history", [&] { history.clear(); });
  pertype_parameters(pertype_option);
}

/* ---------------------------------------------------------------------- */

int FixQEqReaxFFGPU::setmask() {
  int mask = 0;
  mask |= PRE_FORCE;
  mask |= PRE_FORCE_RESPA;
  mask |= MIN_PRE_FORCE;
  return mask;
}

/* ---------------------------------------------------------------------- */

void FixQEqReaxFFGPU::check_taper() {
  if (swb < 0.0) error->all(FLERR, "Fix {} has negative upper Taper radius cutoff {}", style, swb);
  if (swb <= swa)
    error->all(FLERR, "Fix {}: upper Taper radius cutoff {} must be larger than the lower one {}",
               style, swb, swa);
  if (comm->me == 0) {
    if (std::fabs(swa) > 0.01)
      error->warning(FLERR, "Fix {} has non-zero lower Taper radius cutoff", style);
    if (swb < 5.0) error->warning(FLERR, "Fix {} has very low Taper radius cutoff", style);
  }
}

/* ---------------------------------------------------------------------- */

puremd::QEqSettings FixQEqReaxFFGPU::qeq_settings() const {
  puremd::QEqSettings set;
  set.cut_lo = swa;
  set.cut_hi = swb;
  set.tolerance = tolerance;
  set.max_iter = imax;
  set.threads_per_row = threads_per_row;
  const puremd::QEqMatrix modes[] = {puremd::QEqMatrix::Auto, puremd::QEqMatrix::Full,
                                     puremd::QEqMatrix::Half, puremd::QEqMatrix::Free};
  set.matrix = modes[matrix_mode];
  set.predictor = predictor;
  if (xlmd) {
    set.xl = xl_mode;  // chosen for the solve at hand (pre_force)
    set.xl_iterations = xlcg;
    set.xl_order = xlk;
  }
  return set;
}

/* ----------------------------------------------------------------------
   the log names the solver of the pair style's engine (the charge stage of
   its step: the CUDA solver with the CUDA driver, else the host solver)
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::log_solver() {
  const bool cuda = reaxff->driver() == puremd::Driver::Cuda;
  if (cuda != solver_is_cuda) solver_logged = false;
  solver_is_cuda = cuda;
  if (!solver_logged && comm->me == 0) {
    if (solver_is_cuda && comm->nprocs == 1)
      utils::logmesg(
          lmp, "QEq/GPU: fix {} uses the CUDA QEq solver (ghosts refreshed on the GPU)\n", id);
    else if (solver_is_cuda)
      utils::logmesg(lmp,
                     "QEq/GPU: fix {} uses the CUDA QEq solver (ghosts by a halo exchange "
                     "packed on the GPU, {})\n",
                     id,
                     qcomm->gpu_buffers_used()
                         ? "MPI given GPU buffers (CUDA-aware)"
                         : "its messages staged through page-locked host memory");
    else
      utils::logmesg(lmp, "QEq/GPU: fix {} uses the host QEq solver\n", id);
    if (xlmd)
      utils::logmesg(lmp,
                     "QEq/GPU: fix {}: extended-Lagrangian charges, {} CG iterations a step from "
                     "the auxiliary vectors, dissipation of order K = {} (converged solves at a "
                     "run's set-up, the {} solves after a fresh start, after atoms come or go, "
                     "and in minimization)\n",
                     id, xlcg, xlk, xlk);
  }
  solver_logged = true;
}

/* ---------------------------------------------------------------------- */

void FixQEqReaxFFGPU::init() {
  if (!atom->q_flag) error->all(FLERR, "Fix {} requires atom attribute q", style);
  if (!atom->tag_enable) error->all(FLERR, "Fix {} requires atom IDs", style);
  reaxff = PairReaxFFGPU::find(lmp);
  if (!reaxff) error->all(FLERR, kNeedsOurPair, style, style);
  if (group->count(igroup) == 0) error->all(FLERR, "Fix {} group has no atoms", style);

  efield = find_efield();

  // the pair coefficients may have changed since the fix was defined
  if (reaxflag) extract_pair_parameters();

  double qsum_local = 0.0, qsum = 0.0;
  for (int i = 0; i < atom->nlocal; ++i)
    if (atom->mask[i] & groupbit) qsum_local += atom->q[i];
  MPI_Allreduce(&qsum_local, &qsum, 1, MPI_DOUBLE, MPI_SUM, world);
  if (comm->me == 0 && std::fabs(qsum) > kNetChargeWarn)
    error->warning(FLERR, "Fix {} group is not charge neutral, net charge = {:.8}", style, qsum);

  if (utils::strmatch(update->integrate_style, "^respa"))
    nlevels_respa = (dynamic_cast<Respa *>(update->integrate))->nlevels;

  // A fix after this one at pre_force may change the charges (fix adapt):
  // then the pair style reads atom->q instead of the solve's charges (the
  // CUDA driver keeps those on the GPU otherwise).
  // Only the hook this run calls counts: fix nvt/npt have PRE_FORCE_RESPA,
  // which Verlet never calls (counting it made every NVT step upload the
  // atoms and build the GPU's pair list twice).
  const int hook = update->whichflag == 2 ? MIN_PRE_FORCE
                   : utils::strmatch(update->integrate_style, "^respa")
                       ? (PRE_FORCE | PRE_FORCE_RESPA)
                       : PRE_FORCE;
  later_pre_force = false;
  bool after_me = false;
  for (int k = 0; k < modify->nfix; ++k) {
    if (modify->fix[k] == this)
      after_me = true;
    else if (after_me && (modify->fmask[k] & hook))
      later_pre_force = true;
  }

  // the pair style has created its engine by now (force->init runs first)
  log_solver();
}

/* ---------------------------------------------------------------------- */

std::unique_ptr<QEqEfield> FixQEqReaxFFGPU::find_efield() { return QEqEfield::find(lmp, style); }

void FixQEqReaxFFGPU::charge_model(puremd::QEqProblem &in) {
  if (efield) in.chi_shift = efield->potential().data();
}

/* ---------------------------------------------------------------------- */

// With xlmd, a run's set-up solves to the tolerance: leaving the auxiliary
// vectors (Hold) where the run continues the last one's trajectory (same
// step, same unwrapped positions as at its end, e.g. `run N` twice, or
// after write_restart / read_restart); refilling them (Start) anywhere else
// (minimization, rerun, atoms moved or the box changed in between).
void FixQEqReaxFFGPU::setup_pre_force(int vflag) {
  qcomm->halo_is_stale();  // (before Nevery: the set-up re-neighboured)
  if (xlmd) {
    const bool continues = update->whichflag == 1 && xl_print_valid &&
                           update->ntimestep == xl_print_step && same_positions_as_print();
    xl_next = continues ? puremd::QEqXl::Hold : puremd::QEqXl::Start;
  }
  pre_force(vflag);
}

void FixQEqReaxFFGPU::setup_pre_force_respa(int vflag, int ilevel) {
  if (ilevel < nlevels_respa - 1) return;
  setup_pre_force(vflag);
}

void FixQEqReaxFFGPU::pre_force_respa(int vflag, int ilevel, int /*iloop*/) {
  if (ilevel == nlevels_respa - 1) pre_force(vflag);
}

// The minimizer's evaluations solve to the tolerance and refill the
// auxiliary vectors with the solution (a later run starts from them).
void FixQEqReaxFFGPU::min_pre_force(int vflag) {
  if (xlmd) xl_next = puremd::QEqXl::Start;
  pre_force(vflag);
}

/* ----------------------------------------------------------------------
   solve for the charges of the group's owned atoms; ghosts get them by
   forward comm (done by the solver) before the pair style computes
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::pre_force(int /*vflag*/) {
  if (update->ntimestep % nevery) return;

  if (xlmd) choose_xl_mode();

  // The problem; the atoms are the pair style's (its StepInput). LAMMPS's
  // arrays as they are: the solver reads the group from the mask.
  puremd::QEqProblem in;
  in.settings = qeq_settings();
  in.active = atom->mask;
  in.active_bits = groupbit;
  in.num_types = atom->ntypes + 1;
  charge_model(in);
  in.chi = chi.data();
  in.eta = eta.data();
  in.gamma = gamma.data();
  // The halo the solver replays (one rank too: its periodic images),
  // recorded again after LAMMPS re-neighboured.
  const bool timing = reaxff->timing();
  const double th = timing ? platform::walltime() : 0.0;
  if (qcomm->update_halo() && timing) {
    halo_seconds += platform::walltime() - th;
    ++halo_recordings;
  }

  // The engine's charge stage: with the CUDA driver the atoms go up and the
  // neighbours are built here, for this solve and the forces that follow.
  puremd::QEqResult res;
  const double t0 = timing ? platform::walltime() : 0.0;
  // The forces may reuse this solve's atoms and charges (StepKey) unless a
  // later pre_force fix may change them first.
  puremd::StepInput atoms;
  reaxff->fill_step_input(atoms);
  if (!later_pre_force) atoms.key = reaxff->step_key(PairReaxFFGPU::StepCall::ChargeSolve);
  puremd::Engine &engine = reaxff->charge_engine();
  res = call_library(lmp, context().c_str(), "solve_charges",
                     [&] { return engine.solve_charges(atoms, in, history, *qcomm, atom->q); });
  iter_s = res.iter_s;
  iter_t = res.iter_t;
  log_halo(res);
  const bool fixed_iterations = in.settings.xl == puremd::QEqXl::Step;
  if (xlmd) {
    xl_ready = true;
    xl_natoms = atom->natoms;
    xl_next = puremd::QEqXl::Step;  // what an MD step asks next
    // a fresh start is followed by K converged solves (Warm)
    if (xl_mode == puremd::QEqXl::Start) xl_warm_left = xlk;
    if (xl_mode == puremd::QEqXl::Warm) --xl_warm_left;
  }
  if (res.matrix_free && matrix_mode == 0 && !told_matrix_free && comm->me == 0)
    utils::logmesg(lmp,
                   "Fix {}: the QEq matrix would leave too little GPU memory for the step: "
                   "its products are matrix-free (slower, no matrix memory; 'matrix half' "
                   "stores it anyway)\n",
                   style);
  told_matrix_free = told_matrix_free || res.matrix_free;
  if (timing) {
    solve_seconds += platform::walltime() - t0;
    ++solves;
    iter_s_sum += iter_s;
    iter_t_sum += iter_t;
  }

  // (a fixed iteration count is not a failure to converge)
  if (maxwarn && comm->me == 0 && !fixed_iterations) {
    if (res.breakdown)
      error->warning(FLERR, "Fix {} {} numerical breakdown after {} iterations at step {}", style,
                     method, iter_s, update->ntimestep);
    else if (!res.converged_s)
      error->warning(FLERR, "Fix {} {} convergence failed after {} iterations at step {}", style,
                     method, iter_s, update->ntimestep);
    if (!res.converged_t)
      error->warning(FLERR, "Fix {} {} convergence failed after {} iterations at step {}", style,
                     method, iter_t, update->ntimestep);
  }
}

// Several ranks, CUDA solver: how the halo reaches the peers, once
// (rank 0's, and the totals over the ranks).
void FixQEqReaxFFGPU::log_halo(const puremd::QEqResult &res) {
  if (comm->nprocs == 1 || !solver_is_cuda || halo_logged) return;
  halo_logged = true;
  int mine[2] = {res.halo_peers_copy, res.halo_peers_mpi}, all[2] = {0, 0};
  MPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, world);
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "QEq/GPU: fix {} halo: {} rank pairs by GPU peer copies, {} by MPI messages "
                   "({})\n",
                   id, all[0] / 2, all[1] / 2,
                   qcomm->gpu_buffers_used() ? "GPU buffers" : "staged through host memory");
}

/* ---------------------------------------------------------------------- */

// With pair_style reaxff/gpu ... timing yes: the wall time of a solve
// (with the CUDA driver also the upload and neighbour search it starts the
// step with) and the CG iterations, beside the pair style's phase table.
void FixQEqReaxFFGPU::post_run() {
  if (xlmd) {  // where this run's trajectory ends, for the next run's set-up
    position_print(xl_print, xl_print_scale);
    xl_print_step = update->ntimestep;
    xl_print_valid = true;
  }
  if (solves == 0 || comm->me != 0) return;
  utils::logmesg(lmp,
                 "ReaxFF/GPU phase QEq ({} solver): {:.3f} ms/solve, CG iterations per solve "
                 "s {:.1f} t {:.1f} ({} solves)\n",
                 solver_is_cuda ? "CUDA" : "host", 1000.0 * solve_seconds / solves,
                 double(iter_s_sum) / solves, double(iter_t_sum) / solves, solves);
  if (halo_recordings > 0)
    utils::logmesg(lmp, "ReaxFF/GPU phase QEq halo recordings: {:.3f} ms each ({} recordings)\n",
                   1000.0 * halo_seconds / halo_recordings, halo_recordings);
  halo_seconds = 0.0;
  halo_recordings = 0;
  solve_seconds = 0.0;
  solves = iter_s_sum = iter_t_sum = 0;
}

double FixQEqReaxFFGPU::compute_scalar() { return (iter_s + iter_t) / 2.0; }

double FixQEqReaxFFGPU::compute_vector(int n) { return n == 0 ? iter_s : iter_t; }

/* ---------------------------------------------------------------------- */

int FixQEqReaxFFGPU::pack_forward_comm(int n, int *list, double *buf, int /*pbc_flag*/,
                                       int * /*pbc*/) {
  return qcomm->pack_forward(n, list, buf);
}

void FixQEqReaxFFGPU::unpack_forward_comm(int n, int first, double *buf) {
  qcomm->unpack_forward(n, first, buf);
}

std::string FixQEqReaxFFGPU::context() const { return fmt::format("Fix {}", style); }

namespace {
// fix qeq/reaxff with a parameter file runs beside any pair style; ours is a
// stage of reaxff/gpu's engine. When `-sf gpu` (or an input) makes it
// qeq/reaxff/gpu beside a pair style that is no ReaxFF at all, LAMMPS's own
// fix runs under that name, as it would without the suffix (the log says so).
Fix *make_fix(LAMMPS *lmp, int argc, char **argv) {
  const bool from_file = argc > 7 && !utils::strmatch(argv[7], "^reax");
  if (from_file && lmp->force->pair && !lmp->force->pair_match("^reax", 0)) {
    if (lmp->comm->me == 0)
      utils::logmesg(lmp,
                     "ReaxFF/GPU: fix {} {} is LAMMPS's fix qeq/reaxff: pair_style {} is not "
                     "ReaxFF\n",
                     argv[0], argv[2], lmp->force->pair_style);
    return new FixQEqReaxFF(lmp, argc, argv);
  }
  return new FixQEqReaxFFGPU(lmp, argc, argv);
}
const reaxff_gpu::RegisterStyle registered{
    reaxff_gpu::fix_style({"qeq/reaxff/gpu", "qeq/reax/gpu"},
                          "QEq charge equilibration for pair_style reaxff/gpu", &make_fix)};
}  // namespace
