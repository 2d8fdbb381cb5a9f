// Reader for the ReaxFF control file (PuReMD format) as accepted by LAMMPS's
// pair_style reaxff: one "keyword value [comment...]" per line. Only the
// keywords that affect a LAMMPS run are applied; the other PuReMD keywords are
// accepted with a warning; anything else is an error.

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/split_words.h"
#include "puremd_gpu/control.h"
#include "puremd_gpu/errors.h"

namespace puremd {

namespace {

// PuReMD keywords that have no effect under LAMMPS (integration, output and
// restart settings of the stand-alone code).
const std::unordered_set<std::string> &inactive_keywords() {
  static const std::unordered_set<std::string> kInactive = [] {
    const std::vector<std::string> w = split_words(
        "ensemble_type nsteps dt proc_by_dim random_vel restart_format restart_freq "
        "reposition_atoms restrict_bonds remove_CoM_vel debug_level reneighbor "
        "vlist_buffer ghost_cutoff qeq_freq q_err ilu_refactor ilu_droptol temp_init "
        "temp_final t_mass t_mode t_rate t_freq pressure p_mass pt_mass compress "
        "press_mode geo_format traj_compress traj_method molecular_analysis ignore "
        "dipole_anal freq_dipole_anal diffusion_coef freq_diffusion_coef restrict_type "
        "traj_title simulation_name energy_update_freq atom_info atom_velocities "
        "atom_forces bond_info angle_info");
    return std::unordered_set<std::string>(w.begin(), w.end());
  }();
  return kInactive;
}

class ControlParser {
 public:
  explicit ControlParser(const std::string &path) : path_(path) {}

  ControlReadResult run(Control base) {
    struct stat st;
    if (::stat(path_.c_str(), &st) != 0)
      throw InputError("cannot open ReaxFF control file '" + path_ + "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
      throw InputError("cannot read ReaxFF control file '" + path_ + "': it is a directory");
    std::ifstream in(path_);
    if (!in)
      throw InputError("cannot open ReaxFF control file '" + path_ + "': " + std::strerror(errno));

    ControlReadResult out;
    out.control = base;
    Control &c = out.control;
    std::string text;
    while (std::getline(in, text)) {
      ++lineno_;
      const std::vector<std::string> w = split_words(text);
      if (w.empty()) continue;
      const std::string &key = w[0];
      if (w.size() < 2) fail("no value given for control parameter '" + key + "'");
      const std::string &val = w[1];

      if (inactive_keywords().count(key)) {
        out.warnings.push_back(where() + "ignoring inactive control parameter: " + key);
      } else if (key == "nbrhood_cutoff") {
        c.bond_cut = positive(key, val, "a distance in A");
      } else if (key == "bond_graph_cutoff") {
        c.bg_cut = not_negative(key, val, "a bond order");
      } else if (key == "thb_cutoff") {
        c.thb_cut = not_negative(key, val, "a bond order");
      } else if (key == "thb_cutoff_sq") {
        c.thb_cutsq = not_negative(key, val, "a product of bond orders");
      } else if (key == "hbond_cutoff") {
        c.hbond_cut = not_negative(key, val, "a distance in A; 0 leaves out hydrogen bonds");
      } else if (key == "tabulate_long_range") {
        c.tabulate = integer(key, val);
      } else if (key == "write_freq") {
        if (integer(key, val) > 0)
          out.warnings.push_back(where() +
                                 "support for writing native trajectories has been removed "
                                 "after LAMMPS version 8 April 2021 (write_freq ignored)");
      } else {
        fail("unknown parameter '" + key +
             "' in control file (known: nbrhood_cutoff, hbond_cutoff, thb_cutoff, "
             "thb_cutoff_sq, bond_graph_cutoff, tabulate_long_range, write_freq, and "
             "inactive PuReMD keywords)");
      }
    }
    if (in.bad()) throw InputError("error while reading ReaxFF control file '" + path_ + "'");
    return out;
  }

 private:
  std::string where() const { return path_ + ":" + std::to_string(lineno_) + ": "; }

  [[noreturn]] void fail(const std::string &msg) const { throw InputError(where() + msg); }

  // Cut-offs: a negative one (or a zero bond cut-off) is a typo that would
  // give wrong energies, not a setting.
  double positive(const std::string &key, const std::string &val, const char *what) const {
    const double v = real(key, val);
    if (!(v > 0.0)) fail(key + " must be > 0 (" + what + "), found '" + val + "'");
    return v;
  }
  double not_negative(const std::string &key, const std::string &val, const char *what) const {
    const double v = real(key, val);
    if (!(v >= 0.0)) fail(key + " must be >= 0 (" + what + "), found '" + val + "'");
    return v;
  }

  // The whole token must be a number (std::stod / std::stoi rules, as LAMMPS).
  double real(const std::string &key, const std::string &val) const {
    try {
      std::size_t used = 0;
      const double v = std::stod(val, &used);
      if (used == val.size()) return v;
    } catch (const std::exception &) {
    }
    fail("expected a number for control parameter '" + key + "' but found '" + val + "'");
  }

  int integer(const std::string &key, const std::string &val) const {
    try {
      std::size_t used = 0;
      const int v = std::stoi(val, &used);
      if (used == val.size()) return v;
    } catch (const std::exception &) {
    }
    fail("expected an integer for control parameter '" + key + "' but found '" + val + "'");
  }

  std::string path_;
  int lineno_ = 0;
};

}  // namespace

ControlReadResult read_control_file(const std::string &path, Control base) {
  return ControlParser(path).run(base);
}

}  // namespace puremd
