// The host reference charge solver (serial within a sub-domain): QEq by
// preconditioned CG on H s = -chi and H t = -1 over a sparse H of the owned
// rows (this file; the preconditioner is the registered one that
// QEqSettings::preconditioner names, host_preconditioner.h); another charge
// model (QEqProblem::model) through its registered host implementation
// (host_charge_model.h: QTPIE's electronegativities in host_qtpie.cpp,
// ACKS2's system in host_acks2.cpp), which reads H and the solver's state
// through the accessors below.
//
// Ghosts get their values only through the caller's halo (QEqComm::halo,
// replayed by forward()); nothing is ever sent to another rank's owner. On
// several ranks each owned row holds every partner in full: a pair of two
// owned atoms is kept once and its transpose added into the other owned row,
// a pair with a ghost is kept in the owned row and never scattered to the
// ghost (the rank that owns the ghost's atom keeps the same pair in its own
// row). On one rank, where every ghost is an image of an owned atom, QEq's
// own solve keeps such a pair once (ghost_pair_is_mine) and folds the
// ghosts' entries into their owners locally, in the order LAMMPS's reverse
// communication adds them (fold_images): fix qeq/reaxff's sums, which its
// reference data (CG run to its iteration limit) hold to the last bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common/charges/halo_plan.h"
#include "common/charges/qeq_cg_loop.h"
#include "common/charges/qeq_rows.h"
#include "host/charges/host_charge_model.h"
#include "host/charges/host_preconditioner.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/neighbor_list.h"
#include "puremd_gpu/physics/pair_ownership.h"
#include "puremd_gpu/qeq.h"

namespace puremd::host {

// Scratch kept between solves (the host engine's owns one); the history is the caller's.
class HostQEqSolver {
 public:
  QEqResult solve(const QEqInput &in, ChargeHistory &history, QEqComm &comm, double *q) {
    check_qeq_settings(in.settings);
    check_xl_input(in, history.depth());
    check_model_preconditioner(in);
    settings_ = qeq_solve_settings(in.settings, in.model);
    scheme_ = qeq_xl_scheme(settings_.xl_order);
    taper_ = make_taper(settings_.cut_lo, settings_.cut_hi);
    HostChargeModel *model = model_.of(in.model, "host");
    HostPreconditioner &precond = preconditioner(settings_.preconditioner);
    setup(in);
    in_ = &in;
    hist_ = history.host_blocks(in.n_local);
    global_hist_ = history.global_block();
    depth_ = history.depth();
    if (model) model->setup(in);
    fold_images_ = !model && comm.size() == 1 && in.n_total > in.n_local;
    fold_pattern_ = fold_images_ ? comm.halo() : nullptr;
    fold_images_ = fold_pattern_ != nullptr;  // (none: forward() says what is missing)
    build_matrix(in);
    precond.setup(*this);
    QEqResult res;
    if (model && model->solve(in, *this, comm, q, res)) return res;
    const double *chi = model ? model->electronegativities(in, *this) : nullptr;

    const int n = in.n_total;
    s_.assign(n, 0.0);
    t_.assign(n, 0.0);
    b_s_.assign(n, 0.0);
    b_t_.assign(n, 0.0);
    for (int i : rows_) {
      b_s_[i] = chi ? -chi[i] : -chi_of(in, i);
      if (in.chi_shift) b_s_[i] -= in.chi_shift[i];
      b_t_[i] = -1.0;
      s_[i] = qeq_start_s(history_block(i), settings_.predictor, settings_.xl);
      t_[i] = qeq_start_t(history_block(i), depth_, settings_.predictor, settings_.xl);
    }
    forward(s_.data(), comm);
    forward(t_.data(), comm);

    res.iter_s = conjugate_gradient(b_s_.data(), s_.data(), n, comm);
    res.iter_t = conjugate_gradient(b_t_.data(), t_.data(), n, comm);
    res.converged_s = res.iter_s < settings_.max_iter;
    res.converged_t = res.iter_t < settings_.max_iter;

    // q = s - mu t with mu chosen so that the charges sum to zero.
    double s_local = 0.0, t_local = 0.0;
    for (int i : rows_) {
      s_local += s_[i];
      t_local += t_[i];
    }
    const double s_sum = comm.sum(s_local);
    const double t_sum = comm.sum(t_local);
    const double mu = s_sum / t_sum;
    for (int i : rows_) {
      q[i] = qeq_charge(s_[i], t_[i], mu);
      qeq_record(history_block(i), depth_, s_[i], t_[i], settings_.xl, scheme_);
    }
    forward(q, comm);
    return res;
  }

  std::size_t memory_bytes() const {
    std::size_t b = 0;
    b += (row_start_.capacity() + col_.capacity() + rows_.capacity() + skip_.capacity()) *
         sizeof(int);
    b += val_.capacity() * sizeof(double);
    b += (s_.capacity() + t_.capacity() + b_s_.capacity() + b_t_.capacity() + diag_.capacity() +
          r_.capacity() + d_.capacity() + p_.capacity() + w_.capacity()) *
         sizeof(double);
    b += nl_.nbr.capacity() * sizeof(int) +
         (nl_.start.capacity() + nl_.end.capacity()) * sizeof(ListPos);
    if (model_.get()) b += model_.get()->memory_bytes();
    if (precond_) b += precond_->memory_bytes();
    return b;
  }

  // --- What a model's implementation reads during a solve (host_charge_model.h)
  const QEqSettings &settings() const { return settings_; }
  // the owned atoms of the group, in index order; the atom count (n_total);
  // every atom's position
  const std::vector<int> &rows() const { return rows_; }
  int n_total() const { return n_; }
  const std::vector<vec3> &positions() const { return xv_; }
  // the solve's input and taper (valid during a solve)
  const QEqInput &input() const { return *in_; }
  const Taper &taper() const { return taper_; }
  // H's owned rows after the build: a pair of owned atoms once (in the row
  // of the smaller index: add its transpose), every ghost partner in full;
  // the diagonal (eta)
  struct Rows {
    const int *start, *col;
    const double *val;
  };
  Rows h() const { return Rows{row_start_.data(), col_.data(), val_.data()}; }
  const double *diag() const { return diag_.data(); }
  // p = M^-1 r at the rows: the solve's preconditioner, set up for this H
  void precondition(const double *r, double *p) { precond_->apply(*this, r, p); }
  // the history's block of owned atom i; the global block (ChargeHistory);
  // the number of past values a block holds
  double *history_block(int i) { return qeq_history_block(hist_, i, depth_); }
  double *global_history() { return global_hist_; }
  int depth() const { return depth_; }
  static double chi_of(const QEqInput &in, int i) { return in.chi[qeq_param_index(in, i)]; }

  // Ghost entries of v (n_total) from the atoms they are images of: the
  // caller's halo pattern replayed (the CUDA solver replays the same plan on
  // the GPU). Without ghosts there may be none.
  void forward(double *v, QEqComm &comm) {
    const HaloPattern *h = comm.halo();
    if (!h) {
      if (n_ == n_local_) return;
      throw RuntimeError("QEq: " + std::to_string(n_ - n_local_) +
                         " ghost atoms but no halo: the caller must give their pattern "
                         "(QEqComm::halo; image_halo for one sub-domain's periodic images)");
    }
    if (h->version != halo_plan_.version || halo_n_local_ != n_local_ || halo_n_total_ != n_) {
      halo_plan_ = make_halo_plan(*h, comm.rank(), n_local_, n_);
      halo_n_local_ = n_local_;
      halo_n_total_ = n_;
    }
    halo_forward_host(halo_plan_, v, comm, halo_send_, halo_recv_);
  }

 private:
  // Checks the input, lists the owned active atoms, sizes the work vectors.
  void setup(const QEqInput &in) {
    if (in.n_local < 0 || in.n_total < in.n_local) throw RuntimeError("QEq: invalid atom counts");
    n_local_ = in.n_local;
    n_ = in.n_total;
    if (in.n_total > 0 && (!in.x || !in.tag || !in.chi || !in.eta || !in.gamma))
      throw RuntimeError("QEq: missing positions, tags or parameters");
    qeq_select_rows(in, rows_);
    // Ghost types are checked where they are used (as pair partners).

    const int n = in.n_total;
    diag_.assign(n, 0.0);
    for (int i : rows_) diag_[i] = in.eta[qeq_param_index(in, i)];
    r_.assign(n, 0.0);
    d_.assign(n, 0.0);
    p_.assign(n, 0.0);
    w_.assign(n, 0.0);

    // Shielding table for per-type parameters.
    if (in.type) {
      const int nt = in.num_types;
      shield_.assign(static_cast<std::size_t>(nt) * nt, 0.0);
      for (int a = 0; a < nt; ++a)
        for (int b = 0; b < nt; ++b)
          shield_[static_cast<std::size_t>(a) * nt + b] = qeq_shielding(in.gamma[a], in.gamma[b]);
    }
  }

  double shield_of(const QEqInput &in, int i, int j) const {
    if (!in.type) return qeq_shielding(in.gamma[i], in.gamma[j]);
    const int ti = in.type[i], tj = in.type[j];
    if (tj < 0 || tj >= in.num_types)
      throw InputError("QEq: atom type " + std::to_string(tj) + " has no QEq parameters");
    return shield_[static_cast<std::size_t>(ti) * in.num_types + tj];
  }

  // Rows of owned active atoms: partners within cut_hi, every ghost partner
  // (the half list holds each owned-ghost pair in the owned row).
  void build_matrix(const QEqInput &in) {
    const int n = in.n_total;
    xv_.resize(n);
    for (int i = 0; i < n; ++i) xv_[i] = vec3{in.x[3 * i], in.x[3 * i + 1], in.x[3 * i + 2]};
    const int *skip = nullptr;
    if (qeq_has_exclusions(in)) {
      skip_.resize(n);
      for (int i = 0; i < n; ++i) skip_[i] = qeq_is_active(in, i) ? 0 : 1;
      skip = skip_.data();
    }
    build_half_neighbor_list(xv_.data(), in.n_local, n, settings_.cut_hi, 0.0, skip, nl_);

    row_start_.assign(in.n_local + 1, 0);
    col_.clear();
    val_.clear();
    int next_row = 0;
    auto start_rows_to = [&](int last) {
      for (; next_row <= last; ++next_row) row_start_[next_row] = static_cast<int>(col_.size());
    };
    for (int i : rows_) {
      start_rows_to(i);
      for (ListPos p = nl_.start[i]; p < nl_.end[i]; ++p) {
        const int j = nl_.nbr[p];
        const PairGeometry geo = pair_geometry(xv_[i], xv_[j]);
        if (fold_images_ && j >= in.n_local && !ghost_pair_is_mine(in.tag[i], in.tag[j], geo.dvec))
          continue;
        col_.push_back(j);
        val_.push_back(qeq_offdiag(geo.d, shield_of(in, i, j), taper_));
      }
    }
    start_rows_to(in.n_local);
  }

  // y = H v at the owned rows (ghost entries 0): a pair of owned atoms adds
  // to both rows, a pair with a ghost to the owned row only. v must be
  // current on the ghosts.
  void multiply(const double *v, double *y, int n) {
    std::fill(y, y + n, 0.0);
    for (int i : rows_) {
      double yi = diag_[i] * v[i];
      for (int p = row_start_[i]; p < row_start_[i + 1]; ++p) {
        const int j = col_[p];
        yi += val_[p] * v[j];
        if (j < n_local_ || fold_images_) y[j] += val_[p] * v[i];
      }
      y[i] += yi;
    }
    if (fold_images_) fold_images(y);
  }

  // One rank: the ghosts' entries of y added into the atoms they are images
  // of, as LAMMPS's reverse communication adds them: the halo's messages to
  // this rank itself, the last first, each in its order (the k-th message to
  // itself fills the k-th of its receives).
  void fold_images(double *y) const {
    const HaloPattern &h = *fold_pattern_;
    std::vector<int> first;
    for (const HaloPattern::Recv &r : h.recvs)
      if (r.peer == 0) first.push_back(r.first);
    std::size_t k = first.size();
    for (auto s = h.sends.rbegin(); s != h.sends.rend(); ++s) {
      if (s->peer != 0 || k == 0) continue;
      const int f = first[--k];
      for (std::size_t m = 0; m < s->index.size(); ++m) y[s->index[m]] += y[f + m];
    }
  }

  double dot(const double *a, const double *b, QEqComm &comm) const {
    double local = 0.0;
    for (int i : rows_) local += a[i] * b[i];
    return comm.sum(local);
  }

  // rho = r . p and r . diag(H)^-1 r, the stopping rule's measure
  // (physics/qeq_cg.h), in one collective call; the latter in the operations
  // of Jacobi's r . p (host_jacobi.cpp), so that with Jacobi they are equal
  // to the bit.
  void residual_sums(const double *r, const double *p, QEqComm &comm, double &rho,
                     double &stop) const {
    double v[2] = {0.0, 0.0};
    for (int i : rows_) {
      v[0] += r[i] * p[i];
      v[1] += qeq_stop_term(r[i], 1.0 / diag_[i]);
    }
    comm.sum(v, 2);
    rho = v[0];
    stop = v[1];
  }

  // Preconditioned CG on H x = b over the active owned atoms
  // (common/charges/qeq_cg_loop.h, one system: slot 0); x holds the initial guess
  // (ghosts current) and the solution on exit. Returns the iteration count as
  // fix qeq/reaxff reports it.
  int conjugate_gradient(const double *b, double *x, int n, QEqComm &comm) {
    double *r = r_.data(), *d = d_.data(), *p = p_.data(), *w = w_.data();
    multiply(x, w, n);
    for (int i : rows_) r[i] = b[i] - w[i];
    precondition(r, d);
    CgStart start;
    start.systems = 1;
    start.b_dot_b[0] = dot(b, b, comm);
    residual_sums(r, d, comm, start.r_dot_d[0], start.r_stop[0]);
    auto product_dot = [&](int /*running*/, double dw[2]) {
      forward(d, comm);
      multiply(d, w, n);
      dw[0] = dot(d, w, comm);
    };
    auto update = [&](const CgStep &c, double rp[4]) {
      for (int i : rows_) {
        x[i] += c.alpha[0] * d[i];
        r[i] -= c.alpha[0] * w[i];
      }
      precondition(r, p);
      residual_sums(r, p, comm, rp[0], rp[2]);
    };
    auto direction = [&](const CgStep &c) {
      for (int i : rows_) d[i] = p[i] + c.beta[0] * d[i];
    };
    auto ops = cg_ops(product_dot, update, direction);
    int it[2];
    qeq_cg_iterate(ops, start, settings_.max_iter, settings_.tolerance, it);
    return it[0];
  }

  // The preconditioner `name` names (kept between solves while the name stays).
  HostPreconditioner &preconditioner(const std::string &name) {
    if (!precond_ || name != precond_name_) {
      precond_ = HostPreconditioners::make(name, "host");
      precond_name_ = name;
    }
    return *precond_;
  }

  int n_ = 0, n_local_ = 0;       // n_total and n_local of the solve
  const QEqInput *in_ = nullptr;  // of the solve in progress
  // one rank, QEq's own solve: ghost pairs kept once and folded (fold_images)
  bool fold_images_ = false;
  const HaloPattern *fold_pattern_ = nullptr;
  // the halo pattern's plan (forward) and the atom counts it was made for
  HaloPlan halo_plan_;
  int halo_n_local_ = -1, halo_n_total_ = -1;
  std::vector<double> halo_send_, halo_recv_;
  std::unique_ptr<HostPreconditioner> precond_;
  std::string precond_name_;
  ModelSlot<HostChargeModel> model_;  // another model's implementation, kept between solves
  QEqSettings settings_;
  Taper taper_;
  // The solve's history (ChargeHistory::host_blocks) and its global block
  // (a model's own past values: ACKS2's multipliers).
  double *hist_ = nullptr;
  double *global_hist_ = nullptr;
  int depth_ = kQEqHistoryDepth;  // the history's (ChargeHistory::depth)
  QEqXlScheme scheme_;

  std::vector<int> rows_, skip_;
  std::vector<vec3> xv_;
  HalfNeighborList nl_;
  std::vector<int> row_start_, col_;
  std::vector<double> val_, shield_;
  std::vector<double> s_, t_, b_s_, b_t_, diag_, r_, d_, p_, w_;
};

}  // namespace puremd::host
