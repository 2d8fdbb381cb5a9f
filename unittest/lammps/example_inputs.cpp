#include "example_inputs.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <regex>
#include <sstream>

#include "lammps_session.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> words(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string join(const std::vector<std::string> &w) {
  std::string out;
  for (const auto &s : w) out += (out.empty() ? "" : " ") + s;
  return out;
}

// Index of the tolerance among a charge fix's words (fix ID group style ...),
// or -1 for other fixes.
int tolerance_word(const std::string &style) {
  // fix ID group qeq/reaxff Nevery cutlo cuthi tol ... (also acks2, qtpie, qeq/rel)
  if (std::regex_match(style, std::regex("(qeq|acks2|qtpie|qeq/rel)/reax.*"))) return 7;
  // fix ID group qeq/shielded Nevery cutoff tol maxiter ... (QEQ package)
  if (std::regex_match(style, std::regex("qeq/(point|shielded|slater|dynamic|fire|ctip).*")))
    return 6;
  return -1;
}

// fix acks2/reaxff's BiCGStab also stops as soon as its half-step residual
// has s . s < tol, an absolute test on the square: at 1e-14 that leaves
// |s| ~ 1e-7 eV, and two solvers' charges 3e-9 apart (water with fix efield,
// 20 steps: Press 1.7e-7 apart). At 1e-20, |s| ~ 1e-10 eV: Press 8e-11 apart.
constexpr const char *kAcks2Tolerance = "1e-20";

// Fix styles an example names as LAMMPS no longer (or never, in a release)
// registers them, and the released name. LAMMPS 4Jul2026's water/in.water.qeqr
// and in.water.qeqr.field name fix qeqr/reaxff, the development name of fix
// qeq/rel/reaxff (their logs are from 20Mar25): as shipped they stop with
// "Unrecognized fix style" in LAMMPS itself.
std::string released_fix_name(const std::string &style) {
  if (style == "qeqr/reaxff") return "qeq/rel/reaxff";
  return style;
}

bool is_number(const std::string &s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void PrintTo(const ExampleInput &in, std::ostream *os) { *os << in.name; }

std::vector<ExampleInput> example_inputs() {
  std::vector<ExampleInput> out;
  const fs::path root = LAMMPS_EXAMPLES_DIR;
  if (!fs::is_directory(root)) return out;
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    const std::string file = e.path().filename().string();
    if (!e.is_regular_file() || file.rfind("in.", 0) != 0) continue;
    out.push_back({fs::relative(e.path(), root).string(), e.path().parent_path().string(), file});
  }
  std::sort(out.begin(), out.end(),
            [](const ExampleInput &a, const ExampleInput &b) { return a.name < b.name; });
  return out;
}

std::vector<std::string> harness_commands(const std::string &text, int max_steps,
                                          const std::string &tol) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line, command;
  while (std::getline(in, line)) {
    // `&` at the end of a line continues the command on the next one
    const auto last = line.find_last_not_of(" \t\r");
    if (last != std::string::npos && line[last] == '&') {
      command += line.substr(0, last) + " ";
      continue;
    }
    command += line;
    std::vector<std::string> w = words(command.substr(0, command.find('#')));
    if (!w.empty() && w[0] == "run" && w.size() > 1) {
      const long steps = is_number(w[1]) ? std::stol(w[1]) : LONG_MAX;
      w[1] = std::to_string(std::min<long>(steps, max_steps));
      command = join(w);
    } else if (w.size() > 3 && w[0] == "fix") {
      if (released_fix_name(w[3]) != w[3]) {
        w[3] = released_fix_name(w[3]);
        command = join(w);
      }
      const int k = tolerance_word(w[3]);
      if (k > 0 && static_cast<int>(w.size()) > k) {
        w[k] = std::regex_match(w[3], std::regex("acks2/reax.*")) ? kAcks2Tolerance : tol;
        command = join(w);
      }
    }
    out.push_back(command);
    command.clear();
  }
  if (!command.empty()) out.push_back(command);
  return out;
}

std::vector<std::string> iteration_columns(const std::vector<std::string> &commands,
                                           ChargeFixes which) {
  std::vector<std::string> out;
  for (const std::string &c : commands) {
    const std::vector<std::string> w = words(c);
    if (w.size() <= 3 || w[0] != "fix" || tolerance_word(w[3]) <= 0) continue;
    if (which == ChargeFixes::All ||
        std::regex_match(w[3], std::regex("(qeq|qtpie|qeq/rel|qeqr)/reax.*")))
      out.push_back("f_" + w[1]);
  }
  for (const std::string &c : commands) {
    const std::vector<std::string> w = words(c);
    if (w.size() == 4 && w[0] == "variable" && w[2] == "equal" &&
        std::find(out.begin(), out.end(), w[3]) != out.end())
      out.push_back("v_" + w[1]);
  }
  return out;
}

std::vector<std::vector<ThermoRow>> thermo_rows_of_log(const std::string &text) {
  std::vector<std::vector<ThermoRow>> runs;
  std::vector<std::string> header;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> w = words(line);
    if (w.empty()) continue;
    if (w[0] == "Step") {
      header = w;
      runs.emplace_back();
    } else if (w[0] == "Loop") {
      header.clear();
    } else if (!header.empty() && w.size() == header.size()) {
      ThermoRow row;
      try {
        for (size_t k = 0; k < w.size(); ++k) row.emplace_back(header[k], std::stod(w[k]));
      } catch (std::exception &) {
        continue;  // a warning or other line inside the run's output
      }
      runs.back().push_back(row);
    }
  }
  return runs;
}

ExampleResult run_example(const ExampleInput &input, Switch how, int max_steps,
                          const std::string &tol, const std::vector<std::string> &more_args) {
  static const char *tag[] = {"ref", "sf", "suffix", "kk"};
  std::string name = input.name;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !isalnum(c); }, '_');
  const fs::path work = scratch_path("example_" + name + "_" + tag[static_cast<int>(how)]);
  if (mpi_rank() == 0) {
    fs::remove_all(work);
    fs::create_directories(work);
    // the input's folder, links followed (some examples link to potentials/)
    for (const auto &e : fs::directory_iterator(input.dir))
      if (fs::is_regular_file(e.path()))
        fs::copy_file(e.path(), work / e.path().filename(), fs::copy_options::overwrite_existing);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  const fs::path cwd = fs::current_path();
  fs::current_path(work);
  ExampleResult r;
  {
    std::vector<std::string> args;
    if (how == Switch::CommandLine) args = {"-sf", "gpu"};
    if (how == Switch::Kokkos) args = kokkos_args();
    // LAMMPS's GPU package refuses pair hybrid with GPU-package sub-styles
    // while it builds neighbour lists on the GPU (ci-reaxFF's table)
    if (how == Switch::CommandLine && lammps_has_gpu_package())
      args.insert(args.end(), {"-pk", "gpu", "0", "neigh", "no"});
    args.insert(args.end(), more_args.begin(), more_args.end());
    LammpsSession lmp((work / "log.lammps").string(), args, how != Switch::None);
    std::vector<std::string> commands = harness_commands(read_text(input.file), max_steps, tol);
    if (how == Switch::InputCommand) {
      commands.insert(commands.begin(), "suffix gpu");
      // LAMMPS's own /gpu styles need the package command, which only -sf
      // gpu issues by itself (neigh no: the GPU package's rule under hybrid)
      if (lammps_has_gpu_package()) commands.insert(commands.begin(), "package gpu 0 neigh no");
    }
    for (const std::string &c : commands) {
      r.error = lmp.run(c);
      if (!r.error.empty()) break;
      const std::vector<std::string> w = words(c);
      if (!w.empty() && w[0] == "run") r.last_thermo.push_back(lmp.last_thermo());
    }
    // One more evaluation, for the energy terms, forces and charges.
    if (r.error.empty())
      r.error = lmp.run(
          "compute harness_pair all pair reaxff\n"
          "thermo_style custom step pe c_harness_pair[*]\nrun 0 post no\n");
    if (r.error.empty()) {
      const ThermoRow last = lmp.last_thermo();
      r.pe = last.at(1).second;
      for (size_t k = 2; k < last.size(); ++k) r.terms.push_back(last[k].second);
      r.f = lmp.gather("f", 3);
      r.q = lmp.gather("q", 1);
    }
  }
  fs::current_path(cwd);
  if (mpi_rank() == 0) r.log_rows = thermo_rows_of_log(read_text((work / "log.lammps").string()));
  MPI_Barrier(MPI_COMM_WORLD);
  if (mpi_rank() == 0) fs::remove_all(work);
  return r;
}
