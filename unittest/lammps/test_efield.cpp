// fix efield with fix qeq/reaxff/gpu, as fix qeq/reaxff takes it: the field's
// potential shifts the electronegativities in the charge equilibration; the
// field's own energy and forces stay with fix efield (compute pair's efi term
// stays 0). RDX in a box open along z (`boundary p p s`), so a field along z
// is allowed, against LAMMPS's reaxff + qeq/reaxff in the same binary and on
// the same ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "comparison.h"
#include "lammps_session.h"

namespace {

struct FieldCase {
  std::string name, commands;  // fix efield (energy into pe)
};

void PrintTo(const FieldCase &c, std::ostream *os) { *os << c.name; }

const std::vector<FieldCase> &field_cases() {
  static const std::vector<FieldCase> cases = {
      {"uniform", "fix ef all efield 0.0 0.0 0.5\n"},
      {"equal_style", "variable ez equal 0.2+0.01*step\nfix ef all efield 0.0 0.0 v_ez\n"},
      {"group_and_region",
       "region low block INF INF INF INF INF 12.5\ngroup hc type 1 2\n"
       "fix ef hc efield 0.0 0.0 -0.4 region low\n"},
      {"atom_style",
       "variable ez atom 0.3\nvariable phi atom -0.3*z\n"
       "fix ef all efield 0.0 0.0 v_ez potential v_phi\n"},
  };
  return cases;
}

std::string setup(bool ours, const FieldCase &field, const std::string &pair_extra = "") {
  const std::string dir = source_dir() + "/examples/RDX/";
  const std::string pair = ours ? "reaxff/gpu" : "reaxff";
  return "units real\natom_style charge\natom_modify map array\nboundary p p s\nread_data " + dir +
         "data.RDX\npair_style " + pair + " NULL " + pair_extra + "\npair_coeff * * " + dir +
         "ffield.reax.rdx H C O N\nfix q all qeq/" + pair + " 1 0.0 10.0 1.0e-14 " + dir +
         "param.qeq maxiter 2000\n" + field.commands +
         "fix_modify ef energy yes\ncompute reax all pair " + pair +
         "\nthermo_style custom step pe etotal c_reax[1]\n"
         "velocity all create 300.0 4928459 mom yes rot no loop geom\nfix nve all nve\n"
         "timestep 0.25\n";
}

// pe includes the field's energy (fix_modify energy yes); forces are pair's
// and fix efield's.
void expect_same(const ChargeState &ref, const ChargeState &ours, const std::string &when) {
  expect_same_charge_state(ref, ours, when, 0.1);
  EXPECT_EQ(ours.terms[12], 0.0) << when << ": efi, the field's energy, belongs to fix efield";
}

class EfieldQEq : public ::testing::TestWithParam<FieldCase> {};

TEST_P(EfieldQEq, MatchesQEqReaxff) {
  ChargeState ref0, ref1, our0, our1;
  for (bool ours : {false, true}) {
    LammpsSession lmp;
    if (ours) lmp.load_plugin();
    ASSERT_EQ(lmp.run(setup(ours, GetParam()) + "run 0 post no\n"), "");
    (ours ? our0 : ref0) = charge_state(lmp);
    ASSERT_EQ(lmp.run("run 10 post no\n"), "");
    (ours ? our1 : ref1) = charge_state(lmp);
  }
  expect_same(ref0, our0, "step 0");
  expect_same(ref1, our1, "after 10 steps");
  // the field moved charges: a solve that ignored it would not match
  double moved = 0;
  {
    LammpsSession lmp;
    ASSERT_EQ(
        lmp.run(setup(false, {"none", "fix ef all efield 0.0 0.0 0.0\n"}) + "run 0 post no\n"), "");
    const std::vector<double> q = lmp.gather("q", 1);
    for (size_t i = 0; i < q.size(); ++i) moved = std::max(moved, std::fabs(q[i] - ref0.q[i]));
  }
  EXPECT_GT(moved, 1e-3) << "the field does not change the charges: test would be vacuous";
}

INSTANTIATE_TEST_SUITE_P(Fields, EfieldQEq, ::testing::ValuesIn(field_cases()),
                         [](const auto &info) { return info.param.name; });

// Forces with a field are the gradient of the total energy (pair + fix
// efield, fix_modify energy yes), by central differences of pe:
//  - charges held (the equilibrated ones): ReaxFF's forces are -dE/dx at
//    fixed charges, so the two agree to the differencing error;
//  - charges re-equilibrated at each displacement: ReaxFF's energy is not
//    exactly stationary in the charges (QEq works in eV with 14.4 eV A, the
//    energy in kcal/mol with 332.06 kcal A/mol), so forces and differences
//    part by a few percent; the differences must then be LAMMPS's own.
struct Gradient {
  std::vector<double> analytic, held, relaxed;  // per probed component
};

Gradient probe_gradient(bool ours) {
  // truncation error ~h^2 (1e-4 A: 2e-4 of a force here), round-off ~1e-16 |pe| / h
  const double h = 1e-5;
  const int atoms[] = {7, 40, 88};
  LammpsSession lmp;
  if (ours) lmp.load_plugin();
  Gradient g;
  EXPECT_EQ(lmp.run(setup(ours, field_cases()[0], "checkqeq no") + "run 0 post no\n"), "");
  const std::vector<double> f = lmp.gather("f", 3);
  auto energy_after = [&](int id, int d, double dx) { return pe_after_move(lmp, id, d, dx); };

  for (bool relaxed : {true, false}) {
    if (!relaxed) EXPECT_EQ(lmp.run("unfix q\n"), "");  // charges stay as last solved
    for (int id : atoms)
      for (int d = 0; d < 3; ++d) {
        const double ep = energy_after(id, d, h), em = energy_after(id, d, -2 * h);
        energy_after(id, d, h);  // back, charges re-solved there (relaxed)
        (relaxed ? g.relaxed : g.held).push_back(-(ep - em) / (2 * h));
        if (relaxed) g.analytic.push_back(f[3 * (id - 1) + d]);
      }
  }
  return g;
}

TEST(EfieldQEq, ForcesAreTheGradientOfTheTotalEnergy) {
  const Gradient ours = probe_gradient(true), ref = probe_gradient(false);
  ASSERT_EQ(ours.analytic.size(), 9u);
  double fmax = 0;
  for (double v : ours.analytic) fmax = std::max(fmax, std::fabs(v));
  for (size_t k = 0; k < ours.analytic.size(); ++k) {
    EXPECT_NEAR(ours.held[k], ours.analytic[k], 1e-5 * fmax) << "charges held, component " << k;
    EXPECT_NEAR(ours.relaxed[k], ref.relaxed[k], 1e-6 * fmax) << "charges relaxed, component " << k;
    EXPECT_NEAR(ours.analytic[k], ref.analytic[k], 1e-8 * fmax) << "force component " << k;
  }
}

// NVE with a field: total energy (with the field's) drifts no more than with
// LAMMPS's qeq/reaxff.
double max_drift(bool ours) {
  LammpsSession lmp;
  if (ours) lmp.load_plugin();
  std::string script = setup(ours, field_cases()[0]);
  // the examples' production tolerance is looser; 1e-10 keeps the CG out of the drift
  script.replace(script.find("1.0e-14"), 7, "1.0e-10");
  EXPECT_EQ(lmp.run(script + "run 0 post no\n"), "");
  const double e0 = lmp.thermo("etotal");
  double worst = 0;
  for (int block = 0; block < 20; ++block) {
    EXPECT_EQ(lmp.run("run 50 post no\n"), "");
    worst = std::max(worst, std::fabs(lmp.thermo("etotal") - e0));
  }
  return worst;
}

TEST(EfieldQEq, NveDriftNoWorseThanQEqReaxff) {
  const double ref = max_drift(false), ours = max_drift(true);
  // (measured, host driver, ours with FSAI: 0.3352 against 0.3352 kcal/mol)
  EXPECT_LE(ours, 1.2 * ref + 1e-3) << "kcal/mol over 1000 steps: reaxff " << ref;
  if (mpi_rank() == 0)
    std::printf(
        "[ table ] efield RDX NVE 1000 x 0.25 fs: max |E(t)-E(0)| reaxff %.4f ours %.4f "
        "kcal/mol\n",
        ref, ours);
}

}  // namespace
