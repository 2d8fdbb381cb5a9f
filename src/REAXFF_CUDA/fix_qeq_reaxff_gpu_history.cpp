/* fix qeq/reaxff/gpu: the per-atom history of past solutions as LAMMPS
   moves it with the atoms, its restart files, and the facts the
   extended-Lagrangian schedule (xl_schedule.h) is told: atoms created, the
   positions' fingerprint. */
#include <cmath>
#include <string>
#include <vector>

#include "atom.h"
#include "atom_masks.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "fix_qeq_reaxff_gpu.h"
#include "kokkos_atoms.h"
#include "library_call.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   per-atom history of past s and t (ACKS2: q and u)
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::grow_arrays(int nmax) {
  history_call("grow_history", [&] { history.grow(nmax); });
}

void FixQEqReaxFFGPU::copy_arrays(int i, int j, int /*delflag*/) {
  history_call("copy_history", [&] { history.copy(i, j); });
}

int FixQEqReaxFFGPU::pack_exchange(int i, double *buf) {
  return history_call("pack_history", [&] { return history.pack(i, buf); });
}

int FixQEqReaxFFGPU::unpack_exchange(int nlocal, double *buf) {
  return history_call("unpack_history", [&] { return history.unpack(nlocal, buf); });
}

/* ----------------------------------------------------------------------
   restart files: each atom's history block and, with xlmd, the schedule's
   values (whether the history holds auxiliary vectors, for how many atoms,
   ...)
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::write_restart(FILE *fp) {
  if (comm->me != 0) return;
  const XlSchedule::RestartValues state = xl.restart_values();
  const int size = sizeof(state);
  fwrite(&size, sizeof(int), 1, fp);
  fwrite(state.data(), sizeof(double), state.size(), fp);
}

void FixQEqReaxFFGPU::restart(char *buf) { xl.read_restart(reinterpret_cast<const double *>(buf)); }

void FixQEqReaxFFGPU::set_arrays(int /*i*/) { xl_created = true; }

// A fingerprint of the owned atoms' unwrapped positions (invariant under
// periodic wrapping and migration), summed over the ranks, and its scale.
XlSchedule::Print FixQEqReaxFFGPU::position_print() {
  double local[2] = {0.0, 0.0}, all[2] = {0.0, 0.0};
  reaxff_gpu::host_arrays_current(lmp, X_MASK | IMAGE_MASK);
  for (int i = 0; i < atom->nlocal; ++i) {
    double u[3];
    domain->unmap(atom->x[i], atom->image[i], u);
    const double v = u[0] + 1.7 * u[1] + 2.3 * u[2];
    local[0] += v;
    local[1] += std::fabs(v);
  }
  MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_SUM, world);
  return {all[0], all[1]};
}

int FixQEqReaxFFGPU::pack_restart(int i, double *buf) {
  const int n = history_call("pack_history", [&] { return history.pack(i, buf + 1); });
  buf[0] = n + 1;
  return n + 1;
}

void FixQEqReaxFFGPU::unpack_restart(int nlocal, int nth) {
  double **extra = atom->extra;
  int m = 0;  // skip the blocks of the fixes before this one
  for (int k = 0; k < nth; ++k) m += static_cast<int>(extra[nlocal][m]);
  // a block of another size (another xlk, or xlmd against none) is not
  // this history's: start afresh
  if (static_cast<int>(extra[nlocal][m]) != history.per_atom() + 1) {
    xl_created = xlmd;
    return;
  }
  history_call("unpack_history", [&] { history.unpack(nlocal, &extra[nlocal][m + 1]); });
}

int FixQEqReaxFFGPU::maxsize_restart() { return history.per_atom() + 1; }

int FixQEqReaxFFGPU::size_restart(int /*nlocal*/) { return history.per_atom() + 1; }

double FixQEqReaxFFGPU::memory_usage() { return static_cast<double>(history.bytes()); }
