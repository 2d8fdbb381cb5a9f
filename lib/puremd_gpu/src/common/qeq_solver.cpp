// QEqSolver, the part every solver shares: settings and their checks, the
// per-atom history of past solutions (kept here, on the host, between the
// calls LAMMPS makes when atoms move or change rank) and the row rules.
#include <algorithm>
#include <string>
#include <vector>

#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"

namespace puremd {

QEqSolver::QEqSolver(const QEqSettings &settings, long long engine_id) : engine_id_(engine_id) {
  set_settings(settings);
}

void QEqSolver::set_settings(const QEqSettings &settings) {
  if (!(settings.cut_hi > settings.cut_lo))
    throw InputError("QEq: the taper outer radius (" + std::to_string(settings.cut_hi) +
                     ") must be larger than the inner radius (" + std::to_string(settings.cut_lo) +
                     ")");
  if (!(settings.tolerance > 0.0)) throw InputError("QEq: the CG tolerance must be positive");
  if (settings.max_iter < 1) throw InputError("QEq: the CG iteration limit must be at least 1");
  const int tpr = settings.threads_per_row;
  if (tpr != 0 && tpr != 4 && tpr != 8 && tpr != 16 && tpr != 32)
    throw InputError(
        "QEq: threads_per_row must be 4, 8, 16 or 32 (or 0: chosen from the matrix), "
        "got " +
        std::to_string(tpr));
  settings_ = settings;
  taper_ = make_taper(settings.cut_lo, settings.cut_hi);
}

void QEqSolver::grow_history(int n) {
  const std::size_t want = static_cast<std::size_t>(std::max(n, 0)) * kHistoryPerAtom;
  if (hist_.size() < want) hist_.resize(want, 0.0);
}

void QEqSolver::clear_history() {
  fetch_history();
  std::fill(hist_.begin(), hist_.end(), 0.0);
}

void QEqSolver::copy_history(int from, int to) {
  if (from == to) return;
  fetch_history();
  std::copy_n(history_block(from), kHistoryPerAtom, history_block(to));
}

int QEqSolver::pack_history(int i, double *buf) const {
  fetch_history();
  std::copy_n(hist_.data() + static_cast<std::size_t>(i) * kHistoryPerAtom, kHistoryPerAtom, buf);
  return kHistoryPerAtom;
}

int QEqSolver::unpack_history(int i, const double *buf) {
  fetch_history();
  grow_history(i + 1);
  std::copy_n(buf, kHistoryPerAtom, history_block(i));
  return kHistoryPerAtom;
}

double QEqSolver::s_history(int i, int k) const {
  fetch_history();
  return hist_[static_cast<std::size_t>(i) * kHistoryPerAtom + k];
}

double QEqSolver::t_history(int i, int k) const {
  fetch_history();
  return hist_[static_cast<std::size_t>(i) * kHistoryPerAtom + kHistoryDepth + k];
}

void QEqSolver::select_rows(const QEqInput &in, std::vector<int> &rows) {
  rows.clear();
  for (int i = 0; i < in.n_local; ++i) {
    if (!is_active(in, i)) continue;
    if (!qeq_row_parameters_ok(in.type, in.num_types, in.eta, i)) reject_row(in, i);
    rows.push_back(i);
  }
}

void QEqSolver::reject_row(const QEqInput &in, int i) {
  const int p = param_index(in, i);
  if (in.type && (p < 0 || p >= in.num_types))
    throw InputError("QEq: atom type " + std::to_string(p) + " has no QEq parameters");
  throw InputError("QEq: " + std::string(in.type ? "atom type " : "atom ") + std::to_string(p) +
                   " has eta = " + std::to_string(in.eta[p]) + "; QEq needs eta > 0");
}

std::size_t QEqSolver::memory_bytes() const { return hist_.capacity() * sizeof(double); }

}  // namespace puremd
