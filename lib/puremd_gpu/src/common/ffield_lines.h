// The line level of a ReaxFF force-field file, for force_field_reader.cpp:
// whole-token number conversions with LAMMPS's acceptance rules, and a line
// source with the two access modes the format needs, whose errors name the
// file and line.
#pragma once

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/split_words.h"
#include "puremd_gpu/errors.h"

namespace puremd::ffield {

struct Line {
  int number = 0;  // 1-based line number in the file
  std::vector<std::string> tok;
};

// Whole-token numeric conversions with the acceptance rules of LAMMPS's
// ValueTokenizer (std::stoi / std::stod must consume the full token).
inline bool parse_int(const std::string &s, int &out) {
  try {
    std::size_t used = 0;
    const int v = std::stoi(s, &used);
    if (used != s.size()) return false;
    out = v;
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

inline bool parse_double(const std::string &s, double &out) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size()) return false;
    out = v;
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

inline std::string upper(std::string s) {
  for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

inline std::string lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Line source with the two access modes the format needs: the next line that
// holds any word (blank lines are skipped, as LAMMPS does), and the next raw
// line whatever it holds (the fixed comment lines after some counts).
class FfieldReader {
 public:
  explicit FfieldReader(const std::string &path) : path_(path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
      throw InputError("cannot open ReaxFF force field file '" + path +
                       "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
      throw InputError("cannot read ReaxFF force field file '" + path + "': it is a directory");
    in_.open(path);
    if (!in_)
      throw InputError("cannot open ReaxFF force field file '" + path +
                       "': " + std::strerror(errno));
  }

  const std::string &path() const { return path_; }
  int last_line() const { return lineno_; }

  // Next line holding at least one word; false at end of file.
  bool next(Line &out) {
    std::string text;
    while (read_raw(text)) {
      std::vector<std::string> words = split_words(text);
      if (!words.empty()) {
        out.number = lineno_;
        out.tok = std::move(words);
        return true;
      }
    }
    return false;
  }

  // Like next(), but the line is required: end of file is an error.
  Line expect(const std::string &what) {
    Line line;
    if (!next(line)) truncated(what);
    return line;
  }

  // Consume one line whatever it holds (a comment line of the format).
  void skip(const std::string &what) {
    std::string text;
    if (!read_raw(text)) truncated(what);
  }

  [[noreturn]] void fail(int line, const std::string &msg) const {
    throw InputError(where(line) + msg);
  }

  std::string where(int line) const { return path_ + ":" + std::to_string(line) + ": "; }

  [[noreturn]] void truncated(const std::string &what) const {
    throw InputError(path_ + ": file ends after line " + std::to_string(lineno_) +
                     " but the ReaxFF force field format expects " + what +
                     " (file truncated or a section count too large?)");
  }

  void need_columns(const Line &l, std::size_t n, const std::string &what) const {
    if (l.tok.size() < n)
      fail(l.number, "expected at least " + std::to_string(n) + " columns for " + what +
                         " but found " + std::to_string(l.tok.size()));
  }

  double real(const Line &l, std::size_t col, const std::string &what) const {
    double v = 0.0;
    if (col >= l.tok.size())
      fail(l.number, "missing value for " + what + " (column " + std::to_string(col + 1) + ")");
    if (!parse_double(l.tok[col], v))
      fail(l.number, "expected a number for " + what + " (column " + std::to_string(col + 1) +
                         ") but found '" + l.tok[col] + "'");
    return v;
  }

  int integer(const Line &l, std::size_t col, const std::string &what) const {
    int v = 0;
    if (col >= l.tok.size())
      fail(l.number, "missing value for " + what + " (column " + std::to_string(col + 1) + ")");
    if (!parse_int(l.tok[col], v))
      fail(l.number, "expected an integer for " + what + " (column " + std::to_string(col + 1) +
                         ") but found '" + l.tok[col] + "'");
    return v;
  }

  // A section count: a non-negative integer in the first column.
  int count(const Line &l, const std::string &section) const {
    const int n = integer(l, 0, "the number of " + section);
    if (n < 0) fail(l.number, "the number of " + section + " must not be negative");
    return n;
  }

 private:
  bool read_raw(std::string &text) {
    if (!std::getline(in_, text)) {
      if (in_.bad())
        throw InputError("error while reading ReaxFF force field file '" + path_ + "'");
      return false;
    }
    ++lineno_;
    return true;
  }

  std::string path_;
  std::ifstream in_;
  int lineno_ = 0;
};

inline bool all_digits(const std::string &s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The first line is a free-text title. A file whose first line already holds
// the general-parameter count lacks it; LAMMPS rejects that.
inline bool looks_like_global_count(const Line &l, const std::string &raw_words_joined) {
  if (l.tok.size() < 2 || !all_digits(l.tok[0]) || l.tok[1][0] != '!') return false;
  return raw_words_joined.find("general parameters") != std::string::npos;
}

inline std::string join_words(const std::vector<std::string> &tok) {
  std::string s;
  for (const auto &t : tok) {
    if (!s.empty()) s += ' ';
    s += t;
  }
  return s;
}

inline std::string type_list(std::initializer_list<int> ids) {
  std::string s;
  for (int id : ids) {
    if (!s.empty()) s += '-';
    s += std::to_string(id);
  }
  return s;
}

}  // namespace puremd::ffield
