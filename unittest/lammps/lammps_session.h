// A LAMMPS instance driven through the C library API, for the LAMMPS-level
// tests. Works on any number of MPI ranks (MPI_COMM_WORLD).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

class LammpsSession {
 public:
  explicit LammpsSession(const std::string &logfile = "none");
  ~LammpsSession();
  LammpsSession(const LammpsSession &) = delete;
  LammpsSession &operator=(const LammpsSession &) = delete;

  // Run one or more lines; returns the LAMMPS error message ("" if none).
  std::string run(const std::string &lines);
  void load_plugin();  // pair reaxff/gpu + fix qeq/reaxff/gpu

  double thermo(const char *keyword);
  std::vector<double> compute_vector(const char *id, int n);
  double compute_scalar(const char *id);
  // Per-atom data ordered by atom ID, on every rank.
  std::vector<double> gather(const char *name, int count);
  // Per-atom compute or fix output ("c_ID", "f_ID") ordered by atom ID.
  std::vector<double> gather_per_atom(const char *name, int count);
  long long natoms();

 private:
  void *handle_ = nullptr;
  bool plugin_loaded_ = false;
};

int mpi_rank();
std::string source_dir();
// A file name under /tmp, the same on every rank of this test job and distinct
// from other jobs' (ctest may run the 1-, 2- and 4-rank jobs at once). The
// first call is collective.
std::string scratch_path(const std::string &name);
