// The one rule for a ghost's owner (physics/ghost_owner.h, on the host through
// common/charges/ghost_owners.h): by id, whatever the order of the owned atoms;
// images of images and images that came through another rank are the owned
// atom's; an id no owned atom has is another rank's (-1). No GPU needed.
#include <gtest/gtest.h>

#include <vector>

#include "common/charges/ghost_owners.h"
#include "puremd_gpu/physics/ghost_owner.h"

using namespace puremd;

TEST(GhostOwners, OwnedAtomsAreTheirOwnGhostsTheirIdsOwner) {
  // owned ids out of order; ghosts: two images of 7 (say one through another
  // rank), an image of 3, another rank's atom 11, an image of 5
  const std::vector<long long> tag = {7, 3, 9, 5, 7, 3, 11, 7, 5};
  std::vector<int> owner;
  owners_by_id(tag.data(), 4, static_cast<int>(tag.size()), owner);
  EXPECT_EQ(owner, (std::vector<int>{0, 1, 2, 3, 0, 1, -1, 0, 3}));
}

TEST(GhostOwners, NoOwnedAtomsMeansEveryGhostIsAnotherRanks) {
  const std::vector<long long> tag = {4, 8};
  std::vector<int> owner;
  owners_by_id(tag.data(), 0, 2, owner);
  EXPECT_EQ(owner, (std::vector<int>{-1, -1}));
}

TEST(GhostOwners, SearchFindsTheEndsOfTheSortedIds) {
  const long long sorted[] = {2, 5, 9};
  const int idx[] = {1, 2, 0};
  EXPECT_EQ(owner_by_id(sorted, idx, 3, 2), 1);
  EXPECT_EQ(owner_by_id(sorted, idx, 3, 9), 0);
  EXPECT_EQ(owner_by_id(sorted, idx, 3, 1), -1);
  EXPECT_EQ(owner_by_id(sorted, idx, 3, 10), -1);
  EXPECT_EQ(owner_by_id(sorted, idx, 3, 6), -1);
}
