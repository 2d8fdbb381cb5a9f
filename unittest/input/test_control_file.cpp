// The control-file reader and the settings a user gives as keywords
// (puremd_gpu/engine_settings.h). Expected values are those written in the
// files and strings here; none comes from the reader's output.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "puremd_gpu/control.h"
#include "puremd_gpu/engine_settings.h"
#include "reader_test.h"

namespace {

using namespace reader_test;

// ---------------------------------------------------------------------------
// Control file

TEST(ControlFile, Defaults) {
  const Control c;
  EXPECT_EQ(c.bond_cut, 5.0);
  EXPECT_EQ(c.hbond_cut, 7.5);
  EXPECT_EQ(c.thb_cut, 0.001);
  EXPECT_EQ(c.thb_cutsq, 0.00001);
  EXPECT_EQ(c.bg_cut, 0.3);
  EXPECT_EQ(c.tabulate, 0);
}

TEST(ControlFile, RdxExample) {
  const puremd::ControlReadResult r =
      puremd::read_control_file(repo_path("examples/RDX/lmp_control"));
  EXPECT_EQ(r.control.tabulate, 10000);
  EXPECT_EQ(r.control.bond_cut, 4.5);
  EXPECT_EQ(r.control.hbond_cut, 6.0);
  EXPECT_EQ(r.control.bg_cut, 0.3);
  EXPECT_EQ(r.control.thb_cut, 0.001);
  EXPECT_EQ(r.control.thb_cutsq, 0.00001);  // not in the file: default
  EXPECT_TRUE(r.warnings.empty());
  for (const char *p :
       {"examples/CHO/lmp_control", "examples/AuO/lmp_control", "examples/FeOH3/lmp_control"})
    EXPECT_NO_THROW(puremd::read_control_file(repo_path(p))) << p;
}

TEST_F(ParserTest, ControlKeepsBaseAndParsesAllKeywords) {
  Control base;
  base.hbond_cut = 3.25;
  base.lgvdw = true;
  base.nonb_cut = 12.0;
  const std::string path = write("ctl",
                                 "\n  thb_cutoff_sq 0.0002  ! sq\n\tthb_cutoff 0.002\n"
                                 "bond_graph_cutoff 0.25\nnbrhood_cutoff 4.0\n"
                                 "tabulate_long_range 0\nwrite_freq 0\n");
  const puremd::ControlReadResult r = puremd::read_control_file(path, base);
  EXPECT_EQ(r.control.thb_cutsq, 0.0002);
  EXPECT_EQ(r.control.thb_cut, 0.002);
  EXPECT_EQ(r.control.bg_cut, 0.25);
  EXPECT_EQ(r.control.bond_cut, 4.0);
  EXPECT_EQ(r.control.tabulate, 0);
  EXPECT_EQ(r.control.hbond_cut, 3.25);
  EXPECT_TRUE(r.control.lgvdw);
  EXPECT_EQ(r.control.nonb_cut, 12.0);
  EXPECT_TRUE(r.warnings.empty());
}

TEST_F(ParserTest, ControlInactiveKeywordWarns) {
  const std::string path = write("ctl",
                                 "simulation_name test\nnsteps 100\nhbond_cutoff 5.0\n"
                                 "write_freq 10\n");
  const puremd::ControlReadResult r = puremd::read_control_file(path);
  ASSERT_EQ(r.warnings.size(), 3u);
  EXPECT_NE(r.warnings[0].find("simulation_name"), std::string::npos);
  EXPECT_NE(r.warnings[0].find("ctl:1:"), std::string::npos);
  EXPECT_NE(r.warnings[1].find("nsteps"), std::string::npos);
  EXPECT_NE(r.warnings[2].find("trajector"), std::string::npos);
  EXPECT_EQ(r.control.hbond_cut, 5.0);
  EXPECT_EQ(r.control.bond_cut, 5.0);
}

std::string split_first(const std::string &line) { return line.substr(0, line.find(' ')); }

TEST_F(ParserTest, ControlErrors) {
  const std::string missing = dir_ + "/no_control";
  expect_input_error([&] { puremd::read_control_file(missing); }, {missing});
  const std::string unknown = write("unknown", "hbond_cutoff 6.0\nbogus_keyword 1\n");
  expect_input_error([&] { puremd::read_control_file(unknown); }, {"unknown:2:", "bogus_keyword"});
  const std::string novalue = write("novalue", "nbrhood_cutoff\n");
  expect_input_error([&] { puremd::read_control_file(novalue); }, {"novalue:1:", "nbrhood_cutoff"});
  const std::string inactive_novalue = write("inact", "\nnsteps  \n");
  expect_input_error([&] { puremd::read_control_file(inactive_novalue); }, {"inact:2:", "nsteps"});
  const std::string nonnum = write("nonnum", "hbond_cutoff six\n");
  expect_input_error([&] { puremd::read_control_file(nonnum); }, {"nonnum:1:", "'six'"});
  const std::string nonint = write("nonint", "tabulate_long_range 10.5\n");
  expect_input_error([&] { puremd::read_control_file(nonint); }, {"nonint:1:", "'10.5'"});
  const std::string partial = write("partial", "thb_cutoff 0.001x\n");
  expect_input_error([&] { puremd::read_control_file(partial); }, {"partial:1:", "'0.001x'"});
  // cut-offs that would give wrong energies (issue 42)
  for (const char *line : {"nbrhood_cutoff -1.0", "nbrhood_cutoff 0", "hbond_cutoff -7.5",
                           "thb_cutoff -0.001", "thb_cutoff_sq -1e-5", "bond_graph_cutoff -0.3"}) {
    const std::string bad = write("negative", std::string("\n") + line + "\n");
    const std::string key = split_first(line);
    expect_input_error([&] { puremd::read_control_file(bad); }, {"negative:2:", key, "must be"});
  }
  const std::string no_hbonds = write("nohb", "hbond_cutoff 0\n");
  EXPECT_EQ(puremd::read_control_file(no_hbonds).control.hbond_cut, 0.0);
}

}  // namespace

// pair_style reaxff/gpu ... lanes: stages named are set, the others keep
// their defaults; a bad item is an error that names it.
TEST(LaneCounts, ParsedFromTheKeywordValue) {
  using puremd::InputError;
  using puremd::LaneCounts;
  using puremd::parse_lanes;
  const LaneCounts defaults;
  const LaneCounts m = parse_lanes("nonbonded=8,hbonds=4");
  EXPECT_EQ(m.nonbonded, 8);
  EXPECT_EQ(m.hbonds, 4);
  EXPECT_EQ(m.neighbors, defaults.neighbors);
  EXPECT_EQ(m.compaction, defaults.compaction);
  EXPECT_EQ(m.lists, defaults.lists);
  EXPECT_EQ(parse_lanes(m.describe()).describe(), m.describe());
  // the nonbonded default: by the number of rows (nonbonded_lanes)
  EXPECT_EQ(defaults.nonbonded, puremd::kLanesAuto);
  EXPECT_EQ(parse_lanes("nonbonded=auto").nonbonded, puremd::kLanesAuto);
  EXPECT_EQ(parse_lanes(defaults.describe()).describe(), defaults.describe());
  for (const char *bad : {"nonbonded=3", "nonbonded=64", "bonds=8", "nonbonded", "nonbonded=8,",
                          "hbonds=4x", "", "hbonds=auto", "nonbonded=0", "nonbonded=autox"}) {
    try {
      parse_lanes(bad);
      ADD_FAILURE() << "lanes '" << bad << "' was accepted";
    } catch (const InputError &e) {
      EXPECT_NE(std::string(e.what()).find("bad item"), std::string::npos) << e.what();
    }
  }
}
