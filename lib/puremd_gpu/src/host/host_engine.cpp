// The host reference driver: serial, double precision, one pass per stage.
// It is what CI runs, so it defines "correct" for the CUDA driver.
#include "host/host_engine.h"

#include <algorithm>
#include <string>

#include "common/analysis_rows.h"
#include "common/driver_entry.h"
#include "common/non_finite.h"
#include "host/host_context.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/long_range_tables.h"
#include "puremd_gpu/physics/bond_order.h"

namespace puremd::host {

HostEngine::HostEngine(const ForceField &ff, const Control &control) : ff_(ff) {
  set_bond_reach(ff_.tbp, ff_.sbp, ff_.num_types, control.bo_cut);
  c_.ff = &ff_;
  c_.control = control;
  if (control.tabulate > 0) build_long_range_tables(ff_, control, c_.lr_tables, c_.lr_coefs);
}

std::string HostEngine::description() const { return "host reference driver (serial CPU)"; }

namespace {
// (the LAMMPS adapter hands GPU arrays to the CUDA driver only)
void refuse_gpu_arrays(const AtomsInput &in) {
  if (in.on_gpu)
    throw RuntimeError(
        "host reference driver: the atoms are in GPU memory (KOKKOS views); it reads host "
        "arrays only");
}
// (common/non_finite.h; q or f null: not checked)
void refuse_non_finite(const AtomsInput &in, const double *q, const double *f) {
  const NonFiniteAtom bad = first_non_finite(in.n_total, in.x, q, f);
  if (bad.atom >= 0)
    throw RuntimeError(
        non_finite_message("host driver", bad, in.tag ? in.tag[bad.atom] : -1, in.n_local));
}
}  // namespace

void HostEngine::compute(const StepInput &in, const StepRequest &req, StepOutput &out) {
  refuse_gpu_arrays(in);
  refuse_non_finite(in, in.q, nullptr);
  check_follows_solve(in);
  reordered_since_solve_ = reordered_since_solve_ || in.atoms_reordered;
  HostContext &c = c_;
  const int N = in.n_total;
  c.x.resize(N);
  c.type.resize(N);
  c.tag.resize(N);
  c.q.assign(in.q, in.q + N);
  if (in.u)
    c.u.assign(in.u, in.u + N);
  else
    c.u.clear();
  for (int i = 0; i < N; ++i) {
    c.x[i] = vec3{in.x[3 * i], in.x[3 * i + 1], in.x[3 * i + 2]};
    c.type[i] = mapped_element(in.type_map, in.num_mapped, in.type[i]);
    c.tag[i] = in.tag[i];
  }

  c.energy = Energies{};
  c.grad.assign(N, vec3{0, 0, 0});
  c.eatom.assign(req.eatom ? N : 0, 0.0);
  c.vatom.assign(req.vatom ? 6 * N : 0, 0.0);

  c.view.atoms.n_local = in.n_local;
  c.view.atoms.n_total = N;
  c.refresh_view();
  c.view.tally.terms = req.terms;
  c.view.tally.eatom = req.eatom ? c.eatom.data() : nullptr;
  c.view.tally.vatom = req.vatom ? c.vatom.data() : nullptr;

  // The step pipeline. Stages that resize lists call refresh_view(), which
  // keeps the tally settings above (they live outside the re-pointed fields).
  build_far_neighbors(c);
  build_bond_and_hbond_lists(c);
  compute_bond_orders(c);
  build_three_body_list(c);  // needs the corrected bond orders
  compute_bonded(c);
  compute_hydrogen_bonds(c);
  compute_nonbonded(c);
  apply_bond_order_chain_rule(c);

  // Global virial from f.r over owned and ghost atoms, as LAMMPS's fdotr
  // does; ghost images carry the periodic shifts.
  for (int k = 0; k < 6; ++k) out.virial[k] = 0.0;
  for (int i = 0; i < N; ++i) {
    double w[6];
    virial_of(c.x[i], c.grad[i], w);
    for (int k = 0; k < 6; ++k) out.virial[k] += w[k];
  }
  if (!step_scalars_finite(c.energy, out.virial))
    refuse_non_finite(in, nullptr, reinterpret_cast<const double *>(c.grad.data()));
  // Added to the caller's arrays, or written over them (their contents may
  // then be anything, NaN included).
  auto put = [&](double &dst, double v) { dst = out.overwrite ? v : dst + v; };
  for (int i = 0; i < N; ++i) {
    put(out.f[3 * i], -c.grad[i].x);
    put(out.f[3 * i + 1], -c.grad[i].y);
    put(out.f[3 * i + 2], -c.grad[i].z);
  }
  if (req.eatom && out.eatom)
    for (int i = 0; i < N; ++i) put(out.eatom[i], c.eatom[i]);
  if (req.vatom && out.vatom)
    for (int i = 0; i < 6 * N; ++i) put(out.vatom[i], c.vatom[i]);
  out.energy = c.energy;
}

void HostEngine::bond_table(std::vector<int> &row_start, std::vector<BondRecord> &bonds) {
  const int N = c_.view.atoms.n_total;
  row_start.assign(N + 1, 0);
  bonds.clear();
  for (int i = 0; i < N; ++i) {
    row_start[i] = static_cast<int>(bonds.size());
    for (int p = c_.bond_rows.start[i]; p < c_.bond_rows.end[i]; ++p)
      bonds.push_back(BondRecord{c_.bond_nbr[p], c_.bond_bo[p].BO});
  }
  row_start[N] = static_cast<int>(bonds.size());
}

void HostEngine::atom_table(std::vector<double> &total_bo, std::vector<double> &nlp) {
  const int N = c_.view.atoms.n_total;
  total_bo.assign(c_.total_bond_order.begin(), c_.total_bond_order.begin() + N);
  nlp.assign(c_.nlp.begin(), c_.nlp.begin() + N);
}

void HostEngine::bond_rows(BondRowRule rule, double cut, BondRows &out) {
  const int n = c_.view.atoms.n_local;
  const BondList &b = c_.view.bonds;
  out.start.assign(n + 1, 0);
  out.widest = 0;
  for (int i = 0; i < n; ++i) {
    const int count = bond_row(rule, b, i, cut, 0, nullptr, nullptr);
    out.start[i + 1] = out.start[i] + count;
    out.widest = std::max(out.widest, count);
  }
  out.partner.resize(out.start[n]);
  out.bo.resize(out.start[n]);
  for (int i = 0; i < n; ++i)
    bond_row(rule, b, i, cut, out.start[i + 1] - out.start[i], out.partner.data() + out.start[i],
             out.bo.data() + out.start[i]);
}

void build_far_neighbors(HostContext &c) {
  const AtomsView &a = c.view.atoms;
  std::vector<int> skip(a.n_total);
  for (int i = 0; i < a.n_total; ++i) skip[i] = c.type[i] < 0;
  build_half_neighbor_list(c.x.data(), a.n_local, a.n_total, c.control.nonb_cut, c.control.bond_cut,
                           skip.data(), c.far);
  c.refresh_view();
}

// The charge stage: the reference solver on the caller's arrays (it finds
// its own pairs; the force step that follows builds its lists anew).
QEqResult HostEngine::solve_charges(const StepInput &atoms, const QEqProblem &problem,
                                    ChargeHistory &history, QEqComm &comm, double *q) {
  refuse_gpu_arrays(atoms);
  refuse_non_finite(atoms, nullptr, nullptr);
  solve_key_ = StepKey{};
  const QEqResult res =
      qeq_.solve(charge_input(atoms, problem, reordered_since_solve_ || atoms.atoms_reordered),
                 history, comm, q);
  reordered_since_solve_ = false;
  if (atoms.key.set()) {
    const int n = atoms.n_total;
    solve_key_ = atoms.key;
    solve_x_.assign(atoms.x, atoms.x + 3 * static_cast<std::size_t>(n));
    solve_q_.assign(q, q + n);
  }
  return res;
}

// A compute() keyed as the last solve (forces_follow_solve) must find the
// solve's atoms and charges: the CUDA driver takes them from the solve on
// that promise. This driver checks it, so that CI, which has no GPU, catches
// a key that claims too much (rRESPA's inner levels, a fix between the solve
// and the forces).
void HostEngine::check_follows_solve(const StepInput &in) {
  const bool follows = forces_follow_solve(solve_key_, in.key);
  solve_key_ = StepKey{};  // a solve serves one compute()
  if (!follows) return;
  const int n = in.n_total;
  const bool same = 3 * static_cast<std::size_t>(n) == solve_x_.size() &&
                    std::equal(solve_x_.begin(), solve_x_.end(), in.x) &&
                    std::equal(solve_q_.begin(), solve_q_.end(), in.q);
  if (!same)
    throw RuntimeError("host driver: a compute() keyed as the last charge solve (step " +
                       std::to_string(in.key.timestep) + ", level " + std::to_string(in.key.level) +
                       ", evaluation " + std::to_string(in.key.evaluation) +
                       ") finds atoms or charges changed since: the caller's step key is wrong "
                       "(the CUDA driver would compute forces on the solve's atoms)");
}

}  // namespace puremd::host

namespace puremd {

// (The host driver builds its lists every step: none of the settings is its.)
std::unique_ptr<Engine> make_host_engine(const ForceField &ff, const Control &control,
                                         const EngineSettings &) {
  return std::make_unique<host::HostEngine>(ff, control);
}

}  // namespace puremd
