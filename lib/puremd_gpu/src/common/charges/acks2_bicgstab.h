// ACKS2's BiCGStab, written once: its scalars as one state stepped by the
// functions below, and the loop that steps them (acks2_bicgstab_iterate) over
// a backend's vector operations. Three places run it:
//   - the host solver (src/host/charges/host_acks2.cpp), serial rows;
//   - the CUDA solver with several sub-domains (qeq_cuda_acks2.cu): its
//     kernels' partial sums come home, are summed over the ranks
//     (QEqComm::sum) and the loop runs there;
//   - the CUDA solver with one sub-domain: single-block kernels finish the
//     row kernels' partial sums and call the same steps on the GPU, the host
//     queues iterations and reads the state once per batch (the loop's order
//     written out as kernel launches there).
// The algorithm is fix acks2/reaxff's: the same guesses, stopping rules,
// early exit, iteration count, and the same breakdown on rho = 0 or omega = 0.
// A step size that is not finite (r_hat . A d = 0 or A s = 0) stops as a
// breakdown with the last iterate kept: never NaN charges.
//
// A vector is its rows' part (q and u per owned atom, the backend's) and its
// two multiplier entries (of sum u = 0 and of sum q = 0), which live here: a
// dot product is the rows' part summed over every rank, then the multipliers'
// terms added (u's, then q's, as the host solver always added them).
#pragma once

#include <cmath>

#include "puremd_gpu/hd.h"

namespace puremd {

#if !defined(__CUDACC__)
using std::isfinite;
#endif

// The multipliers' entries of a vector: u multiplies the u rows (its row
// is sum u = 0), q the q rows (sum q = 0).
struct Acks2Mult {
  double u = 0.0, q = 0.0;
};

// rows: a . b over the rows' part of every rank; plus the multipliers' terms.
PMD_HD PMD_INLINE double acks2_dot(double rows, const Acks2Mult &a, const Acks2Mult &b) {
  return rows + a.u * b.u + a.q * b.q;
}

// Where an iteration stands: running; stopped early on s . s < tol, with
// x += alpha d still to be applied to the device part; stopped.
enum Acks2Phase : int { kAcks2Run = 0, kAcks2Early, kAcks2Done };

struct Acks2State {
  int phase = kAcks2Done, it = 1, max_iter = 0, breakdown = 0;
  double tol = 0.0, b_norm = 1.0, r_norm = 0.0;
  double rho = 1.0, rho_old = 1.0, alpha = 0.0, omega = 1.0, beta = 0.0;
  double r_hat_r = 0.0;  // r_hat . r of the device part, over every sub-domain
  Acks2Mult x, r, r_hat, p, d, z, s, y;
  Acks2Mult ax;  // the multipliers' rows of A x (the start)
};

PMD_HD PMD_INLINE bool acks2_continues(const Acks2State &s) {
  return s.it < s.max_iter && s.r_norm / s.b_norm > s.tol;
}

PMD_HD PMD_INLINE void acks2_stop(Acks2State &s, bool breakdown) {
  s.phase = kAcks2Done;
  if (breakdown) s.breakdown = 1;
}

// After r = b - A x (device part): b . b and r . r over every sub-domain;
// s.ax holds the multipliers' rows of A x.
PMD_HD PMD_INLINE void acks2_begin(Acks2State &s, double bb, double rr) {
  s.r = Acks2Mult{-s.ax.u, -s.ax.q};  // b is 0 in the multipliers' rows
  s.r_hat = s.r;
  s.b_norm = sqrt(bb);
  if (s.b_norm == 0.0) s.b_norm = 1.0;
  s.r_norm = sqrt(acks2_dot(rr, s.r, s.r));
  s.r_hat_r = rr;
  s.rho = s.rho_old = s.omega = 1.0;
  s.alpha = s.beta = 0.0;
  s.it = 1;
  s.breakdown = 0;
  s.phase = acks2_continues(s) ? kAcks2Run : kAcks2Done;
}

// An iteration's start: rho, beta and the direction's multipliers (the
// multipliers are not preconditioned: d = p there).
PMD_HD PMD_INLINE void acks2_direction(Acks2State &s) {
  if (s.phase != kAcks2Run) return;
  s.rho = acks2_dot(s.r_hat_r, s.r_hat, s.r);
  if (s.rho == 0.0) return acks2_stop(s, true);
  if (s.it == 1) {
    s.beta = 0.0;
    s.p = s.r;
  } else {
    s.beta = (s.rho / s.rho_old) * (s.alpha / s.omega);
    s.p = Acks2Mult{s.r.u + s.beta * (s.p.u - s.omega * s.z.u),
                    s.r.q + s.beta * (s.p.q - s.omega * s.z.q)};
  }
  s.d = s.p;
}

// After z = A d: r_hat . z of the device part and z's multiplier rows.
PMD_HD PMD_INLINE void acks2_alpha(Acks2State &s, double r_hat_z, Acks2Mult z) {
  if (s.phase != kAcks2Run) return;
  s.z = z;
  const double alpha = s.rho / acks2_dot(r_hat_z, s.r_hat, z);
  if (!isfinite(alpha)) return acks2_stop(s, true);
  s.alpha = alpha;
  s.s = Acks2Mult{s.r.u - alpha * z.u, s.r.q - alpha * z.q};
}

// After s = r - alpha z: s . s of the device part. fix acks2/reaxff's early
// exit (an absolute test): x += alpha d, then stop.
PMD_HD PMD_INLINE void acks2_check_early(Acks2State &s, double ss) {
  if (s.phase != kAcks2Run) return;
  if (acks2_dot(ss, s.s, s.s) < s.tol) {
    s.x.u += s.alpha * s.d.u;
    s.x.q += s.alpha * s.d.q;
    s.phase = kAcks2Early;
  }
}

// After y = A s_hat (s_hat's multipliers are s's): s . y and y . y of the
// device part and y's multiplier rows. Also ends an early exit, once the
// device part has taken x += alpha d.
PMD_HD PMD_INLINE void acks2_omega(Acks2State &s, double sy, double yy, Acks2Mult y) {
  if (s.phase == kAcks2Early) return acks2_stop(s, false);
  if (s.phase != kAcks2Run) return;
  s.y = y;
  const double omega = acks2_dot(sy, y, s.s) / acks2_dot(yy, y, y);
  if (!isfinite(omega)) return acks2_stop(s, true);
  s.omega = omega;
  s.x.u += s.alpha * s.d.u + omega * s.s.u;
  s.x.q += s.alpha * s.d.q + omega * s.s.q;
  s.r = Acks2Mult{s.s.u - omega * y.u, s.s.q - omega * y.q};
}

// After x += alpha d + omega s_hat, r = s - omega y: r . r and r_hat . r of
// the device part. Then the next iteration, or the stop.
PMD_HD PMD_INLINE void acks2_end(Acks2State &s, double rr, double r_hat_r) {
  if (s.phase != kAcks2Run) return;
  s.r_norm = sqrt(acks2_dot(rr, s.r, s.r));
  s.r_hat_r = r_hat_r;
  if (s.omega == 0.0) return acks2_stop(s, true);
  s.rho_old = s.rho;
  ++s.it;
  if (!acks2_continues(s)) acks2_stop(s, false);
}

// The products of one iteration (which vector A multiplies).
enum class Acks2Vector { X, D, SHat };

// What a product returns, each summed over every rank: its multiplier rows
// (sum of v's u part, sum of v's q part) and, over the rows' part, a . w for
// the vector the step reads (r_hat for D, s for SHat) and w . w (SHat).
struct Acks2ProductSums {
  Acks2Mult rows_of_mult;  // u: sum of v's u, q: sum of v's q
  double a_dot_w = 0.0, w_dot_w = 0.0;
};

// BiCGStab from the guess (x's rows with the backend, x's multipliers in h.x;
// h.tol and h.max_iter set) to the state it ends in. Ops, over the rows' part
// of the vectors, each sum over every rank, in this order on every rank:
//   Acks2ProductSums product(Acks2Vector v, const Acks2State &h);
//       w = A v with v's multipliers from h (x, d, s: s_hat's are s's); the
//       result into w (X), z (D) or y (SHat); v's ghosts made current first
//   void residual(double &bb, double &rr);   r = b - w, r_hat = r; b . b, r . r
//   void direction(const Acks2State &h);     p = r (h.it == 1) or r + beta (p - omega z);
//                                            d = M^-1 p
//   double half_step(const Acks2State &h);   s = r - alpha z, s_hat = M^-1 s; s . s
//   void early(const Acks2State &h);         x += alpha d
//   void step_end(const Acks2State &h, double &rr, double &r_hat_r);
//       x += alpha d + omega s_hat, r = s - omega y; r . r, r_hat . r
template <class Ops>
void acks2_bicgstab_iterate(Ops &ops, Acks2State &h) {
  h.ax = ops.product(Acks2Vector::X, h).rows_of_mult;
  double bb = 0.0, rr = 0.0;
  ops.residual(bb, rr);
  acks2_begin(h, bb, rr);
  while (h.phase == kAcks2Run) {
    acks2_direction(h);
    if (h.phase != kAcks2Run) break;
    ops.direction(h);
    const Acks2ProductSums z = ops.product(Acks2Vector::D, h);
    acks2_alpha(h, z.a_dot_w, z.rows_of_mult);
    if (h.phase != kAcks2Run) break;
    acks2_check_early(h, ops.half_step(h));
    if (h.phase == kAcks2Early) {
      ops.early(h);
      acks2_omega(h, 0.0, 0.0, Acks2Mult{});  // ends the early exit
      break;
    }
    const Acks2ProductSums y = ops.product(Acks2Vector::SHat, h);
    acks2_omega(h, y.a_dot_w, y.w_dot_w, y.rows_of_mult);
    if (h.phase != kAcks2Run) break;
    double r_hat_r = 0.0;
    ops.step_end(h, rr, r_hat_r);
    acks2_end(h, rr, r_hat_r);
  }
}

// Ops from six callables (a backend's lambdas).
template <class P, class R, class D, class H, class E, class S>
struct Acks2Ops {
  P &product;
  R &residual;
  D &direction;
  H &half_step;
  E &early;
  S &step_end;
};
template <class P, class R, class D, class H, class E, class S>
Acks2Ops<P, R, D, H, E, S> acks2_ops(P &p, R &r, D &d, H &h, E &e, S &s) {
  return {p, r, d, h, e, s};
}

}  // namespace puremd
