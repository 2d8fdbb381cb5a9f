#include "read_on_root.h"

#include <mpi.h>

#include "error.h"

namespace LAMMPS_NS {

void stop_all_if(LAMMPS *lmp, const std::string &root_message) {
  int n = static_cast<int>(root_message.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, lmp->world);
  if (n == 0) return;
  std::string message(root_message);
  message.resize(n);
  MPI_Bcast(message.data(), n, MPI_CHAR, 0, lmp->world);
  lmp->error->all(FLERR, message);
}

}  // namespace LAMMPS_NS
