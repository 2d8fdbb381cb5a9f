#include "library_call.h"

#include <mpi.h>

#include <cstdlib>
#include <cstring>

#include "comm.h"
#include "puremd_gpu/errors.h"
#include "update.h"

namespace LAMMPS_NS {

void fail_if_asked(LAMMPS *lmp, const char *entry) {
  const char *spec = std::getenv("REAXFF_GPU_FAIL_AT");
  if (!spec || !*spec) return;
  const char *at = std::strchr(spec, '@');
  const size_t len = at ? static_cast<size_t>(at - spec) : std::strlen(spec);
  if (len != std::strlen(entry) || std::strncmp(spec, entry, len) != 0) return;
  if (at && std::atoi(at + 1) != lmp->comm->me) return;
  throw puremd::RuntimeError(std::string("failure injected at ") + entry +
                             " (REAXFF_GPU_FAIL_AT, for tests)");
}

long long current_step(LAMMPS *lmp) { return static_cast<long long>(lmp->update->ntimestep); }

void stop_all_if_any(LAMMPS *lmp, const std::string &message) {
  int me = 0, nprocs = 1;
  MPI_Comm_rank(lmp->world, &me);
  MPI_Comm_size(lmp->world, &nprocs);
  int first = message.empty() ? nprocs : me;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, lmp->world);
  if (first == nprocs) return;
  int n = static_cast<int>(message.size());
  MPI_Bcast(&n, 1, MPI_INT, first, lmp->world);
  std::string text(message);
  text.resize(n);
  MPI_Bcast(text.data(), n, MPI_CHAR, first, lmp->world);
  lmp->error->all(FLERR, text);
}

}  // namespace LAMMPS_NS
