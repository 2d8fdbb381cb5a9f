// The scalars of ACKS2's BiCGStab in the CUDA solver (qeq_cuda_acks2.cu),
// written once and stepped by the same code in both places it runs:
//   - on the GPU, one sub-domain: single-block kernels finish the row
//     kernels' partial sums and call these steps; the host queues
//     iterations and only reads the state once per batch;
//   - on the host, several sub-domains: the partial sums come home, are
//     summed over the ranks (QEqComm::sum) and these steps run there.
// The algorithm is the host driver's (src/host/host_acks2.cpp, after fix
// acks2/reaxff): the same guesses, stopping rules, early exit, iteration
// count, and the same breakdown on rho = 0 or omega = 0. A step size that
// is not finite (r_hat . A d = 0 or A s = 0) stops as a breakdown with the
// last iterate kept: never NaN charges.
//
// A vector's device part is a double2 per atom (q, u); its two multiplier
// entries (of sum u = 0 and sum q = 0) live here.
#pragma once

#include <cmath>

#include "puremd_gpu/hd.h"

namespace puremd::cuda {

// The multipliers' entries of a vector: u multiplies the u rows (its row
// is sum u = 0), q the q rows (sum q = 0).
struct Acks2Mult {
  double u = 0.0, q = 0.0;
};

PMD_HD PMD_INLINE double acks2_dot(const Acks2Mult &a, const Acks2Mult &b) {
  return a.u * b.u + a.q * b.q;
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
  s.r_norm = sqrt(rr + acks2_dot(s.r, s.r));
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
  s.rho = s.r_hat_r + acks2_dot(s.r_hat, s.r);
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
  const double alpha = s.rho / (r_hat_z + acks2_dot(s.r_hat, z));
  if (!isfinite(alpha)) return acks2_stop(s, true);
  s.alpha = alpha;
  s.s = Acks2Mult{s.r.u - alpha * z.u, s.r.q - alpha * z.q};
}

// After s = r - alpha z: s . s of the device part. fix acks2/reaxff's early
// exit (an absolute test): x += alpha d, then stop.
PMD_HD PMD_INLINE void acks2_check_early(Acks2State &s, double ss) {
  if (s.phase != kAcks2Run) return;
  if (ss + acks2_dot(s.s, s.s) < s.tol) {
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
  const double omega = (sy + acks2_dot(y, s.s)) / (yy + acks2_dot(y, y));
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
  s.r_norm = sqrt(rr + acks2_dot(s.r, s.r));
  s.r_hat_r = r_hat_r;
  if (s.omega == 0.0) return acks2_stop(s, true);
  s.rho_old = s.rho;
  ++s.it;
  if (!acks2_continues(s)) acks2_stop(s, false);
}

}  // namespace puremd::cuda
