// Files are found where the LAMMPS style we replace finds them: the force
// field of pair_coeff through LAMMPS's potential-file search (the name as
// given, then LAMMPS_POTENTIALS), as pair_style reaxff opens it; a name found
// nowhere stops with pair_style reaxff's message. (21bc415 opened the literal
// path only: "cannot open ReaxFF force field file 'ffield.reax.hns'".)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "lammps_session.h"

namespace {

// LAMMPS_POTENTIALS set to `dir` while it lives (every rank).
class PotentialsDir {
 public:
  explicit PotentialsDir(const std::string &dir) {
    const char *v = std::getenv("LAMMPS_POTENTIALS");
    had_ = v != nullptr;
    if (had_) before_ = v;
    setenv("LAMMPS_POTENTIALS", dir.c_str(), 1);
  }
  ~PotentialsDir() {
    if (had_)
      setenv("LAMMPS_POTENTIALS", before_.c_str(), 1);
    else
      unsetenv("LAMMPS_POTENTIALS");
  }

 private:
  bool had_ = false;
  std::string before_;
};

const std::string kHnsDir = source_dir() + "/examples/HNS/";

std::string hns_input(const std::string &pair, const std::string &qeq, const std::string &ffield) {
  return "units real\natom_style charge\natom_modify map array\nread_data " + kHnsDir +
         "data.hns-equil\npair_style " + pair + " NULL\npair_coeff * * " + ffield +
         " C H O N\nfix q all " + qeq + " 1 0.0 10.0 1e-10 reaxff\nrun 0 post no\n";
}

// One LAMMPS instance at a time: with LAMMPS_PLUGIN_PATH set, an instance
// created while another holds the plugin gets no styles from it (LAMMPS
// ignores a second load of a plugin it lists already).
TEST(PotentialFiles, ForceFieldByBareNameThroughLammpsPotentials) {
  PotentialsDir env(kHnsDir);
  double pe_ref = 0, pe = 0;
  {
    LammpsSession ref;
    ASSERT_EQ(ref.run(hns_input("reaxff", "qeq/reaxff", "ffield.reax.hns")), "")
        << "pair_style reaxff finds the force field through LAMMPS_POTENTIALS";
    pe_ref = ref.thermo("pe");
  }
  LammpsSession ours;
  ours.load_plugin();
  ASSERT_EQ(ours.run(hns_input("reaxff/gpu", "qeq/reaxff/gpu", "ffield.reax.hns")), "");
  pe = ours.thermo("pe");
  // (CG to 1e-10, ours with FSAI: measured 7.8e-15 relative, host driver)
  EXPECT_NEAR(pe, pe_ref, 2e-13 * std::fabs(pe_ref));
}

TEST(PotentialFiles, ForceFieldFoundNowhere) {
  PotentialsDir env(kHnsDir);
  LammpsSession ours;
  ours.load_plugin();
  const std::string err =
      ours.run(hns_input("reaxff/gpu", "qeq/reaxff/gpu", "ffield.reax.nowhere"));
  EXPECT_NE(err.find("ReaxFF parameter file ffield.reax.nowhere cannot be opened"),
            std::string::npos)
      << "error was: " << err;
}

}  // namespace
