// The predictors that start each QEq solve from the history
// (QEqPredictor, physics/qeq_history.h): each gives the next value of every
// polynomial sequence up to the degree it claims and misses one of the next
// degree (so a wrong coefficient fails); `lammps` is fix qeq/reaxff's formula
// bit for bit; the host solvers (QEq and ACKS2) start from the chosen one.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qeq_history.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

using namespace puremd;
using namespace qeq_test;

namespace {

struct Claim {
  QEqPredictor predictor;
  const char *name;
  int degree_s, degree_t;  // exact up to this degree for s (and ACKS2's q, u), for t
};
const Claim kClaims[] = {{QEqPredictor::Lammps, "lammps", 3, 2},
                         {QEqPredictor::Aspc, "aspc", 1, 1},
                         {QEqPredictor::Quadratic, "quadratic", 2, 2},
                         {QEqPredictor::Linear, "linear", 1, 1}};

// a (n + c)^m at step n: the history holds steps 0, -1, -2, -3 (newest
// first), the guess is for step 1. Small integers, so every operation is exact.
double poly(int m, double a, double c, int n) { return a * std::pow(n + c, m); }

// An atom's history block whose s and t histories are both the sequence.
std::vector<double> block_of(int m, double a, double c) {
  std::vector<double> b(kQEqHistoryPerAtom);
  for (int k = 0; k < kQEqHistoryDepth; ++k) b[k] = b[kQEqHistoryDepth + k] = poly(m, a, c, -k);
  return b;
}

}  // namespace

TEST(QEqPredictor, ExactUpToItsDegreeAndNotBeyond) {
  const double scales[] = {1.0, -3.0, 7.0}, shifts[] = {0.0, 2.0, -5.0};
  for (const Claim &p : kClaims)
    for (double a : scales)
      for (double c : shifts) {
        for (int m = 0; m <= 4; ++m) {
          const std::vector<double> b = block_of(m, a, c);
          const double next = poly(m, a, c, 1);
          const std::string where = std::string(p.name) + ", " + std::to_string(a) + " (n + " +
                                    std::to_string(c) + ")^" + std::to_string(m);
          // s; ACKS2's u (the t half of the block through qeq_guess_s); t
          const double s = qeq_guess_s(b.data(), p.predictor);
          const double u = qeq_guess_s(b.data() + kQEqHistoryDepth, p.predictor);
          const double t = qeq_guess_t(b.data(), kQEqHistoryDepth, p.predictor);
          if (m <= p.degree_s) {
            EXPECT_EQ(s, next) << where << ": s";
            EXPECT_EQ(u, next) << where << ": ACKS2's u";
          } else if (m == p.degree_s + 1) {
            EXPECT_NE(s, next) << where << ": s is exact beyond the degree claimed";
          }
          if (m <= p.degree_t)
            EXPECT_EQ(t, next) << where << ": t";
          else if (m == p.degree_t + 1)
            EXPECT_NE(t, next) << where << ": t is exact beyond the degree claimed";
        }
      }
}

// The coefficients of each, read back from unit histories: a wrong one fails
// even where the polynomial test above could not tell (a degree it does not claim).
TEST(QEqPredictor, Coefficients) {
  const double expected[][2][4] = {{{4, -6, 4, -1}, {3, -3, 1, 0}},
                                   {{2.8, -2.8, 1.2, -0.2}, {2.8, -2.8, 1.2, -0.2}},
                                   {{3, -3, 1, 0}, {3, -3, 1, 0}},
                                   {{2, -1, 0, 0}, {2, -1, 0, 0}}};
  for (int p = 0; p < kQEqPredictors; ++p)
    for (int k = 0; k < kQEqHistoryDepth; ++k) {
      std::vector<double> b(kQEqHistoryPerAtom, 0.0);
      b[k] = b[kQEqHistoryDepth + k] = 1.0;
      const QEqPredictor pred = kClaims[p].predictor;
      EXPECT_DOUBLE_EQ(qeq_guess_s(b.data(), pred), expected[p][0][k])
          << kClaims[p].name << ", s coefficient " << k + 1;
      EXPECT_DOUBLE_EQ(qeq_guess_t(b.data(), kQEqHistoryDepth, pred), expected[p][1][k])
          << kClaims[p].name << ", t coefficient " << k + 1;
    }
}

// `lammps` rounds as fix qeq/reaxff writes it: 4 (s1 + s3) - (6 s2 + s4) and
// t3 + 3 (t1 - t2), the same bits on random histories.
TEST(QEqPredictor, LammpsIsFixQEqReaxFFsFormulaBitForBit) {
  std::mt19937 rng(11u);
  std::uniform_real_distribution<double> v(-2.0, 2.0);
  for (int trial = 0; trial < 1000; ++trial) {
    double h[kQEqHistoryPerAtom];
    for (double &x : h) x = v(rng);
    const double *s = h, *t = h + kQEqHistoryDepth;
    const double s_ref = 4 * (s[0] + s[2]) - (6 * s[1] + s[3]);
    const double t_ref = t[2] + 3 * (t[0] - t[1]);
    EXPECT_EQ(qeq_guess_s(h, QEqPredictor::Lammps), s_ref);
    EXPECT_EQ(qeq_guess_t(h, kQEqHistoryDepth, QEqPredictor::Lammps), t_ref);
    // `quadratic` is the same formula as LAMMPS's t
    EXPECT_EQ(qeq_guess_t(h, kQEqHistoryDepth, QEqPredictor::Quadratic), t_ref);
  }
}

TEST(QEqPredictor, SettingsRejectAnUnknownOne) {
  QEqSettings set;
  for (const Claim &p : kClaims) {
    set.predictor = p.predictor;
    EXPECT_NO_THROW(check_qeq_settings(set)) << p.name;
  }
  for (int bad : {-1, kQEqPredictors}) {
    set.predictor = static_cast<QEqPredictor>(bad);
    EXPECT_THROW(check_qeq_settings(set), InputError) << bad;
  }
}

// The predictor keyword's table: fix qeq/reaxff/gpu's words, one for each
// of QEqPredictor's values, nothing else.
TEST(QEqPredictor, NamesAndValues) {
  EXPECT_EQ(qeq_predictor_from_name("lammps"), QEqPredictor::Lammps);
  EXPECT_EQ(qeq_predictor_from_name("aspc"), QEqPredictor::Aspc);
  EXPECT_EQ(qeq_predictor_from_name("quadratic"), QEqPredictor::Quadratic);
  EXPECT_EQ(qeq_predictor_from_name("linear"), QEqPredictor::Linear);
  EXPECT_FALSE(qeq_predictor_from_name("cubic").has_value());
  EXPECT_EQ(qeq_predictor_names().size(), static_cast<size_t>(kQEqPredictors));
}

// The host QEq solver starts from the chosen predictor: with max_iter 1 (no
// CG step) the solution it pushes into the history is the guess itself.
TEST(QEqPredictor, HostSolverStartsFromIt) {
  const System sys = make_periodic_system(8, 8.0, 5.0, 8u);
  auto past = [](int i, int k) { return 0.1 * i + 0.37 * k * k - k + 0.01 * k * k * k; };
  for (const Claim &p : kClaims) {
    QEqSettings set;
    set.cut_hi = 5.0;
    set.max_iter = 1;
    set.predictor = p.predictor;
    HostQEq solver(set);
    solver.history.grow(sys.n_local);
    std::vector<double> buf(kQEqHistoryPerAtom);
    for (int i = 0; i < sys.n_local; ++i) {
      for (int k = 0; k < kQEqHistoryPerAtom; ++k) buf[k] = past(i, k);
      solver.history.unpack(i, buf.data());
    }
    SingleRankComm comm = make_comm(sys);
    std::vector<double> q(sys.n_total());
    solver.solve(make_input(sys), comm, q.data());
    for (int i = 0; i < sys.n_local; ++i) {
      for (int k = 0; k < kQEqHistoryPerAtom; ++k) buf[k] = past(i, k);
      EXPECT_EQ(solver.history.s(i, 0), qeq_guess_s(buf.data(), p.predictor))
          << p.name << ", atom " << i;
      EXPECT_EQ(solver.history.t(i, 0), qeq_guess_t(buf.data(), kQEqHistoryDepth, p.predictor))
          << p.name << ", atom " << i;
    }
  }
}
