// The analysis styles that look the pair up as PairReaxFF (compute
// reaxff/atom, fix reaxff/species, fix reaxff/bonds) give with reaxff/gpu
// what they give with reaxff, and so do our /gpu ones under -k on, where
// our pair is a KOKKOS style (LAMMPS's compute refuses a KOKKOS pair).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "analysis_files.h"
#include "lammps_session.h"

namespace {

struct Result {
  std::vector<double> atom;  // abo, nlp, nbonds per atom
  std::string species;
};

std::string body_of(const std::string &path) {
  std::ifstream in(path);
  std::string line, out;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') out += line + "\n";
  return out;
}

// How a run names the styles: LAMMPS's reaxff; reaxff/gpu with LAMMPS's
// analysis styles; LAMMPS's names under -k on ... -sf hybrid gpu kk.
enum class Way { Ref, Ours, Kokkos };

Result run(Way way) {
  const std::string dir = source_dir() + "/examples/HNS/";
  const std::string pair = way == Way::Ours ? "reaxff/gpu" : "reaxff";
  const char *tags[] = {"species_ref", "species_gpu", "species_kk"};
  const std::string species = scratch_path(tags[static_cast<int>(way)]);
  Result r;
  {
    const bool kokkos = way == Way::Kokkos;
    LammpsSession lmp("none", kokkos ? kokkos_args() : std::vector<std::string>{}, kokkos);
    if (way == Way::Ours) lmp.load_plugin();
    const std::string err =
        lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + dir +
                "data.hns-equil\npair_style " + pair + " NULL\npair_coeff * * " + dir +
                "ffield.reax.hns C H O N\nfix q all qeq/" + pair +
                " 1 0.0 10.0 1.0e-12 reaxff\ncompute ra all reaxff/atom bonds yes\n"
                "fix s all reaxff/species 1 5 5 " +
                species + "\nfix nve all nve\ntimestep 0.1\nthermo 10\nrun 10 post no\n");
    EXPECT_EQ(err, "");
    if (err.empty()) r.atom = lmp.gather_per_atom("c_ra", 3);
  }
  if (mpi_rank() == 0) r.species = body_of(species);
  return r;
}

void expect_same_result(const Result &ref, const Result &ours, const char *way) {
  ASSERT_EQ(ref.atom.size(), ours.atom.size()) << way;
  ASSERT_FALSE(ref.atom.empty());
  double abo = 0;
  for (size_t i = 0; i < ref.atom.size(); ++i) {
    // (CG to 1e-12, ours with FSAI: measured 1.7e-14, host driver)
    EXPECT_NEAR(ours.atom[i], ref.atom[i], 3e-13) << way << ": compute reaxff/atom entry " << i;
    abo += ref.atom[i];
  }
  EXPECT_GT(abo, 100.0) << "bond orders all zero: comparison would be vacuous";
  if (mpi_rank() == 0) {
    EXPECT_FALSE(ref.species.empty());
    EXPECT_EQ(ours.species, ref.species) << way;
  }
}

TEST(CompanionStyles, ReaxffAtomAndSpeciesMatchReaxff) {
  const Result ref = run(Way::Ref);
  expect_same_result(ref, run(Way::Ours), "reaxff/gpu");
  if (kokkos_runs_here()) expect_same_result(ref, run(Way::Kokkos), "-k on");
}

// compute reaxff/atom's keywords under -k on (compute reaxff/atom/gpu beside
// the KOKKOS pair): `pair 1` picking reaxff out of hybrid/overlay, `bonds
// yes` (the local bond list, in a dump every 5 steps) and the default `bonds
// no`, over all atoms and a group. The same per-atom values and bonds as
// LAMMPS's compute with its reaxff, without KOKKOS.
struct KeywordResult {
  std::vector<double> all, half, defaults;  // abo, nlp, nbonds per atom
  Table local;                              // the dump local of `bonds yes`
};

KeywordResult run_keywords(bool kokkos) {
  const std::string dir = source_dir() + "/examples/HNS/";
  const std::string local = scratch_path(kokkos ? "keywords_kk" : "keywords_ref");
  KeywordResult r;
  {
    LammpsSession lmp("none", kokkos ? kokkos_args() : std::vector<std::string>{}, kokkos);
    const std::string err =
        lmp.run("units real\natom_style charge\natom_modify map array\nread_data " + dir +
                "data.hns-equil\ngroup half id <= 152\npair_style hybrid/overlay lj/cut 3.0 "
                "reaxff NULL\npair_coeff * * lj/cut 0.05 1.0\npair_coeff * * reaxff " +
                dir +
                "ffield.reax.hns C H O N\nfix q all qeq/reaxff 1 0.0 10.0 1.0e-12 reaxff\n"
                "compute r1 all reaxff/atom pair 1 bonds yes\n"
                "compute r2 half reaxff/atom pair 1 bonds no\ncompute r0 all reaxff/atom\n"
                "dump l all local 5 " +
                local +
                " c_r1[1] c_r1[2] c_r1[3]\ndump_modify l format float %.12g\n"
                "velocity all create 300 4928459 loop geom\nfix nve all nve\ntimestep 0.1\n"
                "run 10 post no\n");
    EXPECT_EQ(err, "") << (kokkos ? "-k on" : "reaxff");
    if (!err.empty()) return r;
    r.all = lmp.gather_per_atom("c_r1", 3);
    r.half = lmp.gather_per_atom("c_r2", 3);
    r.defaults = lmp.gather_per_atom("c_r0", 3);
  }
  if (mpi_rank() == 0) r.local = read_local_table(local);
  return r;
}

TEST(CompanionStyles, ReaxffAtomKeywordsUnderKokkos) {
  if (!lammps_has_kokkos()) GTEST_SKIP() << "this LAMMPS has no KOKKOS package";
  const KeywordResult ref = run_keywords(false), ours = run_keywords(true);
  auto expect_near = [](const std::vector<double> &a, const std::vector<double> &b,
                        const char *what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(b[i], a[i], 1e-8) << what << " entry " << i;
  };
  expect_near(ref.all, ours.all, "pair 1 bonds yes");
  expect_near(ref.half, ours.half, "group half");
  expect_near(ref.defaults, ours.defaults, "no keywords");
  // (the group must matter: bonds are counted between its atoms only)
  double in_half = 0, out_half = 0, in_all = 0;
  for (size_t i = 2; i < ref.half.size(); i += 3) {
    (i / 3 < 152 ? in_half : out_half) += ref.half[i];
    if (i / 3 < 152) in_all += ref.all[i];
  }
  EXPECT_GT(in_half, 100.0);
  EXPECT_LT(in_half, in_all);
  EXPECT_EQ(out_half, 0.0);
  if (mpi_rank() == 0) {
    EXPECT_EQ(ref.local.size(), 3u) << "dump local: steps 0, 5, 10";
    expect_same(ours.local, ref.local, 1e-8, "bonds yes, dump local");
  }
}

}  // namespace
