/* fix qeq/reaxff/gpu: the per-atom history of past solutions as LAMMPS
   moves it with the atoms, its restart files, and the extended-Lagrangian
   charges' choice of mode (see fix_qeq_reaxff_gpu.h). */
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
   restart files (xlmd only): whether the history holds auxiliary vectors,
   for how many atoms, and each atom's history block
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::write_restart(FILE *fp) {
  if (comm->me != 0) return;
  const double state[kXlRestartValues] = {kXlRestartFormat,
                                          xl_ready ? 1.0 : 0.0,
                                          static_cast<double>(xl_natoms),
                                          xl_print_valid ? 1.0 : 0.0,
                                          xl_print,
                                          xl_print_scale,
                                          static_cast<double>(xl_print_step),
                                          static_cast<double>(xlk),
                                          static_cast<double>(xl_warm_left)};
  const int size = sizeof(state);
  fwrite(&size, sizeof(int), 1, fp);
  fwrite(state, sizeof(double), kXlRestartValues, fp);
}

// LAMMPS gives no size: the first value says which layout follows (an
// earlier one, without it, begins with 0 or 1 and is not read further).
void FixQEqReaxFFGPU::restart(char *buf) {
  const auto *state = reinterpret_cast<const double *>(buf);
  xl_ready = false;
  if (state[0] != kXlRestartFormat) return;
  xl_ready = state[1] != 0.0;
  xl_natoms = static_cast<bigint>(state[2]);
  xl_print_valid = state[3] != 0.0;
  xl_print = state[4];
  xl_print_scale = state[5];
  xl_print_step = static_cast<bigint>(state[6]);
  // auxiliary vectors of another order are not this scheme's history
  if (static_cast<int>(state[7]) != xlk) xl_ready = false;
  xl_warm_left = std::min(std::max(static_cast<int>(state[8]), 0), xlk);
}

// The mode of this solve: Start where the auxiliary vectors are missing or
// belong to other atoms (atoms came or went: their number changed, or some
// were created, set_arrays, on any rank), else what the caller asked, an MD
// step being Warm for the K solves after a Start.
void FixQEqReaxFFGPU::choose_xl_mode() {
  int created = xl_created ? 1 : 0, any = 0;
  MPI_Allreduce(&created, &any, 1, MPI_INT, MPI_MAX, world);
  xl_created = false;
  const bool ready = xl_ready && xl_natoms == atom->natoms && !any;
  xl_mode = ready ? xl_next : puremd::QEqXl::Start;
  if (xl_mode == puremd::QEqXl::Step && xl_warm_left > 0) xl_mode = puremd::QEqXl::Warm;
}

void FixQEqReaxFFGPU::set_arrays(int /*i*/) { xl_created = true; }

// A fingerprint of the owned atoms' unwrapped positions (invariant under
// periodic wrapping and migration), summed over the ranks, and its scale.
void FixQEqReaxFFGPU::position_print(double &print, double &scale) {
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
  print = all[0];
  scale = all[1];
}

bool FixQEqReaxFFGPU::same_positions_as_print() {
  double print = 0.0, scale = 0.0;
  position_print(print, scale);
  // the same positions summed in another order (atoms on other ranks)
  return std::fabs(print - xl_print) <= 1e-12 * std::max(scale, xl_print_scale);
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
  // a block of another size (another xlk) is not this history's: start afresh
  if (static_cast<int>(extra[nlocal][m]) != history.per_atom() + 1) {
    xl_created = true;
    return;
  }
  history_call("unpack_history", [&] { history.unpack(nlocal, &extra[nlocal][m + 1]); });
}

int FixQEqReaxFFGPU::maxsize_restart() { return history.per_atom() + 1; }

int FixQEqReaxFFGPU::size_restart(int /*nlocal*/) { return history.per_atom() + 1; }

double FixQEqReaxFFGPU::memory_usage() { return static_cast<double>(history.bytes()); }
