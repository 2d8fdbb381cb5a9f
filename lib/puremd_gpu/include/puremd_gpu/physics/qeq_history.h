// The per-atom history of past QEq solutions and what a solve does with it,
// as fix qeq/reaxff does it: the initial guess of s is the cubic
// extrapolation of its last four values, that of t the quadratic one of its
// last three (QEqPredictor::Lammps; other predictors below); after a solve
// the history shifts by one and takes the new s, t; the charge is
// q = s - mu t. One block of kQEqHistoryPerAtom doubles per atom: the s
// history (newest first), then the t history.
//
// Every operation is rounded on its own (no fused multiply-add on the GPU),
// so that the host and the CUDA solver start from the same guesses and give
// the same charges bit for bit, whichever predictor is chosen.
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
PMD_HD PMD_INLINE double qeq_div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}

// How a solve's initial guess is extrapolated from the past solutions
// (QEqSettings::predictor, fix keyword `predictor`). Each is a linear
// combination of the last values v1 (newest), v2, v3, v4 whose coefficients
// sum to 1; "exact to degree d" means it gives the next value of every
// polynomial sequence of degree <= d (and not of degree d + 1).
enum class QEqPredictor : int {
  Lammps,     // fix qeq/reaxff's: s cubic, 4 v1 - 6 v2 + 4 v3 - v4 (exact to degree 3),
              // t quadratic, 3 v1 - 3 v2 + v3 (degree 2); ACKS2's q, u cubic
  Aspc,       // Kolafa's ASPC predictor, k = 2: (14 v1 - 14 v2 + 6 v3 - v4) / 5 (degree 1)
  Quadratic,  // 3 v1 - 3 v2 + v3 for s and t (degree 2)
  Linear,     // 2 v1 - v2 for s and t (degree 1)
};
constexpr int kQEqPredictors = 4;

// The four combinations, from the past values v[0..3], newest first.
// LAMMPS's s: 4 (v1 + v3) - (6 v2 + v4).
PMD_HD PMD_INLINE double qeq_extrapolate_cubic(const double *v) {
  return qeq_sub(qeq_mul(4.0, qeq_add(v[0], v[2])), qeq_add(qeq_mul(6.0, v[1]), v[3]));
}
// LAMMPS's t: v3 + 3 (v1 - v2).
PMD_HD PMD_INLINE double qeq_extrapolate_quadratic(const double *v) {
  return qeq_add(v[2], qeq_mul(3.0, qeq_sub(v[0], v[1])));
}
PMD_HD PMD_INLINE double qeq_extrapolate_linear(const double *v) {
  return qeq_sub(qeq_mul(2.0, v[0]), v[1]);
}
// The predictor of Kolafa's always stable predictor-corrector (J. Kolafa,
// J. Comput. Chem. 25 (2004) 335-342) with k = 2, the largest order whose
// k + 2 past values fit the history: B_j = (-1)^(j+1) j C(2k+4, k+2-j) /
// C(2k+2, k+1), j = 1..k+2, i.e. 14/5, -14/5, 6/5, -1/5. Only the predictor:
// CG to the tolerance takes the place of ASPC's corrector. Written with
// integer coefficients and one division, so that integer sequences come out
// exact and no coefficient is rounded.
PMD_HD PMD_INLINE double qeq_extrapolate_aspc(const double *v) {
  const double sum = qeq_sub(qeq_add(qeq_mul(14.0, qeq_sub(v[0], v[1])), qeq_mul(6.0, v[2])), v[3]);
  return qeq_div(sum, 5.0);
}

// The initial guess from four past values (newest first) as `predictor`
// extrapolates s (and ACKS2 its q, u and multipliers).
PMD_HD PMD_INLINE double qeq_guess_s(const double *past, QEqPredictor predictor) {
  switch (predictor) {
    case QEqPredictor::Aspc:
      return qeq_extrapolate_aspc(past);
    case QEqPredictor::Quadratic:
      return qeq_extrapolate_quadratic(past);
    case QEqPredictor::Linear:
      return qeq_extrapolate_linear(past);
    case QEqPredictor::Lammps:
    default:
      return qeq_extrapolate_cubic(past);
  }
}

// The initial guess of t from an atom's history block: the quadratic one for
// Lammps (as fix qeq/reaxff), else the predictor's for s.
PMD_HD PMD_INLINE double qeq_guess_t(const double *block, QEqPredictor predictor) {
  const double *t = block + kQEqHistoryDepth;
  return predictor == QEqPredictor::Lammps ? qeq_extrapolate_quadratic(t)
                                           : qeq_guess_s(t, predictor);
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
