// The reads of what LAMMPS keeps protected (src/REAXFF_CUDA/lammps_protected.h),
// one test a field, each against what the input set: a LAMMPS that renames a
// member stops the adapter compiling, one that changes what it holds fails
// here. The suite runs against both LAMMPS versions (scripts/test.sh).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../../src/REAXFF_CUDA/lammps_protected.h"
#include "atom.h"
#include "domain.h"
#include "fix_efield.h"
#include "force.h"
#include "lammps.h"
#include "lammps_session.h"
#include "memory.h"
#include "modify.h"
#include "species_systems.h"
#include "update.h"

namespace {

LAMMPS_NS::LAMMPS *lmp_of(const LammpsSession &s) {
  return static_cast<LAMMPS_NS::LAMMPS *>(s.instance());
}

// A few charged atoms in a box open along x, fix efield `efield` on them,
// set up by `run 0` (fix efield works out its styles at init).
void set_up_field(LammpsSession &s, const std::string &efield) {
  const std::string err = s.run(
      "units real\natom_style charge\nboundary s p p\nregion box block 0 10 0 10 0 10\n"
      "create_box 1 box\ncreate_atoms 1 single 1 2 3\ncreate_atoms 1 single 4 5 6\n"
      "create_atoms 1 single 7 8 9\nmass 1 1.0\nset type 1 charge 0.5\n"
      "region half block 0 5 INF INF INF INF\n" +
      efield + "run 0 post no\n");
  ASSERT_EQ(err, "");
}

LAMMPS_NS::FixEfield *efield_of(const LammpsSession &s) {
  auto *fix = dynamic_cast<LAMMPS_NS::FixEfield *>(lmp_of(s)->modify->get_fix_by_id("ef"));
  EXPECT_NE(fix, nullptr);
  return fix;
}

}  // namespace

TEST(LammpsProtected, EfieldConstantComponents) {
  LammpsSession s;
  set_up_field(s, "fix ef all efield 0.1 -0.2 0.3\n");
  const reaxff_gpu::EfieldRead e = reaxff_gpu::efield_state(efield_of(s));
  const double qe2f = lmp_of(s)->force->qe2f;  // (fix efield keeps force units)
  EXPECT_DOUBLE_EQ(e.field[0], 0.1 * qe2f);
  EXPECT_DOUBLE_EQ(e.field[1], -0.2 * qe2f);
  EXPECT_DOUBLE_EQ(e.field[2], 0.3 * qe2f);
  for (int d = 0; d < 3; ++d) EXPECT_TRUE(e.constant[d]) << d;
  EXPECT_FALSE(e.varying);
  EXPECT_FALSE(e.atom_style);
  EXPECT_FALSE(e.atom_potential);
  EXPECT_EQ(e.region, nullptr);
}

TEST(LammpsProtected, EfieldEqualStyleAndRegion) {
  LammpsSession s;
  set_up_field(s, "variable ez equal 0.25\nfix ef all efield 0.1 0.0 v_ez region half\n");
  LAMMPS_NS::FixEfield *fix = efield_of(s);
  reaxff_gpu::EfieldRead e = reaxff_gpu::efield_state(fix);
  const double qe2f = lmp_of(s)->force->qe2f;
  EXPECT_TRUE(e.constant[0]);
  EXPECT_TRUE(e.constant[1]);
  EXPECT_FALSE(e.constant[2]);
  EXPECT_TRUE(e.varying);
  EXPECT_FALSE(e.atom_style);
  EXPECT_EQ(e.region, lmp_of(s)->domain->get_region_by_id("half"));
  EXPECT_NE(e.region, nullptr);
  // the variable changed: the state keeps the last evaluation until the
  // field is evaluated again
  ASSERT_EQ(s.run("variable ez delete\nvariable ez equal -0.75\n"), "");
  EXPECT_DOUBLE_EQ(reaxff_gpu::efield_state(fix).field[2], 0.25 * qe2f);
  reaxff_gpu::efield_evaluate(fix);
  e = reaxff_gpu::efield_state(fix);
  EXPECT_DOUBLE_EQ(e.field[2], -0.75 * qe2f);
  EXPECT_DOUBLE_EQ(e.field[0], 0.1 * qe2f);
}

TEST(LammpsProtected, EfieldAtomStyleRows) {
  LammpsSession s;
  set_up_field(s,
               "variable ex atom 0.01*y\nvariable phi atom -0.01*x*y\n"
               "fix ef all efield v_ex 0.0 0.0 potential v_phi\n");
  LAMMPS_NS::FixEfield *fix = efield_of(s);
  const reaxff_gpu::EfieldRead e = reaxff_gpu::efield_state(fix);
  EXPECT_TRUE(e.atom_style);
  EXPECT_TRUE(e.atom_potential);
  EXPECT_TRUE(e.varying);
  EXPECT_FALSE(e.constant[0]);
  LAMMPS_NS::LAMMPS *lmp = lmp_of(s);
  // grown beyond the atoms, then evaluated into the grown rows
  const int nmax = lmp->atom->nmax + 7;
  double **rows = reaxff_gpu::efield_rows(fix, nmax, lmp->memory);
  ASSERT_NE(rows, nullptr);
  rows[nmax - 1][3] = 1.0;  // (the last row exists)
  reaxff_gpu::efield_evaluate(fix);
  EXPECT_EQ(reaxff_gpu::efield_rows(fix, nmax, lmp->memory), rows);  // not grown again
  const double *const *x = lmp->atom->x;
  for (int i = 0; i < lmp->atom->nlocal; ++i) {
    EXPECT_DOUBLE_EQ(rows[i][0], 0.01 * x[i][1]) << i;
    EXPECT_DOUBLE_EQ(rows[i][3], -0.01 * x[i][0] * x[i][1]) << i;
  }
}

TEST(LammpsProtected, SpeciesSchedule) {
  LammpsSession s;
  const std::string cho = examples_reaxff_dir() + "CHO/";
  const std::string file = scratch_path("protected_species.out");
  ASSERT_EQ(
      s.run("units real\natom_style charge\nread_data " + cho + "data.CHO\npair_style reaxff " +
            cho + "lmp_control\npair_coeff * * " + cho +
            "ffield.reax.cho H C O\nfix 1 all nve\nfix 2 all qeq/reaxff 1 0.0 10.0 1.0e-6 " + cho +
            "param.qeq\nfix sp all reaxff/species 2 3 10 " + file + "\nrun 0 post no\n"),
      "");
  LAMMPS_NS::Modify *modify = lmp_of(s)->modify;
  reaxff_gpu::SpeciesScheduleRead read;
  ASSERT_TRUE(reaxff_gpu::species_schedule(modify->get_fix_by_id("sp"), read));
  EXPECT_EQ(read.nrepeat, 3);
  EXPECT_EQ(read.next_output, 10);  // written at the set-up step 0
  ASSERT_EQ(s.run("run 4 post no\n"), "");
  ASSERT_TRUE(reaxff_gpu::species_schedule(modify->get_fix_by_id("sp"), read));
  EXPECT_EQ(read.next_output, 10);  // (a run's set-up between outputs writes none)
  ASSERT_EQ(s.run("run 7 post no\n"), "");
  ASSERT_TRUE(reaxff_gpu::species_schedule(modify->get_fix_by_id("sp"), read));
  EXPECT_EQ(read.next_output, 20);
  EXPECT_FALSE(reaxff_gpu::species_schedule(modify->get_fix_by_id("1"), read));
}
