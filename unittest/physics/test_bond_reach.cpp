// The bond reach of an element pair (physics/bond_order.h): no pair farther
// apart than it is a bond, on every shipped force field, checked by
// evaluating the uncorrected bond order itself on a fine grid beyond it.
// Nothing here compares with a value the library printed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "puremd_gpu/force_field.h"
#include "puremd_gpu/physics/bond_order.h"

using namespace puremd;

namespace {

std::string repo_path(const std::string &rel) {
  return std::string(REAXFF_CUDA_SOURCE_DIR) + "/" + rel;
}

const char *const kShipped[] = {
    "examples/HNS/ffield.reax.hns",   "examples/RDX/ffield.reax.rdx",
    "examples/CHO/ffield.reax.cho",   "examples/FeOH3/ffield.reax.Fe_O_C_H",
    "examples/AuO/ffield.reax.AuO",   "examples/water/qeq_ff.water",
    "potentials/ffield.water.puremd", "potentials/ffield-bio.puremd"};

constexpr double kBondCut = 5.0;  // Control's nbrhood_cutoff default

// BO' total of elements (a, b) at r, as the bond-list rule evaluates it.
double bo_prime_total(const ForceField &ff, int a, int b, double r, double bo_cut) {
  return bond_order_prime_total(
      bond_order_prime(ff.sbp[a], ff.sbp[b], ff.tbp[a * ff.num_types + b], r, bo_cut));
}

// f(ff, a, b, bo_cut) for every element pair (a, b) of every shipped force
// field, its bond reach and bracket set for the field's bo_cut, 1e-4 and 0.01.
template <class F>
void for_each_shipped_pair(F &&f) {
  for (const char *path : kShipped) {
    SCOPED_TRACE(path);
    ForceField ff = read_force_field(repo_path(path));
    const int n = ff.num_types;
    for (const double bo_cut : {ff.bo_cut(), 1e-4, 0.01}) {
      set_bond_reach(ff.tbp, ff.sbp, n, bo_cut);
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) f(ff, a, b, bo_cut);
    }
  }
}

}  // namespace

TEST(BondReach, NoBondBeyondItOnShippedForceFields) {
  int bounded = 0, pairs = 0;
  for_each_shipped_pair([&](const ForceField &ff, int a, int b, double bo_cut) {
    const int n = ff.num_types;
    const double reach = ff.tbp[a * n + b].bond_reach;
    EXPECT_EQ(reach, ff.tbp[b * n + a].bond_reach) << a << " " << b;
    ++pairs;
    if (!(reach > 0.0)) return;  // no bound: every pair within bond_cut is evaluated
    ++bounded;
    // just beyond the reach, then a grid out to bond_cut
    for (int k = 0; k <= 4000; ++k) {
      const double r = reach * (1.0 + 1e-12) + (kBondCut - reach) * k / 4000.0;
      if (r > kBondCut) break;
      ASSERT_LT(bo_prime_total(ff, a, b, r, bo_cut), bo_cut)
          << ff.sbp[a].name << "-" << ff.sbp[b].name << " is a bond at r = " << r
          << " beyond its reach " << reach << " (bo_cut " << bo_cut << ")";
    }
  });
  EXPECT_GT(bounded, pairs / 2);  // the bound is there for most pairs
}

// The bound is no wider than it needs to be by more than its 1 % margin: the
// channel that sets it is at bo_cut / 3 there. And on HNS it spares most of
// bond_cut's volume (why it exists): C-C bonds end near 2.7 A.
TEST(BondReach, TightOnHns) {
  ForceField ff = read_force_field(repo_path("examples/HNS/ffield.reax.hns"));
  const int n = ff.num_types;
  const double bo_cut = ff.bo_cut();
  set_bond_reach(ff.tbp, ff.sbp, n, bo_cut);
  const int c = ff.find_element("C");
  ASSERT_GE(c, 0);
  const TwoBodyParams &t = ff.tbp[c * n + c];
  ASSERT_GT(t.bond_reach, 1.0);
  EXPECT_LT(t.bond_reach, 3.5);
  // the sigma channel alone at reach / 1.01: bo_cut / 3 (C has all three radii)
  const double r = t.bond_reach / 1.01;
  const BondOrderPrime p = bond_order_prime(ff.sbp[c], ff.sbp[c], t, r, bo_cut);
  const double largest = std::max(p.sigma, std::max(p.pi, p.pipi));
  EXPECT_NEAR(largest, bo_cut / 3.0, 1e-9 * bo_cut);
}

// A channel that does not fall with r (p_bo1 >= 0) has no reach: no bound.
TEST(BondReach, NoBoundForARisingChannel) {
  ForceField ff = read_force_field(repo_path("examples/HNS/ffield.reax.hns"));
  const int n = ff.num_types;
  for (TwoBodyParams &t : ff.tbp) t.p_bo3 = 0.05;
  set_bond_reach(ff.tbp, ff.sbp, n, ff.bo_cut());
  const int c = ff.find_element("C");
  EXPECT_EQ(ff.tbp[c * n + c].bond_reach, 0.0);
  EXPECT_EQ(bond_candidate_cut(ff.tbp[c * n + c], 5.0), 5.0);
}

// The bracket of the crossing (set_bond_bracket) decides as BO' does: on a
// fine grid out to the reach of every pair of every shipped force field, a
// pair below bond_sure has BO' >= bo_cut and one at bond_never or beyond
// has BO' < bo_cut; the two are within 1e-8 of r of each other.
TEST(BondReach, BracketDecidesAsTheBondOrderOnShippedForceFields) {
  int bracketed = 0, pairs = 0;
  for_each_shipped_pair([&](const ForceField &ff, int a, int b, double bo_cut) {
    const TwoBodyParams &t = ff.tbp[a * ff.num_types + b];
    ++pairs;
    if (!(t.bond_sure > 0.0)) return;
    ++bracketed;
    ASSERT_GT(t.bond_never, t.bond_sure);
    EXPECT_LT(t.bond_never - t.bond_sure, 1e-8 * t.bond_never);
    EXPECT_LE(t.bond_never, t.bond_reach);
    for (int k = 1; k <= 20000; ++k) {
      const double r = t.bond_reach * k / 20000.0;
      const bool bond = bo_prime_total(ff, a, b, r, bo_cut) >= bo_cut;
      if (r < t.bond_sure)
        ASSERT_TRUE(bond) << ff.sbp[a].name << "-" << ff.sbp[b].name << " r = " << r;
      if (r >= t.bond_never)
        ASSERT_FALSE(bond) << ff.sbp[a].name << "-" << ff.sbp[b].name << " r = " << r;
    }
    // and just inside either end
    EXPECT_GE(bo_prime_total(ff, a, b, t.bond_sure * (1.0 - 1e-15), bo_cut), bo_cut);
    EXPECT_LT(bo_prime_total(ff, a, b, t.bond_never * (1.0 + 1e-15), bo_cut), bo_cut);
  });
  EXPECT_GT(bracketed, pairs / 2);
}
