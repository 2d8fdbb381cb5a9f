// A LAMMPS instance driven through the C library API, for the LAMMPS-level
// tests. Works on any number of MPI ranks (MPI_COMM_WORLD).
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

class LammpsSession {
 public:
  explicit LammpsSession(const std::string &logfile = "none");
  // With more command-line arguments (e.g. {"-sf", "gpu"}) and, with
  // `autoload`, our plugin loaded at start-up through LAMMPS_PLUGIN_PATH, as
  // build/lmp does (what -sf gpu needs).
  LammpsSession(const std::string &logfile, const std::vector<std::string> &more_args,
                bool autoload);
  ~LammpsSession();
  LammpsSession(const LammpsSession &) = delete;
  LammpsSession &operator=(const LammpsSession &) = delete;

  // Run one or more lines; returns the LAMMPS error message ("" if none).
  std::string run(const std::string &lines);
  void load_plugin();  // pair reaxff/gpu + fix qeq/reaxff/gpu

  double thermo(const char *keyword);
  // The last thermo output, keyword and value of each column.
  std::vector<std::pair<std::string, double>> last_thermo();
  std::vector<double> compute_vector(const char *id, int n);
  double compute_scalar(const char *id);
  double fix_vector(const char *id, int k);  // element k of fix id's global vector
  // Per-atom data ordered by atom ID, on every rank.
  std::vector<double> gather(const char *name, int count);
  std::vector<int> gather_int(const char *name, int count);
  // Per-atom compute or fix output ("c_ID", "f_ID") ordered by atom ID.
  std::vector<double> gather_per_atom(const char *name, int count);
  long long natoms();
  // Whether LAMMPS (with the plugins loaded so far) knows a style, e.g. ("fix", "qeq/rel/reaxff").
  bool has_style(const char *category, const char *name);
  // This rank's atom IDs in LAMMPS's current local order.
  std::vector<long long> local_ids();
  // The LAMMPS instance (a LAMMPS_NS::LAMMPS *), for tests that read a
  // style's own arrays.
  void *instance() const { return handle_; }

 private:
  void open(const std::vector<std::string> &args);
  void *handle_ = nullptr;
  bool plugin_loaded_ = false;
  bool autoload_ = false, had_plugin_path_ = false;
  std::string restore_plugin_path_;
};

int mpi_rank();
int mpi_size();  // ranks in MPI_COMM_WORLD
// This LAMMPS was built with its own GPU package (then `package gpu` and the
// `/gpu` styles it has are LAMMPS's; bench/device_check.sh gpupkg runs that).
bool lammps_has_gpu_package();
// This LAMMPS has its KOKKOS package (else the KOKKOS variants are skipped).
bool lammps_has_kokkos();
// The switch a kk user writes, with the KOKKOS settings reaxff needs (newton
// on; exchange and sort on Kokkos's device, as on a GPU by default, where a
// host backend would do them LAMMPS's host way); one GPU where Kokkos has
// CUDA, one thread otherwise.
std::vector<std::string> kokkos_args(bool newton_on = true);
// lammps_has_kokkos(), for a test whose -k on runs are one part among others:
// where it is false, rank 0 prints that the running test leaves them out, and
// why (a test with nothing else to run uses GTEST_SKIP instead).
bool kokkos_runs_here();
std::string source_dir();
// A whole text file ("" if it cannot be read).
std::string read_text(const std::string &path);
// A file name under /tmp, the same on every rank of this test job and distinct
// from other jobs' (ctest may run the 1-, 2- and 4-rank jobs at once). The
// first call is collective.
std::string scratch_path(const std::string &name);
// scratch_path(name) holding `text`, written by rank 0 and visible to every
// rank on return (collective).
std::string scratch_file(const std::string &name, const std::string &text);
