// The per-atom history of past QEq solutions and what a solve does with it,
// as fix qeq/reaxff does it: the initial guess of s is the cubic
// extrapolation of its last four values, that of t the quadratic one of its
// last three (QEqPredictor::Lammps; other predictors below); after a solve
// the history shifts by one and takes the new s, t; the charge is
// q = s - mu t. One block of 2 * depth doubles per atom: the s history
// (newest first), then the t history; depth is kQEqHistoryDepth, or more
// where the extended Lagrangian of order K needs its K + 1 past values
// (qeq_history_depth).
//
// Every operation is rounded on its own (no fused multiply-add on the GPU),
// so that the host and the CUDA solver start from the same guesses and give
// the same charges bit for bit, whichever predictor is chosen.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "puremd_gpu/hd.h"

namespace puremd {

// The predictors' four past values: the depth of every history.
constexpr int kQEqHistoryDepth = 4;
constexpr int kQEqHistoryPerAtom = 2 * kQEqHistoryDepth;

// Atom i's block in a history of `depth` past values (2 depth doubles a block).
PMD_HD PMD_INLINE double *qeq_history_block(double *hist, long long i, int depth) {
  return hist + i * 2 * depth;
}
PMD_HD PMD_INLINE const double *qeq_history_block(const double *hist, long long i, int depth) {
  return hist + i * 2 * depth;
}

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
// QEqPredictor's values as settings spell them, in its order (host code);
// no value for any other name.
inline const std::vector<std::string> &qeq_predictor_names() {
  static const std::vector<std::string> names{"lammps", "aspc", "quadratic", "linear"};
  return names;
}
inline std::optional<QEqPredictor> qeq_predictor_from_name(const std::string &name) {
  const std::vector<std::string> &names = qeq_predictor_names();
  for (size_t p = 0; p < names.size(); ++p)
    if (names[p] == name) return static_cast<QEqPredictor>(p);
  return std::nullopt;
}

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

// The initial guess of t from an atom's history block (depth past values
// each): the quadratic one for Lammps (as fix qeq/reaxff), else the
// predictor's for s.
PMD_HD PMD_INLINE double qeq_guess_t(const double *block, int depth, QEqPredictor predictor) {
  const double *t = block + depth;
  return predictor == QEqPredictor::Lammps ? qeq_extrapolate_quadratic(t)
                                           : qeq_guess_s(t, predictor);
}

// After a solve: the oldest entries drop out, s and t become the newest.
PMD_HD PMD_INLINE void qeq_push_history(double *block, int depth, double s, double t) {
  double *hs = block, *ht = block + depth;
  for (int k = depth - 1; k > 0; --k) {
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
// 214109) of order K (3 to 7):
//   x~(n+1) = 2 x~(n) - x~(n-1) + kappa (x(n) - x~(n))
//             + alpha sum_{k=0..K} c_k x~(n-k),
// with kappa, alpha and c_k from that paper's Table I (qeq_xl_scheme). The
// dissipation (alpha) damps the noise of the unconverged solves; it also
// makes the auxiliary vectors lag, more so the less a solve of few
// iterations pulls them, and the lag drains energy: alpha falls from 0.15 at
// K = 3 to 0.0016 at K = 7 (bench/README, issue 27, measures the drift).
// After solve n the history holds x~(n+1), x~(n), ..., x~(n+1-K), newest
// first (K + 1 values), and solve n + 1 starts from its newest entry.
enum class QEqXl : int {
  Off,    // solves converge; the history keeps past solutions (the predictors)
  Start,  // a converged solve whose solution fills the whole history: x~ = x
  Warm,   // a converged solve (from the newest x~) that enters the history as
          // its x~(n), then propagates: the K solves after a Start, so that the
          // scheme starts from K + 1 converged past values, not from rest
  Step,   // start at the history's newest x~, fixed iterations, then propagate
  Hold,   // a converged solve from the newest x~ that leaves the history as it
          // is (a run's set-up, a minimizer's or rerun's evaluations)
};
constexpr int kQEqXlMinOrder = 3, kQEqXlMaxOrder = 7;
constexpr int kQEqXlDefaultOrder = 5;

// One row of Niklasson et al.'s Table I.
struct QEqXlScheme {
  int order = 0;  // K
  double kappa = 0.0, alpha = 0.0;
  double c[kQEqXlMaxOrder + 1] = {};  // c_0 .. c_K
};
PMD_HD PMD_INLINE QEqXlScheme qeq_xl_scheme(int order) {
  QEqXlScheme s;
  s.order = order;
  switch (order) {
    case 3:
      s.kappa = 1.69, s.alpha = 0.150;
      s.c[0] = -2, s.c[1] = 3, s.c[2] = 0, s.c[3] = -1;
      break;
    case 4:
      s.kappa = 1.75, s.alpha = 0.057;
      s.c[0] = -3, s.c[1] = 6, s.c[2] = -2, s.c[3] = -2, s.c[4] = 1;
      break;
    case 5:
      s.kappa = 1.82, s.alpha = 0.018;
      s.c[0] = -6, s.c[1] = 14, s.c[2] = -8, s.c[3] = -3, s.c[4] = 4, s.c[5] = -1;
      break;
    case 6:
      s.kappa = 1.84, s.alpha = 0.0055;
      s.c[0] = -14, s.c[1] = 36, s.c[2] = -27, s.c[3] = -2, s.c[4] = 12, s.c[5] = -6, s.c[6] = 1;
      break;
    case 7:
      s.kappa = 1.86, s.alpha = 0.0016;
      s.c[0] = -36, s.c[1] = 99, s.c[2] = -88, s.c[3] = 11, s.c[4] = 32, s.c[5] = -25, s.c[6] = 8,
      s.c[7] = -1;
      break;
    default:
      s.order = 0;  // not a row of the table (check_qeq_settings refuses it)
  }
  return s;
}

// The history depth a solve with these settings' xl and order needs: the
// predictors' kQEqHistoryDepth, or K + 1 past auxiliary values.
PMD_HD PMD_INLINE int qeq_history_depth(QEqXl xl, int order) {
  return xl != QEqXl::Off && order + 1 > kQEqHistoryDepth ? order + 1 : kQEqHistoryDepth;
}

// x~(n+1) from x(n) and the past x~ (newest first, K + 1 of them).
PMD_HD PMD_INLINE double qeq_xl_next(const double *aux, double x, const QEqXlScheme &scheme) {
  double dissipation = 0.0;
  for (int k = 0; k <= scheme.order; ++k)
    dissipation = qeq_add(dissipation, qeq_mul(scheme.c[k], aux[k]));
  const double verlet = qeq_sub(qeq_mul(2.0, aux[0]), aux[1]);
  const double pull = qeq_mul(scheme.kappa, qeq_sub(x, aux[0]));
  return qeq_add(qeq_add(verlet, pull), qeq_mul(scheme.alpha, dissipation));
}

// A solve's initial guesses of s and t from an atom's history block.
PMD_HD PMD_INLINE bool qeq_xl_starts_at_aux(QEqXl xl) {
  return xl == QEqXl::Step || xl == QEqXl::Hold || xl == QEqXl::Warm;
}
PMD_HD PMD_INLINE double qeq_start_s(const double *block, QEqPredictor predictor, QEqXl xl) {
  return qeq_xl_starts_at_aux(xl) ? block[0] : qeq_guess_s(block, predictor);
}
PMD_HD PMD_INLINE double qeq_start_t(const double *block, int depth, QEqPredictor predictor,
                                     QEqXl xl) {
  return qeq_xl_starts_at_aux(xl) ? block[depth] : qeq_guess_t(block, depth, predictor);
}

// After a solve: the history (depth values each of s and t) takes the
// solution s, t as `xl` says.
PMD_HD PMD_INLINE void qeq_record(double *block, int depth, double s, double t, QEqXl xl,
                                  const QEqXlScheme &scheme) {
  double *hs = block, *ht = block + depth;
  if (xl == QEqXl::Off) {
    qeq_push_history(block, depth, s, t);
  } else if (xl == QEqXl::Start) {
    for (int k = 0; k < depth; ++k) {
      hs[k] = s;
      ht[k] = t;
    }
  } else if (xl == QEqXl::Step || xl == QEqXl::Warm) {
    if (xl == QEqXl::Warm) {  // the converged solution is this step's x~
      hs[0] = s;
      ht[0] = t;
    }
    qeq_push_history(block, depth, qeq_xl_next(hs, s, scheme), qeq_xl_next(ht, t, scheme));
  }
}

// The charge from the two solutions, mu = sum s / sum t over the group.
PMD_HD PMD_INLINE double qeq_charge(double s, double t, double mu) {
  return qeq_sub(s, qeq_mul(mu, t));
}

}  // namespace puremd
