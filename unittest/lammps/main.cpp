// gtest main for the LAMMPS-level tests: MPI around the whole run, output
// from rank 0 only.
#include <gtest/gtest.h>
#include <mpi.h>

#include "library.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int rc = RUN_ALL_TESTS();
  int worst = rc;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  lammps_kokkos_finalize();  // (where a session ran with -k on: Kokkos stays up until here)
  MPI_Finalize();
  return worst;
}
