// Every input of LAMMPS's examples/reaxff, as a user switches it: run as
// shipped (pair_style reaxff, LAMMPS's charge fixes) and with `-sf gpu` or
// the input command `suffix gpu` (our styles), or, where LAMMPS has KOKKOS,
// under -k on (our styles KOKKOS styles), in the same binary and on the same
// ranks. Every thermo column of
// every run, compute pair's 14 terms, forces and charges must agree; CG
// iteration counts are fewer with our default preconditioner (FSAI), and
// fix qeq/reaxff's with -var reaxff_gpu "precond jacobi".
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "example_inputs.h"
#include "lammps_session.h"

namespace {

// The harness's only changes to an input: runs capped at kMaxSteps steps and
// charge fixes at tolerance kTolerance. A CG solve stops with an error of
// about its tolerance, which differs between two solvers (round-off in the
// sums, a history-extrapolated first guess): at 1e-10, eqeq and ep differed
// by up to 8e-10 relative after 20 steps (HNS, AB), forces by 1.2e-8 x max|F|
// (AuO). At 1e-14, as in the other comparisons with reaxff (comparison.cpp),
// the comparison sees the physics, not where each solver stopped.
constexpr int kMaxSteps = 20;
// ACKS2 inputs run half as many (CI time: at the harness's 1e-20, each
// BiCGStab solve of the water example takes ~270 iterations on both sides).
constexpr int kMaxStepsAcks2 = 10;
int max_steps(const std::string &text) {
  return std::regex_search(text, std::regex(R"(\bfix\s+\S+\s+\S+\s+acks2/reax)")) ? kMaxStepsAcks2
                                                                                  : kMaxSteps;
}
constexpr const char *kTolerance = "1e-14";
constexpr int kMaxRanks = 2;  // CI time: the 4-rank job skips these

// Tolerances of the existing comparisons with pair_style reaxff
// (test_compare_reaxff.cpp): energies and other thermo values relative
// (with an absolute floor), forces relative to the largest, charges absolute.
struct Tolerances {
  double rel, abs, force_rel, charge;
};
constexpr Tolerances kVsReaxff{1e-10, 1e-8, 1e-8, 1e-8};
// In a LAMMPS with its own GPU package, -sf gpu also swaps in that package's
// styles (fix nve/gpu, pair table/gpu, ...), which compute in mixed precision
// by default: then single-precision agreement is what can be asked.
constexpr Tolerances kWithGpuPackage{1e-6, 1e-6, 1e-5, 1e-6};
const Tolerances &tolerances() { return lammps_has_gpu_package() ? kWithGpuPackage : kVsReaxff; }
// The log prints 8 significant digits: two units of the last one.
constexpr double kPrintedRel = 2e-7;
// CG iteration counts (f_ID of a charge fix: (iterations s + t) / 2). With
// `precond jacobi`, fix qeq/reaxff's iterates: near 1e-14 the residual falls
// at round-off's pace, so where it crosses the tolerance moves by an
// iteration or two with the order of the sums (seen: 82.5 vs 81, tatb at
// step 0).
constexpr double kIterations = 2.0;
// With the default preconditioner, FSAI, at most this share of fix
// qeq/reaxff's count: FSAI's G leaves out other ranks' atoms, so the share
// grows with the ranks (measured at 1e-14, host driver, the worst row: on 1
// rank 0.55 in.reaxff.rdx, 11 against 20, and 0.35 in.reaxff.tatb; on 2
// ranks 0.75 and 0.60).
double fsai_iteration_share() { return mpi_size() == 1 ? 0.65 : 0.85; }

struct Worst {
  double thermo = 0, term = 0, force = 0, charge = 0;
  double iterations = 0;  // the largest share ours / reaxff of an FSAI count
};

// A CG iteration count of ours against reaxff's: FSAI's (columns listed in
// `fsai`) at most fsai_iteration_share() of it, Jacobi's within kIterations.
bool iterations_agree(double a, double b, bool fsai, Worst &w) {
  if (!fsai) return std::fabs(a - b) <= kIterations;
  if (a > 0) w.iterations = std::max(w.iterations, b / a);
  return b >= 1 && b <= fsai_iteration_share() * a;
}

bool close(double a, double b, double rel, double abs) {
  return std::fabs(a - b) <= std::max(rel * std::max(std::fabs(a), std::fabs(b)), abs);
}

bool listed(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void compare_thermo(const std::vector<ThermoRow> &ref, const std::vector<ThermoRow> &ours,
                    const std::vector<std::string> &iterations,
                    const std::vector<std::string> &fsai, Worst &w) {
  ASSERT_EQ(ref.size(), ours.size()) << "number of runs";
  for (size_t run = 0; run < ref.size(); ++run) {
    ASSERT_EQ(ref[run].size(), ours[run].size()) << "thermo columns of run " << run + 1;
    for (size_t k = 0; k < ref[run].size(); ++k) {
      const auto &[key, a] = ref[run][k];
      const double b = ours[run][k].second;
      EXPECT_EQ(ours[run][k].first, key);
      if (listed(iterations, key)) {
        EXPECT_TRUE(iterations_agree(a, b, listed(fsai, key), w))
            << "run " << run + 1 << ", CG iterations " << key << ": reaxff " << a << " reaxff/gpu "
            << b;
        continue;
      }
      const Tolerances &t = tolerances();
      EXPECT_TRUE(close(a, b, t.rel, t.abs)) << "run " << run + 1 << ", last thermo output, column "
                                             << key << ": reaxff " << a << " reaxff/gpu " << b;
      if (std::fabs(a) > t.abs) w.thermo = std::max(w.thermo, std::fabs(a - b) / std::fabs(a));
    }
  }
}

void compare_log_rows(const std::vector<std::vector<ThermoRow>> &ref,
                      const std::vector<std::vector<ThermoRow>> &ours,
                      const std::vector<std::string> &iterations,
                      const std::vector<std::string> &fsai, Worst &w) {
  if (mpi_rank() != 0) return;  // the log is rank 0's
  ASSERT_EQ(ref.size(), ours.size()) << "thermo blocks in the log";
  for (size_t run = 0; run < ref.size(); ++run) {
    ASSERT_EQ(ref[run].size(), ours[run].size()) << "thermo rows of run " << run + 1;
    for (size_t row = 0; row < ref[run].size(); ++row) {
      ASSERT_EQ(ref[run][row].size(), ours[run][row].size());
      // the column's scale, for values that pass through zero
      for (size_t k = 0; k < ref[run][row].size(); ++k) {
        double scale = 0;
        for (const ThermoRow &r : ref[run]) scale = std::max(scale, std::fabs(r[k].second));
        const double a = ref[run][row][k].second, b = ours[run][row][k].second;
        const std::string &key = ref[run][row][k].first;
        if (listed(iterations, key)) {
          EXPECT_TRUE(iterations_agree(a, b, listed(fsai, key), w))
              << "log, CG iterations, run " << run + 1 << " row " << row + 1 << ": reaxff " << a
              << " reaxff/gpu " << b;
          continue;
        }
        const double rel = std::max(kPrintedRel, tolerances().rel);
        EXPECT_TRUE(close(a, b, rel, rel * scale))
            << "log, run " << run + 1 << " row " << row + 1 << " column " << ref[run][row][k].first
            << ": reaxff " << a << " reaxff/gpu " << b;
      }
    }
  }
}

void compare_atoms(const ExampleResult &ref, const ExampleResult &ours, Worst &w) {
  static const char *names[14] = {"eb",  "ea", "elp", "emol", "ev", "epen", "ecoa",
                                  "ehb", "et", "eco", "ew",   "ep", "efi",  "eqeq"};
  const Tolerances &t = tolerances();
  ASSERT_EQ(ref.terms.size(), 14u);
  ASSERT_EQ(ours.terms.size(), 14u);
  for (int k = 0; k < 14; ++k) {
    EXPECT_TRUE(close(ref.terms[k], ours.terms[k], t.rel, t.abs))
        << "compute pair term " << names[k] << ": reaxff " << ref.terms[k] << " reaxff/gpu "
        << ours.terms[k];
    if (std::fabs(ref.terms[k]) > t.abs)
      w.term = std::max(w.term, std::fabs(ref.terms[k] - ours.terms[k]) / std::fabs(ref.terms[k]));
  }
  EXPECT_TRUE(close(ref.pe, ours.pe, t.rel, t.abs)) << "pe " << ref.pe << " vs " << ours.pe;

  ASSERT_EQ(ref.f.size(), ours.f.size());
  ASSERT_FALSE(ref.f.empty());
  double fmax = 0, fdiff = 0;
  for (size_t i = 0; i < ref.f.size(); ++i) {
    fmax = std::max(fmax, std::fabs(ref.f[i]));
    fdiff = std::max(fdiff, std::fabs(ref.f[i] - ours.f[i]));
  }
  EXPECT_LE(fdiff, t.force_rel * fmax) << "forces (max |F| " << fmax << ")";
  w.force = fdiff / fmax;
  double qdiff = 0;
  for (size_t i = 0; i < ref.q.size(); ++i)
    qdiff = std::max(qdiff, std::fabs(ref.q[i] - ours.q[i]));
  EXPECT_LE(qdiff, t.charge) << "charges";
  w.charge = qdiff;
}

// Whether the input's thermo output shows one of `columns`.
bool prints_any(const std::vector<std::string> &commands, const std::vector<std::string> &columns) {
  for (const std::string &c : commands) {
    std::istringstream in(c);
    std::string w;
    if (!(in >> w) || w != "thermo_style") continue;
    while (in >> w)
      if (listed(columns, w)) return true;
  }
  return false;
}

void print_table(const std::string &name, const char *how, const Worst &w) {
  if (mpi_rank() != 0) return;
  std::printf(
      "[ table ] %-28s ranks %d  %-10s: worst rel. thermo %.1e  term %.1e  force %.1e x "
      "max|F|  charge %.1e%s",
      name.c_str(), mpi_size(), how, w.thermo, w.term, w.force, w.charge,
      lammps_has_gpu_package() ? "  (LAMMPS GPU package)" : "");
  if (w.iterations > 0) std::printf("  FSAI iterations <= %.2f x reaxff's", w.iterations);
  std::printf("\n");
}

class ExamplesReaxff : public ::testing::TestWithParam<ExampleInput> {};

const char *switch_name(Switch how) {
  return how == Switch::CommandLine ? "-sf gpu" : how == Switch::Kokkos ? "-k on" : "suffix gpu";
}

// Each input switched one way (CI time: the ways switch the same styles, so
// running each input every way runs the same run again): -sf gpu on the
// command line, or the input command `suffix gpu` as the input's first line,
// in turn down the list. Where LAMMPS has KOKKOS, every other input runs
// under -k on instead, the others on 2 ranks: over the 1- and 2-rank jobs,
// each input once under -k on and once with its suffix.
Switch switch_for(size_t index, int nprocs) {
  const Switch suffix = index % 2 ? Switch::InputCommand : Switch::CommandLine;
  if ((index + nprocs) % 2 == 0) return suffix;
  return kokkos_runs_here() ? Switch::Kokkos : suffix;  // (else it says why not)
}

TEST_P(ExamplesReaxff, SameWithSuffixGpu) {
  const ExampleInput &input = GetParam();
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > kMaxRanks)
    GTEST_SKIP() << "examples/reaxff inputs run on at most " << kMaxRanks << " ranks in CI (time)";
  const std::vector<ExampleInput> all = example_inputs();
  const auto at = std::find_if(all.begin(), all.end(),
                               [&](const ExampleInput &e) { return e.name == input.name; });
  const Switch switches[] = {switch_for(at - all.begin(), nprocs)};

  const std::string text = read_text(input.dir + "/" + input.file);
  const int steps = max_steps(text);
  const ExampleResult ref = run_example(input, Switch::None, steps, kTolerance);
  ASSERT_EQ(ref.error, "") << "the input as shipped failed";
  const std::vector<std::string> commands = harness_commands(text, steps, kTolerance);
  const auto iterations = iteration_columns(commands);
  // ours precondition with FSAI, the default
  const auto fsai = iteration_columns(commands, ChargeFixes::Preconditioned);
  for (Switch how : switches) {
    SCOPED_TRACE(switch_name(how));
    const ExampleResult ours = run_example(input, how, steps, kTolerance);
    ASSERT_EQ(ours.error, "") << "the input with " << switch_name(how) << " failed";
    Worst w;
    compare_thermo(ref.last_thermo, ours.last_thermo, iterations, fsai, w);
    compare_log_rows(ref.log_rows, ours.log_rows, iterations, fsai, w);
    compare_atoms(ref, ours, w);
    print_table(input.name, switch_name(how), w);
  }
}

// With -var reaxff_gpu "precond jacobi" beside -sf gpu, ours runs fix
// qeq/reaxff's preconditioner, as the input is: the inputs that print CG
// iteration counts show fix qeq/reaxff's (within kIterations), besides the
// same physics as above.
TEST(ExamplesReaxffJacobi, IterationCountsAreFixQeqReaxffs) {
  if (mpi_size() > kMaxRanks)
    GTEST_SKIP() << "examples/reaxff inputs run on at most " << kMaxRanks << " ranks in CI (time)";
  int inputs = 0;
  for (const ExampleInput &input : example_inputs()) {
    const std::string text = read_text(input.dir + "/" + input.file);
    const int steps = max_steps(text);
    const std::vector<std::string> commands = harness_commands(text, steps, kTolerance);
    if (!prints_any(commands, iteration_columns(commands, ChargeFixes::Preconditioned))) continue;
    ++inputs;
    SCOPED_TRACE(input.name);
    const ExampleResult ref = run_example(input, Switch::None, steps, kTolerance);
    ASSERT_EQ(ref.error, "") << "the input as shipped failed";
    const ExampleResult ours = run_example(input, Switch::CommandLine, steps, kTolerance,
                                           {"-var", "reaxff_gpu", "precond jacobi"});
    ASSERT_EQ(ours.error, "") << "the input with -sf gpu -var reaxff_gpu failed";
    Worst w;
    const auto iterations = iteration_columns(commands);
    compare_thermo(ref.last_thermo, ours.last_thermo, iterations, {}, w);
    compare_log_rows(ref.log_rows, ours.log_rows, iterations, {}, w);
    compare_atoms(ref, ours, w);
    print_table(input.name, "-sf gpu, precond jacobi", w);
  }
  // (LAMMPS's in.reaxff.rdx and in.reaxff.tatb print fix qeq/reaxff's count)
  EXPECT_GE(inputs, 2) << "fewer inputs print CG iteration counts than LAMMPS ships";
}

INSTANTIATE_TEST_SUITE_P(Inputs, ExamplesReaxff, ::testing::ValuesIn(example_inputs()),
                         [](const auto &info) {
                           std::string n = info.param.name;
                           std::replace_if(
                               n.begin(), n.end(), [](char c) { return !isalnum(c); }, '_');
                           return n;
                         });

// The inputs come from the LAMMPS source the build uses: all of them, not a
// hand-copied subset. The parameterized test above runs whatever it finds,
// so this is what fails when an input goes missing (a wrong
// LAMMPS_EXAMPLES_DIR, a packaged source without some example). Every input
// of LAMMPS 4Feb2025 must be there, and 4Jul2026's QEqR inputs where LAMMPS
// has that fix; a newer LAMMPS may add more, which the test above then runs
// as well.
TEST(ExamplesReaxffSource, HasEveryInput) {
  std::vector<std::string> expected = {"AB/in.AB",
                                       "AuO/in.AuO",
                                       "CHO/in.CHO",
                                       "FC/in.FC",
                                       "FeOH3/in.FeOH3",
                                       "HNS/in.reaxff.hns",
                                       "RDX/in.RDX",
                                       "VOH/in.VOH",
                                       "ZnOH2/in.ZnOH2",
                                       "ci-reaxFF/in.ci-reax.CH",
                                       "in.reaxff.rdx",
                                       "in.reaxff.rdx-shielded",
                                       "in.reaxff.tatb",
                                       "in.reaxff.tatb-shielded",
                                       "water/in.water.acks2",
                                       "water/in.water.acks2.field",
                                       "water/in.water.qeq",
                                       "water/in.water.qeq.field",
                                       "water/in.water.qtpie",
                                       "water/in.water.qtpie.field"};
  // and LAMMPS 4Jul2026's, with fix qeq/rel/reaxff
  LammpsSession lmp;
  if (lmp.has_style("fix", "qeq/rel/reaxff"))
    for (const char *name : {"water/in.water.qeqr", "water/in.water.qeqr.field"})
      expected.push_back(name);
  std::vector<std::string> found;
  for (const ExampleInput &in : example_inputs()) found.push_back(in.name);
  for (const std::string &name : expected)
    EXPECT_TRUE(listed(found, name)) << name << " is not in " << LAMMPS_EXAMPLES_DIR;
}

}  // namespace
