// pair_style reaxff + fix qeq/reaxff (LAMMPS's own, the reference) against
// pair_style reaxff/gpu + fix qeq/reaxff/gpu, in the same binary and on the
// same number of MPI ranks: every compute-pair term, total energy, pressure
// tensor, per-atom forces and charges, at step 0 and after NVE dynamics.
// Ours runs with `driver auto`: the host driver in CI, the CUDA driver on a GPU;
// on the systems that take seconds, also with fix qeq/reaxff/gpu's FSAI
// preconditioner (`precond fsai`): its CG's path differs, not its answer.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "comparison.h"

namespace {

// The foundation issue's tolerances.
constexpr Tolerances kVsReaxFF{1e-10, 1e-8, 1e-8, 1e-8, 1e-9};

class CompareReaxFF : public ::testing::TestWithParam<SystemSpec> {};

TEST_P(CompareReaxFF, StepZeroAndAfterDynamics) {
  const SystemSpec &sys = GetParam();
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > sys.max_ranks)
    GTEST_SKIP() << sys.name << " runs on at most " << sys.max_ranks << " ranks in CI (time)";

  Snapshot ref0, ref1, our0, our1;
  std::string err;
  ASSERT_TRUE(run_system(sys, reference_styles(), ref0, ref1, &err)) << err;
  // (the three largest systems take tens of seconds a run: Jacobi only)
  const bool fsai_too = sys.name != "water" && sys.name != "water6540" && sys.name != "silica6000";
  for (const char *precond : {"jacobi", "fsai"}) {
    if (!fsai_too && std::string(precond) == "fsai") continue;
    SCOPED_TRACE(std::string("precond ") + precond);
    Variant ours = our_styles("auto");
    ours.qeq_keywords = std::string("precond ") + precond;
    ASSERT_TRUE(run_system(sys, ours, our0, our1, &err)) << err;
    const Worst w = compare_runs(sys, ref0, ref1, our0, our1, kVsReaxFF);
    if (mpi_rank() == 0)
      std::printf(
          "[ table ] %-11s %-6s ranks %d  worst rel. energy term %.2e  force %.2e x max|F|  "
          "charge %.2e  pressure %.2e\n",
          sys.name.c_str(), precond, nprocs, w.term_rel, w.force_rel, w.charge, w.press_rel);
  }
}

INSTANTIATE_TEST_SUITE_P(Systems, CompareReaxFF, ::testing::ValuesIn(all_systems()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
