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

// ---------------------------------------------------------------------------
// Extended-Lagrangian charges (opt-in; QEqSettings::xl): auxiliary vectors
// s~, t~ follow the QEq solutions s, t harmonically and time-reversibly with
// the atoms, give each solve its start, and the solve then runs a fixed small
// number of CG iterations instead of converging (Nomura, Small, Kalia,
// Nakano, Vashishta, Comput. Phys. Commun. 192 (2015) 91-96). The auxiliary
// vectors are propagated by the dissipative Verlet scheme of extended-
// Lagrangian Born-Oppenheimer MD (Niklasson, Steneteg, Odell, Bock,
// Challacombe, Tymczak, Holmstrom, Zheng, Weber, J. Chem. Phys. 130 (2009)
// 214109), with K = 3, the order whose K + 1 past values fill the history:
//   x~(n+1) = 2 x~(n) - x~(n-1) + kappa (x(n) - x~(n))
//             + alpha (c0 x~(n) + c1 x~(n-1) + c2 x~(n-2) + c3 x~(n-3)),
//   kappa = 1.69, alpha = 0.150, (c0, c1, c2, c3) = (-2, 3, 0, -1)
// (that paper's Table I; sum c_k = 0, so a constant sequence stays put).
// The history then holds x~(n+1), x~(n), x~(n-1), x~(n-2), newest first,
// computed right after solve n, and solve n + 1 starts from its newest entry.
enum class QEqXl : int {
  Off,    // solves converge; the history keeps past solutions (the predictors)
  Start,  // a converged solve whose solution fills the whole history: x~ = x
  Step,   // start at the history's newest x~, fixed iterations, then propagate
  Hold,   // a converged solve from the newest x~ that leaves the history as it
          // is (a run's set-up, a minimizer's or rerun's evaluations)
};
constexpr double kXlKappa = 1.69;
constexpr double kXlAlpha = 0.150;
constexpr double kXlC0 = -2.0, kXlC1 = 3.0, kXlC2 = 0.0, kXlC3 = -1.0;
static_assert(kQEqHistoryDepth == 4, "the extended Lagrangian's K + 1 = 4 past values");

// x~(n+1) from x(n) and the past x~ (newest first, kQEqHistoryDepth of them).
PMD_HD PMD_INLINE double qeq_xl_next(const double *aux, double x) {
  const double dissipation = qeq_add(qeq_add(qeq_mul(kXlC0, aux[0]), qeq_mul(kXlC1, aux[1])),
                                     qeq_add(qeq_mul(kXlC2, aux[2]), qeq_mul(kXlC3, aux[3])));
  const double verlet = qeq_sub(qeq_mul(2.0, aux[0]), aux[1]);
  const double pull = qeq_mul(kXlKappa, qeq_sub(x, aux[0]));
  return qeq_add(qeq_add(verlet, pull), qeq_mul(kXlAlpha, dissipation));
}

// A solve's initial guesses of s and t from an atom's history block.
PMD_HD PMD_INLINE bool qeq_xl_starts_at_aux(QEqXl xl) {
  return xl == QEqXl::Step || xl == QEqXl::Hold;
}
PMD_HD PMD_INLINE double qeq_start_s(const double *block, QEqPredictor predictor, QEqXl xl) {
  return qeq_xl_starts_at_aux(xl) ? block[0] : qeq_guess_s(block, predictor);
}
PMD_HD PMD_INLINE double qeq_start_t(const double *block, QEqPredictor predictor, QEqXl xl) {
  return qeq_xl_starts_at_aux(xl) ? block[kQEqHistoryDepth] : qeq_guess_t(block, predictor);
}

// After a solve: the history takes the solution s, t as `xl` says.
PMD_HD PMD_INLINE void qeq_record(double *block, double s, double t, QEqXl xl) {
  double *hs = block, *ht = block + kQEqHistoryDepth;
  if (xl == QEqXl::Off) {
    qeq_push_history(block, s, t);
  } else if (xl == QEqXl::Start) {
    for (int k = 0; k < kQEqHistoryDepth; ++k) {
      hs[k] = s;
      ht[k] = t;
    }
  } else if (xl == QEqXl::Step) {
    qeq_push_history(block, qeq_xl_next(hs, s), qeq_xl_next(ht, t));
  }
}

// The charge from the two solutions, mu = sum s / sum t over the group.
PMD_HD PMD_INLINE double qeq_charge(double s, double t, double mu) {
  return qeq_sub(s, qeq_mul(mu, t));
}

}  // namespace puremd
