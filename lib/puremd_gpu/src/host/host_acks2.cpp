// ACKS2 in the host reference solver: the X block from the pairs of H's
// half list, then BiCGStab on the extended system as fix acks2/reaxff runs
// it (same stopping rules, same early exit, same preconditioner), so that
// charges, potentials and iteration counts follow LAMMPS's.
//
// Vectors hold 2 n + 2 entries (n = n_total): the q part [0, n), the u part
// [n, 2n), then the two multipliers (of sum u = 0 and of sum q = 0). Every
// rank holds the multipliers: their matrix rows are global sums, and the
// scalars that update them are the same on every rank.
#include <cmath>

#include "host/host_qeq_solver.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::host {

namespace {
constexpr int kVectors = 9;  // r, r_hat, p, d, z, q, q_hat, y, g
}

void HostQEqSolver::check_acks2_input(const QEqInput &in) {
  if (in.qtpie) throw InputError("ACKS2: QTPIE electronegativities are a different charge model");
  if (!in.acks2->bcut || !in.acks2->u)
    throw InputError("ACKS2: bcut_acks2 values and a u array are required");
}

// After build_matrix (H and X).
QEqResult HostQEqSolver::solve_acks2(const QEqInput &in, QEqComm &comm, double *q) {
  const Acks2Input &ak = *in.acks2;
  const int n = in.n_total;
  n_ = n;
  const std::size_t len = 2 * static_cast<std::size_t>(n) + 2;
  finish_x_diagonal(comm);

  std::vector<double> b(len, 0.0), x(len, 0.0);
  for (int i : rows_) {
    b[i] = -chi_of(in, i);
    if (in.chi_shift) b[i] -= in.chi_shift[i];
    const double *h = history_block(i);
    // u as q: fix acks2/reaxff's cubic guess for both (QEqPredictor::Lammps),
    // or the predictor chosen
    x[i] = qeq_guess_s(h, settings_.predictor);
    x[n + i] = qeq_guess_s(h + depth_, settings_.predictor);
  }
  x[2 * n] = qeq_guess_s(global_hist_, settings_.predictor);
  x[2 * n + 1] = qeq_guess_s(global_hist_ + depth_, settings_.predictor);
  acks2_forward(x.data(), comm);

  QEqResult res;
  res.iter_s = bicgstab(b.data(), x.data(), comm, res.breakdown);
  res.iter_t = 0;
  res.converged_s = res.iter_s < settings_.max_iter;

  for (int i : rows_) {
    q[i] = x[i];
    ak.u[i] = x[n + i];
    qeq_push_history(history_block(i), depth_, x[i], x[n + i]);
  }
  qeq_push_history(global_hist_, depth_, x[2 * n], x[2 * n + 1]);
  forward(q, comm);
  forward(ak.u, comm);
  return res;
}

// X from the pairs build_matrix keeps for H (same half list, same
// ownership), those within their bcut; X_ii = -sum_j X_ij.
void HostQEqSolver::clear_x_matrix(const QEqInput &in) {
  x_row_start_.assign(in.n_local + 1, 0);
  x_col_.clear();
  x_val_.clear();
  x_diag_.assign(in.n_total, 0.0);
}

// One kept pair (i owned, j owned or ghost) at distance r; types checked by H's.
void HostQEqSolver::add_x_pair(const QEqInput &in, int i, int j, double r) {
  const Acks2Input &ak = *in.acks2;
  const double bcut =
      acks2_pair_cutoff(ak.bcut[qeq_param_index(in, i)], ak.bcut[qeq_param_index(in, j)]);
  if (r > bcut) return;
  const double v = acks2_bond_softness(r, bcut, ak.softness).x;
  x_col_.push_back(j);
  x_val_.push_back(v);
  x_diag_[i] -= v;
  x_diag_[j] -= v;
}

// Ghosts' shares of X's diagonal folded back to their owners; the preconditioner.
void HostQEqSolver::finish_x_diagonal(QEqComm &comm) {
  comm.reverse(x_diag_.data());
  x_diag_inv_.assign(x_diag_.size(), 0.0);
  for (int i : rows_) x_diag_inv_[i] = x_diag_[i] == 0.0 ? 1.0 : 1.0 / x_diag_[i];
}

// Both parts to the ghosts (the multipliers are on every rank already).
void HostQEqSolver::acks2_forward(double *v, QEqComm &comm) {
  forward(v, comm);
  forward(v + n_, comm);
}

// y = A v: the owned rows' H, X and identity blocks, ghost shares folded
// back, and the multipliers' rows as sums over every rank. v must be
// current on the ghosts.
void HostQEqSolver::acks2_multiply(const double *v, double *y, QEqComm &comm) {
  const int n = n_;
  std::fill(y, y + 2 * static_cast<std::size_t>(n) + 2, 0.0);
  for (int i : rows_) {
    y[i] = diag_[i] * v[i];
    y[n + i] = x_diag_[i] * v[n + i];
  }
  double sum_u = 0.0, sum_q = 0.0;
  for (int i : rows_) {
    for (int p = row_start_[i]; p < row_start_[i + 1]; ++p) {
      const int j = col_[p];
      y[i] += val_[p] * v[j];
      y[j] += val_[p] * v[i];
    }
    for (int p = x_row_start_[i]; p < x_row_start_[i + 1]; ++p) {
      const int j = x_col_[p];
      y[n + i] += x_val_[p] * v[n + j];
      y[n + j] += x_val_[p] * v[n + i];
    }
    y[n + i] += v[i];
    y[i] += v[n + i];
    sum_u += v[n + i];
    y[n + i] += v[2 * n];
    sum_q += v[i];
    y[i] += v[2 * n + 1];
  }
  comm.reverse(y);
  comm.reverse(y + n);
  y[2 * n] = comm.sum(sum_u);
  y[2 * n + 1] = comm.sum(sum_q);
}

double HostQEqSolver::acks2_dot(const double *a, const double *b, QEqComm &comm) const {
  const int n = n_;
  double local = 0.0;
  for (int i : rows_) {
    local += a[i] * b[i];
    local += a[n + i] * b[n + i];
  }
  return comm.sum(local) + a[2 * n] * b[2 * n] + a[2 * n + 1] * b[2 * n + 1];
}

// out = M^-1 v: 1/eta on the q part, 1/X_ii on the u part, 1 on the multipliers.
void HostQEqSolver::acks2_precondition(const double *v, double *out) const {
  const int n = n_;
  for (int i : rows_) {
    out[i] = v[i] * diag_inv_[i];
    out[n + i] = v[n + i] * x_diag_inv_[i];
  }
  out[2 * n] = v[2 * n];
  out[2 * n + 1] = v[2 * n + 1];
}

// Preconditioned BiCGStab on A x = b, x holding the guess (ghosts current).
// Stops when |r| / |b| <= tolerance, after max_iter - 1 iterations, on a
// breakdown (rho or omega 0, or a step size that is not finite: the last
// iterate is kept, never NaN), or early when the half-step residual s has
// s . s < tolerance (fix acks2/reaxff's absolute test, kept). Returns the
// iteration index at exit, as fix acks2/reaxff counts. The CUDA solver's
// scalars follow the same steps (src/cuda/acks2_scalars.cuh).
int HostQEqSolver::bicgstab(const double *b, double *x, QEqComm &comm, bool &breakdown) {
  const int n = n_;
  const std::size_t len = 2 * static_cast<std::size_t>(n) + 2;
  v_.assign(kVectors * len, 0.0);
  double *r = v_.data(), *r_hat = r + len, *p = r_hat + len, *d = p + len, *z = d + len,
         *s = z + len, *s_hat = s + len, *y = s_hat + len, *g = y + len;
  // the entries a vector operation touches: both parts of the rows, the multipliers
  auto each = [&](auto &&f) {
    for (int i : rows_) {
      f(i);
      f(n + i);
    }
    f(2 * n);
    f(2 * n + 1);
  };

  acks2_multiply(x, d, comm);
  each([&](std::size_t k) { r[k] = b[k] - d[k]; });
  double b_norm = std::sqrt(acks2_dot(b, b, comm));
  double r_norm = std::sqrt(acks2_dot(r, r, comm));
  if (b_norm == 0.0) b_norm = 1.0;
  each([&](std::size_t k) { r_hat[k] = r[k]; });

  const double tol = settings_.tolerance;
  double omega = 1.0, rho = 1.0, rho_old = 1.0, alpha = 0.0;
  bool not_finite = false;
  int it = 1;
  for (; it < settings_.max_iter && r_norm / b_norm > tol; ++it) {
    rho = acks2_dot(r_hat, r, comm);
    if (rho == 0.0) break;
    if (it > 1) {
      const double beta = (rho / rho_old) * (alpha / omega);
      each([&](std::size_t k) { s[k] = p[k] - omega * z[k]; });  // s as scratch
      each([&](std::size_t k) { p[k] = r[k] + beta * s[k]; });
    } else {
      each([&](std::size_t k) { p[k] = r[k]; });
    }
    acks2_precondition(p, d);
    acks2_forward(d, comm);
    acks2_multiply(d, z, comm);
    alpha = rho / acks2_dot(r_hat, z, comm);
    if (!std::isfinite(alpha)) {
      not_finite = true;
      break;
    }
    each([&](std::size_t k) { s[k] = r[k] - alpha * z[k]; });
    if (acks2_dot(s, s, comm) < tol) {
      each([&](std::size_t k) { x[k] += alpha * d[k]; });
      break;
    }
    acks2_precondition(s, s_hat);
    acks2_forward(s_hat, comm);
    acks2_multiply(s_hat, y, comm);
    omega = acks2_dot(y, s, comm) / acks2_dot(y, y, comm);
    if (!std::isfinite(omega)) {
      not_finite = true;
      break;
    }
    each([&](std::size_t k) { g[k] = alpha * d[k] + omega * s_hat[k]; });
    each([&](std::size_t k) { x[k] += g[k]; });
    each([&](std::size_t k) { r[k] = s[k] - omega * y[k]; });
    r_norm = std::sqrt(acks2_dot(r, r, comm));
    if (omega == 0.0) break;
    rho_old = rho;
  }
  breakdown = not_finite || omega == 0.0 || rho == 0.0;
  return it;
}

}  // namespace puremd::host
