// The batch rule of the CUDA solvers' device loop (common/charges/device_iterations.h),
// with a stand-in solver that stops after a given number of iterations; no GPU needed.
#include <gtest/gtest.h>

#include "common/charges/device_iterations.h"

using namespace puremd;

namespace {

// Queues and probes as a solver whose scalars stop it after `needs` iterations.
struct StandIn {
  int needs, done = 0, probes = 0;
  int run(int last) {
    return run_iterations_in_batches(
        last, [&](int k) { done += k < needs ? 1 : 0; }, [&] { return ++probes, done >= needs; });
  }
};

}  // namespace

TEST(DeviceIterations, FirstBatchIsTheLastSolveLessOne) {
  EXPECT_EQ(first_iteration_batch(0), 1);
  EXPECT_EQ(first_iteration_batch(1), 1);
  EXPECT_EQ(first_iteration_batch(12), 11);
}

TEST(DeviceIterations, ASolveAsLongAsTheLastProbesTwice) {
  StandIn s{12};
  EXPECT_EQ(s.run(12), 13);  // 11, then 2
  EXPECT_EQ(s.done, 12);
  EXPECT_EQ(s.probes, 2);
}

TEST(DeviceIterations, AShorterSolveProbesOnceAndQueuesNoMoreThanTheFirstBatch) {
  StandIn s{5};
  EXPECT_EQ(s.run(12), 11);
  EXPECT_EQ(s.done, 5);
  EXPECT_EQ(s.probes, 1);
}

TEST(DeviceIterations, ALongerSolveGoesOnTwoAtATime) {
  StandIn s{20};
  EXPECT_EQ(s.run(0), 21);  // 1, then ten batches of 2
  EXPECT_EQ(s.done, 20);
  EXPECT_EQ(s.probes, 11);
}
