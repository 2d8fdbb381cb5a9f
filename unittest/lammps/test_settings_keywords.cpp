// What a user tunes is a keyword, checked once: pair_style reaxff/gpu's
// skin, lanes and timing, fix qeq/reaxff/gpu's threads_per_row and matrix. Bad values
// are errors that name the keyword; good ones leave the physics alone, and
// `timing yes` prints the phase table at the end of a run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "lammps_session.h"

namespace {

const std::string kDir = source_dir() + "/examples/HNS/";

std::string hns_input(const std::string &pair_keywords, const std::string &fix_keywords) {
  return "units real\natom_style charge\natom_modify map array\nread_data " + kDir +
         "data.hns-equil\npair_style reaxff/gpu NULL " + pair_keywords + "\npair_coeff * * " +
         kDir + "ffield.reax.hns C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-12 reaxff " +
         fix_keywords +
         "\nvelocity all create 300 4928459 loop geom\nfix nve all nve\ntimestep 0.1\n"
         "neighbor 1.0 bin\nneigh_modify every 2 delay 0 check no\n"
         "thermo_style custom step pe\nrun 6 post no\n";
}

std::string error_of(const std::string &pair_keywords, const std::string &fix_keywords) {
  LammpsSession lmp;
  lmp.load_plugin();
  return lmp.run(hns_input(pair_keywords, fix_keywords));
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

#define EXPECT_ERROR_CONTAINS(err, text) \
  EXPECT_NE(lower(err).find(lower(text)), std::string::npos) << "error was: " << (err)

TEST(SettingsKeywords, BadValuesAreErrorsNamingThem) {
  EXPECT_ERROR_CONTAINS(error_of("skin -1", ""), "skin");
  EXPECT_ERROR_CONTAINS(error_of("lanes nonbonded=3", ""), "nonbonded=3");
  EXPECT_ERROR_CONTAINS(error_of("lanes hbonds", ""), "hbonds");
  EXPECT_ERROR_CONTAINS(error_of("timing maybe", ""), "maybe");
  EXPECT_ERROR_CONTAINS(error_of("", "threads_per_row 3"), "threads_per_row");
  EXPECT_ERROR_CONTAINS(error_of("", "matrix sparse"), "matrix");
  EXPECT_ERROR_CONTAINS(error_of("", "matrix"), "matrix");
  EXPECT_ERROR_CONTAINS(error_of("skin", ""), "skin");
}

// Same energy, charges and forces with every setting changed (list skin 0:
// a fresh list every step; one lane per row everywhere; the matrix product
// with 4 threads per row) as with the defaults; `timing yes` prints the
// QEq fix's line and, with the CUDA driver, the phase table.
TEST(SettingsKeywords, SettingsChangeNoResultAndTimingPrintsTheTable) {
  struct Run {
    double pe;
    std::vector<double> q, f;
  };
  auto run = [](const std::string &pair_keywords, const std::string &fix_keywords,
                const std::string &log) {
    LammpsSession lmp(log);
    lmp.load_plugin();
    EXPECT_EQ(lmp.run(hns_input(pair_keywords, fix_keywords)), "");
    return Run{lmp.thermo("pe"), lmp.gather("q", 1), lmp.gather("f", 3)};
  };
  const Run ref = run("", "", "none");
  const std::string log = scratch_path("settings_timing.log");
  const Run tuned =
      run("skin 0 lanes neighbors=1,compaction=1,hbonds=1,nonbonded=1,lists=1 timing yes",
          "threads_per_row 4", log);
  EXPECT_NEAR(tuned.pe, ref.pe, 1e-10 * std::fabs(ref.pe));
  ASSERT_EQ(tuned.q.size(), ref.q.size());
  for (size_t i = 0; i < ref.q.size(); ++i) ASSERT_NEAR(tuned.q[i], ref.q[i], 1e-9) << "q " << i;
  double fmax = 0;
  for (double v : ref.f) fmax = std::max(fmax, std::fabs(v));
  for (size_t i = 0; i < ref.f.size(); ++i)
    ASSERT_NEAR(tuned.f[i], ref.f[i], 1e-9 * fmax) << "f " << i;
  // The QEq matrix stored or evaluated in every product (with the host
  // driver, whose solver always stores it, the keyword changes nothing).
  for (const char *matrix : {"matrix stored", "matrix free"}) {
    const Run m = run("", matrix, "none");
    EXPECT_NEAR(m.pe, ref.pe, 1e-10 * std::fabs(ref.pe)) << matrix;
    for (size_t i = 0; i < ref.q.size(); ++i)
      ASSERT_NEAR(m.q[i], ref.q[i], 1e-9) << matrix << " q " << i;
    for (size_t i = 0; i < ref.f.size(); ++i)
      ASSERT_NEAR(m.f[i], ref.f[i], 1e-9 * fmax) << matrix << " f " << i;
  }

  if (mpi_rank() != 0) return;
  std::ifstream in(log);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  EXPECT_NE(text.find("ReaxFF/GPU phase QEq"), std::string::npos) << text;
  if (text.find("using the CUDA driver") != std::string::npos) {
    EXPECT_NE(text.find("ReaxFF/GPU phase ms/step"), std::string::npos) << text;
    EXPECT_NE(text.find("charges"), std::string::npos) << text;
    EXPECT_NE(text.find("ReaxFF/GPU peak device memory"), std::string::npos) << text;
    EXPECT_NE(text.find("far-neighbour list"), std::string::npos) << text;
    EXPECT_NE(text.find("QEq: matrix values"), std::string::npos) << text;
  }
}

}  // namespace
