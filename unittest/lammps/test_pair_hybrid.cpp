// reaxff/gpu under pair_style hybrid/overlay, where f already holds another
// style's forces when ReaxFF computes (the library then adds its forces
// instead of writing them over f): the same energies, forces and pressure as
// LAMMPS's own reaxff under the same hybrid/overlay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "lammps_session.h"

namespace {

struct Result {
  double pe = 0, press = 0, evdwl = 0;
  std::vector<double> f;
};

Result run(bool ours) {
  const std::string dir = source_dir() + "/examples/HNS/";
  const std::string pair = ours ? "reaxff/gpu" : "reaxff";
  LammpsSession lmp;
  if (ours) lmp.load_plugin();
  // A soft lj/cut on every pair, applied first (it comes first in the
  // hybrid list), so its forces are in f when ReaxFF computes.
  const std::string err =
      lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + dir +
              "data.hns-equil\npair_style hybrid/overlay lj/cut 3.0 " + pair +
              " NULL\npair_coeff * * lj/cut 0.05 1.0\npair_coeff * * " + pair + " " + dir +
              "ffield.reax.hns C H O N\nfix q all qeq/" + pair +
              " 1 0.0 10.0 1.0e-12 reaxff\nvelocity all create 300 4928459 loop geom\n"
              "fix nve all nve\ntimestep 0.1\nthermo_style custom step pe press evdwl\n"
              "run 10 post no\n");
  EXPECT_EQ(err, "");
  Result r;
  r.pe = lmp.thermo("pe");
  r.press = lmp.thermo("press");
  r.evdwl = lmp.thermo("evdwl");
  r.f = lmp.gather("f", 3);
  return r;
}

TEST(PairHybrid, OverlayWithLjMatchesReaxff) {
  const Result ref = run(false), ours = run(true);
  ASSERT_EQ(ref.f.size(), ours.f.size());
  ASSERT_FALSE(ref.f.empty());
  // CG to 1e-12, ours with FSAI, fix qeq/reaxff with Jacobi (measured, host
  // driver: pe and evdwl 1.6e-14 relative, pressure 4.8e-12, forces 1.6e-12
  // x max|F|)
  EXPECT_NEAR(ours.pe, ref.pe, 3e-13 * std::fabs(ref.pe));
  EXPECT_NEAR(ours.evdwl, ref.evdwl, 3e-13 * std::fabs(ref.evdwl));
  EXPECT_NEAR(ours.press, ref.press, 1e-10 * std::max(1.0, std::fabs(ref.press)));
  double fmax = 0;
  for (double v : ref.f) fmax = std::max(fmax, std::fabs(v));
  for (size_t k = 0; k < ref.f.size(); ++k)
    ASSERT_NEAR(ours.f[k], ref.f[k], 3e-11 * fmax) << "force component " << k;
}

// A type mapped to NULL in reaxff's pair_coeff (N of RDX, left to lj/cut)
// while the QEq parameter file covers it: fix qeq/reaxff leaves those atoms'
// charges as they are (its list, the pair style's, has no such atoms), and so
// must fix qeq/reaxff/gpu. Once it equilibrated them too (step-0 ecoul -255.6
// instead of 13.4).
struct NullTypeResult {
  double pe = 0, ecoul = 0;
  std::vector<double> q0, q, f;
  std::vector<int> type;
};

NullTypeResult run_null_type(bool ours) {
  const std::string dir = source_dir() + "/examples/RDX/";
  const std::string pair = ours ? "reaxff/gpu" : "reaxff";
  LammpsSession lmp;
  if (ours) lmp.load_plugin();
  NullTypeResult r;
  EXPECT_EQ(lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + dir +
                    "data.RDX\n"),
            "");
  r.q0 = lmp.gather("q", 1);
  r.type = lmp.gather_int("type", 1);
  // control NULL: LAMMPS's reaxff crashes in its lookup tables (RDX's
  // lmp_control tabulates) with a NULL type
  EXPECT_EQ(
      lmp.run("pair_style hybrid/overlay lj/cut 3.0 " + pair +
              " NULL\npair_coeff * * lj/cut 0.05 1.0\npair_coeff * * " + pair + " " + dir +
              "ffield.reax.rdx H C O NULL\nfix q all qeq/" + pair + " 1 0.0 10.0 1.0e-14 " + dir +
              "param.qeq maxiter 2000\nvelocity all create 300 4928459 loop geom\n"
              "fix nve all nve\ntimestep 0.25\nthermo_style custom step pe ecoul\n"
              "run 10 post no\n"),
      "");
  r.pe = lmp.thermo("pe");
  r.ecoul = lmp.thermo("ecoul");
  r.q = lmp.gather("q", 1);
  r.f = lmp.gather("f", 3);
  return r;
}

TEST(PairHybrid, QEqLeavesNullTypeChargesAlone) {
  const NullTypeResult ref = run_null_type(false), ours = run_null_type(true);
  ASSERT_EQ(ref.q.size(), ours.q.size());
  ASSERT_EQ(ref.f.size(), ours.f.size());
  int nulls = 0;
  for (size_t i = 0; i < ref.q.size(); ++i) {
    if (ref.type[i] != 4) continue;
    ++nulls;
    EXPECT_EQ(ref.q[i], ref.q0[i]) << "reaxff changed the charge of NULL-type atom " << i + 1;
    EXPECT_EQ(ours.q[i], ours.q0[i]) << "charge of NULL-type atom ID " << i + 1;
  }
  ASSERT_GT(nulls, 0) << "no atom of the NULL type: the test would be vacuous";
  for (size_t i = 0; i < ref.q.size(); ++i)
    EXPECT_NEAR(ours.q[i], ref.q[i], 1e-8) << "charge of atom ID " << i + 1;
  EXPECT_NEAR(ours.ecoul, ref.ecoul, 1e-9 * std::fabs(ref.ecoul));
  EXPECT_NEAR(ours.pe, ref.pe, 1e-9 * std::fabs(ref.pe));
  double fmax = 0;
  for (double v : ref.f) fmax = std::max(fmax, std::fabs(v));
  for (size_t k = 0; k < ref.f.size(); ++k)
    ASSERT_NEAR(ours.f[k], ref.f[k], 1e-8 * fmax) << "force component " << k;
}

}  // namespace
