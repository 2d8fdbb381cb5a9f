/* fix qeq/reaxff/gpu: what it writes to the log: the solver and
   preconditioner it runs, how the halo reaches the peers, and with
   pair_style reaxff/gpu ... timing yes the run's QEq timing. */
#include <cstring>
#include <string>

#include "comm.h"
#include "fix_qeq_reaxff_gpu.h"
#include "pair_reaxff_gpu.h"
#include "puremd_gpu/qeq.h"
#include "qeq_lammps_comm.h"
#include "utils.h"

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   the log names the solver of the pair style's engine (the charge stage of
   its step: the CUDA solver with the CUDA driver, else the host solver) and
   the preconditioner, with how to get fix qeq/reaxff's iterates
------------------------------------------------------------------------- */

std::string FixQEqReaxFFGPU::preconditioner_text() const {
  if (!syntax.cg) return "BiCGStab with its own diagonal preconditioner";
  const puremd::QEqSettings set = qeq_settings();
  const std::string name = puremd::qeq_preconditioner(set, nullptr);
  // LAMMPS's fix: our style's name without /gpu
  const std::string lammps_fix = utils::strmatch(style, "/gpu$")
                                     ? std::string(style).substr(0, std::strlen(style) - 4)
                                     : std::string(style);
  if (name == puremd::kQEqFsai)
    return fmt::format(
        "preconditioner fsai (radius {} A; 'precond jacobi' gives fix {}'s iterates)",
        puremd::fsai_pattern_radius(set), lammps_fix);
  if (name == puremd::kQEqJacobi)
    return fmt::format("preconditioner jacobi (fix {}'s iterates)", lammps_fix);
  return "preconditioner " + name;
}

void FixQEqReaxFFGPU::log_solver() {
  const bool cuda = reaxff->driver() == puremd::Driver::Cuda;
  if (cuda != solver_is_cuda) solver_logged = false;
  solver_is_cuda = cuda;
  if (!solver_logged && comm->me == 0) {
    const std::string precond_text = preconditioner_text();
    if (solver_is_cuda && comm->nprocs == 1)
      utils::logmesg(lmp,
                     "QEq/GPU: fix {} uses the CUDA QEq solver (ghosts refreshed on the GPU), "
                     "{}\n",
                     id, precond_text);
    else if (solver_is_cuda)
      utils::logmesg(lmp,
                     "QEq/GPU: fix {} uses the CUDA QEq solver (ghosts by a halo exchange "
                     "packed on the GPU, {}), {}\n",
                     id,
                     qcomm->gpu_buffers_used()
                         ? "MPI given GPU buffers (CUDA-aware)"
                         : "its messages staged through page-locked host memory",
                     precond_text);
    else
      utils::logmesg(lmp, "QEq/GPU: fix {} uses the host QEq solver, {}\n", id, precond_text);
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

// With pair_style reaxff/gpu ... timing yes: the wall time of a solve
// (with the CUDA driver also the upload and neighbour search it starts the
// step with) and the CG iterations, beside the pair style's phase table.
void FixQEqReaxFFGPU::log_timing() {
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
