// The ffield reader. Expected values are the literal numbers printed in the
// shipped files (quoted next to each check) or are computed here from such
// numbers; none comes from the reader's output.
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

#include "puremd_gpu/force_field.h"
#include "reader_test.h"

namespace {

using namespace reader_test;

// ---------------------------------------------------------------------------
// Force field: the shipped files

TEST(ForceFieldFiles, AllShippedFilesParse) {
  const struct {
    const char *path;
    int types;
    const char *first;  // first element symbol in the file
  } files[] = {
      {"examples/HNS/ffield.reax.hns", 4, "C"},    {"examples/RDX/ffield.reax.rdx", 4, "C"},
      {"examples/CHO/ffield.reax.cho", 3, "C"},    {"examples/FeOH3/ffield.reax.Fe_O_C_H", 4, "C"},
      {"examples/AuO/ffield.reax.AuO", 3, "H"},    {"examples/water/qeq_ff.water", 3, "H"},
      {"potentials/ffield.water.puremd", 15, "C"}, {"potentials/ffield-bio.puremd", 12, "C"},
      {"potentials/ffield.reax.hns", 4, "C"}};
  for (const auto &f : files) {
    SCOPED_TRACE(f.path);
    ForceField ff;
    ASSERT_NO_THROW(ff = puremd::read_force_field(repo_path(f.path)));
    EXPECT_EQ(ff.num_types, f.types);
    EXPECT_EQ(ff.gp.size(), static_cast<size_t>(puremd::kNumGlobalParams));
    const size_t n = static_cast<size_t>(f.types);
    EXPECT_EQ(ff.sbp.size(), n);
    EXPECT_EQ(ff.tbp.size(), n * n);
    EXPECT_EQ(ff.thbp.size(), n * n * n);
    EXPECT_EQ(ff.hbp.size(), n * n * n);
    EXPECT_EQ(ff.fbp.size(), n * n * n * n);
    EXPECT_STREQ(ff.sbp[0].name, f.first);
    EXPECT_EQ(ff.vdw_type, 1);  // all: shielding, no inner wall
    EXPECT_EQ(ff.view().num_types, f.types);
    EXPECT_EQ(ff.view().vdw_type, ff.vdw_type);
  }
}

TEST(ForceFieldFiles, HnsGlobalParameters) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  EXPECT_EQ(ff.gp[0], 50.0);             // line 3:  50.0000 !p(boc1)
  EXPECT_EQ(ff.gp[1], 9.5469);           // line 4:   9.5469 !p(boc2)
  EXPECT_EQ(ff.gp[10], -60.1292);        // line 13: -60.1292 !p(trip1)
  EXPECT_EQ(ff.nonb_low(), 0.0);         // line 14: swa
  EXPECT_EQ(ff.nonb_cut(), 10.0);        // line 15: swb
  EXPECT_EQ(ff.gp[28], 1.5591);          // line 31: p(vdW1)
  EXPECT_DOUBLE_EQ(ff.bo_cut(), 0.001);  // line 32: 0.1000 = cutoff*100
  EXPECT_EQ(ff.gp[30], 2.1365);          // line 33: p(coa4)
  EXPECT_TRUE(ff.warnings.empty());
}

TEST(ForceFieldFiles, HnsSingleBodyLinesAsInFile) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  ASSERT_EQ(ff.num_types, 4);
  const puremd::SingleBodyParams &c = ff.sbp[0];
  // " C 1.3825 4.0000 12.0000 1.9133 0.1853 0.9000 1.1359 4.0000"
  EXPECT_STREQ(c.name, "C");
  EXPECT_EQ(c.r_s, 1.3825);
  EXPECT_EQ(c.valency, 4.0);
  EXPECT_EQ(c.mass, 12.0);
  EXPECT_EQ(c.r_vdw, 1.9133);
  EXPECT_EQ(c.epsilon, 0.1853);
  EXPECT_EQ(c.gamma, 0.9);
  EXPECT_EQ(c.r_pi, 1.1359);
  EXPECT_EQ(c.valency_e, 4.0);
  EXPECT_EQ(c.nlp_opt, 0.0);
  // "9.7602 2.1346 4.0000 33.2433 79.5548 5.8678 7.0000 0.0000"
  EXPECT_EQ(c.alpha, 9.7602);
  EXPECT_EQ(c.gamma_w, 2.1346);
  EXPECT_EQ(c.valency_boc, 4.0);
  EXPECT_EQ(c.p_ovun5, 33.2433);
  EXPECT_EQ(c.chi, 5.8678);
  EXPECT_EQ(c.eta, 14.0);  // stored as twice the file value 7.0000
  EXPECT_EQ(c.p_hbond, 0);
  // "1.2104 0.0000 199.0303 8.6991 34.7289 13.3894 0.8563 0.0000"
  EXPECT_EQ(c.r_pi_pi, 1.2104);
  EXPECT_EQ(c.p_lp2, 0.0);
  EXPECT_EQ(c.b_o_131, 8.6991);
  EXPECT_EQ(c.b_o_132, 34.7289);
  EXPECT_EQ(c.b_o_133, 13.3894);
  EXPECT_EQ(c.bcut_acks2, 0.8563);
  // "-2.8983 2.5000 1.0564 4.0000 2.9663 0.0000 0.0000 0.0000"
  EXPECT_EQ(c.p_ovun2, -2.8983);
  EXPECT_EQ(c.p_val3, 2.5);
  EXPECT_EQ(c.valency_val, 4.0);
  EXPECT_EQ(c.p_val5, 2.9663);
  EXPECT_EQ(c.rcore2, 0.0);
  EXPECT_EQ(c.ecore2, 0.0);
  EXPECT_EQ(c.acore2, 0.0);
  EXPECT_EQ(c.lgcij, 0.0);
  EXPECT_EQ(c.lgre, 0.0);

  // " O 1.2477 2.0000 15.9990 1.9236 0.0904 1.0503 1.0863 6.0000"
  const puremd::SingleBodyParams &o = ff.sbp[2];
  EXPECT_STREQ(o.name, "O");
  EXPECT_EQ(o.mass, 15.999);
  EXPECT_EQ(o.nlp_opt, 0.5 * (6.0 - 2.0));
  EXPECT_EQ(o.eta, 2.0 * 8.9989);  // "10.2127 7.7719 4.0000 36.9573 116.0768 8.5000 8.9989 2.0000"
  EXPECT_EQ(o.p_hbond, 2);
  EXPECT_EQ(ff.sbp[1].p_hbond, 1);  // H: last column of its second line is 1.0000
  EXPECT_STREQ(ff.sbp[1].name, "H");
  EXPECT_STREQ(ff.sbp[3].name, "N");
  EXPECT_EQ(ff.sbp[3].p_lp2, 0.1);  // N line 3: "1.0439 0.1000 119.9837 ..."
}

TEST(ForceFieldFiles, FindElementIsCaseInsensitive) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  EXPECT_EQ(ff.find_element("C"), 0);
  EXPECT_EQ(ff.find_element("h"), 1);
  EXPECT_EQ(ff.find_element("O"), 2);
  EXPECT_EQ(ff.find_element("n"), 3);
  EXPECT_EQ(ff.find_element("Cl"), -1);
  EXPECT_EQ(ff.find_element(""), -1);
  EXPECT_EQ(ff.find_element("CC"), -1);
  const ForceField bio = puremd::read_force_field(repo_path("potentials/ffield-bio.puremd"));
  for (int i = 0; i < bio.num_types; ++i) {
    std::string lower = bio.sbp[i].name;
    for (char &ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT_EQ(bio.find_element(lower), i) << lower;
  }
}

TEST(ForceFieldFiles, HnsBondEntry) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  const int n = ff.num_types;
  // "1 1 156.5953 100.0397 80.0000 -0.8157 -0.4591 1.0000 37.7369 0.4235"
  // "    0.4527 -0.1000 9.2605 1.0000 -0.0750 6.8316 1.0000 0.0000"
  const puremd::TwoBodyParams &cc = ff.tbp[0];
  EXPECT_EQ(cc.De_s, 156.5953);
  EXPECT_EQ(cc.De_p, 100.0397);
  EXPECT_EQ(cc.De_pp, 80.0);
  EXPECT_EQ(cc.p_be1, -0.8157);
  EXPECT_EQ(cc.p_bo5, -0.4591);
  EXPECT_EQ(cc.v13cor, 1.0);
  EXPECT_EQ(cc.p_bo6, 37.7369);
  EXPECT_EQ(cc.p_ovun1, 0.4235);
  EXPECT_EQ(cc.p_be2, 0.4527);
  EXPECT_EQ(cc.p_bo3, -0.1);
  EXPECT_EQ(cc.p_bo4, 9.2605);
  EXPECT_EQ(cc.p_bo1, -0.075);
  EXPECT_EQ(cc.p_bo2, 6.8316);
  EXPECT_EQ(cc.ovc, 1.0);
  // "3 4 86.0536 180.5864 40.0000 1.0000 -0.4462 1.0000 34.9336 0.2000"
  // "    0.8154 -0.2175 7.0255 1.0000 -0.1937 5.2140 1.0000 0.0000"
  for (const auto *t : {&ff.tbp[2 * n + 3], &ff.tbp[3 * n + 2]}) {
    EXPECT_EQ(t->De_s, 86.0536);
    EXPECT_EQ(t->De_p, 180.5864);
    EXPECT_EQ(t->p_be1, 1.0);
    EXPECT_EQ(t->p_ovun1, 0.2);
    EXPECT_EQ(t->p_be2, 0.8154);
    EXPECT_EQ(t->p_bo1, -0.1937);
    EXPECT_EQ(t->p_bo2, 5.214);
  }
  // "1 2 ..." second line "5.2267 1.0000 0.0000 1.0000 -0.0500 6.8315 0.0000 0.0000"
  EXPECT_EQ(ff.tbp[0 * n + 1].ovc, 0.0);
  EXPECT_EQ(ff.tbp[1 * n + 0].p_bo2, 6.8315);
}

// Mixing rules, computed here from the single-body values, on the diagonal
// and for the pair fields no off-diagonal line can change.
TEST(ForceFieldFiles, TwoBodyMixingRules) {
  for (const char *path : {"examples/HNS/ffield.reax.hns", "potentials/ffield-bio.puremd"}) {
    SCOPED_TRACE(path);
    const ForceField ff = puremd::read_force_field(repo_path(path));
    const int n = ff.num_types;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        SCOPED_TRACE(std::to_string(i) + "," + std::to_string(j));
        const auto &a = ff.sbp[i];
        const auto &b = ff.sbp[j];
        const auto &t = ff.tbp[i * n + j];
        EXPECT_DOUBLE_EQ(t.p_boc3, std::sqrt(a.b_o_132 * b.b_o_132));
        EXPECT_DOUBLE_EQ(t.p_boc4, std::sqrt(a.b_o_131 * b.b_o_131));
        EXPECT_DOUBLE_EQ(t.p_boc5, std::sqrt(a.b_o_133 * b.b_o_133));
        EXPECT_DOUBLE_EQ(t.gamma_w, std::sqrt(a.gamma_w * b.gamma_w));
        EXPECT_DOUBLE_EQ(t.gamma, 1.0 / std::pow(a.gamma * b.gamma, 1.5));
        EXPECT_DOUBLE_EQ(t.rcore, std::sqrt(a.rcore2 * b.rcore2));
        EXPECT_DOUBLE_EQ(t.ecore, std::sqrt(a.ecore2 * b.ecore2));
        EXPECT_DOUBLE_EQ(t.acore, std::sqrt(a.acore2 * b.acore2));
        EXPECT_EQ(t.lgcij, 0.0);
        EXPECT_EQ(t.lgre, 0.0);
        if (i == j) {  // no off-diagonal line touches i == j in these files
          EXPECT_DOUBLE_EQ(t.r_s, a.r_s);
          EXPECT_DOUBLE_EQ(t.r_p, a.r_pi);
          EXPECT_DOUBLE_EQ(t.r_pp, a.r_pi_pi);
          EXPECT_DOUBLE_EQ(t.D, a.epsilon);
          EXPECT_DOUBLE_EQ(t.alpha, a.alpha);
          EXPECT_DOUBLE_EQ(t.r_vdW, 2.0 * a.r_vdw);
        }
        // symmetric storage
        const auto &u = ff.tbp[j * n + i];
        EXPECT_EQ(t.D, u.D);
        EXPECT_EQ(t.r_s, u.r_s);
        EXPECT_EQ(t.De_s, u.De_s);
        EXPECT_EQ(t.p_bo1, u.p_bo1);
      }
    }
  }
  // Off-diagonal mixing where the file gives no override (HNS 1-2 r_p, r_pp are -1).
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  const int n = ff.num_types;
  EXPECT_DOUBLE_EQ(ff.tbp[0 * n + 1].r_p, 0.5 * (1.1359 + -0.1));   // C r_pi, H r_pi
  EXPECT_DOUBLE_EQ(ff.tbp[1 * n + 0].r_pp, 0.5 * (1.2104 + -0.1));  // C r_pi_pi, H r_pi_pi
  EXPECT_DOUBLE_EQ(ff.tbp[0].gamma, std::pow(0.9 * 0.9, -1.5));     // C gamma 0.9000
}

TEST(ForceFieldFiles, OffDiagonalOverrides) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  const int n = ff.num_types;
  // "1 3 0.1131 1.8523 9.8442 1.2775 1.1342 1.0621"
  for (const auto *t : {&ff.tbp[0 * n + 2], &ff.tbp[2 * n + 0]}) {
    EXPECT_EQ(t->D, 0.1131);
    EXPECT_EQ(t->r_vdW, 2.0 * 1.8523);
    EXPECT_EQ(t->alpha, 9.8442);
    EXPECT_EQ(t->r_s, 1.2775);
    EXPECT_EQ(t->r_p, 1.1342);
    EXPECT_EQ(t->r_pp, 1.0621);
  }
  // "2 4 0.0480 2.3000 9.0050 1.0156 -1.0000 -1.0000": negative keeps the mixed value
  const auto &hn = ff.tbp[1 * n + 3];
  EXPECT_EQ(hn.D, 0.048);
  EXPECT_EQ(hn.r_vdW, 4.6);
  EXPECT_EQ(hn.alpha, 9.005);
  EXPECT_EQ(hn.r_s, 1.0156);
  EXPECT_DOUBLE_EQ(hn.r_p, 0.5 * (-0.1 + 1.2558));   // H r_pi, N r_pi
  EXPECT_DOUBLE_EQ(hn.r_pp, 0.5 * (-0.1 + 1.0439));  // H r_pi_pi, N r_pi_pi
}

TEST(ForceFieldFiles, AngleEntries) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  const int n = ff.num_types;
  auto thb = [&](int i, int j, int k) -> const puremd::ThreeBodySets & {
    return ff.thbp[(i * n + j) * n + k];
  };
  // "3 1 3 77.1171 39.8746 2.5403 -24.3902 1.7740 -42.9758 2.1240"
  // columns: theta_00 p_val1 p_val2 p_coa1 p_val7 p_pen1 p_val4
  const auto &oco = thb(2, 0, 2);
  const puremd::ThreeBodyParams &p = oco.prm[0];
  EXPECT_EQ(p.theta_00, 77.1171);
  EXPECT_EQ(p.p_val1, 39.8746);
  EXPECT_EQ(p.p_val2, 2.5403);
  EXPECT_EQ(p.p_coa1, -24.3902);
  EXPECT_EQ(p.p_val7, 1.774);
  EXPECT_EQ(p.p_pen1, -42.9758);
  EXPECT_EQ(p.p_val4, 2.124);
  // A symmetric triple counts twice (LAMMPS behaviour): the second set is empty.
  EXPECT_EQ(oco.cnt, 2);
  EXPECT_EQ(oco.prm[1].p_val1, 0.0);
  EXPECT_EQ(oco.prm[1].theta_00, 0.0);
  // "1 1 2 65.2527 14.3185 6.2977 0.0000 0.5645 0.0000 1.1530": stored both ways
  for (const auto *s : {&thb(0, 0, 1), &thb(1, 0, 0)}) {
    EXPECT_EQ(s->cnt, 1);
    EXPECT_EQ(s->prm[0].theta_00, 65.2527);
    EXPECT_EQ(s->prm[0].p_val1, 14.3185);
    EXPECT_EQ(s->prm[0].p_val4, 1.153);
  }
  // "2 3 4 81.0695 40.0000 ..." gives H-O-N and N-O-H
  EXPECT_EQ(thb(1, 2, 3).cnt, 1);
  EXPECT_EQ(thb(3, 2, 1).prm[0].theta_00, 81.0695);
  EXPECT_EQ(thb(0, 1, 1).cnt, 1);  // "1 2 2" (C-H-H)
  EXPECT_EQ(thb(0, 3, 0).cnt, 2);  // "1 4 1" is symmetric
}

TEST(ForceFieldFiles, TorsionExplicitAndWildcard) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  const int n = ff.num_types;
  auto fb = [&](int i, int j, int k, int l) -> const puremd::FourBodySets & {
    return ff.fbp[((i * n + j) * n + k) * n + l];
  };
  // Explicit "1 1 1 1 -0.2500 11.5822 0.1879 -4.7057 -2.2047"
  EXPECT_EQ(fb(0, 0, 0, 0).cnt, 1);
  EXPECT_EQ(fb(0, 0, 0, 0).prm[0].V1, -0.25);
  EXPECT_EQ(fb(0, 0, 0, 0).prm[0].V2, 11.5822);
  EXPECT_EQ(fb(0, 0, 0, 0).prm[0].V3, 0.1879);
  EXPECT_EQ(fb(0, 0, 0, 0).prm[0].p_tor1, -4.7057);
  EXPECT_EQ(fb(0, 0, 0, 0).prm[0].p_cot1, -2.2047);
  // Explicit "3 1 1 3 -0.0528 6.8150 ..." listed before the wildcard "0 1 1 0" keeps its values.
  EXPECT_EQ(fb(2, 0, 0, 2).prm[0].V2, 6.815);
  // Wildcard "0 1 1 0 0.0000 50.0000 0.3000 -4.0000 -2.0000" fills N-C-C-N, never explicit.
  EXPECT_EQ(fb(3, 0, 0, 3).cnt, 1);
  EXPECT_EQ(fb(3, 0, 0, 3).prm[0].V1, 0.0);
  EXPECT_EQ(fb(3, 0, 0, 3).prm[0].V2, 50.0);
  EXPECT_EQ(fb(3, 0, 0, 3).prm[0].V3, 0.3);
  EXPECT_EQ(fb(3, 0, 0, 3).prm[0].p_tor1, -4.0);
  EXPECT_EQ(fb(3, 0, 0, 3).prm[0].p_cot1, -2.0);
  // Wildcard "0 1 4 0 -0.5473 25.3808 0.9931 -4.3407 -3.0000" in both directions.
  EXPECT_EQ(fb(1, 0, 3, 2).prm[0].V1, -0.5473);  // H-C-N-O
  EXPECT_EQ(fb(2, 3, 0, 1).prm[0].V2, 25.3808);  // O-N-C-H (reverse)
  // Later explicit "4 1 4 4 -2.0000 90.0000 -0.0279 -7.5866 -0.1000" overrides it, and its mirror.
  for (const auto *s : {&fb(3, 0, 3, 3), &fb(3, 3, 0, 3)}) {
    EXPECT_EQ(s->cnt, 1);
    EXPECT_EQ(s->prm[0].V1, -2.0);
    EXPECT_EQ(s->prm[0].V2, 90.0);
    EXPECT_EQ(s->prm[0].V3, -0.0279);
    EXPECT_EQ(s->prm[0].p_tor1, -7.5866);
    EXPECT_EQ(s->prm[0].p_cot1, -0.1);
  }
  // Middle pair C-O has explicit entries only: N-C-O-N has none.
  EXPECT_EQ(fb(3, 0, 2, 3).cnt, 0);
  EXPECT_EQ(fb(1, 0, 2, 1).cnt, 1);  // "2 1 3 2 -2.5000 79.6980 ..."
  EXPECT_EQ(fb(1, 0, 2, 1).prm[0].V2, 79.698);
}

TEST(ForceFieldFiles, HydrogenBondEntries) {
  const ForceField ff = puremd::read_force_field(repo_path(kHns));
  const int n = ff.num_types;
  auto hb = [&](int i, int j, int k) -> const puremd::HbondParams & {
    return ff.hbp[(i * n + j) * n + k];
  };
  // "3 2 3 2.0000 -2.0000 1.5000 19.5000"
  EXPECT_EQ(hb(2, 1, 2).r0_hb, 2.0);
  EXPECT_EQ(hb(2, 1, 2).p_hb1, -2.0);
  EXPECT_EQ(hb(2, 1, 2).p_hb2, 1.5);
  EXPECT_EQ(hb(2, 1, 2).p_hb3, 19.5);
  // "3 2 4 1.9000 -2.0000 1.7976 19.0000"
  EXPECT_EQ(hb(2, 1, 3).r0_hb, 1.9);
  EXPECT_EQ(hb(2, 1, 3).p_hb2, 1.7976);
  EXPECT_EQ(hb(2, 1, 3).p_hb3, 19.0);
  // Triples without an entry are marked r0_hb = -1.
  EXPECT_EQ(hb(0, 1, 0).r0_hb, -1.0);
  EXPECT_EQ(hb(2, 2, 2).r0_hb, -1.0);
  EXPECT_EQ(hb(1, 2, 1).r0_hb, -1.0);
  int set = 0;
  for (const auto &h : ff.hbp) set += h.r0_hb > 0.0;
  EXPECT_EQ(set, 4);  // "4 ! Nr of hydrogen"
}

TEST(ForceFieldFiles, ValencyValReplacedForLightElements) {
  // qeq_ff.water element X: second line valency_boc "4.0000", fourth line
  // valency_val "2.0000", mass "1.0080" < 21: LAMMPS replaces it, with a warning.
  const ForceField ff = puremd::read_force_field(repo_path("examples/water/qeq_ff.water"));
  const int x = ff.find_element("X");
  ASSERT_GE(x, 0);
  EXPECT_EQ(ff.sbp[x].valency_val, 4.0);
  EXPECT_TRUE(any_warning_has(ff.warnings, "valency_val"));
  EXPECT_TRUE(any_warning_has(ff.warnings, "qeq_ff.water:54"));
}

TEST(ForceFieldFiles, EntryBeyondElementCountIsIgnoredInOneNote) {
  // RDX has the angle line "1 2 5 ..." for a fifth element it does not define.
  // LAMMPS skips it silently; every run warned here (issue 42): now one log
  // line naming it, and no warning.
  const ForceField ff = puremd::read_force_field(repo_path("examples/RDX/ffield.reax.rdx"));
  EXPECT_EQ(ff.num_types, 4);
  EXPECT_TRUE(ff.warnings.empty()) << ff.warnings.front();
  EXPECT_NE(ff.ignored_entries.find("angle 1-2-5 (line 128)"), std::string::npos)
      << ff.ignored_entries;
  EXPECT_NE(ff.ignored_entries.find("ffield.reax.rdx"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Force field: modified copies of HNS

TEST_F(ParserTest, LgvdwExtendedFormat) {
  const std::string path = hns_variant("ffield.lg", [](std::vector<std::string> &l) {
    l[37] = "    1.2500 !lg scale";  // gp[35] (line 38)
    const char *extra[] = {"  0.0004  1.9000", "  0.0001  1.2000", "  0.0009  1.8000",
                           "  0.0016  1.7000"};
    int at = find_line(l, "C 1.3825");
    for (int e = 0; e < 4; ++e) {
      l.insert(l.begin() + at + 4, extra[e]);
      at += 5;
    }
    const int off = find_line(l, "6 ! Nr of off-diagonal");
    for (int k = 1; k <= 6; ++k) l[off + k] += (k == 1 ? "  0.5000" : " -1.0000");
  });
  const ForceField ff = puremd::read_force_field(path, /*lgvdw=*/true);
  const int n = ff.num_types;
  ASSERT_EQ(n, 4);
  EXPECT_EQ(ff.sbp[0].lgcij, 0.0004);
  EXPECT_EQ(ff.sbp[0].lgre, 1.9);
  EXPECT_EQ(ff.sbp[3].lgre, 1.7);
  EXPECT_EQ(ff.sbp[3].r_s, 1.6157);  // the block after the extra lines still lines up
  // mixing: lgcij geometric mean; lgre = 2 gp[35] sqrt(lgre_i lgre_j)
  EXPECT_DOUBLE_EQ(ff.tbp[2 * n + 2].lgcij, 0.0009);
  EXPECT_DOUBLE_EQ(ff.tbp[0 * n + 2].lgcij, std::sqrt(0.0004 * 0.0009));  // "1 3 ... -1.0000"
  EXPECT_DOUBLE_EQ(ff.tbp[0 * n + 3].lgre, 2.0 * 1.25 * std::sqrt(1.9 * 1.7));
  // off-diagonal "1 2 ... 0.5000" overrides lgcij
  EXPECT_EQ(ff.tbp[0 * n + 1].lgcij, 0.5);
  EXPECT_EQ(ff.tbp[1 * n + 0].lgcij, 0.5);
  EXPECT_EQ(ff.tbp[0 * n + 1].D, 0.1219);
  // the same file without lgvdw: the user is told to use it
  expect_input_error([&] { puremd::read_force_field(path); }, {"ffield.lg:", "lgvdw"});
  // and a plain file with lgvdw is rejected
  EXPECT_THROW(puremd::read_force_field(repo_path(kHns), true), InputError);
}

TEST_F(ParserTest, VdwTypeFromInnerWallAndShielding) {
  // Inner wall (rcore2, acore2 > 0.01) + shielding on every element -> 3.
  const std::string both = hns_variant("both", [](std::vector<std::string> &l) {
    for (const char *sym : {"C 1.3825", "H 0.7853", "O 1.2477", "N 1.6157"}) {
      const int at = find_line(l, sym) + 3;
      std::vector<std::string> w = words(l[at]);
      w[5] = "1.5000";
      w[6] = "0.2000";
      w[7] = "5.0000";
      l[at] = join(w);
    }
  });
  ForceField ff = puremd::read_force_field(both);
  EXPECT_EQ(ff.vdw_type, 3);
  EXPECT_DOUBLE_EQ(ff.tbp[1].rcore, 1.5);
  EXPECT_DOUBLE_EQ(ff.tbp[1].ecore, 0.2);
  EXPECT_DOUBLE_EQ(ff.tbp[1].acore, 5.0);
  EXPECT_TRUE(ff.warnings.empty());

  // Only C has the wall: the others disagree -> warning, first choice kept.
  const std::string mixed = hns_variant("mixed", [](std::vector<std::string> &l) {
    const int at = find_line(l, "C 1.3825") + 3;
    std::vector<std::string> w = words(l[at]);
    w[5] = "1.5000";
    w[7] = "5.0000";
    l[at] = join(w);
  });
  ff = puremd::read_force_field(mixed);
  EXPECT_EQ(ff.vdw_type, 3);
  EXPECT_TRUE(any_warning_has(ff.warnings, "van der Waals"));

  // No shielding and no wall for C -> error naming the element.
  const std::string none = hns_variant("none", [](std::vector<std::string> &l) {
    const int at = find_line(l, "C 1.3825") + 1;
    std::vector<std::string> w = words(l[at]);
    w[1] = "0.4000";  // gamma_w
    l[at] = join(w);
  });
  expect_input_error([&] { puremd::read_force_field(none); }, {"none:", "van der Waals", "C"});
}

TEST_F(ParserTest, MissingHydrogenBondBlockIsAWarning) {
  const std::string path = hns_variant(
      "nohb", [](std::vector<std::string> &l) { l.resize(find_line(l, "4 ! Nr of hydrogen")); });
  const ForceField ff = puremd::read_force_field(path);
  EXPECT_TRUE(any_warning_has(ff.warnings, "hydrogen bond"));
  for (const auto &h : ff.hbp) EXPECT_EQ(h.r0_hb, -1.0);
  EXPECT_EQ(ff.fbp[0].prm[0].V2, 11.5822);  // torsions were read
}

TEST_F(ParserTest, ErrorFileMissingOrEmpty) {
  const std::string missing = dir_ + "/does_not_exist.ffield";
  expect_input_error([&] { puremd::read_force_field(missing); }, {missing});
  expect_input_error([&] { puremd::read_force_field(dir_); }, {dir_});
  const std::string empty = write("empty", "\n  \n");
  expect_input_error([&] { puremd::read_force_field(empty); }, {"'" + empty + "'", "is empty"});
}

TEST_F(ParserTest, ErrorMissingTitleLine) {
  const std::string path =
      hns_variant("notitle", [](std::vector<std::string> &l) { l.erase(l.begin()); });
  expect_input_error([&] { puremd::read_force_field(path); }, {"notitle:1:", "first line"});
}

TEST_F(ParserTest, ErrorTruncated) {
  // cut inside the general parameters, the element blocks, the bonds, the torsions
  const struct {
    const char *name;
    int keep;  // lines kept
  } cuts[] = {{"cut_gp", 10}, {"cut_elem", 50}, {"cut_bond", 68}, {"cut_tor", 140}};
  for (const auto &c : cuts) {
    SCOPED_TRACE(c.name);
    const int keep = c.keep;
    const std::string path =
        hns_variant(c.name, [keep](std::vector<std::string> &l) { l.resize(keep); });
    expect_input_error([&] { puremd::read_force_field(path); },
                       {c.name, "after line " + std::to_string(keep)});
  }
  // hydrogen-bond count present but entries missing
  const std::string path = hns_variant("cut_hb", [](std::vector<std::string> &l) { l.pop_back(); });
  expect_input_error([&] { puremd::read_force_field(path); }, {"cut_hb", "hydrogen bond entry 4"});
}

TEST_F(ParserTest, ErrorNonNumericToken) {
  int line = 0;
  const std::string path = hns_variant("badnum", [&](std::vector<std::string> &l) {
    const int at = find_line(l, "C 1.3825");
    line = at + 1;
    l[at] = " C    1.38x5   4.0000  12.0000   1.9133   0.1853   0.9000   1.1359   4.0000";
  });
  expect_input_error([&] { puremd::read_force_field(path); },
                     {"badnum:" + std::to_string(line) + ":", "'1.38x5'"});
  const std::string gp =
      hns_variant("badgp", [](std::vector<std::string> &l) { l[4] = "   abc !p(coa2)"; });
  expect_input_error([&] { puremd::read_force_field(gp); }, {"badgp:5:", "'abc'"});
  const std::string idx = hns_variant("badidx", [](std::vector<std::string> &l) {
    const int at = find_line(l, "3 2 3 2.0000");
    l[at] = "  3.0  2  3   2.0000  -2.0000   1.5000  19.5000";
  });
  expect_input_error([&] { puremd::read_force_field(idx); }, {"badidx:", "'3.0'"});
}

TEST_F(ParserTest, ErrorElementCountMismatch) {
  const std::string more = hns_variant("count5", [](std::vector<std::string> &l) {
    l[find_line(l, "4 ! Nr of")] = "  5    ! Nr of atoms";
  });
  expect_input_error([&] { puremd::read_force_field(more); }, {"count5:", "element count"});
  const std::string fewer = hns_variant("count3", [](std::vector<std::string> &l) {
    l[find_line(l, "4 ! Nr of")] = "  3    ! Nr of atoms";
  });
  expect_input_error([&] { puremd::read_force_field(fewer); }, {"count3:", "element count"});
}

TEST_F(ParserTest, ErrorIndexOutOfRange) {
  const struct {
    const char *name;
    const char *prefix;
    const char *replacement;
  } cases[] = {
      {"off0", "2 3 0.0344", "  0  3   0.0344   1.6800  10.3247   0.9013  -1.0000  -1.0000"},
      {"bond0", "2 2 156.0973",
       "  2 -1 156.0973   0.0000   0.0000  -0.1377   0.0000   1.0000   6.0000   0.8240"},
      {"angle0", "1 1 1 67.2326",
       "  1  0  1  67.2326  22.0695   1.6286   0.0000   1.7959  "
       "15.4141   1.8089"},
      {"tor_mid0", "1 1 1 2", "  1  0  1  2  -0.2500  31.2596   0.1709  -4.6391  -1.9002"},
      {"tor_out", "1 1 1 3", " -1  1  1  3  -0.7098  22.2951   0.0060  -2.5000  -2.1688"},
      {"hb0", "3 2 4 1.9000", "  3  0  4   1.9000  -2.0000   1.7976  19.0000"},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.name);
    int line = 0;
    const std::string path = hns_variant(c.name, [&](std::vector<std::string> &l) {
      const int at = find_line(l, c.prefix, 60);
      line = at + 1;
      l[at] = c.replacement;
    });
    expect_input_error([&] { puremd::read_force_field(path); },
                       {std::string(c.name) + ":" + std::to_string(line) + ":", "out of range"});
  }
  // An index above the element count is skipped (as LAMMPS skips it), named in the note.
  const std::string high = hns_variant("off9", [](std::vector<std::string> &l) {
    l[find_line(l, "2 3 0.0344")] = "  2  9   0.0344   1.6800  10.3247   0.9013  -1.0000  -1.0000";
  });
  const ForceField ff = puremd::read_force_field(high);
  EXPECT_NE(ff.ignored_entries.find("off-diagonal 2-9"), std::string::npos) << ff.ignored_entries;
  EXPECT_DOUBLE_EQ(ff.tbp[1 * 4 + 2].D,
                   std::sqrt(0.0419 * 0.0904));  // H, O epsilon: not overridden
}

TEST_F(ParserTest, ErrorTooFewColumns) {
  const std::string path = hns_variant("cols", [](std::vector<std::string> &l) {
    const int at = find_line(l, "1 2 170.2316");
    l[at + 1] = "         5.2267   1.0000   0.0000   1.0000";
  });
  expect_input_error([&] { puremd::read_force_field(path); }, {"cols:", "columns"});
}

TEST_F(ParserTest, ErrorTooManyAngleSets) {
  const std::string path = hns_variant("angles", [](std::vector<std::string> &l) {
    const int at = find_line(l, "40 ! Nr of");
    l[at] = " 46    ! Nr of angles";
    for (int k = 0; k < 6; ++k)
      l.insert(l.begin() + at + 1,
               "  1  1  2  65.2527  14.3185   6.2977   0.0000   0.5645   0.0000   1.1530");
  });
  expect_input_error([&] { puremd::read_force_field(path); }, {"angles:", "1-1-2"});
}

}  // namespace
