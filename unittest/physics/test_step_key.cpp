// The step key (puremd::StepKey): the one rule that says whether a compute()
// follows a charge solve, and the host driver's check of its promise (a
// compute() keyed as the last solve finds the solve's atoms and charges,
// which the CUDA driver reuses on that promise). CI has no GPU: this check is
// what catches an adapter that keys a compute() as a solve it does not follow.
#include <gtest/gtest.h>

#include <vector>

#include "../cuda/engine_test.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"
#include "qeq_test_system.h"

namespace {

using namespace engine_test;

StepKey key_of(long long timestep, int level, long long evaluation) {
  StepKey k;
  k.timestep = timestep;
  k.level = level;
  k.evaluation = evaluation;
  return k;
}

TEST(StepKey, ForcesFollowASolveOnlyWithItsWholeKey) {
  const StepKey solve = key_of(10, 1, 4);
  EXPECT_TRUE(forces_follow_solve(solve, key_of(10, 1, 4)));
  EXPECT_FALSE(forces_follow_solve(solve, key_of(11, 1, 4))) << "another timestep";
  EXPECT_FALSE(forces_follow_solve(solve, key_of(10, 0, 4))) << "another rRESPA level";
  EXPECT_FALSE(forces_follow_solve(solve, key_of(10, 1, 5))) << "a later evaluation";
  EXPECT_FALSE(forces_follow_solve(StepKey{}, StepKey{})) << "unset keys match nothing";
  EXPECT_FALSE(forces_follow_solve(solve, StepKey{}));
  EXPECT_FALSE(forces_follow_solve(StepKey{}, solve));
}

// LAMMPS's water example on the host driver: solve keyed K, then compute()
// keyed K on the same atoms (accepted), on moved atoms or changed charges
// (refused: the key is wrong), and keyed otherwise on moved atoms (accepted:
// no promise made).
TEST(StepKey, HostDriverChecksThePromiseOfAKey) {
  const Model st = load("water/qeq_ff.water", nullptr);
  System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 19, 0.05);
  const int nl = s.n_local;
  std::unique_ptr<Engine> host = make_engine(Driver::Host, st.ff, st.control);

  const QEqParams par = qeq_params(st.ff);
  QEqProblem problem;
  problem.settings.cut_lo = 0.0;
  problem.settings.cut_hi = st.control.nonb_cut;
  problem.settings.tolerance = 1e-8;
  problem.num_types = st.ff.num_types;
  problem.chi = par.chi.data();
  problem.eta = par.eta.data();
  problem.gamma = par.gamma.data();
  qeq_test::SingleRankComm comm = single_rank_comm(s);

  ChargeHistory history;
  auto solve = [&](const StepKey &key) {
    StepInput in = step_input(s);
    in.key = key;
    host->solve_charges(in, problem, history, comm, s.q.data());
  };
  auto compute = [&](const StepKey &key) { run(*host, s, kTermAll, false, false, key); };

  solve(key_of(1, 0, 0));
  EXPECT_NO_THROW(compute(key_of(1, 0, 0))) << "the solve's atoms and charges";

  solve(key_of(2, 0, 1));
  s.x[3 * 7 + 1] += 1e-9;
  EXPECT_THROW(compute(key_of(2, 0, 1)), RuntimeError) << "an atom moved after the solve";

  solve(key_of(3, 0, 2));
  s.q[nl + 2] += 1e-12;
  EXPECT_THROW(compute(key_of(3, 0, 2)), RuntimeError) << "a ghost's charge changed";

  solve(key_of(4, 1, 3));  // rRESPA: the solve at the outer level ...
  s.x[0] += 0.01;          // ... the inner levels move the atoms ...
  EXPECT_NO_THROW(compute(key_of(4, 0, 3))) << "the pair at the inner level";
  solve(key_of(5, 0, 4));
  s.x[0] -= 0.01;
  EXPECT_NO_THROW(compute(StepKey{})) << "an unset key promises nothing";
  EXPECT_NO_THROW(compute(key_of(5, 0, 4))) << "a solve serves one compute() only";
}

}  // namespace
