/* Tuning settings from the command line, for an input that stays as it is:

       lmp -in in.reaxff -sf gpu -var reaxff_gpu "precond jacobi timing yes"

   An index variable named reaxff_gpu holding keyword/value pairs (quoted: one
   value). pair_style reaxff/gpu takes its tuning keywords (driver, skin, lanes,
   timing), the charge fixes theirs (precond, fsai_radius, matrix, predictor,
   threads_per_row, halo, cuda_aware), each after the input's own keywords, so
   that the command line wins and the same checks and errors apply. Settings
   that change the physics (checkqeq, enobonds, lgvdw, tabulate, maxiter,
   xlmd, ...) stay in the input. A variable, not `package gpu`'s keywords:
   where LAMMPS has its GPU package, its own `package gpu` takes only its own
   keywords. */
#ifndef LMP_REAXFF_GPU_COMMAND_LINE_SETTINGS_H
#define LMP_REAXFF_GPU_COMMAND_LINE_SETTINGS_H

#include <cstddef>
#include <string>
#include <vector>

namespace LAMMPS_NS {
class LAMMPS;
}

namespace reaxff_gpu {

inline constexpr const char *kSettingsVariable = "reaxff_gpu";

// Which of our styles takes a setting.
enum class SettingsTaker { Pair, ChargeFix };

struct CommandLineSetting {
  std::string keyword, value;
};

// The variable's settings that `taker` takes, in the variable's order; none
// where the variable is not defined. The whole variable is checked first:
// a keyword that none of our styles takes, or one without a value (an
// unquoted -var reaxff_gpu precond jacobi leaves the variable "precond"), is
// a LAMMPS error naming it and showing the quoted form.
std::vector<CommandLineSetting> command_line_settings(LAMMPS_NS::LAMMPS *lmp, SettingsTaker taker);

// What the input's keyword/value pairs words[first..] give `keyword` last
// ("" if they do not name it).
std::string input_value(const std::vector<std::string> &words, std::size_t first,
                        const std::string &keyword);

// Rank 0's log line for a setting taken by `who` (e.g. "fix q"):
// "ReaxFF/GPU: from -var reaxff_gpu: precond jacobi (fix q; the input said
// fsai)"; `said` is what the input gave the keyword ("" if nothing).
void log_command_line_setting(LAMMPS_NS::LAMMPS *lmp, const std::string &who,
                              const CommandLineSetting &s, const std::string &said);

}  // namespace reaxff_gpu

#endif
