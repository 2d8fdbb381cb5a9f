// Where the CUDA solvers keep CG's scalars (common/charges/qeq_scalars_home.h), by
// the rule its header states; no GPU needed.
#include <gtest/gtest.h>

#include "common/charges/qeq_scalars_home.h"

using namespace puremd;

TEST(QEqScalarsHome, OneRankWithRowsKeepsThemOnTheGpu) {
  EXPECT_EQ(qeq_scalars_home(1, true, false, 0), QEqScalarsHome::Gpu);
  // without rows there is nothing to iterate on the GPU
  EXPECT_EQ(qeq_scalars_home(1, false, false, 0), QEqScalarsHome::Host);
  // one rank never asks its peers
  EXPECT_FALSE(qeq_peer_sums_possible(1, true));
}

TEST(QEqScalarsHome, SeveralRanksSumOnTheirGpusOnlyWhenEveryRankHasRows) {
  EXPECT_TRUE(qeq_peer_sums_possible(4, true));
  EXPECT_EQ(qeq_scalars_home(4, true, true, 0), QEqScalarsHome::PeerGpus);
  EXPECT_EQ(qeq_scalars_home(4, true, true, 1), QEqScalarsHome::Host);
  EXPECT_EQ(qeq_scalars_home(4, false, true, 1), QEqScalarsHome::Host);
}

TEST(QEqScalarsHome, SeveralRanksWithoutPeerSumsGoHome) {
  EXPECT_FALSE(qeq_peer_sums_possible(2, false));
  EXPECT_EQ(qeq_scalars_home(2, true, false, 0), QEqScalarsHome::Host);
}
