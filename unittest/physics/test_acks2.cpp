// ACKS2's bond softness and its pair energy (physics/acks2.h): the closed form
// written out, zero at and beyond the cut-off, and the derivative against
// central differences; the host solver's ACKS2 system against a dense
// direct solve of the system written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "dense_qeq.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

using namespace puremd;

TEST(Acks2, BondSoftnessClosedFormAndCutoff) {
  const double s = 623.9, bcut = 5.1;
  for (double r : {0.3, 1.0, 1.7, 2.5, 4.0, 5.0}) {
    const double d = r / bcut;
    EXPECT_NEAR(acks2_bond_softness(r, bcut, s).x, s * std::pow(d, 3) * std::pow(1 - d, 6),
                1e-12 * s)
        << "r " << r;
  }
  EXPECT_EQ(acks2_bond_softness(bcut, bcut, s).x, 0.0);
  EXPECT_EQ(acks2_bond_softness(bcut + 0.1, bcut, s).x, 0.0);
  EXPECT_EQ(acks2_bond_softness(bcut + 0.1, bcut, s).dx_dr, 0.0);
}

TEST(Acks2, DerivativesMatchCentralDifferences) {
  const double s = 623.9, bcut = 5.1, du = 0.37, h = 1e-6;
  for (double r : {0.4, 1.2, 1.7, 2.9, 4.6}) {
    const BondSoftness b = acks2_bond_softness(r, bcut, s);
    const double fd =
        (acks2_bond_softness(r + h, bcut, s).x - acks2_bond_softness(r - h, bcut, s).x) / (2 * h);
    EXPECT_NEAR(b.dx_dr, fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "r " << r;
    const PairTerm t = acks2_pair(r, bcut, s, du);
    const double fde =
        (acks2_pair(r + h, bcut, s, du).e - acks2_pair(r - h, bcut, s, du).e) / (2 * h);
    EXPECT_NEAR(t.ce * r, fde, 1e-6 * std::max(1.0, std::fabs(fde))) << "r " << r;
    EXPECT_NEAR(t.e, -0.5 * 23.02 * b.x * du * du, 1e-12 * std::fabs(t.e) + 1e-15);
  }
}

// --- The host solver's ACKS2 system against a dense direct solve ---

namespace {

using namespace qeq_test;

const std::vector<double> kBcut = {3.4, 2.6, 3.0};  // bcut_acks2 per type (A)
constexpr double kSoftness = 548.6451;              // the water force field's

double closed_form_softness(double r, double bcut) {
  if (r >= bcut) return 0.0;
  const double d = r / bcut;
  return kSoftness * std::pow(d, 3) * std::pow(1.0 - d, 6);
}

struct Acks2Dense {
  std::vector<double> q, u;  // by owned atom (0 outside the group)
};

// [H I 0 1; I X 1 0; 0 1^T 0 0; 1^T 0 0 0] (q, u, l_u, l_q) = (-chi, 0, 0, 0)
// over the group's owned atoms, every periodic image summed in; X's diagonal
// is minus its row's off-diagonal sum (own images included).
Acks2Dense acks2_dense(const System &sys, double lo, double hi) {
  std::vector<int> idx;
  for (int i = 0; i < sys.n_local; ++i)
    if (sys.active[i]) idx.push_back(i);
  const int m = static_cast<int>(idx.size()), n = 2 * m + 2;
  std::vector<std::vector<double>> A(n, std::vector<double>(n, 0.0));
  std::vector<double> b(n, 0.0);
  for (int a = 0; a < m; ++a) {
    const int i = idx[a];
    A[a][a] = kEta[sys.type[i]];
    b[a] = -kChi[sys.type[i]];
    double xsum = 0.0;
    for (int c = 0; c < m; ++c) {
      const int j = idx[c];
      for_each_image_distance(sys, i, j, [&](double r) {
        if (r <= hi)
          A[a][c] += closed_form_element(r, kGamma[sys.type[i]], kGamma[sys.type[j]], lo, hi);
        const double x = closed_form_softness(r, 0.5 * (kBcut[sys.type[i]] + kBcut[sys.type[j]]));
        A[m + a][m + c] += x;
        xsum += x;
      });
    }
    A[m + a][m + a] -= xsum;
    A[a][m + a] = A[m + a][a] = 1.0;
    A[m + a][2 * m] = A[2 * m][m + a] = 1.0;
    A[a][2 * m + 1] = A[2 * m + 1][a] = 1.0;
  }
  const std::vector<double> x = gauss_solve(A, b);
  Acks2Dense out;
  out.q.assign(sys.n_local, 0.0);
  out.u.assign(sys.n_local, 0.0);
  for (int a = 0; a < m; ++a) {
    out.q[idx[a]] = x[a];
    out.u[idx[a]] = x[m + a];
  }
  return out;
}

struct Acks2Run {
  QEqResult res;
  std::vector<double> q, u;
};

Acks2Run solve_acks2(HostQEq &solver, const System &sys, const double *chi_shift = nullptr) {
  Acks2Input ak;
  ak.bcut = kBcut.data();
  ak.softness = kSoftness;
  Acks2Run run;
  run.q.assign(sys.n_total(), 123.0);
  run.u.assign(sys.n_total(), 456.0);
  ak.u = run.u.data();
  QEqInput in = make_input(sys);
  in.model = &ak;
  in.chi_shift = chi_shift;
  SingleRankComm comm = make_comm(sys);
  run.res = solver.solve(in, comm, run.q.data());
  return run;
}

HostQEq acks2_solver(double hi, int max_iter = 1000) {
  QEqSettings set;
  set.cut_hi = hi;
  set.tolerance = 1e-20;  // BiCGStab then stops on s . s < 1e-20 or at max_iter
  set.max_iter = max_iter;
  return HostQEq(set);
}

void expect_matches_dense(const System &sys, double hi) {
  auto solver = acks2_solver(hi);
  const Acks2Run run = solve_acks2(solver, sys);
  EXPECT_GT(run.res.iter_s, 1);
  EXPECT_EQ(run.res.iter_t, 0);
  EXPECT_FALSE(run.res.breakdown);
  const Acks2Dense ref = acks2_dense(sys, 0.0, hi);
  double qsum = 0.0, usum = 0.0;
  int coupled = 0;  // atoms with a softness partner: u is not just the multiplier
  for (int i = 0; i < sys.n_local; ++i) {
    if (!sys.active[i]) {
      EXPECT_EQ(run.q[i], 123.0) << "inactive atom " << i << " was written";
      EXPECT_EQ(run.u[i], 456.0) << "inactive atom " << i << " was written";
      continue;
    }
    EXPECT_NEAR(run.q[i], ref.q[i], 1e-9) << "q of atom " << i;
    EXPECT_NEAR(run.u[i], ref.u[i], 1e-9) << "u of atom " << i;
    EXPECT_EQ(solver.history.s(i, 0), run.q[i]);
    EXPECT_EQ(solver.history.t(i, 0), run.u[i]);
    EXPECT_LT(std::fabs(run.q[i]), 3.0) << "unphysical test system";
    coupled += std::fabs(ref.u[i] - ref.u[0]) > 1e-3;
    qsum += run.q[i];
    usum += run.u[i];
  }
  EXPECT_GT(coupled, sys.n_local / 4) << "the X block hardly enters: test system too sparse";
  EXPECT_NEAR(qsum, 0.0, 1e-10);
  EXPECT_NEAR(usum, 0.0, 1e-10);
  for (size_t g = 0; g < sys.owner.size(); ++g) {  // forwarded to the images
    EXPECT_EQ(run.q[sys.n_local + g], run.q[sys.owner[g]]);
    EXPECT_EQ(run.u[sys.n_local + g], run.u[sys.owner[g]]);
  }
}

}  // namespace

TEST(Acks2Solver, MatchesDenseSolvePeriodicImages) {
  // pairs through several images, and atoms within bcut of their own images
  expect_matches_dense(make_periodic_system(27, 6.0, 6.0, 12345u), 6.0);
}

TEST(Acks2Solver, MatchesDenseSolveSubGroup) {
  System sys = make_periodic_system(40, 7.5, 8.0, 777u);
  for (int i = 0; i < sys.n_local; ++i) sys.active[i] = (i % 5 != 0);
  for (size_t g = 0; g < sys.owner.size(); ++g)
    sys.active[sys.n_local + g] = sys.active[sys.owner[g]];
  expect_matches_dense(sys, 8.0);
}

// A potential at the atoms (fix efield) shifts chi: the same solve as with
// chi + shift per atom.
TEST(Acks2Solver, ChiShiftActsAsElectronegativity) {
  const System sys = make_periodic_system(27, 6.0, 6.0, 4242u);
  std::vector<double> shift(sys.n_total(), 0.0);
  for (int i = 0; i < sys.n_local; ++i) shift[i] = 0.05 * sys.x[3 * i + 2];
  auto a = acks2_solver(6.0), b = acks2_solver(6.0);
  const Acks2Run plain = solve_acks2(a, sys), shifted = solve_acks2(b, sys, shift.data());
  double moved = 0.0;
  for (int i = 0; i < sys.n_local; ++i)
    moved = std::max(moved, std::fabs(shifted.q[i] - plain.q[i]));
  EXPECT_GT(moved, 1e-3) << "the shift did not change the charges";
  double qsum = 0.0;
  for (int i = 0; i < sys.n_local; ++i) qsum += shifted.q[i];
  EXPECT_NEAR(qsum, 0.0, 1e-10);
}

// The guess comes from the history (q, u and the multipliers): once four
// solves of the same atoms fill it, the cubic guess is the answer and the
// solve stops far sooner than the first.
TEST(Acks2Solver, HistoryGuessOfRepeatedSolves) {
  const System sys = make_periodic_system(27, 6.0, 6.0, 99u);
  auto solver = acks2_solver(6.0);
  const Acks2Run first = solve_acks2(solver, sys);
  Acks2Run run;
  for (int k = 0; k < 4; ++k) run = solve_acks2(solver, sys);
  EXPECT_LT(run.res.iter_s, first.res.iter_s / 3)
      << "first solve " << first.res.iter_s << " iterations";
  for (int i = 0; i < sys.n_local; ++i) {
    EXPECT_NEAR(run.q[i], first.q[i], 1e-9);
    EXPECT_NEAR(run.u[i], first.u[i], 1e-9);
  }
}

TEST(Acks2Solver, ReportsNonConvergence) {
  const System sys = make_periodic_system(27, 6.0, 6.0, 5u);
  auto solver = acks2_solver(6.0, 3);
  const Acks2Run run = solve_acks2(solver, sys);
  EXPECT_EQ(run.res.iter_s, 3);
  EXPECT_FALSE(run.res.converged_s);
  EXPECT_TRUE(run.res.converged_t);
}

// (QTPIE with ACKS2, refused here before, cannot be asked: a problem has one model.)
TEST(Acks2Solver, RejectsMissingArrays) {
  const System sys = make_periodic_system(8, 6.0, 6.0, 5u);
  auto solver = acks2_solver(6.0);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total()), u(sys.n_total());
  Acks2Input ak;
  ak.softness = kSoftness;
  ak.u = u.data();  // no bcut
  QEqInput in = make_input(sys);
  in.model = &ak;
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
  ak.bcut = kBcut.data();
  ak.u = nullptr;  // no u
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
  ak.u = u.data();
  // BiCGStab keeps its own diagonal preconditioner: another is refused by name
  solver.settings.preconditioner = kQEqFsai;
  solver.settings.fsai_radius = 2.5;  // (a valid one: only ACKS2 refuses)
  try {
    solver.solve(in, comm, q.data());
    ADD_FAILURE() << "ACKS2 with precond fsai was accepted";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("ACKS2: its solver keeps its own diagonal preconditioner"),
              std::string::npos)
        << e.what();
  }
  solver.settings.preconditioner = kQEqJacobi;
  EXPECT_NO_THROW(solver.solve(in, comm, q.data()));
  solver.settings.preconditioner = "";  // the default: none besides its own
  EXPECT_NO_THROW(solver.solve(in, comm, q.data()));
}
