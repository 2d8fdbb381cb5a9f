// fix ave/atom's schedule (ave_atom_schedule.h), the values from the rules
// of LAMMPS's fix ave/atom documentation: samples on the Nrepeat multiples
// of Nevery that end on each multiple of Nfreq; a run starts with the first
// whole window ahead, or on its own step where Nrepeat is 1 and the step is a
// multiple of Nfreq.
#include <gtest/gtest.h>

#include <vector>

// (header-only and pure: the test does not load the plugin)
#include "../../src/REAXFF_CUDA/ave_atom_schedule.h"

using LAMMPS_NS::AveAtomSchedule;
using LAMMPS_NS::bigint;

namespace {
std::vector<bigint> samples_in(const AveAtomSchedule &s, bigint from, bigint to) {
  std::vector<bigint> out;
  for (bigint t = from; t <= to; ++t)
    if (s.samples(t)) out.push_back(t);
  return out;
}
}  // namespace

TEST(AveAtomSchedule, EveryOutputStepOnly_1_1_5) {
  const AveAtomSchedule s{1, 1, 5};
  EXPECT_EQ(samples_in(s, 0, 12), (std::vector<bigint>{0, 5, 10}));
  EXPECT_EQ(s.first_sample(0), 0);
  EXPECT_EQ(s.first_sample(3), 5);
  EXPECT_EQ(s.first_sample(5), 5);
  EXPECT_EQ(s.next_window(5), 10);
  EXPECT_TRUE(s.starts_window(10));
  EXPECT_FALSE(s.inside_window(7));
}

TEST(AveAtomSchedule, OneSampleOnEveryNfreq_2_1_10) {
  const AveAtomSchedule s{2, 1, 10};
  EXPECT_EQ(samples_in(s, 1, 25), (std::vector<bigint>{10, 20}));
  EXPECT_EQ(s.first_sample(4), 10);
  EXPECT_EQ(s.first_sample(20), 20);
  EXPECT_EQ(s.next_window(10), 20);
}

TEST(AveAtomSchedule, TwoSamplesBeforeEachOutput_5_2_20) {
  const AveAtomSchedule s{5, 2, 20};
  EXPECT_EQ(samples_in(s, 1, 45), (std::vector<bigint>{15, 20, 35, 40}));
  EXPECT_TRUE(s.starts_window(15));
  EXPECT_FALSE(s.starts_window(20));
  EXPECT_FALSE(s.inside_window(15));
  EXPECT_TRUE(s.inside_window(17));
  EXPECT_TRUE(s.inside_window(19));
  EXPECT_TRUE(s.inside_window(20));  // (its last sample: the slots still hold)
  EXPECT_EQ(s.first_sample(0), 15);
  EXPECT_EQ(s.first_sample(12), 15);
  EXPECT_EQ(s.first_sample(15), 15);
  // a run set up in mid-window waits for the next whole window
  EXPECT_EQ(s.first_sample(17), 35);
  // and on an output step that ends a window of two samples
  EXPECT_EQ(s.first_sample(20), 35);
  EXPECT_EQ(s.next_window(20), 35);
}

TEST(AveAtomSchedule, ValidAsFixAveAtomAccepts) {
  EXPECT_TRUE((AveAtomSchedule{5, 2, 20}.valid()));
  EXPECT_TRUE((AveAtomSchedule{5, 4, 20}.valid()));
  EXPECT_FALSE((AveAtomSchedule{5, 5, 20}.valid()));  // window longer than Nfreq
  EXPECT_FALSE((AveAtomSchedule{3, 1, 10}.valid()));  // Nfreq not a multiple of Nevery
  EXPECT_FALSE((AveAtomSchedule{1, 0, 10}.valid()));
}
