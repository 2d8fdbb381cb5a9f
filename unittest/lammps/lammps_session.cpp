#include "lammps_session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#define LAMMPS_LIB_MPI 1
#include "library.h"

int mpi_rank() {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  return me;
}

int mpi_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

std::string source_dir() { return REAXFF_CUDA_SOURCE_DIR; }

std::string read_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

bool lammps_has_gpu_package() { return lammps_config_has_package("GPU") != 0; }

bool lammps_has_kokkos() { return lammps_config_has_package("KOKKOS") != 0; }

std::vector<std::string> kokkos_args(bool newton_on) {
  const bool gpu = lammps_config_accelerator("KOKKOS", "api", "cuda") != 0;
  std::vector<std::string> a = {"-k", "on", gpu ? "g" : "t", "1", "-sf", "hybrid", "gpu", "kk"};
  if (newton_on)
    a.insert(a.end(), {"-pk", "kokkos", "newton", "on", "neigh", "half", "comm", "device", "sort",
                       "device"});
  return a;
}

bool kokkos_runs_here() {
  if (lammps_has_kokkos()) return true;
  if (mpi_rank() == 0) {
    const auto *test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::printf("[ no -k on] %s.%s: its -k on runs left out: this LAMMPS has no KOKKOS package\n",
                test ? test->test_suite_name() : "?", test ? test->name() : "?");
  }
  return false;
}

namespace {
// Names handed out by scratch_path on rank 0, removed at exit (per-job names
// would otherwise pile up in /tmp); kept empty on the other ranks.
std::vector<std::string> scratch_files;
}  // namespace

std::string scratch_path(const std::string &name) {
  static const int job = [] {
    int pid = static_cast<int>(getpid());
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::atexit([] {
      for (const std::string &f : scratch_files) std::remove(f.c_str());
    });
    return pid;
  }();
  std::string path = "/tmp/reaxff_gpu_test_" + std::to_string(job) + "_" + name;
  if (mpi_rank() == 0) scratch_files.push_back(path);
  return path;
}

std::string scratch_file(const std::string &name, const std::string &text) {
  const std::string path = scratch_path(name);
  if (mpi_rank() == 0) {
    std::ofstream out(path);
    out << text;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

LammpsSession::LammpsSession(const std::string &logfile) {
  open({"lammps_tests", "-log", logfile, "-screen", "none", "-nocite"});
}

LammpsSession::LammpsSession(const std::string &logfile, const std::vector<std::string> &more_args,
                             bool autoload) {
  std::vector<std::string> args = {"lammps_tests", "-log", logfile, "-screen", "none", "-nocite"};
  args.insert(args.end(), more_args.begin(), more_args.end());
  // Set for the session's lifetime: `clear` loads the plugins again.
  if (autoload) {
    const char *before = std::getenv("LAMMPS_PLUGIN_PATH");
    restore_plugin_path_ = before ? before : "";
    had_plugin_path_ = before != nullptr;
    setenv("LAMMPS_PLUGIN_PATH", REAXFF_CUDA_PLUGIN_DIR, 1);
    autoload_ = true;
  }
  open(args);
}

void LammpsSession::open(const std::vector<std::string> &args) {
  std::vector<std::string> copy = args;
  std::vector<char *> argv;
  for (auto &a : copy) argv.push_back(a.data());
  handle_ = lammps_open(static_cast<int>(argv.size()), argv.data(), MPI_COMM_WORLD, nullptr);
  if (!handle_) throw std::runtime_error("lammps_open failed");
}

LammpsSession::~LammpsSession() {
  // Plugins are registered process-wide; unload so the next instance can load again.
  if (plugin_loaded_) {
    lammps_command(handle_, "plugin unload pair reaxff/gpu");
    lammps_command(handle_, "plugin unload fix qeq/reaxff/gpu");
  }
  lammps_close(handle_);
  if (autoload_) {
    if (had_plugin_path_)
      setenv("LAMMPS_PLUGIN_PATH", restore_plugin_path_.c_str(), 1);
    else
      unsetenv("LAMMPS_PLUGIN_PATH");
  }
}

std::string LammpsSession::run(const std::string &lines) {
  lammps_commands_string(handle_, lines.c_str());
  if (lammps_has_error(handle_)) {
    char buf[2048];
    lammps_get_last_error_message(handle_, buf, sizeof(buf));
    return buf[0] ? std::string(buf) : std::string("unknown LAMMPS error");
  }
  return "";
}

void LammpsSession::load_plugin() {
  const std::string err = run(std::string("plugin load ") + REAXFF_CUDA_PLUGIN);
  if (!err.empty()) throw std::runtime_error("plugin load failed: " + err);
  plugin_loaded_ = true;
}

bool LammpsSession::has_style(const char *category, const char *name) {
  return lammps_has_style(handle_, category, name) != 0;
}

double LammpsSession::thermo(const char *keyword) { return lammps_get_thermo(handle_, keyword); }

std::vector<std::pair<std::string, double>> LammpsSession::last_thermo() {
  std::vector<std::pair<std::string, double>> out;
  auto *num = static_cast<int *>(lammps_last_thermo(handle_, "num", 0));
  for (int k = 0; num && k < *num; ++k) {
    const auto *key = static_cast<const char *>(lammps_last_thermo(handle_, "keyword", k));
    const int type = *static_cast<int *>(lammps_last_thermo(handle_, "type", k));
    void *data = lammps_last_thermo(handle_, "data", k);
    double v = 0.0;
    if (type == LAMMPS_INT)
      v = *static_cast<int *>(data);
    else if (type == LAMMPS_INT64)
      v = static_cast<double>(*static_cast<int64_t *>(data));
    else
      v = *static_cast<double *>(data);
    out.emplace_back(key ? key : "?", v);
  }
  return out;
}

std::vector<double> LammpsSession::compute_vector(const char *id, int n) {
  auto *v =
      static_cast<double *>(lammps_extract_compute(handle_, id, LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR));
  if (!v) throw std::runtime_error(std::string("no global vector compute ") + id);
  return std::vector<double>(v, v + n);
}

double LammpsSession::compute_scalar(const char *id) {
  auto *v =
      static_cast<double *>(lammps_extract_compute(handle_, id, LMP_STYLE_GLOBAL, LMP_TYPE_SCALAR));
  if (!v) throw std::runtime_error(std::string("no global scalar compute ") + id);
  return *v;
}

double LammpsSession::fix_vector(const char *id, int k) {
  // LAMMPS hands back a copy of the element, ours to free
  auto *v = static_cast<double *>(
      lammps_extract_fix(handle_, id, LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, k, 0));
  if (!v) throw std::runtime_error(std::string("no global vector fix ") + id);
  const double out = *v;
  lammps_free(v);
  return out;
}

std::vector<long long> LammpsSession::local_ids() {
  const int n = *static_cast<int *>(lammps_extract_global(handle_, "nlocal"));
  const void *ids = lammps_extract_atom(handle_, "id");
  std::vector<long long> out(n);
  const bool wide = lammps_extract_setting(handle_, "tagint") == 8;
  for (int i = 0; i < n; ++i)
    out[i] = wide ? static_cast<const int64_t *>(ids)[i] : static_cast<const int *>(ids)[i];
  return out;
}

long long LammpsSession::natoms() { return static_cast<long long>(lammps_get_natoms(handle_)); }

std::vector<double> LammpsSession::gather(const char *name, int count) {
  std::vector<double> out(static_cast<size_t>(natoms()) * count);
  lammps_gather_atoms(handle_, name, 1, count, out.data());
  return out;
}

std::vector<int> LammpsSession::gather_int(const char *name, int count) {
  std::vector<int> out(static_cast<size_t>(natoms()) * count);
  lammps_gather_atoms(handle_, name, 0, count, out.data());
  return out;
}

std::vector<double> LammpsSession::gather_per_atom(const char *name, int count) {
  std::vector<double> out(static_cast<size_t>(natoms()) * count);
  lammps_gather(handle_, name, 1, count, out.data());
  return out;
}
