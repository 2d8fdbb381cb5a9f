/* fix qeq/reaxff/gpu: see fix_qeq_reaxff_gpu.h. */
#include "fix_qeq_reaxff_gpu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "atom.h"
#include "atom_masks.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "fix_qeq_reaxff.h"
#include "force.h"
#include "group.h"
#include "kokkos_atoms.h"
#include "library_call.h"
#include "modify.h"
#include "neighbor.h"
#include "pair.h"
#include "pair_reaxff_gpu.h"
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

namespace {
// QEq's syntax: fix qeq/reaxff's, with matfree and the extended Lagrangian.
ChargeModelSyntax qeq_syntax() {
  ChargeModelSyntax s;
  s.keywords = {{"matfree", 0}};
  s.keyword_usage = " [matfree]";
  s.extended_lagrangian = true;
  return s;
}
}  // namespace

FixQEqReaxFFGPU::FixQEqReaxFFGPU(LAMMPS *lmp, int narg, char **arg)
    : FixQEqReaxFFGPU(lmp, narg, arg, qeq_syntax()) {}

FixQEqReaxFFGPU::FixQEqReaxFFGPU(LAMMPS *lmp, int narg, char **arg, ChargeModelSyntax model_syntax)
    : Fix(lmp, narg, arg),
      syntax(std::move(model_syntax)),
      words(arg, arg + narg),
      nevery(1),
      swa(0.0),
      swb(10.0),
      tolerance(1e-6),
      imax(200),
      maxwarn(1),
      nlevels_respa(0),
      iter_s(0),
      iter_t(0),
      reaxflag(0),
      reaxff(nullptr),
      solver_logged(false) {
  if (words.size() < syntax.positional)
    error->all(FLERR, "Illegal fix {} command: expected '{}'", style, usage());

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
  pertype_option = arg[7];

  take_command_line_settings();
  parse_keywords();
  xl = XlSchedule(xlk);  // (before restart(): LAMMPS calls it after the constructor)
  qcomm = std::make_unique<QEqLammpsComm>(lmp, this, cuda_aware, halo_peer_copies);
  atom->add_callback(Atom::GROW);
  // Restart files carry each atom's history, so that a restarted run's first
  // solves start from the guesses the run would have had (fix qeq/reaxff
  // starts afresh); with xlmd also the schedule's values.
  restart_peratom = 1;
  atom->add_callback(Atom::RESTART);
  if (xlmd) {
    restart_global = 1;
    create_attribute = 1;  // set_arrays: new atoms have no auxiliary vectors
  }
}

/* ---------------------------------------------------------------------- */

void FixQEqReaxFFGPU::post_constructor() {
  for (size_t k : own_keywords) own_keyword(k);
  check_settings();

  // the history of past solutions is per-atom data, which restart files
  // keep; with xlmd it holds the extended Lagrangian's auxiliary vectors
  // (K + 1 past values)
  // (the library's errors reach LAMMPS through its one translation)
  call_library_all(lmp, context().c_str(), "ChargeHistory", [&] {
    history = puremd::ChargeHistory(
        puremd::qeq_history_depth(xlmd ? puremd::QEqXl::Step : puremd::QEqXl::Off, xlk));
  });
  grow_arrays(atom->nmax);
  maxexchange = history.per_atom();  // doubles an atom takes along (exchange buffers)
  history_call("clear_history", [&] { history.clear(); });
  pertype_parameters(pertype_option.c_str());
}

/* ---------------------------------------------------------------------- */

FixQEqReaxFFGPU::~FixQEqReaxFFGPU() {
  if (copymode) return;
  atom->delete_callback(id, Atom::GROW);
  if (restart_peratom) atom->delete_callback(id, Atom::RESTART);
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

puremd::QEqSettings FixQEqReaxFFGPU::qeq_settings() const {
  puremd::QEqSettings set;
  set.cut_lo = swa;
  set.cut_hi = swb;
  set.tolerance = tolerance;
  set.max_iter = imax;
  set.threads_per_row = threads_per_row;
  set.matrix = matrix;
  set.predictor = predictor;
  set.preconditioner = precond;
  set.fsai_radius = fsai_radius;
  if (xlmd) {
    set.xl = xl.mode();  // chosen for the solve at hand (pre_force)
    set.xl_iterations = xlcg;
    set.xl_order = xlk;
  }
  return set;
}

/* ---------------------------------------------------------------------- */

void FixQEqReaxFFGPU::init() {
  if (!atom->q_flag) error->all(FLERR, "Fix {} requires atom attribute q", style);
  if (!atom->tag_enable) error->all(FLERR, "Fix {} requires atom IDs", style);
  reaxff = PairReaxFFGPU::find(lmp);
  if (!reaxff) error->all(FLERR, kNeedsOurPair, style, style);
  if (group->count(igroup) == 0) error->all(FLERR, "Fix {} group has no atoms", style);

  efield = find_efield();
  if (kokkosable) execution_space = reaxff->execution_space;
  reaxff_gpu::host_arrays_current(lmp, Q_MASK | MASK_MASK);

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

  // the pair style has created its engine by now (force->init runs first)
  log_solver();
}

/* ---------------------------------------------------------------------- */

std::unique_ptr<QEqEfield> FixQEqReaxFFGPU::find_efield() { return QEqEfield::find(lmp, style); }

void FixQEqReaxFFGPU::charge_model(puremd::QEqProblem &in) {
  if (efield) in.chi_shift = efield->potential().data();
}

/* ---------------------------------------------------------------------- */

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
  return reaxff_gpu::new_charge_fix<FixQEqReaxFFGPU>(lmp, argc, argv);
}
const reaxff_gpu::RegisterStyle registered{
    reaxff_gpu::fix_style({"qeq/reaxff/gpu", "qeq/reax/gpu"},
                          "QEq charge equilibration for pair_style reaxff/gpu", &make_fix)};
}  // namespace
