// Charge equilibration (QEq) for ReaxFF, as fix qeq/reaxff does it: two
// linear systems H s = -chi and H t = -1 over the atoms of a group, solved by
// preconditioned conjugate gradients (FSAI by default; fix qeq/reaxff's
// diagonal one, Jacobi, on request: QEqSettings::preconditioner), and
// q = s - (sum s / sum t) t, which makes the group's total charge zero.
//
// The solver runs on one sub-domain: atoms 0..n_local-1 are owned, the rest
// are ghosts with explicit coordinates. Everything that crosses sub-domains
// goes through QEqComm, which the caller implements (MPI and LAMMPS's
// recorded forward communication in the plugin, image_halo in a test).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "puremd_gpu/atom_input.h"
#include "puremd_gpu/charge_history.h"
#include "puremd_gpu/charge_model.h"
#include "puremd_gpu/halo.h"
#include "puremd_gpu/physics/qeq_fsai.h"
#include "puremd_gpu/physics/qeq_matrix.h"

namespace puremd {

// Communication between sub-domains: sums, and the halo through which every
// ghost gets its value. Vectors have one entry per atom, owned then ghosts
// (n_total entries). Nothing travels back from a ghost to its owner: a pair
// with another rank's atom is kept in full in the owned rows of both ranks
// (an image of this rank's own atom may be folded into it locally).
struct QEqComm {
  virtual ~QEqComm() = default;
  // Sum of one number over all sub-domains.
  virtual double sum(double local) = 0;
  // The sums of n numbers over all sub-domains, in place: one collective
  // call for all the dot products a solver needs at one point.
  virtual void sum(double *v, int n) {
    for (int k = 0; k < n; ++k) v[k] = sum(v[k]);
  }

  // --- The halo: the one way ghosts get their values ---
  // The pattern of this step's ghosts (halo.h). Required where the
  // sub-domain has ghosts: one rank's periodic images are a pattern whose
  // messages go to the rank itself (image_halo makes one from owners).
  // Null only without ghosts.
  virtual const HaloPattern *halo() const = 0;
  // This sub-domain's rank, as HaloPattern's peers name it, and the ranks.
  // size() == 1: every sum is the local value (the CUDA solver keeps CG's
  // scalars on the GPU).
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  // One exchange of point-to-point messages: every receive posted, every
  // send started, then all completed (a rank may be both sender and
  // receiver). Messages between two ranks match in the order given.
  struct Message {
    int peer;
    void *data;
    std::size_t bytes;
  };
  virtual void exchange(const Message *send, int n_send, const Message *recv, int n_recv);
  // Whether exchange() may be given GPU memory (a CUDA-aware MPI); else the
  // CUDA solver stages its messages through page-locked host memory.
  virtual bool device_memory() const { return false; }
  // Whether the CUDA solver may copy its halo values straight into the GPU
  // memory of a peer rank on the same node (CUDA IPC) where its GPU reaches
  // the peer's; exchange() then only says when the copies are done.
  virtual bool peer_copies() const { return true; }
};

// How the CUDA solver multiplies by H (the host solver always stores it).
enum class QEqMatrix {
  Auto,  // the fastest that leaves room on the GPU (kQEqStoredShare*): Half from
         // kQEqHalfFromAtoms owned atoms on, else Full; then the other; then Free
  Full,  // every pair stored twice, as (i, j) and (j, i) (8 + 4 bytes an entry): the
         // product gathers only, and its sums are the same on every run
  Half,  // every pair stored once: in tiles of 32 rows, each partner of a tile once with
         // the mask of its rows and their values (about 9 bytes a pair); the product
         // adds the transpose by atomics, in a run-dependent order (the same to
         // round-off, not to the bit). Rows (8 + 4 bytes an entry) where a tile's
         // partners do not fit its table (atoms far from LAMMPS's spatial sort)
  Free,  // no matrix: every product evaluates each pair once from the far list and
         // scatters as Half does (no matrix memory; see bench/README for its time)
};
// QEqMatrix's values as settings spell them, in its order; "stored" is also
// read as Full (its earlier name). No value for any other name.
inline const std::vector<std::string> &qeq_matrix_names() {
  static const std::vector<std::string> names{"auto", "full", "half", "free"};
  return names;
}
inline std::optional<QEqMatrix> qeq_matrix_from_name(const std::string &name) {
  if (name == "stored") return QEqMatrix::Full;
  const std::vector<std::string> &names = qeq_matrix_names();
  for (size_t m = 0; m < names.size(); ++m)
    if (names[m] == name) return static_cast<QEqMatrix>(m);
  return std::nullopt;
}
// Auto stores a matrix when the device memory in use plus the matrix stays
// within this share of the GPU's memory: at a solver's first solve, before
// the force stages of the step have allocated their lists (about half of the
// engine's memory), and at later solves, when they have (headroom included).
constexpr double kQEqStoredShareFirst = 0.6;
// From this many owned atoms Auto stores Half before Full: Half's entries
// cost more to find at each solve, its products less (H100, bench/README:
// Full faster at HNS 4^3, 19,456 atoms, Half from HNS 6^3, 65,664).
constexpr int kQEqHalfFromAtoms = 40000;
constexpr double kQEqStoredShare = 0.9;

inline constexpr const char *kQEqJacobi = "jacobi";
// The preconditioner of QEq's CG where QEqSettings::preconditioner names
// none: FSAI, 3-4x fewer iterations than Jacobi (doc/fix_qeq_reaxff_gpu.md,
// "Preconditioners"). The one default of the library and of the LAMMPS
// styles, which leave the setting empty unless the input names one.
inline constexpr const char *kQEqDefaultPreconditioner = kQEqFsai;

struct QEqSettings {
  double cut_lo = 0.0;      // taper inner radius (A)
  double cut_hi = 10.0;     // taper outer radius = matrix cut-off (A)
  double tolerance = 1e-6;  // CG stops when |r|_M / |b| <= tolerance
  int max_iter = 200;       // CG iteration limit (counted as fix qeq/reaxff counts)
  // CUDA solver: threads per matrix row in the product, 4, 8, 16 or 32;
  // 0 chooses from the mean row length (the host solver ignores it)
  int threads_per_row = 0;
  // CUDA solver, QEqMatrix::Auto: Half before Full from this many owned atoms on
  int half_from_atoms = kQEqHalfFromAtoms;
  QEqMatrix matrix = QEqMatrix::Auto;  // CUDA solver only
  // CG's preconditioner M, by the name it registered under in each driver
  // (kQEqJacobi: M = diag(H), fix qeq/reaxff's, whose iterates it gives;
  // kQEqFsai: physics/qeq_fsai.h); empty: the default (qeq_preconditioner).
  // An unknown name is an InputError that lists the driver's names.
  std::string preconditioner;
  // kQEqFsai's pattern radius (A; physics/qeq_fsai.h), at most cut_hi / 2;
  // 0: the default (fsai_pattern_radius)
  double fsai_radius = 0.0;
  // How the initial guesses are extrapolated from the history (both solvers;
  // QEqPredictor, physics/qeq_history.h): Lammps is fix qeq/reaxff's (and fix
  // acks2/reaxff's); ACKS2 takes the chosen one for q, u and its multipliers.
  QEqPredictor predictor = QEqPredictor::Lammps;
  // Extended-Lagrangian charges (physics/qeq_history.h, QEqXl; QEq only, not
  // ACKS2 or QTPIE): Step runs exactly xl_iterations CG iterations from the
  // history's auxiliary vectors (tolerance and max_iter unused), Start a
  // converged solve that sets them, Warm a converged solve that enters them,
  // Hold a converged solve from them that leaves them. xl_order is the
  // scheme's K (3 to 7, qeq_xl_scheme); the history must hold K + 1 past
  // values (ChargeHistory(qeq_history_depth(xl, xl_order))).
  QEqXl xl = QEqXl::Off;
  int xl_iterations = 2;
  int xl_order = kQEqXlDefaultOrder;
};
// The CG limits a solve with `s` runs under: Step's fixed count (max_iter is
// counted from 1 after the initial residual; a zero tolerance never stops it
// early), else s's own.
inline QEqSettings qeq_cg_settings(QEqSettings s) {
  if (s.xl == QEqXl::Step) {
    s.max_iter = s.xl_iterations + 1;
    s.tolerance = 0.0;
  }
  return s;
}
// The preconditioner a solve runs: the one named, else the default
// (kQEqDefaultPreconditioner) for QEq's CG, and Jacobi (the registered name
// of no preconditioner beyond the model's own) for a model whose solver
// keeps its own (ACKS2's BiCGStab).
inline std::string qeq_preconditioner(const QEqSettings &s, const ChargeModelInput *model) {
  if (!s.preconditioner.empty()) return s.preconditioner;
  return model && model->own_preconditioner() ? kQEqJacobi : kQEqDefaultPreconditioner;
}
// The names QEqSettings::preconditioner takes (the registered ones, in
// alphabetical order), for callers that check a name before a solve.
std::vector<std::string> qeq_preconditioner_names();
// FSAI's pattern radius: fsai_radius, else kFsaiDefaultRadius, or half the
// cut-off where that is smaller (the pattern's H(J,J) needs pairs up to twice
// the radius apart), so that the default fits any cut-off.
inline double fsai_pattern_radius(const QEqSettings &s) {
  if (s.fsai_radius != 0.0) return s.fsai_radius;
  return std::min(kFsaiDefaultRadius, 0.5 * s.cut_hi);
}
// What a solve runs with (both drivers): the defaults filled in, CG's limits
// as xl has them.
inline QEqSettings qeq_solve_settings(const QEqSettings &s, const ChargeModelInput *model) {
  QEqSettings r = qeq_cg_settings(s);
  r.preconditioner = qeq_preconditioner(s, model);
  r.fsai_radius = fsai_pattern_radius(s);
  return r;
}
// Throws InputError if cut_hi < 0 or <= cut_lo, tolerance <= 0, max_iter < 1,
// threads_per_row is not 0, 4, 8, 16 or 32, predictor is none of
// QEqPredictor's, xl none of QEqXl's, xl_iterations < 1 or xl_order not 3 to 7,
// or, where a solve may run FSAI, fsai_radius is < 0 or > cut_hi / 2.
void check_qeq_settings(const QEqSettings &settings);

// One charge problem on one sub-domain, without the atoms: which model
// (QEq's own, or another's input), the settings, the group, the
// parameters. Where ghosts come from is QEqComm::halo's. Engine::solve_charges
// takes the atoms from the step (StepInput).
//
// Parameters come either per type (num_types > 0: atom i uses chi[type[i]],
// eta[type[i]], gamma[type[i]], with 0 <= type[i] < num_types) or per atom
// (num_types == 0: chi[i], eta[i], gamma[i], n_total entries).
struct QEqProblem {
  QEqSettings settings;
  // n_total group flags: atom i is in the QEq group when active[i] &
  // active_bits is nonzero (LAMMPS: atom->mask and the fix's groupbit, as
  // they are); null: every atom is.
  const int *active = nullptr;
  int active_bits = ~0;
  int num_types = 0;
  const double *chi = nullptr;        // electronegativity (eV)
  const double *eta = nullptr;        // hardness (eV), the matrix diagonal; must be > 0
  const double *gamma = nullptr;      // shielding (1/A)
  const double *chi_shift = nullptr;  // optional n_local: added to chi (external potential, eV)
  // Optional: another charge model's input (charge_model.h), null for QEq's
  // own: QtpieInput (physics/qtpie.h; then chi_shift must be null, a field
  // enters through QtpieInput::phi) or Acks2Input (physics/acks2.h; chi_shift
  // may be given). The model's own file names what it needs.
  const ChargeModelInput *model = nullptr;
};

// A problem with its atoms, as the solvers read it (the engines make it from
// StepInput + QEqProblem; the reference solver's tests fill it directly).
struct QEqInput : QEqProblem, AtomsInput {
  // AtomsInput's type here only where the parameters are per type (null: per
  // atom); with per-type parameters, an atom of a type type_map maps to -1
  // takes no part in QEq (qeq_takes_part). atoms_reordered false lets the
  // CUDA solver keep the ghost owners it found.
};

// Iterations are counted as fix qeq/reaxff counts them (its loop index at
// exit, at least 1); a solve is converged when it stopped before max_iter.
// ACKS2 has one solve: its BiCGStab iterations are iter_s (iter_t is 0).
struct QEqResult {
  int iter_s = 0, iter_t = 0;
  bool converged_s = true, converged_t = true;
  bool breakdown = false;              // ACKS2: BiCGStab stopped on rho = 0 or omega = 0
  bool matrix_free = false;            // the CUDA solver's products did not use a stored matrix
  QEqMatrix matrix = QEqMatrix::Full;  // how the CUDA solver's products took H (never Auto)
  // Half: the tiles' partners were found by an earlier solve (the same
  // build of the engine's neighbour list), only this solve's pairs anew
  bool tiles_reused = false;
  // The CUDA solver on several ranks (QEqComm::halo): this rank's peers
  // reached by GPU peer copies, and by MPI messages.
  int halo_peers_copy = 0, halo_peers_mpi = 0;
  int matvecs() const { return iter_s + iter_t; }
  bool converged() const { return converged_s && converged_t; }
};

// Ghost entries of v (n_total entries) from the atoms they are images of,
// through comm's halo on the host, outside a solve (collective over the
// ranks of the pattern; nothing to do without ghosts): for a per-atom value
// a caller keeps between solves, such as ACKS2's u on steps it does not solve.
void forward_through_halo(QEqComm &comm, double *v, int n_local, int n_total);

// The host reference solver (serial within a sub-domain): solve `in`,
// write q[i] for every owned atom of the group and forward q to the ghosts
// (q has n_total entries; other entries are left alone), extrapolating the
// initial guess from `history` and shifting it. The engines run their own
// solver (Engine::solve_charges); this one is what tests compare them with.
// Throws InputError for bad settings, an atom of the group with eta <= 0 or
// a type out of range.
QEqResult solve_qeq_reference(const QEqInput &in, ChargeHistory &history, QEqComm &comm, double *q);

}  // namespace puremd
