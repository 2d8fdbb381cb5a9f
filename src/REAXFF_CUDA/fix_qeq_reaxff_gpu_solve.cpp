/* fix qeq/reaxff/gpu's solve, top-down: when it runs (set-up, MD step,
   rRESPA's outer level, the minimizer), the problem it hands the engine, the
   extended Lagrangian's mode, and what the log and warnings say of it. */
#include <string>

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix_qeq_reaxff_gpu.h"
#include "kokkos_atoms.h"
#include "library_call.h"
#include "pair_reaxff_gpu.h"
#include "platform.h"
#include "puremd_gpu/qeq.h"
#include "qeq_lammps_comm.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;

// With xlmd, a run's set-up asks Hold where it continues the last run's
// trajectory (xl_schedule.h), e.g. `run N` twice or after write_restart /
// read_restart; Start anywhere else.
void FixQEqReaxFFGPU::setup_pre_force(int vflag) {
  qcomm->halo_is_stale();  // (before Nevery: the set-up re-neighboured)
  if (xlmd)
    xl.run_setup(xl.may_continue(update->whichflag == 1, update->ntimestep) &&
                 xl.same(position_print()));
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
  if (xlmd) xl.minimizer();
  pre_force(vflag);
}

/* ----------------------------------------------------------------------
   solve for the charges of the group's owned atoms; ghosts get them by
   forward comm (done by the solver) before the pair style computes
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::pre_force(int /*vflag*/) {
  if (update->ntimestep % nevery) return;

  if (xlmd) {  // atoms created on any rank: their vectors are missing
    int created = xl_created ? 1 : 0, any = 0;
    MPI_Allreduce(&created, &any, 1, MPI_INT, MPI_MAX, world);
    xl_created = false;
    xl.choose(atom->natoms, any != 0);
  }

  // The problem; the atoms are the pair style's (its StepInput). LAMMPS's
  // arrays as they are: the solver reads the group from the mask.
  if (kokkosable) reaxff_gpu::kokkos_sync(lmp, execution_space, datamask_read);  // (as the pair)
  const reaxff_gpu::AtomArrays arrays = reaxff->atom_arrays();
  puremd::QEqProblem in;
  in.settings = qeq_settings();
  in.active = arrays.mask;
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
  // The forces may reuse this solve's atoms and charges where the pair
  // style's key says they follow it (StepKey).
  puremd::StepInput atoms;
  reaxff->fill_step_input(atoms);
  atoms.key = reaxff->step_key(PairReaxFFGPU::StepCall::ChargeSolve);
  puremd::Engine &engine = reaxff->charge_engine();
  res = call_library(lmp, context().c_str(), "solve_charges",
                     [&] { return engine.solve_charges(atoms, in, history, *qcomm, arrays.q); });
  if (kokkosable) reaxff_gpu::kokkos_modified(lmp, execution_space, datamask_modify);
  iter_s = res.iter_s;
  iter_t = res.iter_t;
  log_halo(res);
  const bool fixed_iterations = in.settings.xl == puremd::QEqXl::Step;
  if (xlmd) xl.solved(atom->natoms);
  if (res.matrix_free && matrix == puremd::QEqMatrix::Auto && !told_matrix_free && comm->me == 0)
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

// Where this run's trajectory ends, for the next run's set-up (xlmd); the
// run's QEq timing with `timing yes` (fix_qeq_reaxff_gpu_log.cpp).
void FixQEqReaxFFGPU::post_run() {
  if (xlmd) xl.run_ended(update->ntimestep, position_print());
  log_timing();
}
