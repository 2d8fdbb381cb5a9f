// Extended-Lagrangian charges (QEqXl, physics/qeq_history.h): the auxiliary
// vectors' propagation against the dissipative Verlet scheme written out with
// Niklasson et al.'s K = 3 and K = 5 coefficients, properties of every order,
// the history in each mode, and the host solver: Step runs exactly
// xl_iterations CG iterations from the newest auxiliary vector, Start, Warm
// and Hold converge, Hold leaves the history, and the charges of a moving
// system stay close to the converged ones.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qeq_history.h"
#include "puremd_gpu/physics/qtpie.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

using namespace puremd;
using namespace qeq_test;

namespace {

// x~(n+1) as the scheme writes it, from x~(n), ..., x~(n-K) and x(n), with
// rows K = 3 and K = 5 of Niklasson et al., J. Chem. Phys. 130 (2009)
// 214109, Table I, written out here on their own.
double verlet_with_dissipation(int order, const double *aux, double x) {
  const double k3[4] = {-2.0, 3.0, 0.0, -1.0}, k5[6] = {-6.0, 14.0, -8.0, -3.0, 4.0, -1.0};
  const double kappa = order == 3 ? 1.69 : 1.82, alpha = order == 3 ? 0.150 : 0.018;
  const double *c = order == 3 ? k3 : k5;
  double sum = 0.0;
  for (int k = 0; k <= order; ++k) sum += c[k] * aux[k];
  return 2.0 * aux[0] - aux[1] + kappa * (x - aux[0]) + alpha * sum;
}

std::vector<double> block_with(int depth, double s0, double t0) {
  std::vector<double> b(2 * depth);
  for (int k = 0; k < depth; ++k) {
    b[k] = s0 + 0.1 * k - 0.03 * k * k;
    b[depth + k] = t0 - 0.2 * k + 0.01 * k * k * k;
  }
  return b;
}

}  // namespace

TEST(QEqXl, PropagationIsTheDissipativeVerletScheme) {
  for (int order : {3, 5}) {
    const int depth = qeq_history_depth(QEqXl::Step, order);
    EXPECT_EQ(depth, order == 3 ? 4 : 6);
    const std::vector<double> b = block_with(depth, 0.7, -1.3);
    const QEqXlScheme scheme = qeq_xl_scheme(order);
    for (double x : {0.7, 0.93, -2.0}) {
      EXPECT_NEAR(qeq_xl_next(b.data(), x, scheme), verlet_with_dissipation(order, b.data(), x),
                  1e-14)
          << order << " " << x;
      EXPECT_NEAR(qeq_xl_next(b.data() + depth, x, scheme),
                  verlet_with_dissipation(order, b.data() + depth, x), 1e-14)
          << order << " " << x;
    }
  }
}

// Every row of the table: the dissipation leaves uniform motion alone
// (sum c_k = 0 and sum k c_k = 0: a sequence on a line continues on it when
// the solves are exact), and weakens with the order.
TEST(QEqXl, EveryOrderLeavesUniformMotionAlone) {
  double last_alpha = 1.0;
  for (int order = kQEqXlMinOrder; order <= kQEqXlMaxOrder; ++order) {
    const QEqXlScheme s = qeq_xl_scheme(order);
    ASSERT_EQ(s.order, order);
    double sum = 0, moment = 0;
    for (int k = 0; k <= order; ++k) {
      sum += s.c[k];
      moment += k * s.c[k];
    }
    EXPECT_EQ(sum, 0.0) << order;
    EXPECT_EQ(moment, 0.0) << order;
    EXPECT_LT(s.alpha, last_alpha) << order;
    last_alpha = s.alpha;
    std::vector<double> line(order + 1);
    for (int k = 0; k <= order; ++k) line[k] = 0.3 - 0.05 * k;  // newest first
    EXPECT_NEAR(qeq_xl_next(line.data(), line[0], s), 0.35, 1e-14) << order;
  }
  EXPECT_EQ(qeq_xl_scheme(2).order, 0);
  EXPECT_EQ(qeq_xl_scheme(8).order, 0);
  EXPECT_EQ(qeq_history_depth(QEqXl::Off, 7), kQEqHistoryDepth) << "converged solves: 4";
  EXPECT_EQ(qeq_history_depth(QEqXl::Start, 7), 8);
}

TEST(QEqXl, HistoryInEachMode) {
  const int order = 5, depth = qeq_history_depth(QEqXl::Step, order);
  const QEqXlScheme scheme = qeq_xl_scheme(order);
  const std::vector<double> b0 = block_with(depth, 0.7, -1.3);
  const double s = 0.81, t = -1.17;
  std::vector<double> b = b0;
  EXPECT_EQ(qeq_start_s(b.data(), QEqPredictor::Lammps, QEqXl::Step), b0[0]);
  EXPECT_EQ(qeq_start_s(b.data(), QEqPredictor::Lammps, QEqXl::Warm), b0[0]);
  EXPECT_EQ(qeq_start_t(b.data(), depth, QEqPredictor::Lammps, QEqXl::Hold), b0[depth]);
  EXPECT_EQ(qeq_start_s(b.data(), QEqPredictor::Lammps, QEqXl::Start),
            qeq_guess_s(b0.data(), QEqPredictor::Lammps));
  EXPECT_EQ(qeq_start_t(b.data(), depth, QEqPredictor::Lammps, QEqXl::Start),
            qeq_guess_t(b0.data(), depth, QEqPredictor::Lammps));

  qeq_record(b.data(), depth, s, t, QEqXl::Hold, scheme);
  EXPECT_EQ(b, b0) << "Hold leaves the auxiliary vectors";

  qeq_record(b.data(), depth, s, t, QEqXl::Step, scheme);
  EXPECT_EQ(b[0], qeq_xl_next(b0.data(), s, scheme));
  EXPECT_EQ(b[depth], qeq_xl_next(b0.data() + depth, t, scheme));
  for (int k = 1; k < depth; ++k) {
    EXPECT_EQ(b[k], b0[k - 1]);
    EXPECT_EQ(b[depth + k], b0[depth + k - 1]);
  }

  // Warm: the converged solution takes x~(n)'s place, then the scheme steps
  b = b0;
  qeq_record(b.data(), depth, s, t, QEqXl::Warm, scheme);
  std::vector<double> entered = b0;
  entered[0] = s;
  entered[depth] = t;
  EXPECT_EQ(b[0], qeq_xl_next(entered.data(), s, scheme));
  EXPECT_EQ(b[depth], qeq_xl_next(entered.data() + depth, t, scheme));
  EXPECT_EQ(b[1], s);
  EXPECT_EQ(b[depth + 1], t);
  for (int k = 2; k < depth; ++k) EXPECT_EQ(b[k], b0[k - 1]);

  qeq_record(b.data(), depth, s, t, QEqXl::Start, scheme);
  for (int k = 0; k < depth; ++k) {
    EXPECT_EQ(b[k], s);
    EXPECT_EQ(b[depth + k], t);
  }
}

TEST(QEqXl, SettingsAndLimits) {
  QEqSettings set;
  set.xl = QEqXl::Step;
  set.xl_iterations = 0;
  EXPECT_THROW(check_qeq_settings(set), InputError);
  set.xl_iterations = 2;
  check_qeq_settings(set);
  const QEqSettings cg = qeq_cg_settings(set);
  EXPECT_EQ(cg.max_iter, 3) << "two CG iterations, counted from 1 as fix qeq/reaxff counts";
  EXPECT_EQ(cg.tolerance, 0.0);
  for (QEqXl converged : {QEqXl::Hold, QEqXl::Warm, QEqXl::Start}) {
    set.xl = converged;
    EXPECT_EQ(qeq_cg_settings(set).max_iter, set.max_iter);
    EXPECT_EQ(qeq_cg_settings(set).tolerance, set.tolerance);
  }
  for (int order : {2, 8}) {
    set.xl_order = order;
    EXPECT_THROW(check_qeq_settings(set), InputError) << order;
  }
  // a history too shallow for the order is refused, not overrun
  set.xl_order = 7;
  set.xl = QEqXl::Step;
  const System sys = make_periodic_system(10, 8.0, 6.0, 5u);
  HostQEq shallow(set);
  shallow.history = ChargeHistory(6);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  EXPECT_THROW(shallow.solve(make_input(sys), comm, q.data()), InputError);
  EXPECT_THROW(ChargeHistory(3), InputError);
}

// A system whose atoms move a little each step: Start, K Warm solves (K = 5,
// the default order), then Steps of two CG iterations. The charges stay near
// the converged ones (checked at every step against a converged solve of
// the same positions), each Warm converges, each Step runs exactly two
// iterations, and a Hold in between converges without moving the auxiliary
// vectors. Two iterations a step from fix qeq/reaxff's predictor
// instead (its extrapolation of unconverged solutions, with its Jacobi
// preconditioner) run away: the auxiliary vectors are what makes two
// iterations enough. (The XL solves run the default preconditioner, FSAI.)
TEST(QEqXl, HostSolverFollowsTheConvergedCharges) {
  System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  const System start = sys;
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-12;
  set.max_iter = 500;
  set.xl_iterations = 2;
  QEqSettings jacobi = set;  // the contrast, as fix qeq/reaxff runs
  jacobi.preconditioner = kQEqJacobi;
  QEqSettings two = jacobi;  // two iterations from the predictor
  two.max_iter = 3;
  QEqSettings with_xl = set;
  with_xl.xl = QEqXl::Start;  // (the helper makes its history deep enough for the order)
  HostQEq xl(with_xl), ref(set), plain(jacobi);
  const int order = set.xl_order;
  ASSERT_EQ(xl.history.depth(), order + 1);
  SingleRankComm comm = make_comm(sys);
  const int n = sys.n_total();
  std::vector<double> q(n), q_ref(n), q_plain(n);
  double worst_start = 0.0, worst = 0.0, worst_plain = 0.0, spread = 0.0;
  for (int step = 0; step < 40; ++step) {
    // every atom on a small circle of its own, 0.01 A a step
    for (int i = 0; i < n; ++i) {
      const double ph = 0.05 * step + 0.7 * i;
      sys.x[3 * i] = start.x[3 * i] + 0.15 * std::cos(ph);
      sys.x[3 * i + 1] = start.x[3 * i + 1] + 0.15 * std::sin(ph);
    }
    xl.settings.xl = step == 0 ? QEqXl::Start : step <= order ? QEqXl::Warm : QEqXl::Step;
    const QEqResult r = xl.solve(make_input(sys), comm, q.data());
    if (step > order) EXPECT_EQ(r.iter_s, 3) << "step " << step;
    if (step > 0 && step <= order) EXPECT_TRUE(r.converged_s && r.iter_s > 3) << "step " << step;
    plain.settings = step == 0 ? jacobi : two;
    plain.solve(make_input(sys), comm, q_plain.data());
    ref.solve(make_input(sys), comm, q_ref.data());
    for (int i = 0; i < sys.n_local; ++i) {
      // the first steps after the Warm solves
      (step < 15 ? worst_start : worst) =
          std::max(step < 15 ? worst_start : worst, std::fabs(q[i] - q_ref[i]));
      worst_plain = std::max(worst_plain, std::fabs(q_plain[i] - q_ref[i]));
      spread = std::max(spread, std::fabs(q_ref[i]));
    }
    if (step == 20) {  // a run's set-up in between: converged, history kept
      std::vector<double> before(xl.history.per_atom()), after(xl.history.per_atom());
      xl.history.pack(5, before.data());
      xl.settings.xl = QEqXl::Hold;
      const QEqResult h = xl.solve(make_input(sys), comm, q.data());
      EXPECT_TRUE(h.converged_s && h.converged_t);
      xl.history.pack(5, after.data());
      EXPECT_EQ(before, after);
      for (int i = 0; i < sys.n_local; ++i) EXPECT_NEAR(q[i], q_ref[i], 1e-9);
    }
  }
  EXPECT_GT(spread, 1e-2);
  EXPECT_LT(worst_start, 1e-2 * spread);
  EXPECT_LT(worst, 1e-3 * spread) << "charges of two CG iterations a step, vs converged";
  EXPECT_GT(worst_plain, spread) << "two iterations from the predictor should run away";
  std::printf(
      "[ table ] XL charges, host, 64 atoms, 40 steps: worst |q - q_converged| %.2e "
      "(first 15 steps %.2e; max |q| %.2f); two iterations from fix qeq/reaxff's "
      "predictor: %.2e\n",
      worst, worst_start, spread, worst_plain);
}

TEST(QEqXl, RefusedForAcks2AndQtpie) {
  const System sys = make_periodic_system(10, 8.0, 6.0, 5u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.xl = QEqXl::Step;
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  const double exponent[3] = {0.2240, 0.5434, 0.3100};
  QtpieInput qt;
  qt.exponent = exponent;
  qt.cutoff_bohr = qtpie_cutoff_bohr(exponent[0]);
  QEqInput in = make_input(sys);
  in.model = &qt;
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
}
