// The extended-Lagrangian schedule (src/REAXFF_CUDA/xl_schedule.h) alone:
// the mode of each solve through a run, a second run, the minimizer, atoms
// created or lost, and its restart values. The LAMMPS-level behaviour (a
// restarted run going on as one, the warm-up's count over a restart) is
// test_xlmd.cpp's.
#include <gtest/gtest.h>

#include <vector>

#include "../../src/REAXFF_CUDA/xl_schedule.h"

using LAMMPS_NS::XlSchedule;
using puremd::QEqXl;

namespace {

// the modes of `n` MD solves of `natoms` atoms, none created
std::vector<QEqXl> md_solves(XlSchedule &xl, int n, long long natoms = 100) {
  std::vector<QEqXl> modes;
  for (int k = 0; k < n; ++k) {
    modes.push_back(xl.choose(natoms, false));
    xl.solved(natoms);
  }
  return modes;
}

constexpr QEqXl S = QEqXl::Start, W = QEqXl::Warm, P = QEqXl::Step, H = QEqXl::Hold;

}  // namespace

TEST(XlSchedule, FreshRunStartsThenKWarmThenSteps) {
  XlSchedule xl(3);
  EXPECT_FALSE(xl.may_continue(true, 0));  // no run before
  xl.run_setup(false);
  EXPECT_EQ(md_solves(xl, 6), (std::vector<QEqXl>{S, W, W, W, P, P}));
}

TEST(XlSchedule, SecondRunHoldsWhereTheLastEndedElseStarts) {
  XlSchedule xl(3);
  xl.run_setup(false);
  md_solves(xl, 6);
  xl.run_ended(60, {12.5, 40.0});
  // the next run at the step the last ended, the positions the same within
  // the round-off of summing them in another order
  ASSERT_TRUE(xl.may_continue(true, 60));
  EXPECT_TRUE(xl.same({12.5 + 1e-12 * 20, 40.0}));
  xl.run_setup(true);
  EXPECT_EQ(md_solves(xl, 3), (std::vector<QEqXl>{H, P, P}));
  // another step, a minimization or rerun, or atoms moved in between
  EXPECT_FALSE(xl.may_continue(true, 61));
  EXPECT_FALSE(xl.may_continue(false, 60));
  EXPECT_FALSE(xl.same({12.5 + 1e-9, 40.0}));
  xl.run_setup(false);
  EXPECT_EQ(md_solves(xl, 5), (std::vector<QEqXl>{S, W, W, W, P}));
}

TEST(XlSchedule, MinimizerRefillsAndTheNextRunWarmsUp) {
  XlSchedule xl(3);
  xl.minimizer();
  EXPECT_EQ(xl.choose(100, false), S);
  xl.solved(100);
  xl.minimizer();
  EXPECT_EQ(xl.choose(100, false), S);
  xl.solved(100);
  EXPECT_EQ(md_solves(xl, 4), (std::vector<QEqXl>{W, W, W, P}));
}

TEST(XlSchedule, AtomsCreatedOrLostStartAfresh) {
  XlSchedule xl(3);
  xl.run_setup(false);
  md_solves(xl, 5);
  EXPECT_EQ(xl.choose(100, true), S);  // created on some rank
  xl.solved(100);
  md_solves(xl, 3);
  EXPECT_EQ(xl.choose(99, false), S);  // one lost
  xl.solved(99);
  EXPECT_EQ(xl.mode(), S);
  EXPECT_EQ(md_solves(xl, 4, 99), (std::vector<QEqXl>{W, W, W, P}));
}

TEST(XlSchedule, RestartValuesCarryTheScheduleOfTheSameOrderOnly) {
  XlSchedule xl(4);
  xl.run_setup(false);
  md_solves(xl, 3);  // S W W: two Warm solves still due
  xl.run_ended(30, {1.0, 2.0});
  const XlSchedule::RestartValues v = xl.restart_values();

  XlSchedule same(4);
  same.read_restart(v.data());
  EXPECT_TRUE(same.may_continue(true, 30));
  EXPECT_TRUE(same.same({1.0, 2.0}));
  same.run_setup(true);
  EXPECT_EQ(md_solves(same, 4), (std::vector<QEqXl>{H, W, W, P}));

  XlSchedule other_order(5);  // vectors of another scheme: not taken
  other_order.read_restart(v.data());
  other_order.run_setup(true);
  EXPECT_EQ(other_order.choose(100, false), S);

  XlSchedule earlier_layout(4);  // began with readiness (0 or 1): not read
  XlSchedule::RestartValues old = v;
  old[0] = 1.0;
  earlier_layout.read_restart(old.data());
  EXPECT_FALSE(earlier_layout.may_continue(true, 30));
  EXPECT_EQ(earlier_layout.choose(100, false), S);
}
