// The charge solvers replay LAMMPS's forward communication as recorded at
// each re-neighbouring (QEqLammpsComm): whatever the decomposition, ours
// against LAMMPS's reaxff + qeq/reaxff with the same layout, in the same
// binary and on the same ranks: a processor grid along one axis, the tiled
// comm style with recursive bisection, and a balanced brick (uneven
// sub-domains: ghosts forwarded through later swaps in several rounds).
// Host driver in CI, the CUDA driver's GPU replay on the device. Ours runs
// with each preconditioner (fix keyword precond): FSAI's G leaves other
// ranks' atoms out, so its CG differs with the decomposition, its answer not.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

#include "comparison.h"

namespace {

constexpr Tolerances kVsReaxFF{1e-10, 1e-8, 1e-8, 1e-8, 1e-9};

struct Layout {
  const char *name, *before_box, *after_box;
};

const Layout kLayouts[] = {
    {"grid_along_z", "processors 1 1 *", ""},
    {"tiled_rcb", "", "comm_style tiled\nbalance 1.0 rcb"},
    {"brick_shifted", "", "balance 1.0 shift xyz 5 1.05"},
};

class Decompositions : public ::testing::TestWithParam<Layout> {};

TEST_P(Decompositions, SameChargesForcesAndEnergiesAsReaxff) {
  const Layout &l = GetParam();
  for (const char *name : {"RDX", "CHO"})
    for (const char *precond : {"jacobi", "fsai"}) {
      SystemSpec sys;
      for (const SystemSpec &s : all_systems())
        if (s.name == name) sys = s;
      sys.steps = 30;
      SCOPED_TRACE(std::string(name) + ", " + l.name + ", precond " + precond);
      Variant ref = reference_styles(), ours = our_styles("auto");
      ours.qeq_keywords = std::string("precond ") + precond;
      ref.before_box = ours.before_box = l.before_box;
      ref.after_box = ours.after_box = l.after_box;
      Snapshot ref0, ref1, our0, our1;
      std::string err;
      ASSERT_TRUE(run_system(sys, ref, ref0, ref1, &err)) << err;
      ASSERT_TRUE(run_system(sys, ours, our0, our1, &err)) << err;
      Worst w;
      compare("step 0", ref0, our0, kVsReaxFF, w);
      compare("after " + std::to_string(sys.steps) + " steps", ref1, our1, kVsReaxFF, w);
      int nprocs = 1;
      MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
      if (mpi_rank() == 0)
        std::printf(
            "[ table ] %-5s %-13s %-6s ranks %d  worst term %.2e  force %.2e  charge %.2e\n", name,
            l.name, precond, nprocs, w.term_rel, w.force_rel, w.charge);
    }
}

INSTANTIATE_TEST_SUITE_P(Layouts, Decompositions, ::testing::ValuesIn(kLayouts),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
