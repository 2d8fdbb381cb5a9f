// QEq solver: CG against a dense direct solve (periodic images as ghosts,
// sub-groups), charge neutrality, the matrix element against its closed form,
// history extrapolation and transport, and the non-convergence report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dense_qeq.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qeq_matrix.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

using namespace puremd;
using namespace qeq_test;

namespace {

// Reference charges of the active atoms of a periodic system, from the dense
// matrix summed over images (an atom's own images add to its diagonal).
struct DenseResult {
  std::vector<double> s, t, q;  // indexed by owned atom (0 for inactive)
};

DenseResult dense_reference(const System &sys, double lo, double hi) {
  std::vector<int> idx;
  for (int i = 0; i < sys.n_local; ++i)
    if (sys.active[i]) idx.push_back(i);
  const int m = static_cast<int>(idx.size());
  const std::vector<std::vector<double>> H = dense_qeq_matrix(sys, idx, kEta, kGamma, lo, hi);
  std::vector<double> bs(m), bt(m, -1.0);
  for (int a = 0; a < m; ++a) bs[a] = -kChi[sys.type[idx[a]]];
  const std::vector<double> s = gauss_solve(H, bs), t = gauss_solve(H, bt);
  double ss = 0, ts = 0;
  for (int a = 0; a < m; ++a) {
    ss += s[a];
    ts += t[a];
  }
  DenseResult out;
  out.s.assign(sys.n_local, 0.0);
  out.t.assign(sys.n_local, 0.0);
  out.q.assign(sys.n_local, 0.0);
  for (int a = 0; a < m; ++a) {
    out.s[idx[a]] = s[a];
    out.t[idx[a]] = t[a];
    out.q[idx[a]] = s[a] - ss / ts * t[a];
  }
  return out;
}

void expect_matches_dense(const System &sys, double lo, double hi) {
  QEqSettings set;
  set.cut_lo = lo;
  set.cut_hi = hi;
  set.tolerance = 1e-14;
  set.max_iter = 1000;
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total(), 123.0);
  const QEqResult res = solver.solve(make_input(sys), comm, q.data());
  EXPECT_GT(res.iter_s, 1);
  EXPECT_GT(res.iter_t, 1);

  const DenseResult ref = dense_reference(sys, lo, hi);
  double qsum = 0.0;
  for (int i = 0; i < sys.n_local; ++i) {
    if (!sys.active[i]) {
      EXPECT_EQ(q[i], 123.0) << "inactive atom " << i << " was written";
      continue;
    }
    EXPECT_NEAR(solver.history.s(i, 0), ref.s[i], 1e-10) << "s of atom " << i;
    EXPECT_NEAR(solver.history.t(i, 0), ref.t[i], 1e-10) << "t of atom " << i;
    EXPECT_NEAR(q[i], ref.q[i], 1e-10) << "q of atom " << i;
    EXPECT_LT(std::fabs(q[i]), 3.0) << "unphysical test system";
    qsum += q[i];
  }
  EXPECT_NEAR(qsum, 0.0, 1e-10);
  // Ghosts carry their owner's charge after the solve.
  for (size_t g = 0; g < sys.owner.size(); ++g) EXPECT_EQ(q[sys.n_local + g], q[sys.owner[g]]);
}

}  // namespace

TEST(QEqMatrix, ElementMatchesClosedForm) {
  for (double lo : {0.0, 1.5}) {
    const double hi = 10.0;
    const Taper tap = make_taper(lo, hi);
    EXPECT_NEAR(qeq_taper_value(tap, lo), 1.0, 1e-12);
    EXPECT_NEAR(qeq_taper_value(tap, hi), 0.0, 1e-12);
    for (double r : {0.3, 1.0, 2.5, 4.0, 6.7, 9.2, 9.99}) {
      for (double gi : {0.5, 0.9}) {
        const double gj = 1.1;
        const double shield = qeq_shielding(gi, gj);
        EXPECT_NEAR(shield, std::pow(gi * gj, -1.5), 1e-14 * shield);
        const double ref = closed_form_element(r, gi, gj, lo, hi);
        EXPECT_NEAR(qeq_offdiag(r, shield, tap), ref, 1e-12 + 1e-12 * std::fabs(ref))
            << "r=" << r << " lo=" << lo;
      }
    }
    // Smooth at the cut-off: the slope vanishes there.
    const double e = 1e-4;
    EXPECT_NEAR((qeq_taper_value(tap, hi) - qeq_taper_value(tap, hi - e)) / e, 0.0, 1e-9);
  }
}

TEST(QEqSolver, MatchesDenseSolvePeriodicImages) {
  // Cut-off above half the box: pairs through several images and atoms
  // interacting with their own images, as LAMMPS hands them over as ghosts.
  const System sys = make_periodic_system(27, 9.0, 6.0, 12345u);
  expect_matches_dense(sys, 0.0, 6.0);
}

TEST(QEqSolver, MatchesDenseSolveLargerBoxNonzeroInnerRadius) {
  const System sys = make_periodic_system(40, 11.0, 8.0, 777u);
  expect_matches_dense(sys, 0.5, 8.0);
}

TEST(QEqSolver, SubGroupOnlyActiveAtoms) {
  System sys = make_periodic_system(27, 9.0, 6.0, 99u);
  for (int i = 0; i < sys.n_local; ++i) sys.active[i] = (i % 4 != 0);
  for (size_t g = 0; g < sys.owner.size(); ++g)
    sys.active[sys.n_local + g] = sys.active[sys.owner[g]];
  expect_matches_dense(sys, 0.0, 6.0);
}

// A type the pair style maps to NULL (QEqInput::type_map -1, pair_style
// hybrid) takes no part, neither as row nor as partner: the same solve as
// with those atoms out of the group, and their charges left alone.
TEST(QEqSolver, TypeMappedToNullTakesNoPart) {
  const System sys = make_periodic_system(27, 9.0, 6.0, 99u);
  const int type_map[3] = {0, -1, 2};  // type 1 maps to NULL
  System out = sys;                    // the same atoms, type 1 out of the group
  for (int i = 0; i < out.n_total(); ++i) out.active[i] = out.type[i] != 1;
  ASSERT_GT(std::count(out.active.begin(), out.active.end(), 0), 0) << "no type-1 atom";
  expect_matches_dense(out, 0.0, 6.0);

  QEqSettings set;
  set.tolerance = 1e-14;
  set.max_iter = 1000;
  set.cut_hi = 6.0;
  HostQEq mapped(set), grouped(set);
  SingleRankComm c1 = make_comm(sys), c2 = make_comm(out);
  std::vector<double> q1(sys.n_total(), 123.0), q2(sys.n_total(), 123.0);
  QEqInput in = make_input(sys);
  in.type_map = type_map;
  in.num_mapped = 3;
  mapped.solve(in, c1, q1.data());
  grouped.solve(make_input(out), c2, q2.data());
  for (int i = 0; i < sys.n_total(); ++i) {
    EXPECT_EQ(q1[i], q2[i]) << "atom " << i;
    if (sys.type[i] == 1) EXPECT_EQ(q1[i], 123.0) << "NULL-type atom " << i << " was written";
  }
}

TEST(QEqSolver, PerAtomParametersEqualPerType) {
  const System sys = make_periodic_system(20, 8.0, 5.0, 4242u);
  QEqSettings set;
  set.cut_hi = 5.0;
  set.tolerance = 1e-12;
  HostQEq a(set), b(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> qa(sys.n_total()), qb(sys.n_total());
  const QEqInput in_type = make_input(sys);
  QEqInput in_atom = in_type;
  std::vector<double> chi, eta, gamma;
  for (int t : sys.type) {
    chi.push_back(kChi[t]);
    eta.push_back(kEta[t]);
    gamma.push_back(kGamma[t]);
  }
  in_atom.type = nullptr;
  in_atom.num_types = 0;
  in_atom.chi = chi.data();
  in_atom.eta = eta.data();
  in_atom.gamma = gamma.data();
  const QEqResult ra = a.solve(in_type, comm, qa.data());
  const QEqResult rb = b.solve(in_atom, comm, qb.data());
  EXPECT_EQ(ra.iter_s, rb.iter_s);
  EXPECT_EQ(ra.iter_t, rb.iter_t);
  for (int i = 0; i < sys.n_total(); ++i) EXPECT_NEAR(qa[i], qb[i], 1e-13);
}

TEST(QEqSolver, CommPatternPerIteration) {
  const System sys = make_periodic_system(27, 9.0, 6.0, 5u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-10;
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  const QEqResult res = solver.solve(make_input(sys), comm, q.data());
  // Per CG: 2 collective sums to start (|b|; rho with the stopping sum),
  // then per iteration 1 halo replay (d) and 2 (d.w; r.p with the stopping
  // sum); around the solves: 2 replays (guesses), 2 sums and 1 replay (q);
  // one rank reads the pattern once more, to fold its images locally.
  // Nothing travels back from the ghosts (QEqHalo's tests: no message but
  // the halo's).
  const int iters = res.iter_s - 1 + res.iter_t - 1;
  EXPECT_EQ(comm.n_halo, iters + 4);
  EXPECT_EQ(comm.n_collective, 2 * iters + 4 + 2);
}

// Ghosts get values only through QEqComm::halo: a comm without one is
// refused where there are ghosts, and is enough where there are none.
TEST(QEqSolver, GhostsNeedTheHalo) {
  struct NoHalo : QEqComm {
    const HaloPattern *halo() const override { return nullptr; }
    double sum(double local) override { return local; }
  } comm;
  const System sys = make_periodic_system(8, 8.0, 5.0, 3u);
  QEqSettings set;
  set.cut_hi = 5.0;
  HostQEq solver(set);
  std::vector<double> q(sys.n_total());
  try {
    solver.solve(make_input(sys), comm, q.data());
    ADD_FAILURE() << "ghosts without a halo were accepted";
  } catch (const RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("QEqComm::halo"), std::string::npos) << e.what();
  }
  QEqInput owned_only = make_input(sys);
  owned_only.n_total = sys.n_local;
  EXPECT_NO_THROW(solver.solve(owned_only, comm, q.data()));
}

TEST(QEqSolver, ReportsNonConvergence) {
  const System sys = make_periodic_system(27, 9.0, 6.0, 31u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-14;
  set.max_iter = 2;
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  const QEqResult res = solver.solve(make_input(sys), comm, q.data());
  EXPECT_FALSE(res.converged_s);
  EXPECT_FALSE(res.converged_t);
  EXPECT_FALSE(res.converged());
  EXPECT_EQ(res.iter_s, 2);
  EXPECT_EQ(res.iter_t, 2);
  // Charges stay neutral even when CG stopped early.
  double qsum = 0.0;
  for (int i = 0; i < sys.n_local; ++i) qsum += q[i];
  EXPECT_NEAR(qsum, 0.0, 1e-10);
}

TEST(QEqSolver, HistoryExtrapolationAndShift) {
  const System sys = make_periodic_system(8, 8.0, 5.0, 8u);
  QEqSettings set;
  set.cut_hi = 5.0;
  set.max_iter = 1;  // no CG step: the solution is the extrapolated guess
  HostQEq solver(set);
  solver.history.grow(sys.n_local);
  std::vector<double> buf(kQEqHistoryPerAtom);
  for (int i = 0; i < sys.n_local; ++i) {
    for (int k = 0; k < kQEqHistoryPerAtom; ++k) buf[k] = 0.1 * i + 0.37 * k * k - k;
    EXPECT_EQ(solver.history.unpack(i, buf.data()), kQEqHistoryPerAtom);
  }
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  solver.solve(make_input(sys), comm, q.data());
  for (int i = 0; i < sys.n_local; ++i) {
    double h[kQEqHistoryPerAtom];
    for (int k = 0; k < kQEqHistoryPerAtom; ++k) h[k] = 0.1 * i + 0.37 * k * k - k;
    const double *s = h, *t = h + kQEqHistoryDepth;
    EXPECT_NEAR(solver.history.s(i, 0), 4 * (s[0] + s[2]) - (6 * s[1] + s[3]), 1e-12);
    EXPECT_NEAR(solver.history.t(i, 0), t[2] + 3 * (t[0] - t[1]), 1e-12);
    for (int k = 1; k < kQEqHistoryDepth; ++k) {
      EXPECT_EQ(solver.history.s(i, k), s[k - 1]);
      EXPECT_EQ(solver.history.t(i, k), t[k - 1]);
    }
  }
}

TEST(QEqSolver, ExactGuessNeedsNoIteration) {
  const System sys = make_periodic_system(27, 9.0, 6.0, 2024u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-8;
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q1(sys.n_total()), q2(sys.n_total());
  set.tolerance = 1e-14;
  set.max_iter = 1000;
  solver.settings = set;
  solver.solve(make_input(sys), comm, q1.data());
  // A history of four equal solutions extrapolates to that solution.
  for (int i = 0; i < sys.n_local; ++i) {
    double b[kQEqHistoryPerAtom];
    for (int k = 0; k < kQEqHistoryDepth; ++k) {
      b[k] = solver.history.s(i, 0);
      b[kQEqHistoryDepth + k] = solver.history.t(i, 0);
    }
    solver.history.unpack(i, b);
  }
  set.tolerance = 1e-8;
  solver.settings = set;
  const QEqResult res = solver.solve(make_input(sys), comm, q2.data());
  EXPECT_EQ(res.iter_s, 1);
  EXPECT_EQ(res.iter_t, 1);
  for (int i = 0; i < sys.n_local; ++i) EXPECT_NEAR(q2[i], q1[i], 1e-12);
}

TEST(QEqSolver, HistoryFollowsAtoms) {
  HostQEq solver(QEqSettings{});
  solver.history.grow(3);
  EXPECT_EQ(solver.history.capacity(), 3);
  std::vector<double> a(kQEqHistoryPerAtom), b(kQEqHistoryPerAtom);
  for (int k = 0; k < kQEqHistoryPerAtom; ++k) a[k] = k + 1.5;
  solver.history.unpack(1, a.data());
  solver.history.grow(10);  // growing keeps entries, new ones are zero
  EXPECT_EQ(solver.history.capacity(), 10);
  solver.history.copy(1, 7);
  EXPECT_EQ(solver.history.pack(7, b.data()), kQEqHistoryPerAtom);
  EXPECT_EQ(a, b);
  solver.history.pack(9, b.data());
  for (double v : b) EXPECT_EQ(v, 0.0);
  solver.history.unpack(12, a.data());  // unpack past the end grows
  EXPECT_GE(solver.history.capacity(), 13);
  EXPECT_EQ(solver.history.s(12, 0), 1.5);
  EXPECT_EQ(solver.history.t(12, 0), 1.5 + kQEqHistoryDepth);
  solver.history.clear();
  EXPECT_EQ(solver.history.s(1, 0), 0.0);
}

TEST(QEqSolver, RejectsBadInput) {
  QEqSettings set;
  set.cut_lo = 5.0;
  set.cut_hi = 4.0;
  EXPECT_THROW(check_qeq_settings(set), InputError);
  // a negative outer radius, even above the inner one, names cuthi
  set.cut_lo = -5.0;
  set.cut_hi = -1.0;
  try {
    check_qeq_settings(set);
    ADD_FAILURE() << "a negative taper radius was accepted";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("cuthi"), std::string::npos) << e.what();
  }
  set.cut_hi = 4.0;
  set.cut_lo = 0.0;
  set.tolerance = 0.0;
  EXPECT_THROW(check_qeq_settings(set), InputError);
  set.tolerance = 1e-6;
  for (int tpr : {0, 4, 8, 16, 32}) {
    set.threads_per_row = tpr;
    EXPECT_NO_THROW(check_qeq_settings(set)) << "threads per row " << tpr;
  }
  for (int tpr : {-4, 1, 3, 64}) {
    set.threads_per_row = tpr;
    EXPECT_THROW(check_qeq_settings(set), InputError) << "threads per row " << tpr;
  }

  const System sys = make_periodic_system(8, 8.0, 5.0, 1u);
  set = QEqSettings{};
  set.cut_hi = 5.0;
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  QEqInput in = make_input(sys);
  const std::vector<double> bad_eta = {7.0, 0.0, 0.0};
  std::vector<int> types(sys.n_total(), 1);
  in.type = types.data();
  in.eta = bad_eta.data();
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
  in.eta = kEta.data();
  in.num_types = 1;
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
}

// The matrix keyword's table: fix qeq/reaxff/gpu's words, in QEqMatrix's
// order, "stored" as Full (its earlier name), nothing else.
TEST(QEqMatrix, NamesAndValues) {
  EXPECT_EQ(qeq_matrix_from_name("auto"), QEqMatrix::Auto);
  EXPECT_EQ(qeq_matrix_from_name("full"), QEqMatrix::Full);
  EXPECT_EQ(qeq_matrix_from_name("stored"), QEqMatrix::Full);
  EXPECT_EQ(qeq_matrix_from_name("half"), QEqMatrix::Half);
  EXPECT_EQ(qeq_matrix_from_name("free"), QEqMatrix::Free);
  EXPECT_FALSE(qeq_matrix_from_name("sparse").has_value());
  EXPECT_FALSE(qeq_matrix_from_name("Full").has_value());
  const std::vector<std::string> listed{"auto", "full", "half", "free"};
  EXPECT_EQ(qeq_matrix_names(), listed);
}
