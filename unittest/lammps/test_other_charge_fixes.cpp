// The QEQ package's charge fixes that LAMMPS allows beside reaxff
// (qeq/shielded, and with `checkqeq no` qeq/point, qeq/slater,
// qeq/dynamic) work beside reaxff/gpu as beside reaxff: they solve on
// LAMMPS's own neighbour lists, and the pair style computes with their
// charges. Same charges, energy and forces as with reaxff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "comparison.h"
#include "lammps_session.h"

namespace {

struct ChargeFix {
  std::string name, fix;  // fix arguments after the style's group; PARAMS is the file
  bool needs_checkqeq_no;
};

void PrintTo(const ChargeFix &c, std::ostream *os) { *os << c.name; }

const std::vector<ChargeFix> &charge_fixes() {
  static const std::vector<ChargeFix> fixes = {
      {"shielded_reaxff", "qeq/shielded 1 10.0 1e-12 400 reaxff", false},
      {"shielded_file", "qeq/shielded 1 10.0 1e-12 400 PARAMS", false},
      {"point", "qeq/point 1 10.0 1e-12 400 PARAMS", true},
      {"slater", "qeq/slater 1 10.0 1e-12 400 PARAMS", true},
      {"dynamic", "qeq/dynamic 1 10.0 1e-4 200 PARAMS", true},
  };
  return fixes;
}

// itype chi eta gamma zeta qcore, for HNS's C H O N: values near the force
// field's (eta as LAMMPS's QEq fixes take it, twice the ffield's).
std::string params_file() {
  return scratch_file("qeq_package_params",
                      "1 5.8678 14.0000 0.9000 1.0 0.0\n2 5.3200 14.8732 0.8203 1.2 0.0\n"
                      "3 8.5000 16.6244 1.0898 1.1 0.0\n4 6.7000 13.6000 1.0000 1.0 0.0\n");
}

struct Result {
  double pe = 0;
  std::vector<double> q, f;
};

Result run(bool ours, const ChargeFix &c) {
  const std::string dir = source_dir() + "/examples/HNS/";
  const std::string pair = ours ? "reaxff/gpu" : "reaxff";
  std::string fix = c.fix;
  if (fix.find("PARAMS") != std::string::npos) fix.replace(fix.find("PARAMS"), 6, params_file());
  LammpsSession lmp;
  if (ours) lmp.load_plugin();
  EXPECT_EQ(lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + dir +
                    "data.hns-equil\npair_style " + pair + " NULL" +
                    (c.needs_checkqeq_no ? " checkqeq no" : "") + "\npair_coeff * * " + dir +
                    "ffield.reax.hns C H O N\nfix q all " + fix +
                    "\nvelocity all create 300 4928459 loop geom\nfix nve all nve\n"
                    "timestep 0.1\nthermo_style custom step pe\nrun 5 post no\n"),
            "");
  return {lmp.thermo("pe"), lmp.gather("q", 1), lmp.gather("f", 3)};
}

class OtherChargeFixes : public ::testing::TestWithParam<ChargeFix> {};

TEST_P(OtherChargeFixes, SameAsBesideReaxff) {
  const Result ref = run(false, GetParam()), ours = run(true, GetParam());
  expect_same_charges_and_forces(ref.q, ours.q, ref.f, ours.f, 0.05);
  EXPECT_NEAR(ours.pe, ref.pe, 1e-10 * std::fabs(ref.pe));
}

INSTANTIATE_TEST_SUITE_P(QEqPackage, OtherChargeFixes, ::testing::ValuesIn(charge_fixes()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
