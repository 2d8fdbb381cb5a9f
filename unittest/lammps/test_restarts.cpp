// A run cut by write_restart / read_restart continues as the uninterrupted
// run does (issue 67): the restart file carries each atom's history of past
// charge solutions, so the restarted run's solves start from the guesses the
// uninterrupted run had (fix qeq/reaxff writes none and starts from zero).
// Compared where both runs solve the same step again (a run's set-up solves
// its first step, as LAMMPS's fix does): the same CG iteration counts, and
// charges within 1e-9 of the uninterrupted run's, where a fix with another ID
// (no history) is 100 times further off (host driver, Jacobi, one rank,
// `atom_modify sort 0`: 5.6e-10 against 3.1e-7, 37 iterations as the
// uninterrupted run against 56). Not the same bits: LAMMPS's read_restart
// itself moves atoms by an ulp (3.6e-15 A), and CG to 1e-8 carries that to
// the charges. The file is read by LAMMPS's own styles too.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lammps_session.h"

namespace {

std::string hns(const std::string &f) { return source_dir() + "/examples/HNS/" + f; }

const char *kPair = "pair_style reaxff/gpu NULL driver host\n";
std::string coeff() { return "pair_coeff * * " + hns("ffield.reax.hns") + " C H O N\n"; }
std::string fix(const std::string &id) {
  return "fix " + id + " all qeq/reaxff/gpu 1 0.0 10.0 1.0e-8 reaxff maxiter 400 precond jacobi\n";
}
const char *kRest =
    "fix nve all nve\nneighbor 2.0 bin\nneigh_modify every 1 delay 0 check no\n"
    "thermo_style custom step pe etotal press\nthermo_modify format float %.17g\n";

struct State {
  std::vector<double> x, f, q;
  double pe = 0, etotal = 0;
};
State state(LammpsSession &lmp) {
  return {lmp.gather("x", 3), lmp.gather("f", 3), lmp.gather("q", 1), lmp.thermo("pe"),
          lmp.thermo("etotal")};
}

// The largest difference between two arrays (0: the same bits, NaN aside).
double worst(const std::vector<double> &a, const std::vector<double> &b) {
  double w = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    w = std::max(w, std::fabs(a[i] - b[i]));
  return w;
}

TEST(Restarts, ARestartedRunStartsFromTheHistory) {
  if (mpi_size() > 1) GTEST_SKIP() << "one rank (CI time; the history moves with the atoms)";
  const std::string file = scratch_path("restarts.restart");
  State one, restarted, other_id;
  double iter_one = 0, iter_restarted = 0, iter_other = 0;
  {
    LammpsSession lmp;
    lmp.load_plugin();
    ASSERT_EQ(lmp.run("units real\natom_style charge\natom_modify map array sort 0 0.0\n"
                      "read_data " +
                      hns("data.hns-equil") + "\n" + kPair + coeff() + fix("q") + kRest +
                      "velocity all create 300.0 4928459 mom yes rot yes loop geom\n"
                      "timestep 0.1\nrun 10 post no\nwrite_restart " +
                      file + "\nrun 0 post no\n"),
              "");
    one = state(lmp);
    iter_one = lmp.fix_vector("q", 0);
  }
  for (const char *id : {"q", "other"}) {
    LammpsSession lmp;
    lmp.load_plugin();
    ASSERT_EQ(lmp.run("read_restart " + file + "\natom_modify sort 0 0.0\n" + kPair + coeff() +
                      fix(id) + kRest + "run 0 post no\n"),
              "");
    const bool same_id = std::string(id) == "q";
    (same_id ? restarted : other_id) = state(lmp);
    (same_id ? iter_restarted : iter_other) = lmp.fix_vector(id, 0);
  }
  // (LAMMPS's read_restart moves an atom by an ulp: 3.6e-15 A seen)
  EXPECT_LT(worst(restarted.x, one.x), 1e-13) << "positions";
  EXPECT_EQ(iter_restarted, iter_one) << "CG iterations of s at the set-up";
  EXPECT_NE(iter_other, iter_one) << "a fix with another ID starts from zero";
  const double dq = worst(restarted.q, one.q), dq_other = worst(other_id.q, one.q);
  EXPECT_LT(dq, 1e-9) << "charges";
  EXPECT_GT(dq_other, 100 * dq) << "without the history";
  if (mpi_rank() == 0)
    std::printf(
        "[ table ] restart, set-up solve: max |dq| restarted %.1e (%g iterations), fix "
        "without the history %.1e (%g), uninterrupted %g iterations\n",
        dq, iter_restarted, dq_other, iter_other, iter_one);
}

// LAMMPS's own styles read our restart file (its per-atom fix data unused).
TEST(Restarts, LammpsOwnStylesReadTheFile) {
  const std::string file = scratch_path("restarts_read.restart");
  {
    LammpsSession lmp;
    lmp.load_plugin();
    ASSERT_EQ(lmp.run("units real\natom_style charge\natom_modify map array\nread_data " +
                      hns("data.hns-equil") + "\n" + kPair + coeff() + fix("q") + kRest +
                      "timestep 0.1\nrun 2 post no\nwrite_restart " + file + "\n"),
              "");
  }
  LammpsSession lmp;
  ASSERT_EQ(lmp.run("read_restart " + file + "\npair_style reaxff NULL\n" + coeff() +
                    "fix q all qeq/reaxff 1 0.0 10.0 1.0e-8 reaxff maxiter 400\n" + kRest +
                    "run 2 post no\n"),
            "");
  EXPECT_TRUE(std::isfinite(lmp.thermo("pe")));
}

}  // namespace
