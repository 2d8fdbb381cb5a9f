// Shared by the reader tests (input/): paths of the shipped files, the lines
// of a file, a scratch directory per test for modified copies, and the check
// that a reader's InputError names what is wrong.
#pragma once

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
#include "puremd_gpu/errors.h"
#include "puremd_gpu/force_field.h"

namespace reader_test {

using puremd::Control;
using puremd::ForceField;
using puremd::InputError;

inline std::string repo_path(const std::string &rel) {
  return std::string(REAXFF_CUDA_SOURCE_DIR) + "/" + rel;
}

inline const std::string kHns = "examples/HNS/ffield.reax.hns";

inline std::vector<std::string> read_lines(const std::string &path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<std::string> lines;
  std::string s;
  while (std::getline(in, s)) lines.push_back(s);
  return lines;
}

inline std::vector<std::string> words(const std::string &s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  std::string t;
  while (in >> t) w.push_back(t);
  return w;
}

inline std::string join(const std::vector<std::string> &w) {
  std::string s;
  for (const auto &t : w) s += " " + t;
  return s;
}

// 0-based index of the first line whose words start with `prefix` words.
inline int find_line(const std::vector<std::string> &lines, const std::string &prefix,
                     int from = 0) {
  const std::vector<std::string> p = words(prefix);
  for (int i = from; i < static_cast<int>(lines.size()); ++i) {
    const std::vector<std::string> w = words(lines[i]);
    if (w.size() >= p.size() && std::equal(p.begin(), p.end(), w.begin())) return i;
  }
  ADD_FAILURE() << "no line starting with '" << prefix << "'";
  return -1;
}

// A scratch directory per test, removed with its files afterwards.
class ParserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "reaxff_parsers_XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    ASSERT_NE(mkdtemp(buf.data()), nullptr);
    dir_ = buf.data();
  }
  void TearDown() override {
    for (const auto &f : files_) unlink(f.c_str());
    rmdir(dir_.c_str());
  }
  std::string write(const std::string &name, const std::string &text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    files_.push_back(path);
    return path;
  }
  std::string write_lines(const std::string &name, const std::vector<std::string> &lines) {
    std::string text;
    for (const auto &l : lines) text += l + "\n";
    return write(name, text);
  }
  // HNS force field with an edit applied to its lines.
  std::string hns_variant(const std::string &name,
                          const std::function<void(std::vector<std::string> &)> &edit) {
    std::vector<std::string> lines = read_lines(repo_path(kHns));
    edit(lines);
    return write_lines(name, lines);
  }

  std::string dir_;
  std::vector<std::string> files_;
};

// Runs `fn`, which must throw InputError whose message holds every string in
// `parts` (file name, line number, the offending token...).
inline void expect_input_error(const std::function<void()> &fn,
                               const std::vector<std::string> &parts) {
  try {
    fn();
    ADD_FAILURE() << "expected puremd::InputError, nothing was thrown";
  } catch (const InputError &e) {
    const std::string msg = e.what();
    for (const auto &p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "message lacks '" << p << "': " << msg;
  } catch (const std::exception &e) {
    ADD_FAILURE() << "expected puremd::InputError, got another exception: " << e.what();
  }
}

inline bool any_warning_has(const std::vector<std::string> &warnings, const std::string &part) {
  for (const auto &w : warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace reader_test
