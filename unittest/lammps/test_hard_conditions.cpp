// Inputs that stress what a code sizes and checks for itself, with ours at
// its defaults (no safezone, mincap or minhbonds: its lists size
// themselves) against LAMMPS's reaxff + qeq/reaxff in the same process, on
// the same ranks, compared at the end (comparison.h):
//   HNS compressed to 1.5 times its density during the run (fix deform), so
//     that every list grows mid-run;
//   LAMMPS's TATB example heated to 4,000 K (bonds break and form);
//   LAMMPS's water example squeezed to about 10 GPa (change_box, then fix npt
//     at 10 GPa);
// reaxff there gets the keywords its own lists need (safezone 3.0 mincap
// 150: the water example's; without them it crashed on compressed HNS on 2
// and 4 ranks); they change no physics. Also: a charge solve
// that cannot converge (maxiter 2) warns and counts on every step, never a
// NaN; and one C-C bond stretched through the bond-order cut-off gives
// reaxff's forces at every length (no spike of ours).
// Ours runs with the driver LAMMPS's machine has (auto: CUDA on a GPU, the
// host driver in CI), and as KOKKOS styles under -k on where LAMMPS has KOKKOS.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "comparison.h"
#include "lammps_session.h"

namespace {

struct HardSystem {
  std::string dir;  // absolute
  std::string data, control, ffield, elements, qeq_params;
  std::string replicate;     // "2 2 1", or ""
  std::string reaxff_needs;  // pair_style keywords LAMMPS's reaxff needs here
  double dt;
};

HardSystem hns() {
  return {source_dir() + "/examples/HNS/", "data.hns-equil", "NULL", "ffield.reax.hns", "C H O N",
          "reaxff", "2 2 1",
          // (at 1.5x density on 2 and 4 ranks reaxff's lists overflow at its
          // defaults: it crashed in Compute_Forces)
          "safezone 3.0 mincap 150", 0.1};
}
HardSystem tatb() {
  return {std::string(LAMMPS_EXAMPLES_DIR) + "/",
          "data.tatb",
          "control.reax_c.tatb",
          "ffield.reax",
          "C H O N",
          "reaxff",
          "2 2 1",
          "",
          0.0625};
}
HardSystem water() {
  return {std::string(LAMMPS_EXAMPLES_DIR) + "/water/",
          "data.water",
          "NULL",
          "qeq_ff.water",
          "O H",
          "reaxff",
          "",
          "safezone 3.0 mincap 150",
          0.25};
}

// comparison.cpp's computes and thermo, on `s` with the styles of `v`.
std::string setup(const HardSystem &s, const Variant &v) {
  const bool reference = v.pair == "reaxff" && v.lammps_args.empty();
  const std::string control = s.control == "NULL" ? "NULL" : s.dir + s.control;
  std::ostringstream o;
  o << "units real\natom_style charge\natom_modify map array\n"
    << "read_data " << s.dir << s.data << "\n";
  if (!s.replicate.empty()) o << "replicate " << s.replicate << "\n";
  o << "pair_style " << v.pair << " " << control << " " << (reference ? s.reaxff_needs : "") << " "
    << v.pair_keywords << "\n"
    << "pair_coeff * * " << s.dir << s.ffield << " " << s.elements << "\n"
    << "neighbor 2.0 bin\nneigh_modify every 1 delay 0 check yes\n"
    << "fix qeq all " << v.qeq << " 1 0.0 10.0 1.0e-14 " << s.qeq_params << " maxiter 2000 "
    << v.qeq_keywords << "\n"
    << snapshot_outputs(v.pair) << "timestep " << s.dt << "\n";
  return o.str();
}

struct Ending {
  std::string error;
  Snapshot snap;
  double step = 0;
};

Ending drive(const HardSystem &s, const Variant &v, const std::string &commands) {
  const std::unique_ptr<LammpsSession> session = open_session(v);
  LammpsSession &lmp = *session;
  Ending e;
  e.error = lmp.run(setup(s, v));
  if (e.error.empty()) e.error = lmp.run(commands);
  if (!e.error.empty()) return e;
  e.snap = snapshot(lmp);
  e.step = lmp.thermo("step");
  return e;
}

std::vector<Variant> ours() {
  std::vector<Variant> out = {our_styles("auto")};
  if (kokkos_runs_here()) out.push_back(kokkos_styles("auto"));
  return out;
}

// The commands with reaxff and with ours; the same state at the end within `tol`.
void expect_same(const std::string &label, const HardSystem &s, const std::string &commands,
                 const Tolerances &tol) {
  SCOPED_TRACE(label);
  const Ending ref = drive(s, reference_styles(), commands);
  ASSERT_EQ(ref.error, "") << "with LAMMPS's reaxff";
  ASSERT_GT(ref.step, 0) << "nothing ran";
  for (const Variant &v : ours()) {
    const std::string how = v.lammps_args.empty() ? "-sf gpu styles" : "-k on";
    SCOPED_TRACE(how);
    const Ending mine = drive(s, v, commands);
    ASSERT_EQ(mine.error, "") << "with reaxff/gpu at its defaults";
    EXPECT_EQ(mine.step, ref.step);
    Worst w;
    compare(label, ref.snap, mine.snap, tol, w);
    if (mpi_rank() == 0)
      std::printf(
          "[ hard  ] %-34s %-14s ranks %d  step %4.0f  worst rel. term %.1e  force %.1e x "
          "max|F|  charge %.1e  pressure %.1e\n",
          label.c_str(), how.c_str(), mpi_size(), ref.step, w.term_rel, w.force_rel, w.charge,
          w.press_rel);
  }
}

// After tens of violent steps both codes' round-off has grown through the
// dynamics (host driver: terms 4.3e-13 relative at worst, forces 8.6e-14 x
// max|F|, charges 3.1e-13); the bounds are those of the other runs after
// dynamics (test_run_styles.cpp, kVsReaxFF), which the GPU's atomics need.
constexpr Tolerances kAfterHardSteps{1e-10, 1e-8, 1e-8, 1e-9, 1e-9};

TEST(HardConditions, HnsCompressedToOneAndAHalfItsDensityDuringTheRun) {
  // 1216 atoms; each edge to 0.87358 (volume / 1.5) in 20 steps, then 5 more
  expect_same("HNS compressed 1.5x (fix deform)", hns(),
              "velocity all create 300.0 4928459 mom yes rot no loop geom\n"
              "fix nve all nve\n"
              "fix d all deform 1 x scale 0.87358 y scale 0.87358 z scale 0.87358 remap x\n"
              "run 20 post no\nunfix d\nrun 5 post no\n",
              kAfterHardSteps);
}

TEST(HardConditions, TatbAtFourThousandKelvin) {
  // 1536 atoms (LAMMPS's in.reaxff.tatb, twice in x and y), 30 steps of 0.0625 fs
  expect_same("TATB at 4000 K", tatb(),
              "velocity all create 4000.0 4928459 mom yes rot no loop geom\n"
              "fix nve all nve\nrun 30 post no\n",
              kAfterHardSteps);
}

// LAMMPS's water example squeezed to 0.8 of its volume (25 GPa at once with
// this force field, 11 GPa ten steps later, host driver), then held at
// 10 GPa by fix npt.
TEST(HardConditions, WaterAtTenGigapascal) {
  expect_same("water at 10 GPa (fix npt)", water(),
              "velocity all create 300.0 4928459 mom yes rot no loop geom\n"
              "change_box all x scale 0.93 y scale 0.93 z scale 0.93 remap\n"
              "fix p all npt temp 300.0 300.0 25.0 iso 98692.0 98692.0 250.0\n"
              "run 20 post no\n",
              kAfterHardSteps);
}

// maxiter 2 on HNS: every step warns with its iteration count, and the
// energies and charges stay finite through 10 steps.
TEST(HardConditions, ChargesThatCannotConvergeWarnAndStayFinite) {
  for (const Variant &v : ours()) {
    SCOPED_TRACE(v.lammps_args.empty() ? "-sf gpu styles" : "-k on");
    const std::string log = scratch_path("hard_maxiter.log");
    {
      const std::unique_ptr<LammpsSession> session = open_session(v, log);
      LammpsSession &lmp = *session;
      std::string script = setup(hns(), v);
      const std::string full = "maxiter 2000 ";
      script.replace(script.find(full), full.size(), "maxiter 2 ");
      ASSERT_EQ(lmp.run(script), "");
      ASSERT_EQ(lmp.run("velocity all create 300.0 4928459 mom yes rot no loop geom\n"
                        "fix nve all nve\nthermo 1\nrun 10 post no\n"),
                "");
      EXPECT_TRUE(std::isfinite(lmp.thermo("pe")));
      EXPECT_TRUE(std::isfinite(lmp.thermo("press")));
      for (double q : lmp.gather("q", 1)) ASSERT_TRUE(std::isfinite(q));
    }
    if (mpi_rank() != 0) continue;
    const std::string text = read_text(log);
    int warnings = 0;
    for (std::size_t at = text.find("2 iterations"); at != std::string::npos;
         at = text.find("2 iterations", at + 1))
      ++warnings;
    // (set-up, then one solve a step; LAMMPS may print a repeated warning once)
    EXPECT_GE(warnings, 1) << text.substr(0, 4000);
  }
}

// Two carbons (CHO's force field, charges 0, no charge fix) from 1.0 to 3.2 A
// apart in 0.01 A steps: the bond order falls through its cut-off on the way.
// At every length ours gives reaxff's energy and forces, within 1e-9 of the
// larger of |F| and 1 kcal/mol/A.
TEST(HardConditions, BondStretchedThroughTheBondOrderCutoff) {
  const std::string dir = source_dir() + "/examples/CHO/";
  const std::string data = scratch_file(
      "hard_cc.data",
      "two carbons\n\n2 atoms\n3 atom types\n\n0 30 xlo xhi\n0 30 ylo yhi\n0 30 zlo zhi\n\n"
      "Masses\n\n1 1.008\n2 12.011\n3 15.999\n\nAtoms\n\n1 2 0.0 10.0 10.0 10.0\n"
      "2 2 0.0 11.0 10.0 10.0\n");
  auto scan = [&](const Variant &v, std::vector<double> &energy, std::vector<double> &force) {
    const std::unique_ptr<LammpsSession> session = open_session(v);
    LammpsSession &lmp = *session;
    ASSERT_EQ(lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + data +
                      "\npair_style " + v.pair + " " + dir + "lmp_control checkqeq no " +
                      v.pair_keywords + "\npair_coeff * * " + dir +
                      "ffield.reax.cho H C O\nneighbor 2.0 bin\nthermo_style custom step pe\n"),
              "");
    for (int k = 0; k <= 220; ++k) {
      const double x = 11.0 + 0.01 * k;
      char line[128];
      std::snprintf(line, sizeof line, "set atom 2 x %.6f\nrun 0 post no\n", x);
      ASSERT_EQ(lmp.run(line), "");
      energy.push_back(lmp.thermo("pe"));
      force.push_back(lmp.gather("f", 3)[3]);  // atom 2's x component
    }
  };
  std::vector<double> e_ref, f_ref;
  scan(reference_styles(), e_ref, f_ref);
  ASSERT_EQ(f_ref.size(), 221u);
  for (const Variant &v : ours()) {
    SCOPED_TRACE(v.lammps_args.empty() ? "-sf gpu styles" : "-k on");
    std::vector<double> e, f;
    scan(v, e, f);
    ASSERT_EQ(f.size(), f_ref.size());
    double worst = 0;
    for (std::size_t k = 0; k < f.size(); ++k) {
      const double scale = std::max(std::fabs(f_ref[k]), 1.0);
      EXPECT_NEAR(f[k], f_ref[k], 1e-9 * scale) << "at " << 1.0 + 0.01 * k << " A";
      EXPECT_NEAR(e[k], e_ref[k], 1e-9 * std::max(std::fabs(e_ref[k]), 1.0))
          << "at " << 1.0 + 0.01 * k << " A";
      worst = std::max(worst, std::fabs(f[k] - f_ref[k]) / scale);
    }
    if (mpi_rank() == 0)
      std::printf("[ hard  ] C-C scan 1.0-3.2 A, 221 lengths   worst force %.1e (of max(|F|, 1))\n",
                  worst);
  }
}

}  // namespace
