// What a user tunes is a keyword, checked once: pair_style reaxff/gpu's
// skin, lanes and timing, fix qeq/reaxff/gpu's threads_per_row, matrix,
// predictor, precond, fsai_radius, halo and cuda_aware. Bad values are errors that name the
// keyword; good ones leave the physics alone (seen on the CUDA driver only for those the host
// driver ignores; on either for the predictor), and `timing yes` prints the phase table at the end
// of a run. The preconditioner is FSAI unless the input says otherwise, and the log says how to
// get fix qeq/reaxff's. The tuning keywords may also come from the command line (-var
// reaxff_gpu "..."), winning over the input's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gpu_machine.h"
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
  EXPECT_ERROR_CONTAINS(error_of("", "predictor cubic"), "predictor");
  EXPECT_ERROR_CONTAINS(error_of("", "predictor cubic"), "cubic");
  EXPECT_ERROR_CONTAINS(error_of("", "predictor"), "predictor");
  EXPECT_ERROR_CONTAINS(error_of("skin", ""), "skin");
  EXPECT_ERROR_CONTAINS(error_of("", "halo nvlink"), "halo");
  EXPECT_ERROR_CONTAINS(error_of("", "halo nvlink"), "nvlink");
  EXPECT_ERROR_CONTAINS(error_of("", "cuda_aware maybe"), "cuda_aware");
  EXPECT_ERROR_CONTAINS(error_of("", "cuda_aware"), "cuda_aware");
  EXPECT_ERROR_CONTAINS(error_of("", "precond ilu"), "precond");
  EXPECT_ERROR_CONTAINS(error_of("", "precond ilu"), "ilu");
  EXPECT_ERROR_CONTAINS(error_of("", "precond fsai fsai_radius 5.5"), "fsai_radius");
  EXPECT_ERROR_CONTAINS(error_of("", "precond fsai fsai_radius 0"), "fsai_radius");
}

struct HnsRun {
  std::string error;
  double pe = 0;
  std::vector<double> q, f;
  int iterations = 0;  // CG iterations of the last solve, s + t (fix q's vector)
};

// The HNS input, with more LAMMPS command-line arguments `args`.
HnsRun run_hns(const std::string &pair_keywords, const std::string &fix_keywords,
               const std::string &log = "none", const std::vector<std::string> &args = {}) {
  LammpsSession lmp(log, args, false);
  lmp.load_plugin();
  HnsRun r;
  r.error = lmp.run(hns_input(pair_keywords, fix_keywords));
  if (r.error.empty())
    r = {"", lmp.thermo("pe"), lmp.gather("q", 1), lmp.gather("f", 3),
         static_cast<int>(lmp.fix_vector("q", 0) + lmp.fix_vector("q", 1))};
  return r;
}

bool has(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// The line of `text` that holds `part` ("" if none).
std::string line_with(const std::string &text, const std::string &part) {
  const size_t at = text.find(part);
  if (at == std::string::npos) return "";
  const size_t begin = text.rfind('\n', at), end = text.find('\n', at);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end == std::string::npos ? std::string::npos : end - begin - 1);
}

// Bounds of a comparison: pe relative, charges absolute, forces relative to
// the largest. The defaults are this file's tolerances.
struct ResultBounds {
  double pe_rel = 1e-10, charge = 1e-9, force_rel = 1e-9;
};

// The same run twice: bit for bit on the host driver; on a GPU (driver auto
// runs CUDA there), whose sums add in a run-dependent order (atomics), CG
// stopping an iteration apart and charges and forces within round-off's
// reach of CG's tolerance (1e-12).
void expect_same_run(const HnsRun &m, const HnsRun &ref) {
  ASSERT_EQ(m.error, "");
  if (!gpu_machine()) {
    EXPECT_EQ(m.iterations, ref.iterations);
    EXPECT_EQ(m.q, ref.q);
    EXPECT_EQ(m.f, ref.f);
    return;
  }
  EXPECT_NEAR(m.iterations, ref.iterations, 1);
  double dq = 0, df = 0, fmax = 0;
  for (size_t i = 0; i < ref.q.size() && i < m.q.size(); ++i)
    dq = std::max(dq, std::fabs(m.q[i] - ref.q[i]));
  for (size_t i = 0; i < ref.f.size() && i < m.f.size(); ++i) {
    df = std::max(df, std::fabs(m.f[i] - ref.f[i]));
    fmax = std::max(fmax, std::fabs(ref.f[i]));
  }
  if (mpi_rank() == 0)
    std::printf("[ table ] the same run twice on the GPU: charges %.1e, forces %.1e x max|F|\n", dq,
                df / fmax);
  EXPECT_EQ(m.q.size(), ref.q.size());
  EXPECT_LE(dq, 1e-10);
  EXPECT_LE(df, 1e-10 * fmax);
}

// A run's energy, charges and forces are ref's within `b`.
void expect_same_results(const HnsRun &m, const HnsRun &ref, const ResultBounds &b = {}) {
  ASSERT_EQ(m.error, "");
  double fmax = 0;
  for (double v : ref.f) fmax = std::max(fmax, std::fabs(v));
  EXPECT_NEAR(m.pe, ref.pe, b.pe_rel * std::fabs(ref.pe));
  ASSERT_EQ(m.q.size(), ref.q.size());
  for (size_t i = 0; i < ref.q.size(); ++i) ASSERT_NEAR(m.q[i], ref.q[i], b.charge) << "q " << i;
  for (size_t i = 0; i < ref.f.size(); ++i)
    ASSERT_NEAR(m.f[i], ref.f[i], b.force_rel * fmax) << "f " << i;
}

// The settings that change how the work is done (list skin 0: a fresh list
// every step; one lane per row everywhere; the QEq matrix stored in full,
// each pair once, or evaluated in every product, with 4 threads per row) give
// the energy, charges and forces of the host reference driver, as the CUDA
// driver's defaults do. The reference is the host driver, not the CUDA
// defaults: on these 304 atoms the defaults already store the matrix in full,
// and a row compared with the defaults would compare a run with itself.
// They change only the CUDA driver's work (the host driver ignores them), so
// they run with `driver cuda`; skipped where that driver cannot run.
TEST(SettingsKeywords, SettingsChangeNoResultOnTheCudaDriver) {
  const HnsRun probe = run_hns("driver cuda", "");
  // (the settings change only the CUDA driver's work: where it cannot run,
  // nothing here can)
  if (!probe.error.empty()) SKIP_WITHOUT_GPU_ELSE_FAIL(probe.error);
  const HnsRun ref = run_hns("driver host", "");
  ASSERT_EQ(ref.error, "");
  const std::pair<std::string, std::string> tunings[] = {
      {"", ""},  // the CUDA driver's defaults
      {"skin 0 lanes neighbors=1,compaction=1,hbonds=1,nonbonded=1,lists=1", "threads_per_row 4"},
      {"", "matrix full"},
      {"", "matrix stored"},  // the earlier spelling of full
      {"", "matrix half"},
      {"", "matrix free"},
      {"", "matrix free threads_per_row 4"},
      {"", "matfree"},  // fix qeq/reaxff's keyword (LAMMPS 4Jul2026): matrix free
      // several ranks: the halo by MPI messages staged through host memory
      // instead of GPU peer copies (one rank: no halo, the same run)
      {"", "halo mpi cuda_aware no"},
      {"", "halo mpi matrix full"}};
  for (const auto &[pair_keywords, fix_keywords] : tunings) {
    SCOPED_TRACE("pair_style ... " + pair_keywords + ", fix ... " + fix_keywords);
    const HnsRun m = run_hns("driver cuda " + pair_keywords, fix_keywords);
    ASSERT_NO_FATAL_FAILURE(expect_same_results(m, ref));
  }
}

// Each predictor (fix keyword `predictor`) only moves where CG starts: with
// CG to 1e-12 the energy, charges and forces of 6 steps are those of the
// default (`lammps`) within this file's tolerances. Unlike the settings
// above it changes the work of both drivers, so it runs on whichever runs
// (`driver auto`).
TEST(SettingsKeywords, PredictorsChangeNoResult) {
  const HnsRun ref = run_hns("", "predictor lammps");
  ASSERT_EQ(ref.error, "");
  for (const char *name : {"aspc", "quadratic", "linear"}) {
    SCOPED_TRACE(std::string("predictor ") + name);
    const HnsRun m = run_hns("", std::string("predictor ") + name);
    ASSERT_NO_FATAL_FAILURE(expect_same_results(m, ref));
  }
}

// The FSAI preconditioner (fix keyword `precond fsai`, the default) changes
// CG's path, not its answer: with CG to 1e-12 the energy, charges and forces
// of 6 steps are LAMMPS's own pair reaxff and fix qeq/reaxff's in the same
// binary, within the differences of two solves stopped at the tolerance, on
// whichever driver runs.
TEST(SettingsKeywords, FsaiGivesReaxffsResults) {
  std::string in = hns_input("", "");
  auto replace = [&](const std::string &from, const std::string &to) {
    const size_t at = in.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    in.replace(at, from.size(), to);
  };
  replace("pair_style reaxff/gpu NULL ", "pair_style reaxff NULL ");
  replace("qeq/reaxff/gpu", "qeq/reaxff");
  HnsRun ref;
  {  // (closed before ours: an open instance keeps a plugin that LAMMPS_PLUGIN_PATH loaded)
    LammpsSession lmp;
    ASSERT_EQ(lmp.run(in), "");
    ref = {"", lmp.thermo("pe"), lmp.gather("q", 1), lmp.gather("f", 3)};
  }
  // FSAI and fix qeq/reaxff's Jacobi stop at different iterates (measured,
  // host driver, both radii: pe 1.5e-14 relative, charges 2.4e-11, forces
  // 2.3e-12 x max|F|)
  const ResultBounds b{3e-13, 3e-10, 3e-11};
  for (const char *radius : {"", " fsai_radius 2.5"}) {
    SCOPED_TRACE(std::string("precond fsai") + radius);
    const HnsRun m = run_hns("", std::string("precond fsai") + radius);
    ASSERT_NO_FATAL_FAILURE(expect_same_results(m, ref, b));
  }
}

// Without precond the fix runs FSAI: the run of `precond fsai` (expect_same_run),
// in fewer CG iterations than Jacobi's; the log's solver line names the
// preconditioner and how to get fix qeq/reaxff's iterates.
TEST(SettingsKeywords, DefaultPreconditionerIsFsai) {
  const std::string log = scratch_path("settings_default.log"),
                    jacobi_log = scratch_path("settings_jacobi.log");
  const HnsRun plain = run_hns("", "", log), fsai = run_hns("", "precond fsai"),
               jacobi = run_hns("", "precond jacobi", jacobi_log);
  ASSERT_EQ(plain.error, "");
  ASSERT_EQ(fsai.error, "");
  ASSERT_EQ(jacobi.error, "");
  expect_same_run(plain, fsai);
  // FSAI's G leaves out other ranks' atoms: fewer iterations on fewer ranks
  // (measured, host driver, the 6th step's solve, s + t: 19 against 82 on 1
  // rank, 35 on 2, 49 on 4)
  const double share = mpi_size() == 1 ? 0.33 : mpi_size() == 2 ? 0.55 : 0.75;
  EXPECT_LT(plain.iterations, share * jacobi.iterations) << "jacobi " << jacobi.iterations;
  if (mpi_rank() != 0) return;  // the log is rank 0's
  const std::string text = read_text(log), jacobi_text = read_text(jacobi_log);
  EXPECT_TRUE(has(line_with(text, "QEq/GPU: fix q uses the "),
                  "preconditioner fsai (radius 3.5 A; 'precond jacobi' gives fix "
                  "qeq/reaxff's iterates)"))
      << text;
  EXPECT_TRUE(has(line_with(jacobi_text, "QEq/GPU: fix q uses the "),
                  "preconditioner jacobi (fix qeq/reaxff's iterates)"))
      << jacobi_text;
}

// Every setting is accepted by whichever driver runs (`driver auto`), and
// `timing yes` prints, at the end of a run, the QEq fix's line naming its
// solver and, with the CUDA driver (the only one that measures phases), the
// phase table and device memory; the host driver prints no phase table.
// Without `timing yes` none of it is printed.
TEST(SettingsKeywords, TimingPrintsTheTable) {
  const std::string log = scratch_path("settings_timing.log"),
                    quiet_log = scratch_path("settings_quiet.log");
  const std::string tuned = "skin 0 lanes neighbors=1,compaction=1,hbonds=1,nonbonded=1,lists=1";
  ASSERT_EQ(run_hns(tuned + " timing yes", "threads_per_row 4", log).error, "");
  ASSERT_EQ(run_hns(tuned, "threads_per_row 4", quiet_log).error, "");
  if (mpi_rank() != 0) return;  // the log is rank 0's
  const std::string text = read_text(log), quiet = read_text(quiet_log);
  const bool cuda = text.find("using the CUDA driver") != std::string::npos;
  ASSERT_TRUE(cuda || text.find("using the host reference driver") != std::string::npos) << text;
  EXPECT_NE(
      text.find(cuda ? "ReaxFF/GPU phase QEq (CUDA solver)" : "ReaxFF/GPU phase QEq (host solver)"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("ReaxFF/GPU phase ms/step") != std::string::npos, cuda) << text;
  if (cuda) {
    EXPECT_NE(text.find("ReaxFF/GPU peak device memory"), std::string::npos) << text;
    EXPECT_NE(text.find("far-neighbour list"), std::string::npos) << text;
    EXPECT_NE(text.find("QEq: matrix values"), std::string::npos) << text;
  }
  EXPECT_EQ(quiet.find("ReaxFF/GPU phase"), std::string::npos) << quiet;
  EXPECT_EQ(quiet.find("peak device memory"), std::string::npos) << quiet;
}

// The CUDA driver's list skin is its engine's for the engine's life: a run
// after the neighbor command changed LAMMPS's skin gets a new engine (the
// log names the driver again); a run with the same skin keeps the engine.
TEST(SettingsKeywords, NewSkinBetweenRunsMakesANewEngine) {
  const std::string log = scratch_path("settings_skin.log");
  {
    LammpsSession lmp(log);
    lmp.load_plugin();
    ASSERT_EQ(lmp.run(hns_input("", "")), "");                    // neighbor 1.0 bin
    ASSERT_EQ(lmp.run("run 2 post no\n"), "");                    // the same skin
    ASSERT_EQ(lmp.run("neighbor 0.5 bin\nrun 2 post no\n"), "");  // another
  }
  if (mpi_rank() != 0) return;  // the log is rank 0's
  const std::string text = read_text(log);
  int engines = 0;
  for (size_t at = text.find("ReaxFF/GPU: using the"); at != std::string::npos;
       at = text.find("ReaxFF/GPU: using the", at + 1))
    ++engines;
  EXPECT_EQ(engines, 2) << text;
}

// The command line's tuning settings: -var reaxff_gpu `values` (one value
// where quoted on a shell's command line).
std::vector<std::string> settings_var(const std::vector<std::string> &values) {
  std::vector<std::string> args = {"-var", "reaxff_gpu"};
  args.insert(args.end(), values.begin(), values.end());
  return args;
}

// Tuning settings from the command line: the index variable reaxff_gpu of
// keyword/value pairs (command_line_settings.h). They win over the input's:
// -var reaxff_gpu "precond jacobi" over the input's precond fsai gives the
// run of the input's precond jacobi, and the log says where the setting came
// from and what the input said; the pair style takes its own keywords from
// the same variable (timing: the QEq timing line at the end of the run).

TEST(CommandLineSettings, VariableWinsOverTheInput) {
  const std::string log = scratch_path("settings_var.log"),
                    log2 = scratch_path("settings_var2.log");
  const HnsRun jacobi = run_hns("", "precond jacobi"), fsai = run_hns("", "precond fsai");
  const HnsRun r =
      run_hns("timing no", "precond fsai", log, settings_var({"precond jacobi timing yes"}));
  ASSERT_EQ(r.error, "");
  ASSERT_NE(jacobi.iterations, fsai.iterations) << "the preconditioners are not told apart";
  expect_same_run(r, jacobi);
  // a setting the input does not name
  ASSERT_EQ(run_hns("", "", log2, settings_var({"matrix full"})).error, "");
  if (mpi_rank() != 0) return;
  const std::string text = read_text(log), text2 = read_text(log2);
  EXPECT_TRUE(has(text,
                  "ReaxFF/GPU: from -var reaxff_gpu: precond jacobi (fix q qeq/reaxff/gpu; the "
                  "input said fsai)"))
      << text;
  EXPECT_TRUE(has(text,
                  "ReaxFF/GPU: from -var reaxff_gpu: timing yes (pair_style reaxff/gpu; the input "
                  "said no)"))
      << text;
  EXPECT_TRUE(has(line_with(text, "QEq/GPU: fix q uses the "), "preconditioner jacobi")) << text;
  EXPECT_TRUE(has(text, "ReaxFF/GPU phase QEq")) << text;
  EXPECT_TRUE(has(text2,
                  "ReaxFF/GPU: from -var reaxff_gpu: matrix full (fix q qeq/reaxff/gpu; the "
                  "input did not set it)"))
      << text2;
}

// The variable's values are checked as the input's are; a keyword that none
// of our styles takes (or one that changes the physics) and a keyword
// without a value are errors naming the keyword and showing the quoted form.
TEST(CommandLineSettings, BadSettingsAreErrors) {
  const std::string quoted = "-var reaxff_gpu \"precond jacobi timing yes\"";
  auto error = [](const std::vector<std::string> &values) {
    return run_hns("", "", "none", settings_var(values)).error;
  };
  EXPECT_ERROR_CONTAINS(error({"precond ilu"}), "precond must be 'fsai' or 'jacobi', got 'ilu'");
  EXPECT_ERROR_CONTAINS(error({"skin -1"}), "skin -1");
  const std::string unknown = error({"precond jacobi colour blue"});
  EXPECT_ERROR_CONTAINS(unknown, "'colour'");
  EXPECT_ERROR_CONTAINS(unknown, quoted);
  const std::string physics = error({"maxiter 10"});
  EXPECT_ERROR_CONTAINS(physics, "'maxiter'");
  EXPECT_ERROR_CONTAINS(physics, "stay in the input");
  // as the shell passes -var reaxff_gpu precond jacobi: two values of an
  // index variable, of which LAMMPS gives the first
  const std::string unquoted = error({"precond", "jacobi"});
  EXPECT_ERROR_CONTAINS(unquoted, "keyword 'precond' has no value");
  EXPECT_ERROR_CONTAINS(unquoted, quoted);
  EXPECT_ERROR_CONTAINS(error({"precond jacobi timing"}), "keyword 'timing' has no value");
}

// fix acks2/reaxff/gpu takes the settings it has (predictor) and leaves
// precond and fsai_radius aside, saying so; its solver line names
// BiCGStab's own preconditioner.
TEST(CommandLineSettings, Acks2LeavesThePreconditionerAside) {
  const std::string water = std::string(LAMMPS_EXAMPLES_DIR) + "/water/";
  const std::string log = scratch_path("settings_acks2.log");
  {
    LammpsSession lmp(log, settings_var({"precond jacobi fsai_radius 3 predictor aspc"}), false);
    lmp.load_plugin();
    ASSERT_EQ(lmp.run("units real\natom_style charge\natom_modify map array\nboundary p p s\n"
                      "read_data " +
                      water +
                      "data.water\nregion keep block 0 8 0 8 0 8\ngroup keep region keep\n"
                      "group gone subtract all keep\ndelete_atoms group gone\nchange_box all "
                      "boundary s s s\npair_style reaxff/gpu NULL\npair_coeff * * " +
                      water +
                      "acks2_ff.water O H\nfix q all acks2/reaxff/gpu 1 0.0 10.0 1e-8 reaxff\n"
                      "run 0 post no\n"),
              "");
  }
  if (mpi_rank() != 0) return;
  const std::string text = read_text(log);
  EXPECT_TRUE(has(text,
                  "ReaxFF/GPU: from -var reaxff_gpu: predictor aspc (fix q acks2/reaxff/gpu; the "
                  "input did not set it)"))
      << text;
  EXPECT_TRUE(has(text,
                  "ReaxFF/GPU: fix q acks2/reaxff/gpu leaves precond jacobi, fsai_radius 3 of -var "
                  "reaxff_gpu aside: its BiCGStab keeps its own diagonal preconditioner"))
      << text;
  EXPECT_FALSE(has(text, "from -var reaxff_gpu: precond")) << text;
  EXPECT_TRUE(has(line_with(text, "QEq/GPU: fix q uses the "),
                  "BiCGStab with its own diagonal preconditioner"))
      << text;
}

}  // namespace
