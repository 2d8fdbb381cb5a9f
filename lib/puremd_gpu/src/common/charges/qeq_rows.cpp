// The settings' checks and the row rules' errors, shared by both charge solvers.
#include "common/charges/qeq_rows.h"

#include <sstream>
#include <string>

#include "puremd_gpu/errors.h"

namespace puremd {

// Each setting is checked here only; the messages name the setting as fix
// qeq/reaxff/gpu's arguments spell it, for the adapter to pass on.
void check_qeq_settings(const QEqSettings &settings) {
  auto text = [](double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  };
  if (settings.cut_hi < 0.0)
    throw InputError("QEq: the taper's outer radius (cuthi) must not be negative, got " +
                     text(settings.cut_hi));
  if (!(settings.cut_hi > settings.cut_lo))
    throw InputError("QEq: the taper's outer radius (cuthi, " + text(settings.cut_hi) +
                     ") must be larger than its inner radius (cutlo, " + text(settings.cut_lo) +
                     ")");
  if (!(settings.tolerance > 0.0))
    throw InputError("QEq: the CG tolerance (tol) must be positive, got " +
                     text(settings.tolerance));
  if (settings.max_iter < 1)
    throw InputError("QEq: maxiter (the CG iteration limit) must be at least 1, got " +
                     std::to_string(settings.max_iter));
  // (0 is the default radius, which fits any cut-off; a model with its own
  // preconditioner leaves an empty name, and the radius, unused)
  const double radius = fsai_pattern_radius(settings);
  if (qeq_preconditioner(settings, nullptr) == kQEqFsai &&
      (!(radius > 0.0) || radius > 0.5 * settings.cut_hi))
    throw InputError(
        "QEq: fsai_radius (the FSAI preconditioner's pattern radius) must be "
        "positive and at most half the taper's outer radius (cuthi " +
        text(settings.cut_hi) + "), got " + text(settings.fsai_radius));
  const int tpr = settings.threads_per_row;
  if (tpr != 0 && tpr != 4 && tpr != 8 && tpr != 16 && tpr != 32)
    throw InputError(
        "QEq: threads_per_row must be 4, 8, 16 or 32 (or 0: chosen from the matrix), "
        "got " +
        std::to_string(tpr));
  const int predictor = static_cast<int>(settings.predictor);
  if (predictor < 0 || predictor >= kQEqPredictors)
    throw InputError(
        "QEq: predictor must be lammps, aspc, quadratic or linear (QEqPredictor), got " +
        std::to_string(predictor));
  const int xl = static_cast<int>(settings.xl);
  if (xl < 0 || xl > static_cast<int>(QEqXl::Hold))
    throw InputError("QEq: xl must be Off, Start, Warm, Step or Hold (QEqXl), got " +
                     std::to_string(xl));
  if (settings.xl_iterations < 1)
    throw InputError(
        "QEq: xlcg must be at least 1 CG iteration a step (extended-Lagrangian charges), got " +
        std::to_string(settings.xl_iterations));
  if (qeq_xl_scheme(settings.xl_order).order == 0)
    throw InputError("QEq: xlk (the order K of the extended Lagrangian's dissipation) must be " +
                     std::to_string(kQEqXlMinOrder) + " to " + std::to_string(kQEqXlMaxOrder) +
                     ", got " + std::to_string(settings.xl_order));
}

void check_xl_input(const QEqInput &in, int history_depth) {
  if (in.settings.xl == QEqXl::Off) return;
  if (in.model)
    throw InputError(std::string(in.model->name()) +
                     ": extended-Lagrangian charges (xlmd) are defined for QEq only");
  const int need = qeq_history_depth(in.settings.xl, in.settings.xl_order);
  if (history_depth < need)
    throw InputError("QEq: an extended Lagrangian of order " +
                     std::to_string(in.settings.xl_order) + " needs a charge history of " +
                     std::to_string(need) + " past values; this one holds " +
                     std::to_string(history_depth));
}

void check_model_preconditioner(const QEqInput &in) {
  // (an empty name leaves the choice to the model: qeq_preconditioner)
  if (in.model && in.model->own_preconditioner() &&
      qeq_preconditioner(in.settings, in.model) != kQEqJacobi)
    throw InputError(std::string(in.model->name()) +
                     ": its solver keeps its own diagonal "
                     "preconditioner; QEqSettings::preconditioner must be '" +
                     kQEqJacobi + "', got '" + in.settings.preconditioner + "'");
}

void qeq_select_rows(const QEqInput &in, std::vector<int> &rows) {
  rows.clear();
  for (int i = 0; i < in.n_local; ++i) {
    if (!qeq_is_active(in, i)) continue;
    if (!qeq_row_parameters_ok(in.type, in.num_types, in.eta, i)) qeq_reject_row(in, i);
    rows.push_back(i);
  }
}

void qeq_reject_row(const QEqInput &in, int i) {
  const int p = qeq_param_index(in, i);
  if (in.type && (p < 0 || p >= in.num_types))
    throw InputError("QEq: atom type " + std::to_string(p) + " has no QEq parameters");
  throw InputError("QEq: " + std::string(in.type ? "atom type " : "atom ") + std::to_string(p) +
                   " has eta = " + std::to_string(in.eta[p]) + "; QEq needs eta > 0");
}

}  // namespace puremd
