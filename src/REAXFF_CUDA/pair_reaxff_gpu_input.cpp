// PairReaxFFGPU's input lines: pair_style's control file and keywords (with
// -var reaxff_gpu's), and pair_coeff's force field and element map.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "atom.h"
#include "comm.h"
#include "command_line_settings.h"
#include "error.h"
#include "library_call.h"
#include "pair_reaxff_gpu.h"
#include "reaxff_api.h"
#include "utils.h"

using namespace LAMMPS_NS;

void PairReaxFFGPU::settings(int narg, char **arg) {
  if (narg < 1)
    error->all(FLERR, "Illegal pair_style reaxff/gpu command: control file or NULL expected");

  control = puremd::Control{};
  if (strcmp(arg[0], "NULL") != 0) {
    // by its path, as pair_style reaxff opens it (no potential-file search)
    std::vector<std::string> warnings;
    call_library_all(lmp, "pair_style reaxff/gpu", "control_file", [&] {
      auto result = puremd::read_control_file(arg[0], control);
      control = result.control;
      warnings = result.warnings;
    });
    if (comm->me == 0)
      for (const auto &w : warnings) error->warning(FLERR, w);
  }

  qeqflag = 1;
  control.lgvdw = false;
  control.enobonds = true;
  requested_driver = puremd::Driver::Auto;
  engine_settings = puremd::EngineSettings{};
  list_skin = -1.0;

  // Same keywords as pair_style reaxff (safezone, mincap, minhbonds and
  // list/blocking size CPU lists there; our lists size themselves, so they
  // are accepted and checked but have no effect), plus ours: driver, skin,
  // lanes, timing (doc/pair_reaxff_gpu.md), which -var reaxff_gpu may give
  // too: after the input's, so that they win and are checked as the input's
  // are (command_line_settings.h).
  std::vector<std::string> w(arg, arg + narg);
  for (const reaxff_gpu::CommandLineSetting &c :
       reaxff_gpu::command_line_settings(lmp, reaxff_gpu::SettingsTaker::Pair)) {
    reaxff_gpu::log_command_line_setting(lmp, "pair_style reaxff/gpu", c,
                                         reaxff_gpu::input_value(w, 1, c.keyword));
    w.insert(w.end(), {c.keyword, c.value});
  }
  const int nw = static_cast<int>(w.size());
  int iarg = 1;
  auto need = [&](const char *kw) {
    if (iarg + 2 > nw)
      error->all(FLERR, "Illegal pair_style reaxff/gpu {} command: value missing", kw);
  };
  while (iarg < nw) {
    const std::string &kw = w[iarg];
    if (kw == "checkqeq") {
      need("checkqeq");
      qeqflag = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "enobonds") {
      need("enobonds");
      control.enobonds = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "lgvdw") {
      need("lgvdw");
      control.lgvdw = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "safezone") {
      need("safezone");
      if (utils::numeric(FLERR, w[iarg + 1], false, lmp) < 0.0)
        error->all(FLERR, "Illegal pair_style reaxff/gpu safezone value: must be >= 0");
    } else if (kw == "mincap" || kw == "minhbonds") {
      need(kw.c_str());
      if (utils::inumeric(FLERR, w[iarg + 1], false, lmp) < 0)
        error->all(FLERR, "Illegal pair_style reaxff/gpu {} value: must be >= 0", kw);
    } else if (kw == "list/blocking") {
      need("list/blocking");
      utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else if (kw == "tabulate") {
      need("tabulate");
      control.tabulate = utils::inumeric(FLERR, w[iarg + 1], false, lmp);
      if (control.tabulate < 0)
        error->all(FLERR, "Illegal pair_style reaxff/gpu tabulate value: must be >= 0");
    } else if (kw == "driver") {
      need("driver");
      const std::string v = w[iarg + 1];
      if (v == "auto")
        requested_driver = puremd::Driver::Auto;
      else if (v == "host")
        requested_driver = puremd::Driver::Host;
      else if (v == "cuda")
        requested_driver = puremd::Driver::Cuda;
      else
        error->all(FLERR, "Illegal pair_style reaxff/gpu driver '{}': use auto, host or cuda", v);
    } else if (kw == "skin") {
      need("skin");
      list_skin = utils::numeric(FLERR, w[iarg + 1], false, lmp);
      if (!(list_skin >= 0.0))
        error->all(FLERR,
                   "Illegal pair_style reaxff/gpu skin {}: a distance >= 0 (A) is expected; 0 "
                   "builds the GPU's pair list every step",
                   w[iarg + 1]);
    } else if (kw == "lanes") {
      need("lanes");
      call_library_all(lmp, "Illegal pair_style reaxff/gpu lanes", "lanes",
                       [&] { engine_settings.lanes = puremd::parse_lanes(w[iarg + 1]); });
    } else if (kw == "timing") {
      need("timing");
      engine_settings.timing = utils::logical(FLERR, w[iarg + 1], false, lmp);
    } else {
      error->all(FLERR, "Unknown pair_style reaxff/gpu keyword '{}'", kw);
    }
    iarg += 2;
  }

  // The analysis styles read these from PairReaxFF's control block.
  api->control->bond_cut = control.bond_cut;
  api->control->hbond_cut = control.hbond_cut;
  api->control->thb_cut = control.thb_cut;
  api->control->thb_cutsq = control.thb_cutsq;
  api->control->bg_cut = control.bg_cut;
  api->control->tabulate = control.tabulate;
  api->control->lgflag = control.lgvdw;
  api->control->enobondsflag = control.enobonds;
  engine_stale = true;
  check_gpu_code();
}

void PairReaxFFGPU::coeff(int narg, char **arg) {
  if (!allocated) allocate();
  if (narg != 3 + atom->ntypes)
    error->all(FLERR,
               "Incorrect args for pair_coeff: expected * * ffield-file and {} element names",
               atom->ntypes);
  if (!utils::strmatch(arg[0], "^\\*$") || !utils::strmatch(arg[1], "^\\*$"))
    error->all(FLERR, "pair_coeff for reaxff/gpu must be '* * ffield-file elements...'");

  // Found as pair_style reaxff finds it: LAMMPS's potential-file search
  // (the name as given, then LAMMPS_POTENTIALS), with its units check and
  // DATE log line (open_potential, on rank 0 as there).
  const std::string path = utils::get_potential_file_path(arg[2]);
  std::string missing;
  if (path.empty()) {
    FILE *fp = fopen(arg[2], "r");  // for the system's reason
    missing = fmt::format("The ReaxFF parameter file {} cannot be opened: {}", arg[2],
                          fp ? "not readable" : utils::getsyserror());
    if (fp) fclose(fp);
  } else if (comm->me == 0) {
    if (FILE *fp = utils::open_potential(arg[2], lmp, nullptr)) fclose(fp);
  }
  stop_all_if_any(lmp, missing);
  call_library_all(lmp, "pair_coeff reaxff/gpu", "force_field",
                   [&] { ffield = puremd::read_force_field(path, control.lgvdw); });
  have_ffield = true;
  if (comm->me == 0) {
    for (const auto &w : ffield.warnings) error->warning(FLERR, w);
    // what pair_style reaxff skips without a word: one line in the log
    if (!ffield.ignored_entries.empty())
      utils::logmesg(lmp, "ReaxFF/GPU: " + ffield.ignored_entries + "\n");
  }
  control.nonb_low = ffield.nonb_low();
  control.nonb_cut = ffield.nonb_cut();
  control.bo_cut = ffield.bo_cut();
  api->control->nonb_low = control.nonb_low;
  api->control->nonb_cut = control.nonb_cut;
  api->control->bo_cut = control.bo_cut;

  const int n = atom->ntypes;
  eletype.assign(n + 1, "");
  int mapped = 0;
  for (int i = 1; i <= n; ++i) {
    const char *name = arg[2 + i];
    eletype[i] = name;
    setflag[i][i] = 0;
    if (strcmp(name, "NULL") == 0) {
      map[i] = -1;
      continue;
    }
    map[i] = ffield.find_element(name);
    if (map[i] < 0)
      error->all(FLERR, "Element '{}' in pair_coeff is not in ReaxFF force field file {}", name,
                 arg[2]);
    ++mapped;
  }
  int count = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = i; j <= n; ++j) {
      setflag[i][j] = (map[i] >= 0 && map[j] >= 0) ? 1 : 0;
      count += setflag[i][j];
    }
  if (count == 0 || mapped == 0)
    error->all(FLERR, "Incorrect args for pair_coeff: no atom type is mapped to a ReaxFF element");
  engine_stale = true;
}
