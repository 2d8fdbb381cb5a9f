// ACKS2 in the host reference solver (Acks2Input, physics/acks2.h; a model
// of host_charge_model.h, registered below): the X block from the pairs of
// H's rows, then BiCGStab on the extended system as fix acks2/reaxff runs it
// (same stopping rules, same early exit, same preconditioner), so that
// charges, potentials and iteration counts follow LAMMPS's: the loop of
// common/charges/acks2_bicgstab.h over these rows. As H's, X's owned rows hold every
// ghost partner in full, so the product needs the ghosts' values (the halo)
// and sends nothing back; the q part is preconditioned by the solve's
// preconditioner (host_preconditioner.h), the u part by diag(X).
//
// Vectors hold 2 n + 2 entries (n = n_total): the q part [0, n), the u part
// [n, 2n), then the two multipliers (of sum u = 0 and of sum q = 0). Every
// rank holds the multipliers: their matrix rows are global sums, and the
// scalars that update them are the same on every rank.
#include <cmath>
#include <vector>

#include "common/charges/acks2_bicgstab.h"
#include "host/charges/host_charge_model.h"
#include "host/charges/host_qeq_solver.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::host {

namespace {
constexpr int kVectors = 9;  // r, r_hat, p, d, z, s, s_hat, y, w

class HostAcks2 final : public HostChargeModel {
 public:
  void setup(const QEqInput &in) override { model_input<Acks2Input>(in.model)->check(); }
  bool solve(const QEqInput &in, HostQEqSolver &s, QEqComm &comm, double *q,
             QEqResult &res) override;
  std::size_t memory_bytes() const override {
    return (x_row_start_.capacity() + x_col_.capacity()) * sizeof(int) +
           (x_val_.capacity() + x_diag_.capacity() + x_diag_inv_.capacity() + v_.capacity()) *
               sizeof(double);
  }

 private:
  void build_x(const QEqInput &in);
  void forward(double *v, QEqComm &comm);
  void multiply(const double *v, double *y, QEqComm &comm);
  int n_local_ = 0;  // its n_local
  int bicgstab(const double *b, double *x, QEqComm &comm, bool &breakdown);

  HostQEqSolver *s_ = nullptr;  // the solver of the solve in progress
  int n_ = 0;                   // its n_total
  std::vector<int> x_row_start_, x_col_;
  std::vector<double> x_val_, x_diag_, x_diag_inv_;
  // BiCGStab's vectors (9 of them, 2 n_total + 2 each) in one block
  std::vector<double> v_;
};

const HostModels::Add<Acks2Input, HostAcks2> kHostAcks2;

// After the solver built H: X, then the solve.
bool HostAcks2::solve(const QEqInput &in, HostQEqSolver &solver, QEqComm &comm, double *q,
                      QEqResult &res) {
  const Acks2Input &ak = *model_input<Acks2Input>(in.model);
  s_ = &solver;
  HostQEqSolver &s = solver;
  const QEqSettings &set = s.settings();
  const int depth = s.depth();
  const int n = in.n_total;
  n_ = n;
  n_local_ = in.n_local;
  const std::size_t len = 2 * static_cast<std::size_t>(n) + 2;
  build_x(in);

  std::vector<double> b(len, 0.0), x(len, 0.0);
  for (int i : s.rows()) {
    b[i] = -HostQEqSolver::chi_of(in, i);
    if (in.chi_shift) b[i] -= in.chi_shift[i];
    const double *h = s.history_block(i);
    // u as q: fix acks2/reaxff's cubic guess for both (QEqPredictor::Lammps),
    // or the predictor chosen
    x[i] = qeq_guess_s(h, set.predictor);
    x[n + i] = qeq_guess_s(h + depth, set.predictor);
  }
  // the multipliers' past solutions in the history's global block, laid out
  // as one atom's block: the u multiplier where s goes, the q one where t goes
  double *global = s.global_history();
  x[2 * n] = qeq_guess_s(global, set.predictor);
  x[2 * n + 1] = qeq_guess_s(global + depth, set.predictor);
  forward(x.data(), comm);

  res.iter_s = bicgstab(b.data(), x.data(), comm, res.breakdown);
  res.iter_t = 0;
  res.converged_s = res.iter_s < set.max_iter;

  for (int i : s.rows()) {
    q[i] = x[i];
    ak.u[i] = x[n + i];
    qeq_push_history(s.history_block(i), depth, x[i], x[n + i]);
  }
  qeq_push_history(global, depth, x[2 * n], x[2 * n + 1]);
  s.forward(q, comm);
  s.forward(ak.u, comm);
  return true;
}

// X over the pairs of H's rows (same pairs: owned pairs once, ghost partners
// in full), those within their bcut; X_ii = -sum_j X_ij over every partner
// (an owned pair's share added to both rows, a ghost pair's to the owned
// row); the u part's preconditioner.
void HostAcks2::build_x(const QEqInput &in) {
  const Acks2Input &ak = *model_input<Acks2Input>(in.model);
  const HostQEqSolver::Rows h = s_->h();
  const std::vector<vec3> &xv = s_->positions();
  x_row_start_.assign(in.n_local + 1, 0);
  x_col_.clear();
  x_val_.clear();
  x_diag_.assign(in.n_total, 0.0);
  for (int i = 0; i < in.n_local; ++i) {
    x_row_start_[i] = static_cast<int>(x_col_.size());
    for (int p = h.start[i]; p < h.start[i + 1]; ++p) {
      const int j = h.col[p];
      const double r = pair_geometry(xv[i], xv[j]).d;
      const double bcut =
          acks2_pair_cutoff(ak.bcut[qeq_param_index(in, i)], ak.bcut[qeq_param_index(in, j)]);
      if (r > bcut) continue;
      const double v = acks2_bond_softness(r, bcut, ak.softness).x;
      x_col_.push_back(j);
      x_val_.push_back(v);
      x_diag_[i] -= v;
      if (j < in.n_local) x_diag_[j] -= v;
    }
  }
  x_row_start_[in.n_local] = static_cast<int>(x_col_.size());
  x_diag_inv_.assign(x_diag_.size(), 0.0);
  for (int i : s_->rows()) x_diag_inv_[i] = x_diag_[i] == 0.0 ? 1.0 : 1.0 / x_diag_[i];
}

// Both parts to the ghosts (the multipliers are on every rank already).
void HostAcks2::forward(double *v, QEqComm &comm) {
  s_->forward(v, comm);
  s_->forward(v + n_, comm);
}

// y = A v: the owned rows' H, X and identity blocks (an owned pair adds to
// both rows, a ghost pair to the owned row only), and the multipliers' rows
// as sums over every rank. v must be current on the ghosts.
void HostAcks2::multiply(const double *v, double *y, QEqComm &comm) {
  const int n = n_;
  const HostQEqSolver::Rows h = s_->h();
  const double *diag = s_->diag();
  std::fill(y, y + 2 * static_cast<std::size_t>(n) + 2, 0.0);
  for (int i : s_->rows()) {
    y[i] = diag[i] * v[i];
    y[n + i] = x_diag_[i] * v[n + i];
  }
  double sum_u = 0.0, sum_q = 0.0;
  for (int i : s_->rows()) {
    for (int p = h.start[i]; p < h.start[i + 1]; ++p) {
      const int j = h.col[p];
      y[i] += h.val[p] * v[j];
      if (j < n_local_) y[j] += h.val[p] * v[i];
    }
    for (int p = x_row_start_[i]; p < x_row_start_[i + 1]; ++p) {
      const int j = x_col_[p];
      y[n + i] += x_val_[p] * v[n + j];
      if (j < n_local_) y[n + j] += x_val_[p] * v[n + i];
    }
    y[n + i] += v[i];
    y[i] += v[n + i];
    sum_u += v[n + i];
    y[n + i] += v[2 * n];
    sum_q += v[i];
    y[i] += v[2 * n + 1];
  }
  y[2 * n] = comm.sum(sum_u);
  y[2 * n + 1] = comm.sum(sum_q);
}

// Preconditioned BiCGStab on A x = b, x holding the guess (ghosts current):
// common/charges/acks2_bicgstab.h's loop over these rows (the multipliers' entries of
// b, x and the iterates live in its state). Returns the iteration index at
// exit, as fix acks2/reaxff counts.
int HostAcks2::bicgstab(const double *b, double *x, QEqComm &comm, bool &breakdown) {
  const int n = n_;
  const std::vector<int> &rows = s_->rows();
  const std::size_t len = 2 * static_cast<std::size_t>(n) + 2;
  v_.assign(kVectors * len, 0.0);
  double *r = v_.data(), *r_hat = r + len, *p = r_hat + len, *d = p + len, *z = d + len,
         *s = z + len, *s_hat = s + len, *y = s_hat + len, *w = y + len;
  // the rows' entries: both parts of each row
  auto each = [&](auto &&f) {
    for (int i : rows) {
      f(i);
      f(n + i);
    }
  };
  auto rows_dot = [&](const double *a, const double *c) {
    double local = 0.0;
    each([&](std::size_t k) { local += a[k] * c[k]; });
    return comm.sum(local);
  };
  auto precondition = [&](const double *v, double *out) {
    s_->precondition(v, out);
    for (int i : rows) out[n + i] = v[n + i] * x_diag_inv_[i];
  };

  auto product = [&](Acks2Vector which, const Acks2State &h) {
    double *v = x, *out = w;
    const double *a = nullptr;
    Acks2Mult m = h.x;
    if (which == Acks2Vector::D) {
      v = d, out = z, a = r_hat, m = h.d;
    } else if (which == Acks2Vector::SHat) {
      v = s_hat, out = y, a = s, m = h.s;  // s_hat's multipliers are s's
    }
    v[2 * n] = m.u;
    v[2 * n + 1] = m.q;
    if (which != Acks2Vector::X) forward(v, comm);  // (x's ghosts are current)
    multiply(v, out, comm);
    Acks2ProductSums sums;
    sums.rows_of_mult = Acks2Mult{out[2 * n], out[2 * n + 1]};
    if (a) sums.a_dot_w = rows_dot(a, out);
    if (which == Acks2Vector::SHat) sums.w_dot_w = rows_dot(out, out);
    return sums;
  };
  auto residual = [&](double &bb, double &rr) {
    each([&](std::size_t k) { r_hat[k] = r[k] = b[k] - w[k]; });
    bb = rows_dot(b, b);
    rr = rows_dot(r, r);
  };
  auto direction = [&](const Acks2State &h) {
    if (h.it == 1)
      each([&](std::size_t k) { p[k] = r[k]; });
    else
      each([&](std::size_t k) { p[k] = r[k] + h.beta * (p[k] - h.omega * z[k]); });
    precondition(p, d);
  };
  auto half_step = [&](const Acks2State &h) {
    each([&](std::size_t k) { s[k] = r[k] - h.alpha * z[k]; });
    precondition(s, s_hat);
    return rows_dot(s, s);
  };
  auto early = [&](const Acks2State &h) { each([&](std::size_t k) { x[k] += h.alpha * d[k]; }); };
  auto step_end = [&](const Acks2State &h, double &rr, double &r_hat_r) {
    each([&](std::size_t k) {
      x[k] += h.alpha * d[k] + h.omega * s_hat[k];
      r[k] = s[k] - h.omega * y[k];
    });
    rr = rows_dot(r, r);
    r_hat_r = rows_dot(r_hat, r);
  };
  auto ops = acks2_ops(product, residual, direction, half_step, early, step_end);

  Acks2State h;
  h.tol = s_->settings().tolerance;
  h.max_iter = s_->settings().max_iter;
  h.x = Acks2Mult{x[2 * n], x[2 * n + 1]};
  acks2_bicgstab_iterate(ops, h);
  x[2 * n] = h.x.u;
  x[2 * n + 1] = h.x.q;
  breakdown = h.breakdown != 0;
  return h.it;
}

}  // namespace
}  // namespace puremd::host
