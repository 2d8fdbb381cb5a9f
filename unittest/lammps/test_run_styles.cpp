// Every way LAMMPS drives or moves atoms besides the plain Verlet step, with
// reaxff/gpu + qeq/reaxff/gpu (driver auto: the CUDA driver on a GPU, the host
// driver in CI) against LAMMPS's reaxff + qeq/reaxff, in the same process and
// on the same ranks: run_style respa with the pair on each level (with the
// QEq fix, and with fixed charges), minimize (cg, fire), rerun of a dump,
// `run ... pre no`, and displace_atoms / set / delete_atoms / change_box between runs;
// where LAMMPS has KOKKOS, ours also as KOKKOS styles under -k on.
// Each case runs the same commands with both styles and compares, at the
// end, the energy terms, thermo energies, pressure, per-atom forces and
// charges (comparison.h), and the step count; ours with the QEq fix runs
// with each preconditioner (fix keyword precond: jacobi, fsai).
//
// The system is examples/CHO (105 atoms) at 3000 K: atoms move enough within
// a few steps that forces from stale positions are far off (a user saw 2.9
// kcal/mol/A after 40 steps of rRESPA with the CUDA driver, when positions
// were not uploaded again between the outer-level charge solve and the
// inner-level forces), against 1e-8 x max|F| allowed. A case takes well
// under a second per style on the host driver.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "comparison.h"
#include "lammps_session.h"

namespace {

// The tolerances of the comparisons with reaxff (test_compare_reaxff.cpp);
// both QEq fixes solve to 1e-14 (comparison.cpp), so the charge solve's
// stopping point is not the noise.
constexpr Tolerances kVsReaxFF{1e-10, 1e-8, 1e-8, 1e-8, 1e-9};
constexpr int kSteps = 40;  // per run: the user's rRESPA case

// With the QEq fix, or with charges that stay as `set` gave them.
enum class Charges { QEq, Fixed };

SystemSpec cho(Charges charges) {
  for (SystemSpec s : all_systems())
    if (s.name == "CHO") {
      if (charges == Charges::Fixed) s.pair_extra += " checkqeq no";
      return s;
    }
  throw std::logic_error("no CHO in all_systems()");
}

// comparison.cpp's set-up (computes, thermo, fix nve) for CHO, hot. Fixed
// charges are about what QEq gives each element, so Coulomb counts.
std::string setup(Charges charges, const Variant &v) {
  std::string s = setup_script(cho(charges), v) +
                  "velocity all create 3000.0 4928459 mom yes rot no loop geom\n";
  if (charges == Charges::Fixed)
    s += "unfix qeq\nset type 1 charge 0.15\nset type 2 charge -0.2\nset type 3 charge -0.35\n";
  return s;
}

struct Ending {
  std::string error;  // LAMMPS's ("" if the commands ran)
  Snapshot snap;
  double step = 0;  // minimizer iterations, rerun's last frame
  double seconds = 0;
};

// The set-up, then `commands`, with one set of styles.
Ending drive(const Variant &v, Charges charges, const std::string &commands) {
  const auto start = std::chrono::steady_clock::now();
  const std::unique_ptr<LammpsSession> session = open_session(v);
  LammpsSession &lmp = *session;
  Ending e;
  e.error = lmp.run(setup(charges, v));
  if (e.error.empty()) e.error = lmp.run(commands);
  if (!e.error.empty()) return e;
  e.snap = snapshot(lmp);
  e.step = lmp.thermo("step");
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

// The ways ours runs a case (fixed charges: no fix, no preconditioner): each
// preconditioner, and where LAMMPS has KOKKOS (unless `kokkos` is false) as
// KOKKOS styles under -k on (Jacobi).
struct OursCase {
  const char *precond;
  bool kokkos;
};
std::vector<OursCase> ours_cases(Charges charges, bool kokkos = true) {
  std::vector<OursCase> out = {{"jacobi", false}};
  if (charges == Charges::QEq) out.push_back({"fsai", false});
  if (kokkos && lammps_has_kokkos()) out.push_back({"jacobi", true});
  return out;
}
Variant ours_for(const OursCase &c) {
  Variant v = c.kokkos ? kokkos_styles("auto") : our_styles("auto");
  v.qeq_keywords = std::string("precond ") + c.precond;
  return v;
}

// One way of driving LAMMPS, named by `label` in every failure: the same
// commands with LAMMPS's styles and with ours, the same state at the end.
void expect_same(const std::string &label, Charges charges, const std::string &commands,
                 bool kokkos = true) {
  SCOPED_TRACE(label);
  const Ending ref = drive(reference_styles(), charges, commands);
  ASSERT_EQ(ref.error, "") << "with LAMMPS's reaxff";
  ASSERT_GT(ref.step, 0) << "nothing ran: the comparison would be vacuous";
  for (const OursCase &c : ours_cases(charges, kokkos)) {
    const std::string precond = std::string(c.precond) + (c.kokkos ? ", -k on" : "");
    SCOPED_TRACE("precond " + precond);
    const Ending ours = drive(ours_for(c), charges, commands);
    ASSERT_EQ(ours.error, "") << "with reaxff/gpu";
    EXPECT_EQ(ours.step, ref.step) << "last step (minimizer iterations)";
    Worst w;
    compare(label, ref.snap, ours.snap, kVsReaxFF, w);
    if (mpi_rank() != 0) continue;
    int nprocs = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    std::printf(
        "[ runs  ] %-40s %-6s ranks %d  step %4.0f  %.2f s + %.2f s  worst rel. term %.1e  "
        "force %.1e x max|F|  charge %.1e\n",
        label.c_str(), precond.c_str(), nprocs, ref.step, ref.seconds, ours.seconds, w.term_rel,
        w.force_rel, w.charge);
  }
}

std::string run_n(int n) { return "run " + std::to_string(n) + " post no\n"; }

// --- rRESPA: the QEq fix solves at the outermost level; the pair's forces
// come at the level named, after inner steps have moved the atoms since the
// solve (inner, middle) or right after it (outer). Without the fix nothing
// solves, and each force call must still see the positions of its own
// (inner) step.

// (ours only as plain styles: under -k on reaxff/gpu refuses rRESPA, KokkosSwitch)
std::string respa(const std::string &levels) {
  return "run_style respa " + levels + "\n" + run_n(kSteps);
}

TEST(RunStyles, RespaPairInnerWithQEq) {
  expect_same("respa 2 2 pair 1, QEq", Charges::QEq, respa("2 2 pair 1"), false);
}
TEST(RunStyles, RespaPairMiddleWithQEq) {
  expect_same("respa 3 2 2 pair 2, QEq", Charges::QEq, respa("3 2 2 pair 2"), false);
}
TEST(RunStyles, RespaPairOuterWithQEq) {
  expect_same("respa 2 2 pair 2, QEq", Charges::QEq, respa("2 2 pair 2"), false);
}
TEST(RunStyles, RespaPairInnerFixedCharges) {
  expect_same("respa 2 2 pair 1, fixed charges", Charges::Fixed, respa("2 2 pair 1"), false);
}
TEST(RunStyles, RespaPairMiddleFixedCharges) {
  expect_same("respa 3 2 2 pair 2, fixed charges", Charges::Fixed, respa("3 2 2 pair 2"), false);
}
TEST(RunStyles, RespaPairOuterFixedCharges) {
  expect_same("respa 2 2 pair 2, fixed charges", Charges::Fixed, respa("2 2 pair 2"), false);
}

// --- Minimizers: the QEq fix solves at min_pre_force of every evaluation,
// and the line search moves atoms between evaluations. Tolerances 0: both
// run the full iteration count unless a line search stops, which must then
// happen at the same iteration. Few iterations: from this hot start the
// minimizers amplify round-off (LAMMPS's reaxff against itself after a
// rigid shift of 1e-11 A: energy terms 2.3e-7 apart relative, forces 1.8e-5
// x max|F| after 40 CG iterations; 1.5e-13 and 1e-11 after 10; FIRE 8.6e-12
// and 6.1e-10 after 40), so only the first tens of iterations compare at
// reaxff's tolerances.

TEST(RunStyles, MinimizeCG) {
  expect_same("minimize, min_style cg", Charges::QEq, "min_style cg\nminimize 0.0 0.0 10 100\n");
}
TEST(RunStyles, MinimizeFire) {
  // (LAMMPS's KOKKOS package has no fire/kk: it refuses `minimize` under -k on)
  expect_same("minimize, min_style fire", Charges::QEq, "min_style fire\nminimize 0.0 0.0 20 200\n",
              false);
}

// --- rerun: every frame's positions come from a file, not from motion.

// Frames every 10 steps of a reference run (LAMMPS's styles) at full
// precision, written once per test process.
const std::string &reference_dump() {
  static const std::string path = [] {
    const std::string p = scratch_path("run_styles_cho.dump");
    LammpsSession lmp;
    const std::string err =
        lmp.run(setup(Charges::QEq, reference_styles()) + "dump d all custom 10 " + p +
                " id type x y z\ndump_modify d sort id format float %.17g\n" + run_n(kSteps) +
                "undump d\n");
    EXPECT_EQ(err, "") << "writing the dump to rerun";
    return p;
  }();
  return path;
}

// Each frame's pe, one a line, in `pe_file` (rank 0 writes it).
std::string rerun(const std::string &pe_file) {
  return "fix pp all print 10 \"$(pe:%.17g)\" file " + pe_file + " screen no\nrerun " +
         reference_dump() + " dump x y z\n";
}

// The numbers of fix print's file, after its title line.
std::vector<double> printed_values(const std::string &path) {
  std::vector<double> out;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(std::stod(line));
  return out;
}

// Same pe at every frame, same state at the last.
TEST(RunStyles, RerunOfADump) {
  const std::string ref_pe = scratch_path("run_styles_ref_pe"),
                    our_pe = scratch_path("run_styles_our_pe");
  const Ending ref = drive(reference_styles(), Charges::QEq, rerun(ref_pe));
  ASSERT_EQ(ref.error, "") << "rerun with LAMMPS's reaxff";
  EXPECT_EQ(ref.step, kSteps) << "the last frame";
  for (const OursCase &c : ours_cases(Charges::QEq)) {
    SCOPED_TRACE(std::string("precond ") + c.precond + (c.kokkos ? ", -k on" : ""));
    const Ending ours = drive(ours_for(c), Charges::QEq, rerun(our_pe));
    ASSERT_EQ(ours.error, "") << "rerun with reaxff/gpu";
    EXPECT_EQ(ours.step, ref.step) << "the last frame";
    Worst w;
    compare("rerun, last frame", ref.snap, ours.snap, kVsReaxFF, w);
    if (mpi_rank() != 0) continue;
    const std::vector<double> a = printed_values(ref_pe), b = printed_values(our_pe);
    ASSERT_EQ(a.size(), kSteps / 10 + 1u) << "frames of the reference rerun";
    ASSERT_EQ(b.size(), a.size()) << "frames of the rerun with reaxff/gpu";
    for (size_t k = 0; k < a.size(); ++k)
      EXPECT_NEAR(b[k], a[k], kVsReaxFF.term_rel * std::fabs(a[k])) << "rerun, pe of frame " << k;
  }
}

// --- Runs continued or set up again around changes LAMMPS makes between
// runs.

// The second run has no set-up: no neighbour build, no QEq set-up solve.
TEST(RunStyles, RunWithPreNo) {
  expect_same("run, then run pre no post no", Charges::QEq,
              run_n(kSteps / 2) + "run " + std::to_string(kSteps / 2) + " pre no post no\n");
}

// Some atoms moved by displace_atoms, one by `set atom ... x`.
TEST(RunStyles, DisplaceAtomsAndSetBetweenRuns) {
  expect_same("displace_atoms and set x between runs", Charges::QEq,
              run_n(kSteps / 2) +
                  "group front id 1:40\ndisplace_atoms front move 0.15 -0.1 0.05 units box\n"
                  "set atom 7 x $(x[7]+0.2)\n" +
                  run_n(kSteps / 2));
}

// Charges given by `set` between runs, without a QEq fix: forces must take
// the new ones.
TEST(RunStyles, SetChargeBetweenRuns) {
  expect_same("set charge between runs, fixed charges", Charges::Fixed,
              run_n(kSteps / 2) + "set type 3 charge -0.5\n" + run_n(kSteps / 2));
}

// The box itself changes between runs (change_box with remap): a new box,
// new periodic images, positions scaled.
TEST(RunStyles, ChangeBoxBetweenRuns) {
  expect_same("change_box between runs", Charges::QEq,
              run_n(kSteps / 2) + "change_box all x scale 1.004 y scale 0.997 remap units box\n" +
                  run_n(kSteps / 2));
}

// The box changes on every step (fix npt: fix npt/kk under -k on).
TEST(RunStyles, NptRun) {
  expect_same("fix npt", Charges::QEq,
              "unfix nve\nfix npt all npt temp 3000 3000 10 iso 1 1 100\n" + run_n(kSteps));
}

// Fewer atoms (IDs compressed) in the second run.
TEST(RunStyles, DeleteAtomsBetweenRuns) {
  expect_same(
      "delete_atoms between runs", Charges::QEq,
      run_n(kSteps / 2) + "group gone id 95:105\ndelete_atoms group gone\n" + run_n(kSteps / 2));
}

}  // namespace
