// Bad input gives a LAMMPS error (or warning) that names the problem;
// never a crash or a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "lammps_session.h"

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string hns(const std::string &f) { return source_dir() + "/examples/HNS/" + f; }

const char *kSetup =
    "units real\natom_style charge\natom_modify map array\n"
    "read_data " REAXFF_CUDA_SOURCE_DIR "/examples/HNS/data.hns-equil\n";

std::string error_of(const std::string &commands, bool plugin = true) {
  LammpsSession lmp;
  if (plugin) lmp.load_plugin();
  std::string err = lmp.run(kSetup);
  if (!err.empty()) return "setup failed: " + err;
  return lmp.run(commands);
}

#define EXPECT_ERROR_CONTAINS(err, text) \
  EXPECT_NE(lower(err).find(lower(text)), std::string::npos) << "error was: " << (err)

TEST(BadInput, MissingForceFieldFile) {
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * /nonexistent/ffield C H O N\n");
  EXPECT_ERROR_CONTAINS(err, "/nonexistent/ffield cannot be opened");
}

TEST(BadInput, TruncatedForceFieldFile) {
  std::ifstream in(hns("ffield.reax.hns"));
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  auto path = scratch_file("truncated_ffield", text.substr(0, text.size() / 3));
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + path + " C H O N\n");
  // where it ends and what was missing there: the last line is cut in mid-row
  EXPECT_ERROR_CONTAINS(err, path + ":57:");
  EXPECT_ERROR_CONTAINS(err, "expected at least 8 columns");
  EXPECT_ERROR_CONTAINS(err, "element 3 of 4 but found 2");
}

TEST(BadInput, NonNumericForceFieldValue) {
  std::ifstream in(hns("ffield.reax.hns"));
  std::stringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  // Corrupt the first general parameter (line 3 of the file).
  size_t line3 = text.find('\n', text.find('\n', text.find('\n') + 1) + 1) + 1;
  text.replace(line3, 10, "   garbage");
  auto path = scratch_file("bad_value_ffield", text);
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + path + " C H O N\n");
  // the line, the parameter and the word found there
  EXPECT_ERROR_CONTAINS(err, path + ":4:");
  EXPECT_ERROR_CONTAINS(err, "expected a number for general parameter 2");
  EXPECT_ERROR_CONTAINS(err, "found 'garbage'");
}

TEST(BadInput, ElementNotInForceField) {
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O Xx\n");
  EXPECT_ERROR_CONTAINS(err, "Xx");
}

TEST(BadInput, MalformedControlFile) {
  auto path = scratch_file("bad_control", "nbrhood_cutoff 4.5\nnot_a_keyword 3\n");
  auto err = error_of("pair_style reaxff/gpu " + path + "\n");
  EXPECT_ERROR_CONTAINS(err, "not_a_keyword");
  auto path2 = scratch_file("bad_control_value", "hbond_cutoff six\n");
  auto err2 = error_of("pair_style reaxff/gpu " + path2 + "\n");
  EXPECT_ERROR_CONTAINS(err2, "hbond_cutoff");
  auto err3 = error_of("pair_style reaxff/gpu /nonexistent/control\n");
  EXPECT_ERROR_CONTAINS(err3, "/nonexistent/control");
}

TEST(BadInput, UnknownPairKeyword) {
  auto err = error_of("pair_style reaxff/gpu NULL fancy yes\n");
  EXPECT_ERROR_CONTAINS(err, "fancy");
}

TEST(BadInput, QEqFixWithoutReaxFFGPU) {
  auto err = error_of("pair_style reaxff NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff\nrun 0 post no\n");
  EXPECT_ERROR_CONTAINS(err, "reaxff/gpu");
}

TEST(BadInput, ReaxFFGPUWithoutQEq) {
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O N\nrun 0 post no\n");
  EXPECT_ERROR_CONTAINS(err, "charge equilibration");
}

TEST(BadInput, UnknownQEqKeyword) {
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff bogus 3\n");
  EXPECT_ERROR_CONTAINS(err, "bogus");
}

// LAMMPS's own ReaxFF charge fixes (every name this LAMMPS registers; the
// OPENMP and KOKKOS ones match the same patterns) work on PairReaxFF's CPU
// neighbour list, which reaxff/gpu does not build. Beside reaxff/gpu they
// are refused with the fix to use, even with checkqeq no (once qeq/reax then
// failed with "H matrix size has been exceeded: m_fill=0 H.m=0").
TEST(BadInput, LammpsChargeFixesRefused) {
  const std::string gauss = scratch_file("gauss4", "1 0.2240\n2 0.5434\n3 0.2240\n4 0.2240\n");
  const struct {
    std::string fix, advice;
  } cases[] = {
      {"qeq/reax 1 0.0 10.0 1e-6 reaxff", "use fix qeq/reaxff/gpu"},
      {"qeq/reaxff 1 0.0 10.0 1e-6 reaxff", "use fix qeq/reaxff/gpu"},
      {"acks2/reaxff 1 0.0 10.0 1e-6 reaxff", "use fix acks2/reaxff/gpu"},
      {"acks2/reax 1 0.0 10.0 1e-6 reaxff", "use fix acks2/reaxff/gpu"},
      {"qtpie/reaxff 1 0.0 10.0 1e-6 reaxff " + gauss, "use fix qtpie/reaxff/gpu"},
  };
  for (const auto &c : cases) {
    for (const char *check : {"yes", "no"}) {
      SCOPED_TRACE(c.fix + ", checkqeq " + check);
      auto err = error_of(std::string("pair_style reaxff/gpu NULL checkqeq ") + check +
                          "\npair_coeff * * " + hns("ffield.reax.hns") + " C H O N\nfix q all " +
                          c.fix + "\nrun 0 post no\n");
      EXPECT_ERROR_CONTAINS(err, "is " + c.fix.substr(0, c.fix.find(' ')));
      EXPECT_ERROR_CONTAINS(err, c.advice);
    }
  }
}

// As for fix qeq/reaxff: `dual` is only fix qeq/reaxff/omp's.
TEST(BadInput, QEqDualKeywordRefusedAsInLammps) {
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff dual\n");
  EXPECT_ERROR_CONTAINS(err, "qeq/reaxff/omp");
}

// Each solver setting is checked in one place (puremd::check_qeq_settings),
// for every charge model alike, with a message that names the argument.
TEST(BadInput, QEqSettingsNameTheArgument) {
  const std::string reax =
      "pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") + " C H O N\n";
  const struct {
    std::string fix, expected;
  } cases[] = {
      {"qeq/reaxff/gpu 1 0.0 10.0 0.0 reaxff", "tolerance (tol) must be positive"},
      {"acks2/reaxff/gpu 1 0.0 10.0 -1e-6 reaxff", "tolerance (tol) must be positive"},
      {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff maxiter 0", "maxiter"},
      {"qeq/reaxff/gpu 1 -5.0 -1.0 1e-6 reaxff", "(cuthi) must not be negative"},
      {"qeq/reaxff/gpu 1 4.0 3.0 1e-6 reaxff", "larger than its inner radius (cutlo"},
      {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff threads_per_row 3", "threads_per_row"},
      {"acks2/reaxff/gpu 1 0.0 10.0 1e-6 reaxff predictor cubic",
       "'lammps', 'aspc', 'quadratic' or 'linear'"},
      {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff matrix sparse", "'auto', 'full', 'half' or 'free'"},
      {"acks2/reaxff/gpu 1 0.0 10.0 1e-6 reaxff scale 2", "Unknown fix acks2/reaxff/gpu keyword"},
      {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff scale 2", "Unknown fix qeq/reaxff/gpu keyword"},
      {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff precond ilu", "precond must be 'fsai' or 'jacobi'"},
      {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff precond fsai fsai_radius 6", "fsai_radius"},
      {"acks2/reaxff/gpu 1 0.0 10.0 1e-6 reaxff precond fsai", "leave precond out"},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.fix);
    EXPECT_ERROR_CONTAINS(error_of(reax + "fix q all " + c.fix + "\n"), c.expected);
  }
}

TEST(BadInput, QEqNotConvergingWarnsWithIterationCount) {
  const std::string log = scratch_path("qeq_warn.log");
  {
    LammpsSession lmp(log);
    lmp.load_plugin();
    ASSERT_EQ(lmp.run(kSetup), "");
    ASSERT_EQ(lmp.run("pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-14 reaxff maxiter 2\n"
                      "run 0 post no\n"),
              "");
  }
  if (mpi_rank() != 0) return;
  std::ifstream in(log);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = lower(all.str());
  EXPECT_NE(text.find("warning"), std::string::npos) << text;
  EXPECT_NE(text.find("2 iterations"), std::string::npos) << text;
}

TEST(DriverSelection, HostDriverIsLoggedWithoutGPU) {
  const std::string log = scratch_path("driver.log");
  {
    LammpsSession lmp(log);
    lmp.load_plugin();
    ASSERT_EQ(lmp.run(kSetup), "");
    ASSERT_EQ(
        lmp.run("pair_style reaxff/gpu NULL driver host\npair_coeff * * " + hns("ffield.reax.hns") +
                " C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff\nrun 0 post no\n"),
        "");
  }
  if (mpi_rank() != 0) return;
  std::ifstream in(log);
  std::stringstream all;
  all << in.rdbuf();
  EXPECT_NE(all.str().find("ReaxFF/GPU: using the host reference driver"), std::string::npos);
}

}  // namespace

// fix acks2/reaxff/gpu's parameter file: the bond softness first, then five
// numbers per type; a line short, or the softness line missing, is named.
TEST(BadInput, Acks2ParameterFile) {
  const std::string reax =
      "pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") + " C H O N\n";
  const std::string four_columns = scratch_file(
      "acks2_4col", "548.6\n1 5.8 14.0 0.9\n2 5.3 14.9 0.8\n3 8.5 16.6 1.1\n4 6.7 13.6 1.0\n");
  auto err = error_of(reax + "fix q all acks2/reaxff/gpu 1 0.0 10.0 1e-6 " + four_columns + "\n");
  EXPECT_ERROR_CONTAINS(err, "itype chi eta gamma bcut_acks2");
  // the line quoted as it is in the file, without its newline (issue 42)
  EXPECT_ERROR_CONTAINS(err, "'1 5.8 14.0 0.9'");
  const std::string no_softness = scratch_file(
      "acks2_nosoft",
      "1 5.8 14.0 0.9 3.0\n2 5.3 14.9 0.8 3.0\n3 8.5 16.6 1.1 3.0\n4 6.7 13.6 1.0 3.0\n");
  err = error_of(reax + "fix q all acks2/reaxff/gpu 1 0.0 10.0 1e-6 " + no_softness + "\n");
  EXPECT_ERROR_CONTAINS(err, "bond softness");
  const std::string short_file =
      scratch_file("acks2_short", "548.6\n1 5.8 14.0 0.9 3.0\n2 5.3 14.9 0.8 3.0\n");
  err = error_of(reax + "fix q all acks2/reaxff/gpu 1 0.0 10.0 1e-6 " + short_file + "\n");
  EXPECT_ERROR_CONTAINS(err, "needs one per atom type");
}

// fix qtpie/reaxff/gpu: a gauss file that lacks a type, ghosts that do not
// reach the overlap cut-off, and a type left to another pair style (QTPIE
// sums over every atom, which the CUDA driver's lists do not hold) are
// errors that name the problem.
// A short parameter file is found on rank 0 alone: every rank must stop
// (error->one on rank 0 would leave the others in the broadcast).
TEST(BadInput, ShortQEqParameterFileStopsEveryRank) {
  const std::string params =
      scratch_file("qeq_params3", "1 5.0 7.0 0.8\n2 3.7 9.6 0.8\n3 8.5 8.3 0.8\n");
  auto err = error_of("pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") +
                      " C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 " + params + "\n");
  EXPECT_ERROR_CONTAINS(err, "needs one per atom type");
}

TEST(BadInput, QtpieInputs) {
  const std::string gauss = scratch_file("gauss4ok", "1 0.2240\n2 0.5434\n3 0.2240\n4 0.2240\n");
  const std::string short_gauss =
      scratch_file("gauss3", "# C H O only\n1 0.2240\n2 0.5434\n3 0.2240\n");
  const std::string reax =
      "pair_style reaxff/gpu NULL\npair_coeff * * " + hns("ffield.reax.hns") + " C H O N\n";
  auto err = error_of(reax + "fix q all qtpie/reaxff/gpu 1 0.0 10.0 1e-6 reaxff " + short_gauss +
                      "\nrun 0 post no\n");
  EXPECT_ERROR_CONTAINS(err, "needs one per atom type");
  err = error_of(reax + "fix q all qtpie/reaxff/gpu 1 0.0 10.0 1e-6 reaxff\n");
  EXPECT_ERROR_CONTAINS(err, "gauss_file");
  // exponent 0.01 / Bohr^2: overlaps reach 36 A, beyond the ghosts (~11 A)
  const std::string diffuse =
      scratch_file("gauss_diffuse", "1 0.01\n2 0.5434\n3 0.2240\n4 0.2240\n");
  err = error_of(reax + "fix q all qtpie/reaxff/gpu 1 0.0 10.0 1e-6 reaxff " + diffuse +
                 "\nrun 0 post no\n");
  EXPECT_ERROR_CONTAINS(err, "Increase comm cutoff with comm_modify");
  err = error_of(
      "pair_style hybrid/overlay lj/cut 3.0 reaxff/gpu NULL\npair_coeff * * lj/cut "
      "0.05 1.0\npair_coeff * * reaxff/gpu " +
      hns("ffield.reax.hns") +
      " C H O NULL\nfix q all qtpie/reaxff/gpu 1 0.0 10.0 "
      "1e-6 reaxff " +
      gauss + "\nrun 0 post no\n");
  EXPECT_ERROR_CONTAINS(err, "mapped to NULL");
}

namespace {
// fix qeq/reaxff/gpu beside a pair style that is not ReaxFF (LAMMPS's fix
// qeq/reaxff runs there with a parameter file; `-sf gpu` renames it): made
// before the pair style, it cannot become LAMMPS's (test_suffix_gpu.cpp), and
// the error says what to use instead (issue 42).
TEST(BadInput, QEqFixBeforeOtherPairStyleSaysWhatToUse) {
  const std::string params =
      scratch_file("qeq_params_lj", "1 5.0 7.0 0.8\n2 3.7 9.6 0.8\n3 8.5 8.3 0.8\n4 6.9 7.0 0.8\n");
  const std::string err = error_of("fix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 " + params +
                                   "\npair_style lj/cut 10.0\npair_coeff * * 0.1 3.0\n"
                                   "run 0 post no\n");
  EXPECT_ERROR_CONTAINS(err, "requires pair_style reaxff/gpu");
  EXPECT_ERROR_CONTAINS(err, "suffix off");
}
}  // namespace
