// The CUDA driver against the host reference driver, both through LAMMPS:
// same systems and checks as the comparison with pair_style reaxff, with the
// CUDA issue's tighter tolerances. Skipped (with the reason) on a machine
// without a GPU; on one with a GPU every failure to run fails (gpu_machine.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "comparison.h"
#include "gpu_machine.h"

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
  if (!run_system(sys, our_styles("cuda"), gpu0, gpu1, &err)) SKIP_WITHOUT_GPU_ELSE_FAIL(err);
  ASSERT_TRUE(run_system(sys, our_styles("host"), host0, host1, &err)) << err;
  const Worst w = compare_runs(sys, host0, host1, gpu0, gpu1, kCudaVsHost);
  if (mpi_rank() == 0)
    std::printf(
        "[ cuda  ] %-11s ranks %d  worst rel. energy term %.2e  force %.2e x max|F|  "
        "charge %.2e  pressure %.2e\n",
        sys.name.c_str(), nprocs, w.term_rel, w.force_rel, w.charge, w.press_rel);
}

// A run's set-up sorts the atoms (atom_modify sort) and restarts LAMMPS's
// count of list builds. After a run without a list build, the GPU QEq solver
// once kept the ghost owners of the old order: the total energy jumped by
// ~20 kcal/mol at the next run's first step. Runs of 40 steps with no build
// inside (every 1000 check no), each set-up sorting moved atoms.
struct RunsResult {
  std::string error;  // LAMMPS's, where the set-up failed
  std::vector<double> pe, q, f;
  bool reordered = false;
};

RunsResult runs_with_sorting(const std::string &driver) {
  const std::string dir = source_dir() + "/examples/RDX/";
  LammpsSession lmp;
  lmp.load_plugin();
  RunsResult r;
  const std::string err =
      lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + dir +
              "data.RDX\npair_style reaxff/gpu NULL driver " + driver + "\npair_coeff * * " + dir +
              "ffield.reax.rdx H C O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-14 " + dir +
              "param.qeq maxiter 2000\nneigh_modify every 1000 delay 0 check no\n"
              "velocity all create 900.0 4928459 mom yes rot no loop geom\nfix nve all nve\n"
              "timestep 0.5\nthermo_style custom step pe\nrun 0 post no\n");
  if (!err.empty()) {
    r.error = err;
    return r;
  }
  for (int k = 0; k < 4; ++k) {
    const std::vector<long long> before = lmp.local_ids();
    EXPECT_EQ(lmp.run("run 40 post no\n"), "");
    r.pe.push_back(lmp.thermo("pe"));
    EXPECT_EQ(lmp.run("run 0 post no\n"), "");  // a set-up: sorts
    r.pe.push_back(lmp.thermo("pe"));
    r.reordered = r.reordered || lmp.local_ids() != before;
  }
  r.q = lmp.gather("q", 1);
  r.f = lmp.gather("f", 3);
  return r;
}

TEST(CudaVsHostRuns, SortAtRunSetupKeepsTheSamePhysics) {
  const RunsResult gpu = runs_with_sorting("cuda");
  if (!gpu.error.empty()) SKIP_WITHOUT_GPU_ELSE_FAIL(gpu.error);
  const RunsResult host = runs_with_sorting("host");
  ASSERT_EQ(host.error, "");
  ASSERT_TRUE(host.reordered) << "no set-up reordered the atoms: the test would be vacuous";
  ASSERT_EQ(gpu.pe.size(), host.pe.size());
  for (size_t k = 0; k < gpu.pe.size(); ++k)
    EXPECT_NEAR(gpu.pe[k], host.pe[k], 1e-10 * std::fabs(host.pe[k])) << "pe after run " << k;
  double fmax = 0;
  for (double v : host.f) fmax = std::max(fmax, std::fabs(v));
  for (size_t i = 0; i < host.q.size(); ++i) EXPECT_NEAR(gpu.q[i], host.q[i], 1e-10);
  for (size_t i = 0; i < host.f.size(); ++i) EXPECT_NEAR(gpu.f[i], host.f[i], 1e-9 * fmax);
}

INSTANTIATE_TEST_SUITE_P(Systems, CudaVsHost, ::testing::ValuesIn(all_systems()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
