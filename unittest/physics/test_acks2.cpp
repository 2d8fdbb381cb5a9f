// ACKS2's bond softness and its pair energy (physics/acks2.h): the closed form
// written out, zero at and beyond the cut-off, and the derivative against
// central differences.
#include <gtest/gtest.h>

#include <cmath>

#include "puremd_gpu/physics/acks2.h"

using namespace puremd;

TEST(Acks2, BondSoftnessClosedFormAndCutoff) {
  const double s = 623.9, bcut = 5.1;
  for (double r : {0.3, 1.0, 1.7, 2.5, 4.0, 5.0}) {
    const double d = r / bcut;
    EXPECT_NEAR(acks2_bond_softness(r, bcut, s).x, s * std::pow(d, 3) * std::pow(1 - d, 6),
                1e-12 * s)
        << "r " << r;
  }
  EXPECT_EQ(acks2_bond_softness(bcut, bcut, s).x, 0.0);
  EXPECT_EQ(acks2_bond_softness(bcut + 0.1, bcut, s).x, 0.0);
  EXPECT_EQ(acks2_bond_softness(bcut + 0.1, bcut, s).dx_dr, 0.0);
}

TEST(Acks2, DerivativesMatchCentralDifferences) {
  const double s = 623.9, bcut = 5.1, du = 0.37, h = 1e-6;
  for (double r : {0.4, 1.2, 1.7, 2.9, 4.6}) {
    const BondSoftness b = acks2_bond_softness(r, bcut, s);
    const double fd =
        (acks2_bond_softness(r + h, bcut, s).x - acks2_bond_softness(r - h, bcut, s).x) / (2 * h);
    EXPECT_NEAR(b.dx_dr, fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "r " << r;
    const PairTerm t = acks2_pair(r, bcut, s, du);
    const double fde =
        (acks2_pair(r + h, bcut, s, du).e - acks2_pair(r - h, bcut, s, du).e) / (2 * h);
    EXPECT_NEAR(t.ce * r, fde, 1e-6 * std::max(1.0, std::fabs(fde))) << "r " << r;
    EXPECT_NEAR(t.e, -0.5 * 23.02 * b.x * du * du, 1e-12 * std::fabs(t.e) + 1e-15);
  }
}
