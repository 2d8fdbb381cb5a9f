// Reader for ReaxFF force-field ("ffield") files.
//
// The layout and every value assignment follow what LAMMPS (REAXFF package,
// 4Feb2025) does with the same file, so both codes run with identical
// parameters: the same columns go to the same fields, the same two-body
// mixing rules are applied, and the same entries are ignored or override one
// another. Where LAMMPS stops with an error we throw puremd::InputError; where
// it only warns we append a message to ForceField::warnings.
//
// File layout (whitespace separated; text after the numbers is commentary):
//   title line
//   n_global, then n_global lines with one general parameter each
//   n_elem + 3 comment lines, then per element 4 lines (5 with lgvdw)
//   n_bond + 1 comment line, then per bond 2 lines
//   n_offdiag, one line each        n_angle, one line each
//   n_torsion, one line each        n_hbond, one line each (block optional)

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/ffield_lines.h"
#include "common/split_words.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/physics/nonbonded.h"

namespace puremd {

namespace {

using namespace ffield;

class ForceFieldParser {
 public:
  ForceFieldParser(const std::string &path, bool lgvdw) : rd_(path), lg_(lgvdw) {}

  ForceField run() {
    read_header_and_globals();
    read_elements();
    read_bonds();
    mix_two_body();
    read_off_diagonal();
    for (TwoBodyParams &t : ff_.tbp) derive_vdw_constants(t, ff_.gp[28]);
    read_angles();
    read_torsions();
    read_hbonds();
    return std::move(ff_);
  }

 private:
  void warn(int line, const std::string &msg) { ff_.warnings.push_back(rd_.where(line) + msg); }

  TwoBodyParams &tb(int i, int j) { return ff_.tbp[i * nt_ + j]; }
  ThreeBodySets &thb(int i, int j, int k) { return ff_.thbp[(i * nt_ + j) * nt_ + k]; }
  HbondParams &hb(int i, int j, int k) { return ff_.hbp[(i * nt_ + j) * nt_ + k]; }
  FourBodySets &fb(int i, int j, int k, int l) {
    return ff_.fbp[((i * nt_ + j) * nt_ + k) * nt_ + l];
  }

  // Element indices in the off-diagonal/angle/torsion/hbond sections are
  // 1-based. Index 0 or below is an error (torsions allow 0 as wildcard in the
  // outer positions, handled by the caller); an index above the element count
  // makes LAMMPS skip the entry, which we do too, with a warning.
  void check_indices_positive(const Line &l, std::initializer_list<int> ids,
                              const std::string &section) {
    for (int id : ids)
      if (id < 1)
        rd_.fail(l.number, "element index " + std::to_string(id) + " in the " + section +
                               " entry " + type_list(ids) + " is out of range (valid 1.." +
                               std::to_string(nt_) + ")");
  }

  bool in_range_or_warn(const Line &l, std::initializer_list<int> ids, const std::string &section) {
    for (int id : ids)
      if (id > nt_) {
        std::string &note = ff_.ignored_entries;
        note += std::string(note.empty() ? rd_.path() +
                                               ": ignored entries naming elements beyond "
                                               "its " +
                                               std::to_string(nt_) + ": "
                                         : ", ") +
                section + " " + type_list(ids) + " (line " + std::to_string(l.number) + ")";
        return false;
      }
    return true;
  }

  void read_header_and_globals() {
    Line title;
    if (!rd_.next(title)) throw InputError("ReaxFF force field file '" + rd_.path() + "' is empty");
    if (looks_like_global_count(title, join_words(title.tok)))
      rd_.fail(title.number,
               "the first line of a ReaxFF force field file must be a title/comment line, "
               "but it holds the number of general parameters (add a title line)");

    const Line cnt = rd_.expect("the number of general parameters");
    const int n = rd_.integer(cnt, 0, "the number of general parameters");
    if (n < 1) rd_.fail(cnt.number, "invalid number of general parameters " + std::to_string(n));
    ff_.gp.assign(std::max(n, kNumGlobalParams), 0.0);
    for (int i = 0; i < n; ++i) {
      const Line l =
          rd_.expect("general parameter " + std::to_string(i + 1) + " of " + std::to_string(n));
      ff_.gp[i] = rd_.real(l, 0, "general parameter " + std::to_string(i + 1));
    }
    if (n < kNumGlobalParams)
      warn(cnt.number, "only " + std::to_string(n) + " general parameters given, ReaxFF uses " +
                           std::to_string(kNumGlobalParams) + "; the missing ones are set to 0");
  }

  void read_elements() {
    const Line cnt = rd_.expect("the number of elements");
    nt_ = rd_.integer(cnt, 0, "the number of elements");
    elem_count_line_ = cnt.number;
    if (nt_ < 1) rd_.fail(cnt.number, "invalid number of elements " + std::to_string(nt_));
    for (int c = 0; c < 3; ++c) rd_.skip("three comment lines after the element count");

    const std::size_t n = static_cast<std::size_t>(nt_);
    ff_.num_types = nt_;
    ff_.sbp.assign(n, SingleBodyParams{});
    ff_.tbp.assign(n * n, TwoBodyParams{});
    ff_.thbp.assign(n * n * n, ThreeBodySets{});
    ff_.hbp.assign(n * n * n, HbondParams{});
    ff_.fbp.assign(n * n * n * n, FourBodySets{});

    const std::string count_hint = " (the element count on line " +
                                   std::to_string(elem_count_line_) + " is " + std::to_string(nt_) +
                                   "; is it larger than the number of "
                                   "element blocks?)";
    for (int i = 0; i < nt_; ++i) {
      SingleBodyParams &s = ff_.sbp[i];
      const std::string blk = "element " + std::to_string(i + 1) + " of " + std::to_string(nt_);

      // line 1: symbol, r_s, valency, mass, r_vdw, epsilon, gamma, r_pi, valency_e
      const Line l1 = rd_.expect("the first line of " + blk);
      if (all_digits(l1.tok[0]))
        rd_.fail(l1.number, "expected the first line of " + blk +
                                " (element symbol first) but "
                                "found a section count" +
                                count_hint);
      if (l1.tok.size() < 8 && !lg_)
        rd_.fail(l1.number, "short line where the first line of " + blk +
                                " was expected: this force field file needs the low-gradient "
                                "extension, use pair_style keyword 'lgvdw yes'");
      rd_.need_columns(l1, 9, "the first line of " + blk);
      const std::string sym = upper(l1.tok[0]);
      if (sym.size() > 3)
        warn(l1.number, "element symbol '" + l1.tok[0] + "' is truncated to '" + sym.substr(0, 3) +
                            "' (at most 3 characters are kept, as in LAMMPS)");
      std::strncpy(s.name, sym.substr(0, 3).c_str(), sizeof(s.name) - 1);
      const std::string el = "element " + sym.substr(0, 3);
      s.r_s = rd_.real(l1, 1, "r_s of " + el);
      s.valency = rd_.real(l1, 2, "valency of " + el);
      s.mass = rd_.real(l1, 3, "mass of " + el);
      s.r_vdw = rd_.real(l1, 4, "r_vdw of " + el);
      s.epsilon = rd_.real(l1, 5, "epsilon of " + el);
      s.gamma = rd_.real(l1, 6, "gamma of " + el);
      s.r_pi = rd_.real(l1, 7, "r_pi of " + el);
      s.valency_e = rd_.real(l1, 8, "valency_e of " + el);
      s.nlp_opt = 0.5 * (s.valency_e - s.valency);

      // line 2: alpha, gamma_w, valency_boc, p_ovun5, (unused), chi, eta/2, p_hbond
      const Line l2 = rd_.expect("the second line of " + blk);
      rd_.need_columns(l2, 8, "the second line of " + blk);
      s.alpha = rd_.real(l2, 0, "alpha of " + el);
      s.gamma_w = rd_.real(l2, 1, "gamma_w of " + el);
      s.valency_boc = rd_.real(l2, 2, "valency_boc of " + el);
      s.p_ovun5 = rd_.real(l2, 3, "p_ovun5 of " + el);
      s.chi = rd_.real(l2, 5, "chi of " + el);
      s.eta = 2.0 * rd_.real(l2, 6, "eta of " + el);  // the file holds eta/2
      s.p_hbond = static_cast<int>(rd_.real(l2, 7, "p_hbond of " + el));

      // line 3: r_pi_pi, p_lp2, (heat increment), b_o_131, b_o_132, b_o_133, bcut_acks2
      const Line l3 = rd_.expect("the third line of " + blk);
      rd_.need_columns(l3, 8, "the third line of " + blk);
      s.r_pi_pi = rd_.real(l3, 0, "r_pi_pi of " + el);
      s.p_lp2 = rd_.real(l3, 1, "p_lp2 of " + el);
      s.b_o_131 = rd_.real(l3, 3, "b_o_131 of " + el);
      s.b_o_132 = rd_.real(l3, 4, "b_o_132 of " + el);
      s.b_o_133 = rd_.real(l3, 5, "b_o_133 of " + el);
      s.bcut_acks2 = rd_.real(l3, 6, "bcut_acks2 of " + el);

      // line 4: p_ovun2, p_val3, (unused), valency_val, p_val5, rcore2, ecore2, acore2
      const Line l4 = rd_.expect("the fourth line of " + blk);
      rd_.need_columns(l4, 8, "the fourth line of " + blk);
      s.p_ovun2 = rd_.real(l4, 0, "p_ovun2 of " + el);
      s.p_val3 = rd_.real(l4, 1, "p_val3 of " + el);
      s.valency_val = rd_.real(l4, 3, "valency_val of " + el);
      s.p_val5 = rd_.real(l4, 4, "p_val5 of " + el);
      s.rcore2 = rd_.real(l4, 5, "rcore2 of " + el);
      s.ecore2 = rd_.real(l4, 6, "ecore2 of " + el);
      s.acore2 = rd_.real(l4, 7, "acore2 of " + el);

      // line 5 (lgvdw only): lgcij, lgre
      if (lg_) {
        const Line l5 = rd_.expect("the fifth (lgvdw) line of " + blk);
        rd_.need_columns(l5, 2, "the fifth (lgvdw) line of " + blk);
        s.lgcij = rd_.real(l5, 0, "lgcij of " + el);
        s.lgre = rd_.real(l5, 1, "lgre of " + el);
      } else {
        s.lgcij = s.lgre = 0.0;
      }

      classify_vdw(s, l1.number);
      elem_line_.push_back(l1.number);
    }

    // First-row elements: the angle valency is taken equal to the bond-order
    // valency (ReaxFF convention, applied by LAMMPS with a warning).
    for (int i = 0; i < nt_; ++i) {
      SingleBodyParams &s = ff_.sbp[i];
      if (s.mass < 21 && s.valency_val != s.valency_boc) {
        warn(elem_line_[i], std::string("changed valency_val to valency_boc for ") + s.name);
        s.valency_val = s.valency_boc;
      }
    }

    // pair_coeff maps by name; a repeated name would make that ambiguous.
    for (int i = 0; i < nt_; ++i)
      for (int j = i + 1; j < nt_; ++j)
        if (std::strcmp(ff_.sbp[i].name, ff_.sbp[j].name) == 0)
          warn(elem_line_[j], std::string("element ") + ff_.sbp[i].name +
                                  " is defined more than once (elements " + std::to_string(i + 1) +
                                  " and " + std::to_string(j + 1) +
                                  "); pair_coeff cannot map it unambiguously");
  }

  // The elements select one van der Waals form for the whole force field:
  // inner wall present when rcore2 and acore2 exceed 0.01, shielding when
  // gamma_w exceeds 0.5. The first element decides; later elements that
  // disagree keep the earlier choice and produce a warning.
  void classify_vdw(const SingleBodyParams &s, int line) {
    const bool wall = s.rcore2 > 0.01 && s.acore2 > 0.01;
    const bool shield = s.gamma_w > 0.5;
    int want = 0;
    const char *what = nullptr;
    if (wall && shield) {
      want = 3;
      what = "inner wall + shielding";
    } else if (wall) {
      want = 2;
      what = "inner wall without shielding";
    } else if (shield) {
      want = 1;
      what = "shielding without inner wall";
    } else {
      rd_.fail(line, std::string("inconsistent van der Waals parameters: no shielding "
                                 "(gamma_w > 0.5) or inner wall (rcore2, acore2 > 0.01) set "
                                 "for element ") +
                         s.name);
    }
    if (ff_.vdw_type == 0 || ff_.vdw_type == want) {
      ff_.vdw_type = want;
    } else {
      warn(line, std::string("van der Waals parameters for element ") + s.name + " indicate " +
                     what +
                     ", but earlier elements indicate a different van der Waals method. "
                     "This may cause division-by-zero errors. Keeping the van der Waals "
                     "setting of the earlier elements.");
    }
  }

  void read_bonds() {
    const Line cnt = rd_.expect("the number of bond entries");
    int probe = 0;
    if (!parse_int(cnt.tok[0], probe))
      rd_.fail(cnt.number, "expected the number of bond entries but found '" + cnt.tok[0] +
                               "' (is the element count on line " +
                               std::to_string(elem_count_line_) +
                               " smaller than the number of element blocks?)");
    const int n = rd_.count(cnt, "bond entries");
    rd_.skip("the comment line after the number of bond entries");
    for (int e = 0; e < n; ++e) {
      const std::string what = "bond entry " + std::to_string(e + 1) + " of " + std::to_string(n);
      const Line a = rd_.expect("the first line of " + what);
      rd_.need_columns(a, 10, "the first line of " + what);
      const int ti = rd_.integer(a, 0, "the first element index of " + what);
      const int tj = rd_.integer(a, 1, "the second element index of " + what);
      check_indices_positive(a, {ti, tj}, "bond");
      const bool use = in_range_or_warn(a, {ti, tj}, "bond");
      const int i = ti - 1, j = tj - 1;
      if (use) {
        const std::string p = " of bond " + type_list({ti, tj});
        TwoBodyParams v = tb(i, j);
        v.De_s = rd_.real(a, 2, "De_s" + p);
        v.De_p = rd_.real(a, 3, "De_p" + p);
        v.De_pp = rd_.real(a, 4, "De_pp" + p);
        v.p_be1 = rd_.real(a, 5, "p_be1" + p);
        v.p_bo5 = rd_.real(a, 6, "p_bo5" + p);
        v.v13cor = rd_.real(a, 7, "v13cor" + p);
        v.p_bo6 = rd_.real(a, 8, "p_bo6" + p);
        v.p_ovun1 = rd_.real(a, 9, "p_ovun1" + p);
        tb(i, j) = tb(j, i) = v;
      }
      const Line b = rd_.expect("the second line of " + what);
      rd_.need_columns(b, 7, "the second line of " + what);
      if (use) {
        const std::string p = " of bond " + type_list({ti, tj});
        TwoBodyParams v = tb(i, j);
        v.p_be2 = rd_.real(b, 0, "p_be2" + p);
        v.p_bo3 = rd_.real(b, 1, "p_bo3" + p);
        v.p_bo4 = rd_.real(b, 2, "p_bo4" + p);
        v.p_bo1 = rd_.real(b, 4, "p_bo1" + p);
        v.p_bo2 = rd_.real(b, 5, "p_bo2" + p);
        v.ovc = rd_.real(b, 6, "ovc" + p);
        tb(i, j) = tb(j, i) = v;
      }
    }
  }

  // Pair values derived from the single-body parameters (before off-diagonal
  // overrides): arithmetic means for radii, geometric means elsewhere.
  void mix_two_body() {
    const double lgre_scale = 2.0 * ff_.gp[35];
    for (int i = 0; i < nt_; ++i) {
      for (int j = i; j < nt_; ++j) {
        const SingleBodyParams &a = ff_.sbp[i], &b = ff_.sbp[j];
        TwoBodyParams v = tb(i, j);
        v.r_s = 0.5 * (a.r_s + b.r_s);
        v.r_p = 0.5 * (a.r_pi + b.r_pi);
        v.r_pp = 0.5 * (a.r_pi_pi + b.r_pi_pi);
        v.p_boc3 = std::sqrt(a.b_o_132 * b.b_o_132);
        v.p_boc4 = std::sqrt(a.b_o_131 * b.b_o_131);
        v.p_boc5 = std::sqrt(a.b_o_133 * b.b_o_133);
        v.D = std::sqrt(a.epsilon * b.epsilon);
        v.alpha = std::sqrt(a.alpha * b.alpha);
        v.r_vdW = 2.0 * std::sqrt(a.r_vdw * b.r_vdw);
        v.gamma_w = std::sqrt(a.gamma_w * b.gamma_w);
        v.gamma = std::pow(a.gamma * b.gamma, -1.5);
        v.rcore = std::sqrt(a.rcore2 * b.rcore2);
        v.ecore = std::sqrt(a.ecore2 * b.ecore2);
        v.acore = std::sqrt(a.acore2 * b.acore2);
        v.lgcij = std::sqrt(a.lgcij * b.lgcij);
        v.lgre = lgre_scale * std::sqrt(a.lgre * b.lgre);
        tb(i, j) = tb(j, i) = v;
      }
    }
  }

  // Explicit pair values; a non-positive entry keeps the mixed value (for
  // lgcij a negative one does).
  void read_off_diagonal() {
    const Line cnt = rd_.expect("the number of off-diagonal entries");
    const int n = rd_.count(cnt, "off-diagonal entries");
    const std::size_t cols = lg_ ? 9 : 8;
    for (int e = 0; e < n; ++e) {
      const std::string what =
          "off-diagonal entry " + std::to_string(e + 1) + " of " + std::to_string(n);
      const Line l = rd_.expect(what);
      rd_.need_columns(l, cols, what + (lg_ ? " (lgvdw adds a ninth column)" : ""));
      const int ti = rd_.integer(l, 0, "the first element index of " + what);
      const int tj = rd_.integer(l, 1, "the second element index of " + what);
      check_indices_positive(l, {ti, tj}, "off-diagonal");
      if (!in_range_or_warn(l, {ti, tj}, "off-diagonal")) continue;
      const int i = ti - 1, j = tj - 1;
      const std::string p = " of off-diagonal pair " + type_list({ti, tj});
      TwoBodyParams v = tb(i, j);
      double x = rd_.real(l, 2, "D" + p);
      if (x > 0.0) v.D = x;
      x = rd_.real(l, 3, "r_vdW" + p);
      if (x > 0.0) v.r_vdW = 2.0 * x;
      x = rd_.real(l, 4, "alpha" + p);
      if (x > 0.0) v.alpha = x;
      x = rd_.real(l, 5, "r_s" + p);
      if (x > 0.0) v.r_s = x;
      x = rd_.real(l, 6, "r_p" + p);
      if (x > 0.0) v.r_p = x;
      x = rd_.real(l, 7, "r_pp" + p);
      if (x > 0.0) v.r_pp = x;
      if (lg_) {
        x = rd_.real(l, 8, "lgcij" + p);
        if (x >= 0.0) v.lgcij = x;
      }
      tb(i, j) = tb(j, i) = v;
    }
  }

  // Each entry adds one parameter set to (i,j,k) and mirrors it to (k,j,i).
  // As in LAMMPS, the set index is the count of (i,j,k) before the entry, and
  // both counts are incremented; for i == k that is the same count twice, so a
  // symmetric triple gets an all-zero set after each real one (the angle
  // kernels skip sets with |p_val1| <= 0.001, which drops it).
  void read_angles() {
    const Line cnt = rd_.expect("the number of angle entries");
    const int n = rd_.count(cnt, "angle entries");
    for (int e = 0; e < n; ++e) {
      const std::string what = "angle entry " + std::to_string(e + 1) + " of " + std::to_string(n);
      const Line l = rd_.expect(what);
      rd_.need_columns(l, 10, what);
      const int ti = rd_.integer(l, 0, "the first element index of " + what);
      const int tj = rd_.integer(l, 1, "the second element index of " + what);
      const int tk = rd_.integer(l, 2, "the third element index of " + what);
      check_indices_positive(l, {ti, tj, tk}, "angle");
      if (!in_range_or_warn(l, {ti, tj, tk}, "angle")) continue;
      const int i = ti - 1, j = tj - 1, k = tk - 1;
      const std::string p = " of angle " + type_list({ti, tj, tk});
      ThreeBodyParams prm{};
      prm.theta_00 = rd_.real(l, 3, "theta_00" + p);
      prm.p_val1 = rd_.real(l, 4, "p_val1" + p);
      prm.p_val2 = rd_.real(l, 5, "p_val2" + p);
      prm.p_coa1 = rd_.real(l, 6, "p_coa1" + p);
      prm.p_val7 = rd_.real(l, 7, "p_val7" + p);
      prm.p_pen1 = rd_.real(l, 8, "p_pen1" + p);
      prm.p_val4 = rd_.real(l, 9, "p_val4" + p);

      ThreeBodySets &fwd = thb(i, j, k);
      ThreeBodySets &rev = thb(k, j, i);
      const int slot = fwd.cnt;
      const int after = slot + (i == k ? 2 : 1);
      if (after > kMaxThreeBodySets)
        rd_.fail(l.number, "too many angle entries for element triple " + type_list({ti, tj, tk}) +
                               " (at most " + std::to_string(kMaxThreeBodySets) +
                               " parameter sets are supported)");
      fwd.prm[slot] = prm;
      rev.prm[slot] = prm;
      fwd.cnt += 1;
      rev.cnt += 1;
    }
  }

  // Explicit entries i-j-k-l apply to that quadruple and its reverse and win
  // over wildcard entries 0-j-k-0 (an index 0 in either outer position), which
  // fill every outer pair of j-k and l-k not set explicitly. A later explicit
  // entry replaces an earlier one; a later wildcard replaces an earlier
  // wildcard.
  void read_torsions() {
    const Line cnt = rd_.expect("the number of torsion entries");
    const int n = rd_.count(cnt, "torsion entries");
    const std::size_t n4 = static_cast<std::size_t>(nt_) * nt_ * nt_ * nt_;
    std::vector<char> explicit_set(n4, 0);
    auto idx = [&](int a, int b, int c, int d) {
      return ((static_cast<std::size_t>(a) * nt_ + b) * nt_ + c) * nt_ + d;
    };
    for (int e = 0; e < n; ++e) {
      const std::string what =
          "torsion entry " + std::to_string(e + 1) + " of " + std::to_string(n);
      const Line l = rd_.expect(what);
      rd_.need_columns(l, 9, what);
      const int ti = rd_.integer(l, 0, "the first element index of " + what);
      const int tj = rd_.integer(l, 1, "the second element index of " + what);
      const int tk = rd_.integer(l, 2, "the third element index of " + what);
      const int tl = rd_.integer(l, 3, "the fourth element index of " + what);
      if (ti < 0 || tj < 1 || tk < 1 || tl < 0)
        rd_.fail(l.number, "element indices " + type_list({ti, tj, tk, tl}) + " of " + what +
                               " are out of range (inner indices 1.." + std::to_string(nt_) +
                               ", outer indices also 0 as wildcard)");
      const std::string p = " of torsion " + type_list({ti, tj, tk, tl});
      FourBodyParams prm{};
      prm.V1 = rd_.real(l, 4, "V1" + p);
      prm.V2 = rd_.real(l, 5, "V2" + p);
      prm.V3 = rd_.real(l, 6, "V3" + p);
      prm.p_tor1 = rd_.real(l, 7, "p_tor1" + p);
      prm.p_cot1 = rd_.real(l, 8, "p_cot1" + p);

      const int i = ti - 1, j = tj - 1, k = tk - 1, m = tl - 1;
      if (ti > 0 && tl > 0) {
        if (!in_range_or_warn(l, {ti, tj, tk, tl}, "torsion")) continue;
        explicit_set[idx(i, j, k, m)] = explicit_set[idx(m, k, j, i)] = 1;
        for (FourBodySets *s : {&fb(i, j, k, m), &fb(m, k, j, i)}) {
          s->cnt = 1;
          s->prm[0] = prm;
        }
      } else {
        if (!in_range_or_warn(l, {tj, tk}, "torsion")) continue;
        for (int a = 0; a < nt_; ++a) {
          for (int d = 0; d < nt_; ++d) {
            if (!explicit_set[idx(a, j, k, d)]) {
              fb(a, j, k, d).cnt = 1;
              fb(a, j, k, d).prm[0] = prm;
            }
            if (!explicit_set[idx(d, k, j, a)]) {
              fb(d, k, j, a).cnt = 1;
              fb(d, k, j, a).prm[0] = prm;
            }
          }
        }
      }
    }
  }

  // Hydrogen bonds X-H...Y, stored for the ordered triple only. Unset
  // triples carry r0_hb = -1. The whole block may be absent (a warning).
  void read_hbonds() {
    for (HbondParams &h : ff_.hbp) h.r0_hb = -1.0;
    Line cnt;
    if (!rd_.next(cnt)) {
      ff_.warnings.push_back(rd_.path() +
                             ": ReaxFF parameter file has no hydrogen bond parameters");
      return;
    }
    const int n = rd_.count(cnt, "hydrogen bond entries");
    for (int e = 0; e < n; ++e) {
      const std::string what =
          "hydrogen bond entry " + std::to_string(e + 1) + " of " + std::to_string(n);
      const Line l = rd_.expect(what);
      rd_.need_columns(l, 7, what);
      const int ti = rd_.integer(l, 0, "the first element index of " + what);
      const int tj = rd_.integer(l, 1, "the second element index of " + what);
      const int tk = rd_.integer(l, 2, "the third element index of " + what);
      check_indices_positive(l, {ti, tj, tk}, "hydrogen bond");
      if (!in_range_or_warn(l, {ti, tj, tk}, "hydrogen bond")) continue;
      const std::string p = " of hydrogen bond " + type_list({ti, tj, tk});
      HbondParams &h = hb(ti - 1, tj - 1, tk - 1);
      h.r0_hb = rd_.real(l, 3, "r0_hb" + p);
      h.p_hb1 = rd_.real(l, 4, "p_hb1" + p);
      h.p_hb2 = rd_.real(l, 5, "p_hb2" + p);
      h.p_hb3 = rd_.real(l, 6, "p_hb3" + p);
    }
  }

  FfieldReader rd_;
  bool lg_;
  int nt_ = 0;
  int elem_count_line_ = 0;
  std::vector<int> elem_line_;  // first line of each element block
  ForceField ff_;
};

}  // namespace

int ForceField::find_element(const std::string &name) const {
  // Same rule as pair_style reaxff's pair_coeff: whole-name, case-insensitive
  // match; with repeated names the last one wins.
  const std::string want = lower(name);
  int found = -1;
  for (int i = 0; i < static_cast<int>(sbp.size()); ++i)
    if (lower(sbp[i].name) == want) found = i;
  return found;
}

ForceField read_force_field(const std::string &path, bool lgvdw) {
  return ForceFieldParser(path, lgvdw).run();
}

}  // namespace puremd
