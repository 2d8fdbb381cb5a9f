// fix reaxff/species, fix reaxff/bonds and compute reaxff/atom with the
// arguments users write, not only the examples' ones: each family of
// argument combinations LAMMPS accepts, run several ways on a heated system
// (bonds break and form, species change):
// - ref:   pair_style reaxff with LAMMPS's own styles (the oracle);
// - sf:    `-sf gpu`, as a user switches (our pair, our /gpu analysis styles);
// - named: pair_style reaxff/gpu under LAMMPS's own analysis styles;
// - kk:    `-k on ... -sf hybrid gpu kk` (kokkos_args), where LAMMPS has
//          KOKKOS: our pair a KOKKOS style, our /gpu analysis styles beside it.
// Without averaging (Nrepeat 1) every file is reaxff's byte for byte. With
// averaging, reaxff is no oracle (it averages slot by slot in its list's
// order, test_species.cpp); there our ways write the same bytes as each
// other, at the outputs' steps. The ranks come from ctest (1, 2 and 4).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

#include "analysis_files.h"
#include "lammps.h"
#include "lammps_session.h"
#include "species_systems.h"

namespace {

enum class Way { Ref, Sf, Named, Kokkos };
const char *name_of(Way w) {
  return w == Way::Ref ? "ref" : w == Way::Sf ? "sf" : w == Way::Named ? "named" : "kk";
}
// `ways` and, where this LAMMPS has KOKKOS, Way::Kokkos (else the test says
// it leaves that out).
std::vector<Way> with_kokkos(std::vector<Way> ways) {
  if (kokkos_runs_here()) ways.push_back(Way::Kokkos);
  return ways;
}

// A file of one test's run the way `w` (registered for removal at exit).
std::string file(const std::string &tag, Way w, const std::string &name) {
  return scratch_path("args_" + tag + "_" + name_of(w) + "_" + name);
}

// The input's analysis lines for one way: each `{F}name` in `analysis`
// becomes file(tag, w, name), so every way writes its own files.
std::string files_of(const std::string &analysis, const std::string &tag, Way w) {
  std::string out;
  size_t at = 0;
  for (size_t f = analysis.find("{F}"); f != std::string::npos; f = analysis.find("{F}", at)) {
    const size_t end = analysis.find_first_of(" \n", f);
    out += analysis.substr(at, f - at) + file(tag, w, analysis.substr(f + 3, end - f - 3));
    at = end;
  }
  return out + analysis.substr(at);
}

// A LAMMPS for the way `w` (-sf gpu or -k on on its command line, or our
// plugin loaded) and the pair style its input names.
std::unique_ptr<LammpsSession> session_for(Way w) {
  const std::vector<std::string> args = w == Way::Sf       ? std::vector<std::string>{"-sf", "gpu"}
                                        : w == Way::Kokkos ? kokkos_args()
                                                           : std::vector<std::string>{};
  auto lmp = std::make_unique<LammpsSession>("none", args, !args.empty());
  if (w == Way::Named) lmp->load_plugin();
  return lmp;
}
std::string pair_of(Way w) { return w == Way::Named ? "reaxff/gpu" : "reaxff"; }

// The input of `sys` for the way `w` with its analysis lines.
std::string input_of(Way w, const SpeciesSystem &sys, const std::string &tag,
                     const std::string &analysis, int steps) {
  return sys.input(pair_of(w), sys.control, files_of(analysis, tag, w), steps);
}

// One run of `sys` the way `w`, its analysis lines (and lines after its
// first run); returns LAMMPS's error ("" if none).
std::string run_way(Way w, const SpeciesSystem &sys, const std::string &tag,
                    const std::string &analysis, int steps, const std::string &after = "") {
  return session_for(w)->run(input_of(w, sys, tag, analysis, steps) + after);
}

// Lines of a species file that start a step's record: how many outputs.
int records(const std::string &text) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    n += line.rfind("#", 0) == 0 && line.find("Timestep") != std::string::npos;
  return n;
}

// The species each output of a species file lists, in order (what changes
// when bonds break).
std::vector<std::string> formulas(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("#", 0) == 0 && line.find("No_Specs") != std::string::npos)
      out.push_back(line.substr(line.find("No_Specs") + 8));
  return out;
}

void expect_same_bytes(const std::string &tag, Way w, Way oracle, const std::string &name) {
  const std::string ref = read_text(file(tag, oracle, name));
  ASSERT_FALSE(ref.empty()) << name << ": " << name_of(oracle) << " wrote nothing";
  EXPECT_EQ(read_text(file(tag, w, name)), ref)
      << name << ": " << name_of(w) << " differs from " << name_of(oracle);
}

// The same words, numbers within tol: a position file prints each molecule's
// charge with 8 decimals, where the charges' round-off (CG to 1e-10; on the
// CUDA driver, sums in no fixed order) can move the last digit.
void expect_same_words(const std::string &tag, Way w, Way oracle, const std::string &name,
                       double tol) {
  std::istringstream ref(read_text(file(tag, oracle, name))), mine(read_text(file(tag, w, name)));
  std::string a, b;
  int words = 0, worse = 0;
  while (ref >> a) {
    ++words;
    if (!(mine >> b)) {
      ADD_FAILURE() << name << ": " << name_of(w) << " ends at word " << words;
      return;
    }
    if (a == b) continue;
    char *end_a = nullptr, *end_b = nullptr;
    const double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
    if (*end_a || *end_b || std::fabs(x - y) > tol)
      if (++worse < 5)
        ADD_FAILURE() << name << ": " << name_of(w) << " word " << words << " '" << b << "', "
                      << name_of(oracle) << " '" << a << "'";
  }
  EXPECT_GT(words, 100) << name << ": " << name_of(oracle) << " wrote next to nothing";
  EXPECT_FALSE(mine >> b) << name << ": " << name_of(w) << " has more words";
  EXPECT_EQ(worse, 0) << name << " " << name_of(w);
}

// The first hour: LAMMPS's own examples/reaxff/in.reaxff.tatb with its
// species line written the usual way, without averaging (`1 1 5`), switched
// with -sf gpu (fix reaxff/species/gpu stopped at set-up with a segmentation
// fault here once: LAMMPS's averaging fix read the pair's unfilled arrays)
// and with -k on (compute reaxff/atom stopped at once there: "Cannot use
// compute reaxff/atom with pair_style reaxff/kk").
TEST(AnalysisArguments, TatbExampleWithoutAveraging) {
  const std::string &dir = examples_reaxff_dir();
  const std::string text = read_text(dir + "in.reaxff.tatb");
  ASSERT_NE(text.find("reaxff/species 1 5 5 species.tatb"), std::string::npos) << text;
  auto replace = [](std::string &in, const std::string &from, const std::string &to) {
    for (size_t at = in.find(from); at != std::string::npos; at = in.find(from, at + to.size()))
      in.replace(at, from.size(), to);
  };
  const std::vector<Way> ways = with_kokkos({Way::Ref, Way::Sf});
  for (Way w : ways) {
    std::string input = text;
    replace(input, "reaxff/species 1 5 5 species.tatb",
            "reaxff/species 1 1 5 " + file("tatb", w, "species"));
    for (const std::string f : {"bonds.reaxff", "bonds_local.reaxff", "bonds_atom.reaxff"})
      replace(input, " " + f, " " + file("tatb", w, f));
    for (const std::string f : {"data.tatb", "control.reax_c.tatb", "ffield.reax "})
      replace(input, " " + f, " " + dir + f);
    EXPECT_EQ(session_for(w)->run(input), "") << name_of(w);
  }
  if (mpi_rank() != 0) return;
  EXPECT_EQ(records(read_text(file("tatb", Way::Ref, "species"))), 6);  // 0, 5, .., 25
  for (Way w : ways) {
    if (w == Way::Ref) continue;
    expect_same_bytes("tatb", w, Way::Ref, "species");
    // the bonds file (3 decimals) and compute reaxff/atom's dumps (6 digits),
    // without the dump's charges: at the example's QEq tolerance (1e-6) two
    // solvers' charges differ in the 5th decimal
    const std::string way = name_of(w);
    expect_same(read_bonds_file(file("tatb", w, "bonds.reaxff")),
                read_bonds_file(file("tatb", Way::Ref, "bonds.reaxff")), 1.1e-3, "bonds " + way);
    expect_same(read_local_table(file("tatb", w, "bonds_local.reaxff")),
                read_local_table(file("tatb", Way::Ref, "bonds_local.reaxff")), 1.1e-5,
                "bonds_local " + way);
    auto without_q = [](Table t) {
      for (auto &[record, fields] : t) fields.erase("2");  // (id) type q c_bonds[1..3]
      return t;
    };
    expect_same(without_q(read_dump_table(file("tatb", w, "bonds_atom.reaxff"))),
                without_q(read_dump_table(file("tatb", Way::Ref, "bonds_atom.reaxff"))), 1.1e-5,
                "bonds_atom " + way);
  }
}

// LAMMPS 4Feb2025's fix reaxff/species names its per-atom cluster IDs
// "clusterID" whatever the fix's ID, so an input takes one such fix (a second
// is LAMMPS's error, with pair_style reaxff too); 4Jul2026's are named after
// the fix. Where only one is taken, `analysis` keeps the species fix `keep`
// and drops the others (lines "fix <id> <group> reaxff/species ...").
bool several_species_fixes() {
  LammpsSession lmp;
  return static_cast<LAMMPS_NS::LAMMPS *>(lmp.instance())->num_ver >= 20260704;
}
std::string species_fixes_taken(const std::string &analysis, const std::string &keep) {
  if (several_species_fixes()) return analysis;
  std::istringstream in(analysis);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string cmd, id, group, style;
    w >> cmd >> id >> group >> style;
    if (cmd == "fix" && style == "reaxff/species" && id != keep) continue;
    out += line + "\n";
  }
  return out;
}
// Whether the fix `id` of `analysis` runs here.
bool taken(const std::string &analysis, const std::string &id) {
  return analysis.find("fix " + id + " ") != std::string::npos;
}

// One input holding the families at once (LAMMPS takes any number of these
// fixes side by side), one run of 40 steps:
// - without averaging: Nevery and Nfreq of several shapes (Nevery 1 and
//   more, Nfreq = Nevery and more), the cutoff and element keywords, a
//   group, the position output to one file and to a file per output ('*');
//   at 2500 K few bonds cross the default cut-off (0.3) in 40 steps, but
//   C-N bonds cross 0.9 all the time: with that cut-off (s2, a3) the
//   species change at almost every output, and every near miss shows;
// - with averaging: Nrepeat from 2 to 10, Nevery 1 to 5, a cut-off, a group
//   with a position output;
// - fix reaxff/bonds every step and every 3rd, compute reaxff/atom without
//   its bonds (per atom: total bond order, lone pairs, bonds) in a dump every
//   4th step.
// (The averaging fixes' windows end on multiples of 10, where they also have
// LAMMPS re-neighbour.)
const char *kEveryShape =
    "group half id <= 1536\n"
    "fix s1 all reaxff/species 1 1 5 {F}s1\n"
    "fix s2 all reaxff/species 1 1 1 {F}s2 cutoff 1 4 0.9\n"
    "fix s3 all reaxff/species 2 1 10 {F}s3 cutoff 1 3 0.45\n"
    "fix s4 all reaxff/species 5 1 20 {F}s4 element C H O O\n"
    "fix s5 half reaxff/species 1 1 5 {F}s5\n"
    "fix s6 all reaxff/species 1 1 10 {F}s6 position 10 {F}p6\n"
    "fix s7 all reaxff/species 1 1 20 {F}s7 position 20 {F}p7.*\n"
    "fix a1 all reaxff/species 1 5 10 {F}a1\n"
    "fix a2 all reaxff/species 2 5 10 {F}a2 cutoff 1 2 0.4\n"
    "fix a3 all reaxff/species 1 10 10 {F}a3 cutoff 1 4 0.9\n"
    "fix a4 all reaxff/species 5 2 10 {F}a4\n"
    "fix a5 half reaxff/species 1 4 10 {F}a5 position 10 {F}q5\n"
    "fix b1 all reaxff/bonds 1 {F}b1\nfix b3 all reaxff/bonds 3 {F}b3\n"
    "compute ra all reaxff/atom\ndump d all custom 4 {F}ra id c_ra[1] c_ra[2] c_ra[3]\n"
    "dump_modify d sort id format float %.10g\n";

TEST(AnalysisArguments, EveryShapeAsReaxffWritesIt) {
  if (mpi_size() > 2) GTEST_SKIP() << "runs on 1 and 2 ranks (CI time)";
  const SpeciesSystem sys = tatb_system();
  const std::string tag = "shapes", analysis = species_fixes_taken(kEveryShape, "s2");
  const std::vector<Way> ways = with_kokkos({Way::Ref, Way::Sf, Way::Named});
  for (Way w : ways) EXPECT_EQ(run_way(w, sys, tag, analysis, 40), "") << name_of(w);
  const std::vector<Way> ours(ways.begin() + 1, ways.end());
  if (mpi_rank() != 0) return;
  // without averaging: reaxff's bytes; how many outputs (the set-up writes
  // one)
  const std::map<std::string, int> outputs = {{"s1", 9}, {"s2", 41}, {"s3", 5}, {"s4", 3},
                                              {"s5", 9}, {"s6", 5},  {"s7", 3}};
  for (const auto &[name, n] : outputs) {
    if (!taken(analysis, name)) continue;
    EXPECT_EQ(records(read_text(file(tag, Way::Ref, name))), n) << name << " outputs";
    for (Way w : ours) expect_same_bytes(tag, w, Way::Ref, name);
  }
  for (const std::string &name : {"p6", "p7.0", "p7.20", "p7.40"})
    for (Way w : ours)
      if (taken(analysis, "s" + name.substr(1, 1)))
        expect_same_words(tag, w, Way::Ref, name, 2.1e-8);
  const std::vector<std::string> seen = formulas(read_text(file(tag, Way::Ref, "s2")));
  ASSERT_EQ(seen.size(), 41u);
  EXPECT_NE(seen.front(), seen.back()) << "no species changed: the test would be vacuous";
  // with averaging: our two ways' same bytes, an output at the set-up and
  // at every multiple of Nfreq
  for (const std::string &name : {"a1", "a2", "a3", "a4", "a5"}) {
    if (!taken(analysis, name)) continue;
    EXPECT_EQ(records(read_text(file(tag, Way::Named, name))), 5) << name;
    for (Way w : ours)
      if (w != Way::Named) expect_same_bytes(tag, w, Way::Named, name);
  }
  // (on the CUDA driver two runs' charges differ in the last bits: atomics)
  for (Way w : ours)
    if (w != Way::Named && taken(analysis, "a5"))
      expect_same_words(tag, w, Way::Named, "q5", 2.1e-8);
  // bonds file and the compute's dump: reaxff's values (partners as sets;
  // bond orders as the bonds file prints them, 3 decimals)
  const Table b1 = read_bonds_file(file(tag, Way::Ref, "b1")),
              b3 = read_bonds_file(file(tag, Way::Ref, "b3")),
              ra = read_dump_table(file(tag, Way::Ref, "ra"));
  EXPECT_EQ(b1.size(), 41u * 3072u) << "bonds file: every step 0..40";
  EXPECT_EQ(b3.size(), 14u * 3072u) << "bonds file: steps 0, 3, .., 39";
  EXPECT_EQ(ra.size(), 11u * 3072u) << "dump: steps 0, 4, .., 40";
  for (Way w : ours) {
    const std::string way = name_of(w);
    expect_same(read_bonds_file(file(tag, w, "b1")), b1, 1.1e-3, "b1 " + way);
    expect_same(read_bonds_file(file(tag, w, "b3")), b3, 1.1e-3, "b3 " + way);
    expect_same(read_dump_table(file(tag, w, "ra")), ra, 1e-8, "ra " + way);
  }
}

// Several runs in one input (1, 7 and 12 steps): a run continues the
// schedules and averaging windows of the run before, as LAMMPS's fixes do,
// though its set-up sorts the atoms and reads the bonds again. Our ways on
// the same trajectory (reaxff's is not the same: at each set-up its QEq
// starts CG from another guess, and 20 steps of 2500 K turn the solves'
// round-off into a bond on the other side of a cut-off): the same bytes.
// The third run starts inside the windows of Nrepeat 4; on several ranks an
// atom that changes rank at that set-up starts its slots afresh with
// LAMMPS's fix (species_window.h), so that file is compared on one rank
// (named against sf; kk, whose fix is sf's, against sf on any).
TEST(AnalysisArguments, SpeciesOverSeveralRuns) {
  if (mpi_size() > 2) GTEST_SKIP() << "runs on 1 and 2 ranks (CI time)";
  const SpeciesSystem sys = tatb_system();
  const std::string analysis = species_fixes_taken(
      "fix n1 all reaxff/species 1 1 5 {F}n1\nfix n2 all reaxff/species 1 2 10 {F}n2\n"
      "fix n4 all reaxff/species 1 4 10 {F}n4\n",
      "n4");
  const std::string tag = "runs";
  const std::vector<Way> ways = with_kokkos({Way::Sf, Way::Named});
  for (Way w : ways)
    EXPECT_EQ(run_way(w, sys, tag, analysis, 1, "run 7 post no\nrun 12 post no\n"), "")
        << name_of(w);
  if (mpi_rank() != 0) return;
  const std::map<std::string, int> outputs = {{"n1", 5}, {"n2", 3}, {"n4", 3}};  // 0, 5 or 10, ..
  for (const auto &[name, n] : outputs) {
    if (!taken(analysis, name)) continue;
    EXPECT_EQ(records(read_text(file(tag, Way::Named, name))), n) << name;
    if (name != "n4" || mpi_size() == 1) expect_same_bytes(tag, Way::Sf, Way::Named, name);
    // (-k on: fix reaxff/species/gpu as with -sf gpu, its windows moving with the atoms)
    if (ways.back() == Way::Kokkos) expect_same_bytes(tag, Way::Kokkos, Way::Sf, name);
  }
}

// The delete keyword (by species, by mass, at a limited rate), which removes
// molecules from the run: the species and delete files and the atoms left are
// reaxff's.
TEST(AnalysisArguments, SpeciesDeleteIsReaxff) {
  const SpeciesSystem sys = cho_system();
  const int steps = 20;
  struct Case {
    std::string tag, keyword;
  };
  const std::vector<Way> ways = with_kokkos({Way::Ref, Way::Sf, Way::Named});
  for (const Case &c : {Case{"delspec", "delete {F}d specieslist 1 O2"},
                        Case{"delmass", "delete {F}d masslimit 60 80"},
                        Case{"delrate", "delete {F}d masslimit 0 40 delete_rate_limit 100 10"}}) {
    std::map<Way, long long> left;
    for (Way w : ways) {
      const std::string analysis = "fix d all reaxff/species 1 1 10 {F}s " + c.keyword + "\n";
      const auto lmp = session_for(w);
      EXPECT_EQ(lmp->run(input_of(w, sys, c.tag, analysis, steps)), "")
          << c.tag << " " << name_of(w);
      left[w] = lmp->natoms();
    }
    EXPECT_LT(left[Way::Ref], 2835) << c.tag << ": nothing deleted, the keyword is not tested";
    for (Way w : ways) {
      if (w == Way::Ref) continue;
      EXPECT_EQ(left[w], left[Way::Ref]) << c.tag << " " << name_of(w);
      if (mpi_rank() == 0)
        for (const std::string &name : {"s", "d"}) expect_same_bytes(c.tag, w, Way::Ref, name);
    }
  }
}

}  // namespace
