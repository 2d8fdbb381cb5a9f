// The per-atom history of past QEq solutions and what a solve does with it,
// as fix qeq/reaxff does it: the initial guess of s is the cubic
// extrapolation of its last four values, that of t the quadratic one of its
// last three; after a solve the history shifts by one and takes the new s, t;
// the charge is q = s - mu t. One block of kQEqHistoryPerAtom doubles per
// atom: the s history (newest first), then the t history.
//
// Every operation is rounded on its own (no fused multiply-add on the GPU),
// so that the host and the CUDA solver start from the same guesses and give
// the same charges bit for bit.
#pragma once

#include "puremd_gpu/hd.h"

namespace puremd {

constexpr int kQEqHistoryDepth = 4;
constexpr int kQEqHistoryPerAtom = 2 * kQEqHistoryDepth;

PMD_HD PMD_INLINE double qeq_add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
PMD_HD PMD_INLINE double qeq_sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
PMD_HD PMD_INLINE double qeq_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// Initial guess of s from an atom's history block: 4 (s1 + s3) - (6 s2 + s4).
PMD_HD PMD_INLINE double qeq_guess_s(const double *block) {
  const double *s = block;
  return qeq_sub(qeq_mul(4.0, qeq_add(s[0], s[2])), qeq_add(qeq_mul(6.0, s[1]), s[3]));
}

// Initial guess of t: t3 + 3 (t1 - t2).
PMD_HD PMD_INLINE double qeq_guess_t(const double *block) {
  const double *t = block + kQEqHistoryDepth;
  return qeq_add(t[2], qeq_mul(3.0, qeq_sub(t[0], t[1])));
}

// After a solve: the oldest entries drop out, s and t become the newest.
PMD_HD PMD_INLINE void qeq_push_history(double *block, double s, double t) {
  double *hs = block, *ht = block + kQEqHistoryDepth;
  for (int k = kQEqHistoryDepth - 1; k > 0; --k) {
    hs[k] = hs[k - 1];
    ht[k] = ht[k - 1];
  }
  hs[0] = s;
  ht[0] = t;
}

// The charge from the two solutions, mu = sum s / sum t over the group.
PMD_HD PMD_INLINE double qeq_charge(double s, double t, double mu) {
  return qeq_sub(s, qeq_mul(mu, t));
}

}  // namespace puremd
