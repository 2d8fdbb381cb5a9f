#include "lammps_session.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#define LAMMPS_LIB_MPI 1
#include "library.h"

int mpi_rank() {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  return me;
}

std::string source_dir() { return REAXFF_CUDA_SOURCE_DIR; }

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

LammpsSession::LammpsSession(const std::string &logfile) {
  std::vector<std::string> args = {"lammps_tests", "-log", logfile, "-screen", "none", "-nocite"};
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
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

double LammpsSession::thermo(const char *keyword) { return lammps_get_thermo(handle_, keyword); }

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

long long LammpsSession::natoms() { return static_cast<long long>(lammps_get_natoms(handle_)); }

std::vector<double> LammpsSession::gather(const char *name, int count) {
  std::vector<double> out(static_cast<size_t>(natoms()) * count);
  lammps_gather_atoms(handle_, name, 1, count, out.data());
  return out;
}

std::vector<double> LammpsSession::gather_per_atom(const char *name, int count) {
  std::vector<double> out(static_cast<size_t>(natoms()) * count);
  lammps_gather(handle_, name, 1, count, out.data());
  return out;
}
