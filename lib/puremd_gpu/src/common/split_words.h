// Whitespace tokenizer shared by the ffield and control-file readers; splits
// on the same separators as LAMMPS's tokenizer so both parse files alike.
#pragma once

#include <string>
#include <vector>

namespace puremd {

inline std::vector<std::string> split_words(const std::string &text) {
  static const char *const kSeparators = " \t\r\n\f";
  std::vector<std::string> words;
  std::string::size_type pos = text.find_first_not_of(kSeparators);
  while (pos != std::string::npos) {
    const std::string::size_type end = text.find_first_of(kSeparators, pos);
    words.push_back(text.substr(pos, end == std::string::npos ? end : end - pos));
    pos = text.find_first_not_of(kSeparators, end);
  }
  return words;
}

}  // namespace puremd
