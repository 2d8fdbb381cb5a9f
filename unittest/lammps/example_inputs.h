// LAMMPS's examples/reaxff inputs, taken from the LAMMPS source the build
// uses and run as a user runs them: once as shipped (pair_style reaxff and
// LAMMPS's charge fixes) and once switched to our styles with `-sf gpu` (or
// the input command `suffix gpu`), each in a folder of its own. The harness
// changes only the step count of each run and the tolerance of the charge
// fix (so the comparison sees the physics, not where a solver stopped), and
// names a fix style by its released name where an example does not.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

struct ExampleInput {
  std::string name;  // path under examples/reaxff, e.g. "RDX/in.RDX"
  std::string dir;   // the folder holding it and its files
  std::string file;  // the input's file name
};

// For gtest's messages.
void PrintTo(const ExampleInput &in, std::ostream *os);

// Every file named in.* under examples/reaxff, sorted by name.
std::vector<ExampleInput> example_inputs();

// The input's commands (continued lines joined), with the step count of
// every `run` capped at max_steps and the tolerance of every charge fix
// (qeq/reax*, qtpie/reax*, qeq/rel/reax*, and the QEQ package's qeq/*) set to
// tol; acks2/reax* fixes get 1e-20, as their BiCGStab also stops on an absolute
// test (see the .cpp). A fix style an example names by a name LAMMPS never
// released (qeqr/reaxff) gets its released one (qeq/rel/reaxff).
std::vector<std::string> harness_commands(const std::string &text, int max_steps,
                                          const std::string &tol);

// Which charge fixes: all, or those whose /gpu version solves by CG with a
// preconditioner of its own choice (FSAI by default: qeq/reax*, qtpie/reax*,
// qeq/rel/reax*; not acks2/reax*, whose BiCGStab keeps its own, nor the QEQ
// package's fixes, which -sf gpu leaves LAMMPS's).
enum class ChargeFixes { All, Preconditioned };

// Thermo columns that show a charge fix's CG iteration count (f_ID of a
// charge fix, or v_NAME of `variable NAME equal f_ID`).
std::vector<std::string> iteration_columns(const std::vector<std::string> &commands,
                                           ChargeFixes which = ChargeFixes::All);

// How the input is switched to our styles: as shipped, -sf gpu, `suffix gpu`,
// or -k on ... -sf hybrid gpu kk (kokkos_args(): our styles KOKKOS styles).
enum class Switch { None, CommandLine, InputCommand, Kokkos };

using ThermoRow = std::vector<std::pair<std::string, double>>;

struct ExampleResult {
  std::string error;  // LAMMPS's error ("" if the input ran)
  // Per run of the input: the last thermo output at full precision, and
  // every thermo row as the log prints it.
  std::vector<ThermoRow> last_thermo;
  std::vector<std::vector<ThermoRow>> log_rows;
  // After the input: compute pair's 14 ReaxFF terms, pe, forces and charges
  // (ordered by atom ID) of one more evaluation (`run 0`).
  std::vector<double> terms, f, q;
  double pe = 0.0;
};

// more_args: LAMMPS command-line arguments besides the switch's (e.g. -var
// reaxff_gpu "precond jacobi").
ExampleResult run_example(const ExampleInput &in, Switch how, int max_steps, const std::string &tol,
                          const std::vector<std::string> &more_args = {});

// The thermo rows of each run in a LAMMPS log (header `Step ...` to `Loop time`).
std::vector<std::vector<ThermoRow>> thermo_rows_of_log(const std::string &text);
