// The host reference charge solver (serial within a sub-domain): QEq by
// Jacobi-preconditioned CG on H s = -chi and H t = -1 (this file), and ACKS2
// by BiCGStab on its extended system (host_acks2.cpp), both over a sparse H
// of the owned rows.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/halo_plan.h"
#include "common/qeq_cg_loop.h"
#include "common/qeq_rows.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/neighbor_list.h"
#include "puremd_gpu/physics/qtpie.h"
#include "puremd_gpu/qeq.h"

namespace puremd::host {

// Scratch kept between solves (the host engine's owns one); the history is the caller's.
class HostQEqSolver {
 public:
  QEqResult solve(const QEqInput &in, ChargeHistory &history, QEqComm &comm, double *q) {
    check_qeq_settings(in.settings);
    check_xl_input(in, history.depth());
    settings_ = qeq_cg_settings(in.settings);
    scheme_ = qeq_xl_scheme(settings_.xl_order);
    taper_ = make_taper(settings_.cut_lo, settings_.cut_hi);
    setup(in);
    hist_ = history.host_blocks(in.n_local);
    global_hist_ = history.global_block();
    depth_ = history.depth();
    if (in.acks2) check_acks2_input(in);  // host_acks2.cpp
    build_matrix(in);
    if (in.acks2) return solve_acks2(in, comm, q);

    const int n = in.n_total;
    s_.assign(n, 0.0);
    t_.assign(n, 0.0);
    b_s_.assign(n, 0.0);
    b_t_.assign(n, 0.0);
    if (in.qtpie) qtpie_electronegativities(in);
    for (int i : rows_) {
      b_s_[i] = in.qtpie ? -chi_eff_[i] : -chi_of(in, i);
      if (in.chi_shift) b_s_[i] -= in.chi_shift[i];
      b_t_[i] = -1.0;
      s_[i] = qeq_start_s(history_block(i), settings_.predictor, settings_.xl);
      t_[i] = qeq_start_t(history_block(i), depth_, settings_.predictor, settings_.xl);
    }
    forward(s_.data(), comm);
    forward(t_.data(), comm);

    QEqResult res;
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
          diag_inv_.capacity() + r_.capacity() + d_.capacity() + p_.capacity() + w_.capacity()) *
         sizeof(double);
    b += (nl_.nbr.capacity() + nl_.start.capacity() + nl_.end.capacity()) * sizeof(int);
    b += (x_row_start_.capacity() + x_col_.capacity()) * sizeof(int);
    b += (x_val_.capacity() + x_diag_.capacity() + x_diag_inv_.capacity() + v_.capacity()) *
         sizeof(double);
    return b;
  }

 private:
  static double chi_of(const QEqInput &in, int i) { return in.chi[qeq_param_index(in, i)]; }
  double *history_block(int i) { return qeq_history_block(hist_, i, depth_); }

  // Ghost entries of v (n_total) from the atoms they are images of: the
  // caller's halo pattern replayed where it gives one (several ranks; the
  // CUDA solver replays the same plan on the GPU), else QEqComm::forward.
  void forward(double *v, QEqComm &comm) {
    const HaloPattern *h = comm.halo();
    if (!h) {
      comm.forward(v);
      return;
    }
    if (h->version != halo_plan_.version || halo_n_local_ != n_local_ || halo_n_total_ != n_) {
      halo_plan_ = make_halo_plan(*h, comm.rank(), n_local_, n_);
      halo_n_local_ = n_local_;
      halo_n_total_ = n_;
    }
    halo_forward_host(halo_plan_, v, comm, halo_send_, halo_recv_);
  }

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
    diag_inv_.assign(n, 0.0);
    for (int i : rows_) {
      diag_[i] = in.eta[qeq_param_index(in, i)];
      diag_inv_[i] = 1.0 / diag_[i];
    }
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

  // chi_eff of every row (physics/qtpie.h): over each pair of the half list
  // within the overlap cut-off, added to both atoms when both are owned.
  // After build_matrix, whose positions (xv_) it reads.
  void qtpie_electronegativities(const QEqInput &in) {
    const QtpieInput &qt = *in.qtpie;
    if (!qt.exponent || !(qt.cutoff_bohr > 0.0))
      throw InputError("QTPIE: orbital exponents and a positive overlap cut-off are required");
    if (in.chi_shift)
      throw InputError("QTPIE: an external potential goes through QtpieInput::phi, not chi_shift");
    const int n = in.n_total, nl = in.n_local;
    build_half_neighbor_list(xv_.data(), nl, n, qt.cutoff_bohr / kBohrPerAngstrom, 0.0, nullptr,
                             qtpie_nl_);
    auto site = [&](int i) { return OverlapSite{chi_of(in, i), qt.phi ? qt.phi[i] : 0.0}; };
    auto weight = [&](const OverlapSite &a, const OverlapSite &b) {
      return overlap_weight(qt.model, qt.phi_scale, a, b);
    };
    auto expo = [&](int i) { return qt.exponent[qeq_param_index(in, i)]; };
    std::vector<QtpieSums> sums(nl);
    for (int i = 0; i < nl; ++i) {
      const double ai = expo(i);
      const OverlapSite si = site(i);
      qtpie_add(sums[i], ai, ai, 0.0, qt.cutoff_bohr, weight(si, si));  // i itself
      for (int p = qtpie_nl_.start[i]; p < qtpie_nl_.end[i]; ++p) {
        const int j = qtpie_nl_.nbr[p];
        const double aj = expo(j);
        const OverlapSite sj = site(j);
        const double r = pair_geometry(xv_[i], xv_[j]).d;
        qtpie_add(sums[i], ai, aj, r, qt.cutoff_bohr, weight(si, sj));
        if (j < nl) qtpie_add(sums[j], aj, ai, r, qt.cutoff_bohr, weight(sj, si));
      }
    }
    chi_eff_.assign(n, 0.0);
    for (int i = 0; i < nl; ++i)
      chi_eff_[i] = qtpie_chi_eff(qt.model, qt.phi_scale, sums[i], site(i));
  }

  // Rows of owned active atoms: partners within cut_hi, ghosts kept per ghost_pair_is_mine.
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
    if (in.acks2) clear_x_matrix(in);  // host_acks2.cpp: X from the same pairs
    int next_row = 0;
    auto start_rows_to = [&](int last) {
      for (; next_row <= last; ++next_row) {
        row_start_[next_row] = static_cast<int>(col_.size());
        if (in.acks2) x_row_start_[next_row] = static_cast<int>(x_col_.size());
      }
    };
    for (int i : rows_) {
      start_rows_to(i);
      for (int p = nl_.start[i]; p < nl_.end[i]; ++p) {
        const int j = nl_.nbr[p];
        const PairGeometry geo = pair_geometry(xv_[i], xv_[j]);
        if (j >= in.n_local && !ghost_pair_is_mine(in.tag[i], in.tag[j], geo.dvec)) continue;
        col_.push_back(j);
        val_.push_back(qeq_offdiag(geo.d, shield_of(in, i, j), taper_));
        if (in.acks2) add_x_pair(in, i, j, geo.d);
      }
    }
    start_rows_to(in.n_local);
  }

  // y = H v over owned and ghost rows, then ghost contributions folded back
  // to their owners. v must be current on the ghosts.
  void multiply(const double *v, double *y, int n, QEqComm &comm) {
    std::fill(y, y + n, 0.0);
    for (int i : rows_) {
      double yi = diag_[i] * v[i];
      for (int p = row_start_[i]; p < row_start_[i + 1]; ++p) {
        const int j = col_[p];
        yi += val_[p] * v[j];
        y[j] += val_[p] * v[i];
      }
      y[i] += yi;
    }
    comm.reverse(y);
  }

  double dot(const double *a, const double *b, QEqComm &comm) const {
    double local = 0.0;
    for (int i : rows_) local += a[i] * b[i];
    return comm.sum(local);
  }

  // Jacobi-preconditioned CG on H x = b over the active owned atoms
  // (common/qeq_cg_loop.h, one system: slot 0); x holds the initial guess
  // (ghosts current) and the solution on exit. Returns the iteration count as
  // fix qeq/reaxff reports it.
  int conjugate_gradient(const double *b, double *x, int n, QEqComm &comm) {
    double *r = r_.data(), *d = d_.data(), *p = p_.data(), *w = w_.data();
    multiply(x, w, n, comm);
    for (int i : rows_) {
      r[i] = b[i] - w[i];
      d[i] = r[i] * diag_inv_[i];
    }
    CgStart start;
    start.systems = 1;
    start.b_dot_b[0] = dot(b, b, comm);
    start.r_dot_d[0] = dot(r, d, comm);
    auto product_dot = [&](int /*running*/, double dw[2]) {
      forward(d, comm);
      multiply(d, w, n, comm);
      dw[0] = dot(d, w, comm);
    };
    auto update = [&](const CgStep &c, double rp[2]) {
      for (int i : rows_) {
        x[i] += c.alpha[0] * d[i];
        r[i] -= c.alpha[0] * w[i];
        p[i] = r[i] * diag_inv_[i];
      }
      rp[0] = dot(r, p, comm);
    };
    auto direction = [&](const CgStep &c) {
      for (int i : rows_) d[i] = p[i] + c.beta[0] * d[i];
    };
    auto ops = cg_ops(product_dot, update, direction);
    int it[2];
    qeq_cg_iterate(ops, start, settings_.max_iter, settings_.tolerance, it);
    return it[0];
  }

  // --- ACKS2 (host_acks2.cpp): the extended system of Acks2Input, vectors
  // of 2 n_total + 2 entries laid out [q part, u part, the two multipliers].
  static void check_acks2_input(const QEqInput &in);
  QEqResult solve_acks2(const QEqInput &in, QEqComm &comm, double *q);
  void clear_x_matrix(const QEqInput &in);
  void add_x_pair(const QEqInput &in, int i, int j, double r);
  void finish_x_diagonal(QEqComm &comm);
  void acks2_multiply(const double *v, double *y, QEqComm &comm);
  void acks2_forward(double *v, QEqComm &comm);
  int bicgstab(const double *b, double *x, QEqComm &comm, bool &breakdown);
  int n_ = 0, n_local_ = 0;  // n_total and n_local of the solve
  // the halo pattern's plan (forward) and the atom counts it was made for
  HaloPlan halo_plan_;
  int halo_n_local_ = -1, halo_n_total_ = -1;
  std::vector<double> halo_send_, halo_recv_;
  std::vector<int> x_row_start_, x_col_;
  std::vector<double> x_val_, x_diag_, x_diag_inv_;
  // BiCGStab's vectors (9 of them, 2 n_total + 2 each) in one block
  std::vector<double> v_;
  QEqSettings settings_;
  Taper taper_;
  // The solve's history (ChargeHistory::host_blocks) and, for ACKS2, the
  // multipliers' past solutions in its global block (laid out as one atom's
  // block: the u multiplier where s goes, the q multiplier where t goes).
  double *hist_ = nullptr;
  double *global_hist_ = nullptr;
  int depth_ = kQEqHistoryDepth;  // the history's (ChargeHistory::depth)
  QEqXlScheme scheme_;

  std::vector<int> rows_, skip_;
  std::vector<vec3> xv_;
  HalfNeighborList nl_, qtpie_nl_;
  std::vector<double> chi_eff_;
  std::vector<int> row_start_, col_;
  std::vector<double> val_, shield_;
  std::vector<double> s_, t_, b_s_, b_t_, diag_, diag_inv_, r_, d_, p_, w_;
};

}  // namespace puremd::host
