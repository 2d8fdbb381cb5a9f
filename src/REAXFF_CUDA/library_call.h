/* Every call from a LAMMPS callback into lib/puremd_gpu goes through one of
   these two, so that a library exception (puremd::InputError, RuntimeError,
   a CUDA fault, std::bad_alloc) becomes a LAMMPS error that names what
   failed, on every rank, and never an exception that ends one rank while the
   others wait in the next collective:

   call_library: calls a rank may make alone or fail alone (a step, a GPU
     copy, the per-atom history LAMMPS moves between ranks): error->one, which
     stops the whole job (MPI_Abort from the executable; the library
     interface flags the abort for its caller);
   call_library_all: calls every rank makes together on the same input (the
     control and force-field files, a new engine): the ranks agree whether
     any failed, and every rank stops with error->all and the first failing
     rank's message (no rank is left waiting, none prints "on proc N").

   Tests make an entry fail on purpose with REAXFF_GPU_FAIL_AT=ENTRY or
   ENTRY@RANK (entry names as the call sites pass them; see
   unittest/lammps/one_rank_failures.sh). */
#ifndef LMP_REAXFF_GPU_LIBRARY_CALL_H
#define LMP_REAXFF_GPU_LIBRARY_CALL_H

#include <exception>
#include <string>
#include <utility>

#include "error.h"
#include "lammps.h"

namespace LAMMPS_NS {

// Throws puremd::RuntimeError when REAXFF_GPU_FAIL_AT names this entry (and
// this rank, or none).
void fail_if_asked(LAMMPS *lmp, const char *entry);

// LAMMPS's current step (update->ntimestep), which call_library's errors name.
long long current_step(LAMMPS *lmp);

// For call_library_all: stops every rank with error->all when some rank's
// message is not empty (the lowest such rank's message); collective.
void stop_all_if_any(LAMMPS *lmp, const std::string &message);

// `context` starts the error message (e.g. "pair_style reaxff/gpu"); `entry`
// names the call for REAXFF_GPU_FAIL_AT.
template <class Call>
decltype(auto) call_library(LAMMPS *lmp, const char *context, const char *entry, Call &&call) {
  try {
    fail_if_asked(lmp, entry);
    return std::forward<Call>(call)();
  } catch (std::exception &e) {
    lmp->error->one(FLERR, "{} at step {}: {}", context, current_step(lmp), e.what());
  }
}

template <class Call>
void call_library_all(LAMMPS *lmp, const char *context, const char *entry, Call &&call) {
  std::string message;
  try {
    fail_if_asked(lmp, entry);
    std::forward<Call>(call)();
  } catch (std::exception &e) {
    message = std::string(context) + ": " + e.what();
  }
  stop_all_if_any(lmp, message);
}

}  // namespace LAMMPS_NS

#endif
