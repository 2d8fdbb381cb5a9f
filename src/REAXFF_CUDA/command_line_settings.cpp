/* Tuning settings from the command line: see command_line_settings.h. */
#include "command_line_settings.h"

#include <algorithm>

#include "comm.h"
#include "error.h"
#include "input.h"
#include "lammps.h"
#include "utils.h"
#include "variable.h"

using namespace LAMMPS_NS;

namespace reaxff_gpu {
namespace {

// The tuning keywords each of our styles takes from the variable (each with
// one value); the physics is the input's.
const std::vector<std::string> &keywords_of(SettingsTaker taker) {
  static const std::vector<std::string> pair = {"driver", "skin", "lanes", "timing"};
  static const std::vector<std::string> fix = {
      "precond", "fsai_radius", "matrix", "predictor", "threads_per_row", "halo", "cuda_aware"};
  return taker == SettingsTaker::Pair ? pair : fix;
}

bool takes(SettingsTaker taker, const std::string &kw) {
  const std::vector<std::string> &k = keywords_of(taker);
  return std::find(k.begin(), k.end(), kw) != k.end();
}

constexpr const char *kQuotedForm = "-var reaxff_gpu \"precond jacobi timing yes\"";

}  // namespace

std::vector<CommandLineSetting> command_line_settings(LAMMPS *lmp, SettingsTaker taker) {
  Variable *variables = lmp->input->variable;
  if (!variables || variables->find(kSettingsVariable) < 0) return {};
  const char *text = variables->retrieve(kSettingsVariable);
  const std::vector<std::string> words = utils::split_words(text ? text : "");
  std::vector<CommandLineSetting> out;
  for (std::size_t k = 0; k < words.size(); k += 2) {
    const std::string &kw = words[k];
    if (!takes(SettingsTaker::Pair, kw) && !takes(SettingsTaker::ChargeFix, kw)) {
      std::string known;
      for (SettingsTaker t : {SettingsTaker::Pair, SettingsTaker::ChargeFix})
        for (const std::string &name : keywords_of(t)) known += (known.empty() ? "" : ", ") + name;
      lmp->error->all(FLERR,
                      "-var {}: '{}' is no tuning setting of pair_style reaxff/gpu or its charge "
                      "fixes (those are {}; settings that change the physics stay in the "
                      "input). Give keyword/value pairs as one quoted value: {}",
                      kSettingsVariable, kw, known, kQuotedForm);
    }
    if (k + 1 >= words.size())
      lmp->error->all(FLERR,
                      "-var {}: keyword '{}' has no value (the variable holds \"{}\"; without "
                      "quotes LAMMPS keeps only the first word). Give keyword/value pairs as one "
                      "quoted value: {}",
                      kSettingsVariable, kw, text ? text : "", kQuotedForm);
    if (takes(taker, kw)) out.push_back({kw, words[k + 1]});
  }
  return out;
}

std::string input_value(const std::vector<std::string> &words, std::size_t first,
                        const std::string &keyword) {
  std::string said;
  for (std::size_t k = first; k + 1 < words.size(); ++k)
    if (words[k] == keyword) said = words[k + 1];
  return said;
}

void log_command_line_setting(LAMMPS *lmp, const std::string &who, const CommandLineSetting &s,
                              const std::string &said) {
  if (lmp->comm->me != 0) return;
  utils::logmesg(lmp, "ReaxFF/GPU: from -var {}: {} {} ({}; {})\n", kSettingsVariable, s.keyword,
                 s.value, who,
                 said.empty() ? "the input did not set it" : "the input said " + said);
}

}  // namespace reaxff_gpu
