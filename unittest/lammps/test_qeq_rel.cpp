// fix qeq/rel/reaxff/gpu (QEqR) against LAMMPS's fix qeq/rel/reaxff in the
// same binary and on the same ranks, on LAMMPS's water example (3,000 atoms,
// periodic in x, y and z): without a field (QEq's charges, with a warning),
// with a constant field along a periodic direction (which QEq refuses and
// QEqR takes), and with an equal-style field at `scale` 1.5. Bad inputs are
// refused by both. LAMMPS has fix qeq/rel/reaxff from 4Jul2026 on; in a
// LAMMPS without it, our fix must not exist either (`-sf gpu` would map a
// style that does not run without it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "comparison.h"
#include "lammps_session.h"

namespace {

bool lammps_has_qeq_rel() {
  LammpsSession lmp;
  return lmp.has_style("fix", "qeq/rel/reaxff");
}

#define REQUIRE_QEQ_REL()                                                               \
  if (!lammps_has_qeq_rel())                                                            \
  GTEST_SKIP() << "this LAMMPS has no fix qeq/rel/reaxff (LAMMPS 4Jul2026 on has it): " \
                  "configure with -DLAMMPS_VERSION=4Jul2026 to run this test"

constexpr int kMaxRanks = 2;  // CI time: the 4-rank job skips these

struct FieldCase {
  std::string name, field, keywords;  // fix efield commands, extra fix keywords
};

void PrintTo(const FieldCase &c, std::ostream *os) { *os << c.name; }

const std::vector<FieldCase> &field_cases() {
  static const std::vector<FieldCase> cases = {
      {"no_field", "", ""},
      {"periodic_z", "fix ef all efield 0.0 0.0 0.05\n", ""},
      {"equal_style_scaled", "variable ex equal 0.02+0.002*step\nfix ef all efield v_ex 0.0 0.03\n",
       " scale 1.5"},
  };
  return cases;
}

std::string water(const std::string &f) { return std::string(LAMMPS_EXAMPLES_DIR) + "/water/" + f; }

std::string setup(bool ours, const FieldCase &c) {
  const std::string pair = ours ? "reaxff/gpu" : "reaxff";
  return "units real\natom_style charge\natom_modify map array\nread_data " + water("data.water") +
         "\npair_style " + pair + " NULL safezone 3.0 mincap 150\npair_coeff * * " +
         water("qeq_ff.water") + " O H\nfix q all qeq/rel/" + pair + " 1 0.0 10.0 1.0e-12 reaxff " +
         water("gauss_exp.txt") + " maxiter 1000" + c.keywords + "\n" + c.field +
         "compute reax all pair " + pair +
         "\nthermo_style custom step pe etotal c_reax[1]\n"
         "velocity all create 300.0 4928459 mom yes rot yes dist gaussian loop geom\n"
         "fix nve all nve\ntimestep 0.5\n";
}

class QEqRel : public ::testing::TestWithParam<FieldCase> {};

TEST_P(QEqRel, MatchesFixQEqRelReaxff) {
  REQUIRE_QEQ_REL();
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > kMaxRanks) GTEST_SKIP() << "run on at most " << kMaxRanks << " ranks (CI time)";
  ChargeState ref0, ref1, our0, our1;
  for (bool ours : {false, true}) {
    LammpsSession lmp;
    if (ours) lmp.load_plugin();
    ASSERT_EQ(lmp.run(setup(ours, GetParam()) + "run 0 post no\n"), "");
    (ours ? our0 : ref0) = charge_state(lmp);
    ASSERT_EQ(lmp.run("run 10 post no\n"), "");
    (ours ? our1 : ref1) = charge_state(lmp);
  }
  // CG to 1e-12: ours (FSAI) and fix qeq/rel/reaxff (Jacobi) stop at
  // different iterates (measured, host driver, the four fields: pe 1.1e-12
  // relative, terms 5.4e-13, charges 1.4e-11, forces 1.1e-9 x max|F|)
  const ChargeBounds b{1e-11, 5e-12, 1e-8, 1e-10, 1e-8};
  expect_same_charge_state(ref0, our0, "step 0", 0.1, b);
  expect_same_charge_state(ref1, our1, "after 10 steps", 0.1, b);
  if (GetParam().field.empty()) return;
  // the field moved charges: a solve that ignored it would not match
  LammpsSession lmp;
  ASSERT_EQ(lmp.run(setup(false, field_cases()[0]) + "run 0 post no\n"), "");
  const std::vector<double> q = lmp.gather("q", 1);
  double moved = 0;
  for (size_t i = 0; i < q.size(); ++i) moved = std::max(moved, std::fabs(q[i] - ref0.q[i]));
  EXPECT_GT(moved, 1e-4) << "the field does not change the charges: test would be vacuous";
}

INSTANTIATE_TEST_SUITE_P(Fields, QEqRel, ::testing::ValuesIn(field_cases()),
                         [](const auto &info) { return info.param.name; });

// As fix qeq/rel/reaxff, a run without fix efield warns that fix qeq/reaxff
// gives the same charges.
TEST(QEqRelInput, WarnsWithoutField) {
  REQUIRE_QEQ_REL();
  const std::string log = scratch_path("qeq_rel_warning.log");
  {
    LammpsSession lmp(log);
    lmp.load_plugin();
    ASSERT_EQ(lmp.run(setup(true, field_cases()[0]) + "run 0 post no\n"), "");
  }
  if (mpi_rank() == 0)
    EXPECT_NE(read_text(log).find("Use fix qeq/reaxff/gpu instead of fix qeq/rel/reaxff/gpu"),
              std::string::npos);
}

// Each input LAMMPS's fix refuses, ours refuses too, naming the problem.
TEST(QEqRelInput, RefusedAsFixQEqRelReaxffRefusesThem) {
  REQUIRE_QEQ_REL();
  struct Bad {
    std::string before, fix_args, after, expected;  // `expected` in our message
    // LAMMPS's fix reads the gauss file on rank 0 and stops there alone (error->one),
    // which leaves the other ranks in its broadcast: its refusal is seen on 1 rank
    bool reference_on_one_rank = false;
  };
  const std::string gauss = water("gauss_exp.txt");
  const std::string short_gauss = scratch_file("gauss_o_only", "1 0.2240\n");
  const std::string diffuse = scratch_file("gauss_diffuse_water", "1 0.01\n2 0.5434\n");
  const std::string ok = " 1 0.0 10.0 1.0e-6 reaxff ";
  const Bad bad[] = {
      {"", ok + gauss, "group half id <= 1500\nfix ef half efield 0.0 0.0 0.05\n",
       "group id all for fix efield"},
      {"", ok + gauss,
       "region low block INF INF INF INF INF 10.0\nfix ef all efield 0.0 0.0 0.05 region low\n",
       "region not supported"},
      {"", ok + gauss, "fix ef all efield 0.0 0.0 0.05\nfix ef2 all efield 0.01 0.0 0.0\n",
       "only one fix efield"},
      {"", ok + short_gauss, "", "needs one per atom type", true},
      {"", ok + diffuse, "", "comm cutoff"},
      {"", ok, "", "gauss_file"},
      {"", ok + gauss + " maxiter", "", "maxiter"},
      {"", " 0 0.0 10.0 1.0e-6 reaxff " + gauss, "", "Nevery"},
  };
  for (const Bad &b : bad) {
    SCOPED_TRACE(b.fix_args + " | " + b.after);
    int nprocs = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (bool ours : {false, true}) {
      if (!ours && b.reference_on_one_rank && nprocs > 1) continue;
      const std::string pair = ours ? "reaxff/gpu" : "reaxff";
      LammpsSession lmp;
      if (ours) lmp.load_plugin();
      std::string err =
          lmp.run("units real\natom_style charge\natom_modify map array\nread_data " +
                  water("data.water") + "\npair_style " + pair + " NULL\npair_coeff * * " +
                  water("qeq_ff.water") + " O H\n" + b.before);
      ASSERT_EQ(err, "");
      err = lmp.run("fix q all qeq/rel/" + pair + b.fix_args + "\n" + b.after + "run 0 post no\n");
      EXPECT_NE(err, "") << (ours ? "reaxff/gpu" : "reaxff") << " ran it";
      if (ours) {
        std::string low = err, want = b.expected;
        for (auto *s : {&low, &want})
          std::transform(s->begin(), s->end(), s->begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        EXPECT_NE(low.find(want), std::string::npos) << "our error: " << err;
      }
    }
  }
}

// LAMMPS's fix qeq/rel/reaxff beside pair_style reaxff/gpu is refused, naming ours.
TEST(QEqRelInput, LammpsFixBesideOurPairIsRefused) {
  REQUIRE_QEQ_REL();
  LammpsSession lmp;
  lmp.load_plugin();
  ASSERT_EQ(
      lmp.run("units real\natom_style charge\nread_data " + water("data.water") +
              "\npair_style reaxff/gpu NULL\npair_coeff * * " + water("qeq_ff.water") + " O H\n"),
      "");
  const std::string err = lmp.run("fix q all qeq/rel/reaxff 1 0.0 10.0 1e-6 reaxff " +
                                  water("gauss_exp.txt") + "\nrun 0 post no\n");
  EXPECT_NE(err.find("use fix qeq/rel/reaxff/gpu"), std::string::npos) << err;
}

// fix qeq/rel/reaxff/gpu exists exactly where LAMMPS's fix qeq/rel/reaxff does.
TEST(QEqRelInput, RegisteredOnlyWhereLammpsHasIt) {
  LammpsSession lmp;
  const bool lammps_has = lmp.has_style("fix", "qeq/rel/reaxff");
  lmp.load_plugin();
  EXPECT_EQ(lmp.has_style("fix", "qeq/rel/reaxff/gpu"), lammps_has);
  EXPECT_TRUE(lmp.has_style("fix", "qtpie/reaxff/gpu"));
  if (mpi_rank() == 0)
    std::printf("[ table ] fix qeq/rel/reaxff in this LAMMPS: %s; ours registered: %s\n",
                lammps_has ? "yes" : "no",
                lmp.has_style("fix", "qeq/rel/reaxff/gpu") ? "yes" : "no");
}

}  // namespace
