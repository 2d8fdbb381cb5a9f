// Under `-k on` (LAMMPS's KOKKOS package) our styles are KOKKOS styles
// (src/REAXFF_CUDA/kokkos_atoms.h): `-k on ... -sf hybrid gpu kk` makes
// LAMMPS's reaxff and qeq/reaxff ours and gives everything else (atom style,
// integrator, communication) kk's, so the atoms stay in Kokkos's arrays and
// the CUDA driver reads and writes them there. Same physics as LAMMPS's
// reaxff run without KOKKOS in the same binary: every term, the pressure,
// forces and charges at step 0 and after NVE dynamics (re-neighbouring,
// atoms migrating), with both preconditioners and with the host driver.
// Runs where LAMMPS has KOKKOS (the device bundle's LAMMPS; CI's has none:
// skipped, with the reason).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "comparison.h"
#include "fix.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "species_systems.h"

namespace {

// CompareReaxFF's tolerances.
constexpr Tolerances kVsReaxFF{1e-10, 1e-8, 1e-8, 1e-8, 1e-9};

#define REQUIRE_KOKKOS()                                                                         \
  if (!lammps_has_kokkos())                                                                      \
  GTEST_SKIP() << "this LAMMPS has no KOKKOS package; the device bundle built against one runs " \
                  "these (bench/README, \"KOKKOS\")"

class KokkosStyles : public ::testing::TestWithParam<SystemSpec> {};

TEST_P(KokkosStyles, SameAsReaxffAtStepZeroAndAfterDynamics) {
  REQUIRE_KOKKOS();
  const SystemSpec &sys = GetParam();
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Snapshot ref0, ref1, our0, our1;
  std::string err;
  ASSERT_TRUE(run_system(sys, reference_styles(), ref0, ref1, &err)) << err;
  struct Case {
    const char *driver, *precond;
  };
  for (const Case c : {Case{"auto", "jacobi"}, Case{"auto", "fsai"}, Case{"host", "jacobi"}}) {
    SCOPED_TRACE(std::string("driver ") + c.driver + ", precond " + c.precond);
    Variant ours = kokkos_styles(c.driver);
    ours.qeq_keywords = std::string("precond ") + c.precond;
    ASSERT_TRUE(run_system(sys, ours, our0, our1, &err)) << err;
    const Worst w = compare_runs(sys, ref0, ref1, our0, our1, kVsReaxFF);
    if (mpi_rank() == 0)
      std::printf(
          "[ table ] %-11s kokkos %-4s %-6s ranks %d  worst rel. energy term %.2e  force %.2e x "
          "max|F|  charge %.2e  pressure %.2e\n",
          sys.name.c_str(), c.driver, c.precond, nprocs, w.term_rel, w.force_rel, w.charge,
          w.press_rel);
  }
}

std::vector<SystemSpec> kokkos_systems() {
  std::vector<SystemSpec> out;
  for (const SystemSpec &s : all_systems())
    if (s.name == "HNS" || s.name == "RDX" || s.name == "CHO") out.push_back(s);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Systems, KokkosStyles, ::testing::ValuesIn(kokkos_systems()),
                         [](const auto &info) { return info.param.name; });

// The log says the styles ran as KOKKOS styles (else the comparison above
// could pass on the host-array path).
TEST(KokkosSwitch, LogNamesTheKokkosStyles) {
  REQUIRE_KOKKOS();
  const std::string log = scratch_path("kokkos_styles.log");
  {
    Variant v = kokkos_styles("auto");
    LammpsSession lmp(log, v.lammps_args, true);
    ASSERT_EQ(lmp.run(setup_script(all_systems().front(), v) + "run 0 post no\n"), "");
  }
  if (mpi_rank() != 0) return;
  const std::string text = read_text(log);
  EXPECT_NE(text.find("ReaxFF/GPU: a KOKKOS style"), std::string::npos) << text;
  EXPECT_NE(text.find("QEq/GPU: fix qeq uses"), std::string::npos) << text;
}

// The charge fix's history (the CG's initial guesses) moves with the atoms
// in KOKKOS's exchange and sort, on the GPU where the CUDA driver keeps it:
// a second run sorts the atoms by another bin size at its set-up (a new
// order, the history kept) and every 10 steps, and the atoms drift across
// the ranks' boundaries (2 ranks). The CG then needs the iterations it needs
// without KOKKOS (same plugin, LAMMPS's host exchange and sort); a history
// left behind or scrambled costs several iterations a solve.
TEST(KokkosSwitch, HistoryMovesWithTheAtoms) {
  REQUIRE_KOKKOS();
  const SystemSpec &sys = all_systems()[1];  // RDX (LAMMPS sorts no triclinic box: not HNS)
  auto mean_iterations = [&](Variant v, double &s, double &t) {
    v.after_box = "atom_modify sort 10 0.0";
    const std::unique_ptr<LammpsSession> session = open_session(v);
    LammpsSession &lmp = *session;
    const std::string err =
        lmp.run(setup_script(sys, v) +
                "velocity all set 0.1 0.1 0.1 sum yes\nrun 50 post no\natom_modify sort 10 1.7\n"
                "fix its all ave/time 1 50 50 f_qeq[1] f_qeq[2]\nrun 50 post no\n");
    ASSERT_EQ(err, "");
    s = lmp.fix_vector("its", 0);
    t = lmp.fix_vector("its", 1);
  };
  double s_host = 0, t_host = 0, s_kk = 0, t_kk = 0;
  mean_iterations(our_styles("auto"), s_host, t_host);
  mean_iterations(kokkos_styles("auto"), s_kk, t_kk);
  if (mpi_rank() == 0)
    std::printf(
        "[ table ] history under KOKKOS: mean CG iterations s %.2f t %.2f, without %.2f %.2f\n",
        s_kk, t_kk, s_host, t_host);
  EXPECT_GT(s_host, 1.0);
  EXPECT_NEAR(s_kk, s_host, 0.02 * s_host);
  EXPECT_NEAR(t_kk, t_host, 0.02 * t_host);
}

// rRESPA clears and reads the forces on the host, which a KOKKOS style keeps
// on the GPU: refused with the way out, not run wrong.
TEST(KokkosSwitch, RespaIsRefusedWithTheWayOut) {
  REQUIRE_KOKKOS();
  Variant v = kokkos_styles("auto");
  LammpsSession lmp("none", v.lammps_args, true);
  const std::string err =
      lmp.run(setup_script(all_systems()[1], v) + "run_style respa 2 2 pair 1\nrun 1 post no\n");
  EXPECT_NE(err.find("cannot run with run_style respa"), std::string::npos) << err;
  EXPECT_NE(err.find("run_style verlet"), std::string::npos) << err;
}

// KOKKOS on a GPU defaults to newton off, which ReaxFF cannot use: the error
// names the setting that fixes it.
TEST(KokkosSwitch, NewtonOffSaysHowToTurnItOn) {
  REQUIRE_KOKKOS();
  LammpsSession lmp("none", kokkos_args(false), true);
  Variant v = kokkos_styles("auto");
  const std::string err = lmp.run(setup_script(all_systems().front(), v) + "run 0 post no\n");
  if (lammps_config_accelerator("KOKKOS", "api", "cuda") == 0 && err.empty())
    GTEST_SKIP() << "Kokkos without a GPU backend defaults to newton on";
  EXPECT_NE(err.find("newton pair on"), std::string::npos) << err;
  EXPECT_NE(err.find("-pk kokkos newton on"), std::string::npos) << err;
}

}  // namespace

// Each of our charge fixes has its KOKKOS form under -k on (a line in its own
// file of src/REAXFF_CUDA/KOKKOS/: charge_fix_kokkos.h): a KOKKOS fix whose
// history LAMMPS's KOKKOS exchange and sort move on the device. Without one it
// would still run, with LAMMPS's host exchange of every array at each
// re-neighbouring (and a warning).
TEST(KokkosSwitch, EveryChargeFixHasItsKokkosForm) {
  REQUIRE_KOKKOS();
  const std::string water = examples_reaxff_dir() + "water/";
  const std::string gauss = scratch_file("kk_gauss", "1 0.2240\n2 0.5434\n");
  const Variant v = kokkos_styles("auto");
  LammpsSession lmp("none", v.lammps_args, true);
  ASSERT_EQ(lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + water +
                    "data.water\nregion keep block 0 12 0 12 0 12\ngroup keep region keep\n"
                    "group gone subtract all keep\ndelete_atoms group gone\nchange_box all "
                    "boundary s s s\npair_style reaxff/gpu NULL\npair_coeff * * " +
                    water + "acks2_ff.water O H\n"),
            "");
  std::vector<std::string> fixes = {"qeq/reaxff/gpu 1 0.0 10.0 1e-6 reaxff",
                                    "qtpie/reaxff/gpu 1 0.0 10.0 1e-6 reaxff " + gauss,
                                    "acks2/reaxff/gpu 1 0.0 10.0 1e-6 reaxff"};
  if (lmp.has_style("fix", "qeq/rel/reaxff/gpu"))
    fixes.push_back("qeq/rel/reaxff/gpu 1 0.0 10.0 1e-6 reaxff " + gauss);
  auto *lammps = static_cast<LAMMPS_NS::LAMMPS *>(lmp.instance());
  for (const std::string &fix : fixes) {
    SCOPED_TRACE(fix);
    ASSERT_EQ(lmp.run("fix q all " + fix + "\nrun 0 post no\n"), "");
    const LAMMPS_NS::Fix *f = lammps->modify->get_fix_by_id("q");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->kokkosable, 1);
    EXPECT_EQ(f->exchange_comm_device, 1);
    ASSERT_EQ(lmp.run("unfix q\n"), "");
  }
}
