// The CUDA driver against the host reference driver, both through LAMMPS:
// same systems and checks as the comparison with pair_style reaxff, with the
// CUDA issue's tighter tolerances. Skipped (with the reason) without a GPU.
#include <gtest/gtest.h>

#include <cstdio>

#include "comparison.h"

namespace {

constexpr Tolerances kCudaVsHost{1e-11, 1e-9, 1e-10, 1e-10, 1e-10};

class CudaVsHost : public ::testing::TestWithParam<SystemSpec> {};

TEST_P(CudaVsHost, StepZeroAndAfterDynamics) {
  const SystemSpec &sys = GetParam();
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > sys.max_ranks)
    GTEST_SKIP() << sys.name << " runs on at most " << sys.max_ranks << " ranks";

  Snapshot gpu0, gpu1, host0, host1;
  std::string err;
  if (!run_system(sys, our_styles("cuda"), gpu0, gpu1, &err)) {
    if (err.find("no usable GPU") != std::string::npos) GTEST_SKIP() << err;
    FAIL() << err;
  }
  ASSERT_TRUE(run_system(sys, our_styles("host"), host0, host1, &err)) << err;
  Worst w;
  compare("step 0", host0, gpu0, kCudaVsHost, w);
  compare("after " + std::to_string(sys.steps) + " steps", host1, gpu1, kCudaVsHost, w);
  check_per_atom_sums("CUDA step 0", gpu0);
  if (mpi_rank() == 0)
    std::printf(
        "[ cuda  ] %-11s ranks %d  worst rel. energy term %.2e  force %.2e x max|F|  "
        "charge %.2e  pressure %.2e\n",
        sys.name.c_str(), nprocs, w.term_rel, w.force_rel, w.charge, w.press_rel);
}

INSTANTIATE_TEST_SUITE_P(Systems, CudaVsHost, ::testing::ValuesIn(all_systems()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
