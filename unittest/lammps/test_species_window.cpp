// fix reaxff/species's per-partner window (src/REAXFF_CUDA/species_window.h)
// alone: a partner keeps its slot through the window whatever the list's
// order, a newcomer takes the first free slot, a full row refuses (the fix)
// or gives up the slots of absent partners and no other (the pair's tmpid /
// tmpbo), rows follow their atoms by ID or through the exchange callbacks.
// The LAMMPS-level behaviour is test_species.cpp's and
// test_analysis_arguments.cpp's.
#include <gtest/gtest.h>

#include <vector>

#include "../../src/REAXFF_CUDA/species_window.h"

using LAMMPS_NS::SpeciesWindow;
using LAMMPS_NS::tagint;

TEST(SpeciesWindow, PartnersKeepTheirSlotsThroughTheWindow) {
  SpeciesWindow w(3);
  w.clear(2);
  EXPECT_EQ(w.slot(0, 7), 0);
  EXPECT_EQ(w.slot(0, 9), 1);
  // the next sample lists them the other way round, with a newcomer first
  EXPECT_EQ(w.slot(0, 4), 2);
  EXPECT_EQ(w.slot(0, 9), 1);
  EXPECT_EQ(w.slot(0, 7), 0);
  EXPECT_EQ(w.find(0, 4), 2);
  EXPECT_EQ(w.find(1, 4), -1);  // rows are the atoms' own
  w.value(0, 1) += 0.5;
  w.value(0, 1) += 0.25;
  EXPECT_DOUBLE_EQ(w.value(0, 1), 0.75);
  EXPECT_EQ(w.partner(0, 2), 4);
  w.clear(2);  // a new window
  EXPECT_EQ(w.find(0, 9), -1);
  EXPECT_EQ(w.slot(0, 9), 0);
}

TEST(SpeciesWindow, AFullRowRefusesOrGivesUpOnlyAbsentPartners) {
  SpeciesWindow w(3);
  w.clear(1);
  for (tagint p : {11, 12, 13}) w.slot(0, p);
  w.value(0, 1) = 2.0;
  EXPECT_EQ(w.slot(0, 14), -1);  // every slot another partner's
  const std::vector<tagint> present = {12, 14};
  w.free_absent(0, present.data(), 2);
  EXPECT_EQ(w.find(0, 11), -1);
  EXPECT_EQ(w.find(0, 13), -1);
  EXPECT_EQ(w.find(0, 12), 1);  // kept its slot and its value
  EXPECT_DOUBLE_EQ(w.value(0, 1), 2.0);
  EXPECT_EQ(w.slot(0, 14), 0);  // the first free slot
}

TEST(SpeciesWindow, RowsFollowTheirAtomsByIdOrByTheCallbacks) {
  SpeciesWindow w(2);
  const std::vector<tagint> before = {5, 6, 7};
  w.follow(before.data(), 3);
  w.clear(3);
  w.slot(0, 50);
  w.slot(1, 60);
  w.slot(2, 70);
  // sorted anew, atom 6 gone to another rank and atom 8 come from one
  const std::vector<tagint> after = {7, 8, 5};
  w.follow(after.data(), 3);
  EXPECT_EQ(w.find(0, 70), 0);
  EXPECT_EQ(w.find(1, 0), 0);  // a newcomer's row is free
  EXPECT_EQ(w.find(1, 60), -1);
  EXPECT_EQ(w.find(2, 50), 0);
  // the callbacks: a row packed, copied and unpacked elsewhere
  std::vector<double> buf(w.width());
  EXPECT_EQ(w.pack(0, buf.data()), w.width());
  w.copy(2, 1);
  EXPECT_EQ(w.find(1, 50), 0);
  w.unpack(5, buf.data());
  EXPECT_EQ(w.find(5, 70), 0);
}
