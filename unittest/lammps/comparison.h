// Shared by the LAMMPS-level comparisons: one input script for every system,
// a snapshot of what LAMMPS reports, and the comparison of two snapshots.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lammps_session.h"
#include "systems.h"

// Which styles a run uses: LAMMPS's own, or ours with a driver keyword.
struct Variant {
  std::string pair, qeq, pair_keywords;
  // commands before read_data (e.g. processors) and after it (e.g. comm_style,
  // balance): how LAMMPS decomposes the box
  std::string before_box, after_box;
  std::string qeq_keywords;  // appended to the charge fix's line
  // LAMMPS's command line (e.g. -k on ... -sf hybrid gpu kk); given, the
  // plugin is loaded at start-up (LAMMPS_PLUGIN_PATH), as -sf gpu needs
  std::vector<std::string> lammps_args;
};
inline Variant reference_styles() { return {"reaxff", "qeq/reaxff", ""}; }
// Our styles under -k on ... -sf hybrid gpu kk, with `driver`: LAMMPS's
// style names in the input, which the suffix makes ours (KOKKOS styles).
Variant kokkos_styles(const std::string &driver);
inline Variant our_styles(const std::string &driver) {
  return {"reaxff/gpu", "qeq/reaxff/gpu", "driver " + driver};
}

struct Tolerances {
  double term_rel, term_abs;  // energy terms and totals: max(rel * |ref|, abs)
  double force_rel;           // max |dF| <= force_rel * max |F_ref|
  double charge;              // max |dq|
  double press_rel;           // pressure components, relative to the largest
};

// Worst differences, for the closing table (printed by rank 0).
struct Worst {
  double term_rel = 0, force_rel = 0, charge = 0, press_rel = 0;
};

struct Snapshot {
  std::vector<double> terms;  // compute pair vector (14)
  double pe = 0, etotal = 0, evdwl = 0, ecoul = 0;
  double press[6] = {};
  std::vector<double> f, q;
  double eatom_sum = 0, vol = 0;  // per-atom sums (pe/atom, stress/atom with 'pair')
  double vatom_sum[6] = {}, ppair[6] = {};
};

// A LAMMPS instance for the styles of `v`: our plugin loaded at start-up where
// v has a command line (-k on ... -sf ...), else loaded now for our styles.
std::unique_ptr<LammpsSession> open_session(const Variant &v, const std::string &log = "none");
std::string setup_script(const SystemSpec &s, const Variant &v);
// The computes and thermo columns snapshot() reads, for pair style `pair`.
std::string snapshot_outputs(const std::string &pair);
Snapshot snapshot(LammpsSession &lmp);
void compare(const std::string &label, const Snapshot &ref, const Snapshot &ours,
             const Tolerances &tol, Worst &w);
void check_per_atom_sums(const std::string &label, const Snapshot &s);
// run_system's two snapshots of ours against the reference's (compare, at
// step 0 and after the system's steps), ours' per-atom sums checked at both;
// the worst differences.
Worst compare_runs(const SystemSpec &s, const Snapshot &ref0, const Snapshot &ref1,
                   const Snapshot &our0, const Snapshot &our1, const Tolerances &tol);

// The bounds of a charge comparison: pe and compute pair's 14 terms
// relative (the terms with an absolute floor), charges absolute, forces
// relative to the largest. The defaults are those of a tight one (CG to
// 1e-14, ACKS2's 1e-20); at a looser tolerance our FSAI and fix
// qeq/reaxff's Jacobi stop at different iterates, and a test states the
// bounds it measured.
struct ChargeBounds {
  double pe_rel = 1e-10, term_rel = 1e-10, term_abs = 1e-8, charge = 1e-8, force_rel = 1e-8;
};

// Charges and forces within `b` of the reference, after checking that some
// reference charge reaches min_charge (else the comparison would be vacuous).
void expect_same_charges_and_forces(const std::vector<double> &ref_q, const std::vector<double> &q,
                                    const std::vector<double> &ref_f, const std::vector<double> &f,
                                    double min_charge, const ChargeBounds &b = {});

// The charge-model comparisons' snapshot of the last evaluation: pe, compute
// pair's 14 terms (the input names that compute `reax`), charges and forces.
struct ChargeState {
  double pe = 0;
  std::vector<double> terms, q, f;
};
ChargeState charge_state(LammpsSession &lmp);
// pe and the 14 terms within `b`, then expect_same_charges_and_forces with
// min_charge.
void expect_same_charge_state(const ChargeState &ref, const ChargeState &ours,
                              const std::string &when, double min_charge,
                              const ChargeBounds &b = {});

// pe after moving atom `id` by dx along axis d (0 x, 1 y, 2 z) and `run 0
// post no`: one point of a central difference. The atom stays moved.
double pe_after_move(LammpsSession &lmp, int id, int d, double dx);

// Step 0 and after s.steps NVE steps with variant v (plugin loaded if needed).
// Returns false (with a gtest failure recorded) if LAMMPS reported an error.
bool run_system(const SystemSpec &s, const Variant &v, Snapshot &step0, Snapshot &after,
                std::string *error = nullptr);
