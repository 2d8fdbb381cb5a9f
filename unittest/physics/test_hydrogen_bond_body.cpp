// Unit tests of the hydrogen-bond body on the water dimer of
// nonbonded_fixtures.h; reference values from the closed form, written
// independently of the library's code paths.
#include <gtest/gtest.h>

#include <cmath>

#include "nonbonded_fixtures.h"
#include "puremd_gpu/physics/hydrogen_bond.h"

using namespace puremd;
using namespace puremd::nonbonded_test;

namespace {

double hbond_ref(const HbondParams &p, double bo, vec3 xx, vec3 xh, vec3 xz) {
  const vec3 u = xx - xh, w = xz - xh;
  const double theta = std::atan2(std::sqrt(norm2(cross(u, w))), dot(u, w));
  const double r = std::sqrt(norm2(w));
  const double s2 = std::sin(theta / 2);
  return p.p_hb1 * (1 - std::exp(-p.p_hb2 * bo)) *
         std::exp(-p.p_hb3 * (p.r0_hb / r + r / p.r0_hb - 2)) * std::pow(s2, 4);
}

double run_hbonds(MiniSystem &s, const std::vector<std::pair<int, int>> &bonds,
                  const std::vector<double> &bo, unsigned terms = kTermAll) {
  s.build_bonds(bonds, bo);
  const StepView v = s.view(terms);
  for (int h = 0; h < s.n_local; ++h) hydrogen_bonds_atom(h, v);
  return s.energy.e_hb;
}

}  // namespace

TEST(HydrogenBond, EnergyGradientAndCdbo) {
  MiniSystem s = water_dimer(true, false);
  const std::vector<std::pair<int, int>> bonds = {{0, 1}, {0, 2}, {3, 4}, {3, 5}};
  const std::vector<double> bo = {0.93, 0.005, 0.91, 0.92};  // 0-2 below the 0.01 threshold
  const HbondParams &p = s.ff.hbp[(0 * 2 + 1) * 2 + 0];
  const double e = run_hbonds(s, bonds, bo);

  // donors: H1 (X = O0, Z = O3), H4 (X = O3, Z = O0), H5 (X = O3, Z = O0); H2's bond too weak
  const double ref = hbond_ref(p, 0.93, s.x[0], s.x[1], s.x[3]) +
                     hbond_ref(p, 0.91, s.x[3], s.x[4], s.x[0]) +
                     hbond_ref(p, 0.92, s.x[3], s.x[5], s.x[0]);
  EXPECT_NEAR(e, ref, 1e-12 * std::fabs(ref));
  double esum = 0;
  for (double ea : s.eatom) esum += ea;
  EXPECT_NEAR(esum, e, 1e-13);
  const double e1 = hbond_ref(p, 0.93, s.x[0], s.x[1], s.x[3]);
  EXPECT_NEAR(s.eatom[1], e1 / 3, 1e-13);

  // dE/dBO on the H1-O0 entry of H1's row
  const std::vector<BondOrder> bo_saved = s.b_bo;
  const std::vector<vec3> g = s.grad;
  const int p10 = s.b_start[1];
  ASSERT_EQ(s.b_nbr[p10], 0);
  const double hb = 1e-6;
  std::vector<double> bop = bo, bom = bo;
  bop[0] += hb;
  bom[0] -= hb;
  MiniSystem t = s;
  const double dE = (run_hbonds(t, bonds, bop) - run_hbonds(t, bonds, bom)) / (2 * hb);
  EXPECT_NEAR(bo_saved[p10].Cdbo, dE, 1e-7 * std::fabs(dE));

  // direct gradient (BO fixed) against finite differences
  for (int a = 0; a < 6; ++a) {
    double fd[3];
    for (int c = 0; c < 3; ++c) {
      MiniSystem u = s;
      double *xc = c == 0 ? &u.x[a].x : c == 1 ? &u.x[a].y : &u.x[a].z;
      const double x0 = *xc;
      *xc = x0 + hb;
      const double ep = run_hbonds(u, bonds, bo);
      *xc = x0 - hb;
      const double em = run_hbonds(u, bonds, bo);
      fd[c] = (ep - em) / (2 * hb);
    }
    expect_vec_near(g[a], vec3{fd[0], fd[1], fd[2]}, 1e-7);
  }

  // the term switch and hbond_cut <= 0 disable everything
  EXPECT_EQ(run_hbonds(s, bonds, bo, kTermAll & ~kTermHbond), 0.0);
  EXPECT_EQ(s.b_bo[p10].Cdbo, 0.0);
  s.control.hbond_cut = 0.0;
  EXPECT_EQ(run_hbonds(s, bonds, bo), 0.0);
}

TEST(HydrogenBond, Exclusions) {
  MiniSystem s = water_dimer(true, false);
  const std::vector<std::pair<int, int>> bonds = {{0, 1}, {3, 4}, {3, 5}};
  const std::vector<double> bo = {0.93, 0.91, 0.92};
  // acceptor O3 given O0's tag (an image of the donor): X == Z, nothing counted
  s.tag[3] = s.tag[0];
  EXPECT_EQ(run_hbonds(s, bonds, bo), 0.0);
  // missing parameter set (r0_hb = 0)
  s = water_dimer(true, false);
  s.ff.hbp[(0 * 2 + 1) * 2 + 0].r0_hb = 0.0;
  EXPECT_EQ(run_hbonds(s, bonds, bo), 0.0);
}
