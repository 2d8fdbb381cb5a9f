// QEq's conjugate gradients, written once: preconditioned CG on up to
// two systems (s: H s = -chi, t: H t = -1) in lock step, one product for
// both, each system stopping on its own test (physics/qeq_cg.h), so that the
// iteration counts are those of separate runs. The host solver runs it on one
// system at a time (host_qeq_solver.h); the CUDA solver on both at once where
// its scalars come home (qeq_cuda_cg.cu: several sub-domains). The vector
// operations are the backend's (Ops below), sums over the ranks included.
// Where the CUDA solver keeps the scalars on the GPU, its kernels step this
// same recurrence there (qeq_cuda_cg.cu: qeq_cg_alpha, qeq_cg_rho).
#pragma once

#include <cmath>

#include "puremd_gpu/physics/qeq_cg.h"

namespace puremd {

// The scalars of one iteration ([0] s, [1] t); systems not running have
// alpha = beta = 0.
struct CgStep {
  int running;  // bit 0: s iterates, bit 1: t iterates
  double alpha[2], beta[2];
};

// Where each system stands after the initial residual r = b - H x, d = M^-1 r.
struct CgStart {
  int systems = 3;             // the systems solved (bits as CgStep::running)
  double b_dot_b[2] = {0, 0};  // |b|^2 over every rank
  double r_dot_d[2] = {0, 0};  // rho = r . M^-1 r over every rank
  // r . diag(H)^-1 r over every rank, the stopping rule's measure whatever
  // M is (fix qeq/reaxff's, where M is Jacobi's: then it equals rho)
  double r_stop[2] = {0, 0};
};

// Ops, for the systems whose bit is set in `running` (the others' vectors
// are left alone):
//   void product_dot(int running, double dw[2]);    w = H d (d's ghosts made
//                                                   current first), dw = d . w
//   void update(const CgStep &c, double rp[4]);    x += alpha d, r -= alpha w,
//                                                   p = M^-1 r, rp = r . p and
//                                                   (rp[2], rp[3]) r . diag(H)^-1 r
//   void direction(const CgStep &c);               d = p + beta d
// every sum over every rank. Returns each system's iteration count as fix
// qeq/reaxff reports it (1 after the initial residual; max_iter: not converged).
template <class Ops>
void qeq_cg_iterate(Ops &ops, const CgStart &start, int max_iter, double tol, int it[2]) {
  double b_norm[2], rho[2], stop[2];
  for (int k = 0; k < 2; ++k) {
    b_norm[k] = std::sqrt(start.b_dot_b[k]);
    rho[k] = start.r_dot_d[k];
    stop[k] = start.r_stop[k];
    it[k] = 1;
  }
  for (;;) {
    CgStep c{};
    for (int k = 0; k < 2; ++k)
      if ((start.systems >> k & 1) && qeq_cg_continues(it[k], max_iter, stop[k], b_norm[k], tol))
        c.running |= 1 << k;
    if (!c.running) return;
    double dw[2] = {0, 0};
    ops.product_dot(c.running, dw);
    for (int k = 0; k < 2; ++k)
      if (c.running >> k & 1) c.alpha[k] = rho[k] / dw[k];
    double rp[4] = {0, 0, 0, 0};
    ops.update(c, rp);
    for (int k = 0; k < 2; ++k)
      if (c.running >> k & 1) {
        c.beta[k] = rp[k] / rho[k];
        rho[k] = rp[k];
        stop[k] = rp[2 + k];
        ++it[k];
      }
    ops.direction(c);
  }
}

// Ops from three callables (a backend's lambdas).
template <class P, class U, class D>
struct CgOps {
  P &product_dot;
  U &update;
  D &direction;
};
template <class P, class U, class D>
CgOps<P, U, D> cg_ops(P &p, U &u, D &d) {
  return {p, u, d};
}

}  // namespace puremd
