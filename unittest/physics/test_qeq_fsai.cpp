// The FSAI preconditioner (physics/qeq_fsai.h) on the host: a row of G
// solves its pattern's system and is scaled as FSAI's definition says; the
// pattern is the nearest partners in id order; a pattern that is not
// positive definite falls back to Jacobi's row; a solve reaches Jacobi's
// charges in fewer iterations, stopped by fix qeq/reaxff's measure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "common/charges/fsai_refresh.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/qeq_fsai.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

using namespace puremd;
using namespace qeq_test;

namespace {

// H(J,J) of a pattern (rows in c's order, then the row's own atom, at the origin)
std::vector<std::vector<double>> pattern_matrix(const std::vector<FsaiCandidate> &c, int param_i,
                                                const Taper &tap) {
  const int k = static_cast<int>(c.size()) + 1;
  auto pos = [&](int a) { return a < k - 1 ? c[a].rel : vec3{0, 0, 0}; };
  auto par = [&](int a) { return a < k - 1 ? c[a].param : param_i; };
  std::vector<std::vector<double>> A(k, std::vector<double>(k));
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      const vec3 d = pos(a) - pos(b);
      const double r = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
      A[a][b] = a == b ? kEta[par(a)]
                       : qeq_offdiag(r, qeq_shielding(kGamma[par(a)], kGamma[par(b)]), tap);
    }
  return A;
}

std::vector<FsaiCandidate> random_pattern(int m, double radius, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<FsaiCandidate> c;
  while (static_cast<int>(c.size()) < m) {
    const vec3 d{radius * u(rng), radius * u(rng), radius * u(rng)};
    const double d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (d2 > radius * radius || d2 < 1.0) continue;
    bool apart = true;  // atoms at least 1 A from each other, as in matter
    for (const FsaiCandidate &o : c) {
      const vec3 e = o.rel - d;
      apart = apart && e.x * e.x + e.y * e.y + e.z * e.z >= 1.0;
    }
    if (!apart) continue;
    const int n = static_cast<int>(c.size());
    c.push_back(FsaiCandidate{100 + n, n, n % 3, d2, d});
  }
  return c;
}

QEqSettings fsai_settings(double tol) {
  QEqSettings s;
  s.cut_hi = 6.0;
  s.tolerance = tol;
  s.max_iter = 500;
  s.preconditioner = kQEqFsai;
  s.fsai_radius = 3.0;
  return s;
}

}  // namespace

TEST(QEqFsai, RowSolvesItsPatternAndHasUnitScale) {
  const Taper tap = make_taper(0.0, 10.0);
  for (unsigned seed : {1u, 2u, 3u}) {
    const std::vector<FsaiCandidate> c = random_pattern(7, 3.5, seed);
    const int m = static_cast<int>(c.size());
    double g[kFsaiPattern], scratch[kFsaiPattern * kFsaiPattern];
    unsigned char order[kFsaiCandidates];
    for (int a = 0; a < m; ++a) order[a] = static_cast<unsigned char>(a);
    ASSERT_TRUE(fsai_row(c.data(), order, m, 1, kEta.data(), kGamma.data(), tap, scratch, g));
    const auto A = pattern_matrix(c, 1, tap);
    // H(J,J) g is zero off the row's own atom, and g_i (H(J,J) g)_i = 1
    for (int a = 0; a <= m; ++a) {
      double hg = 0.0;
      for (int b = 0; b <= m; ++b) hg += A[a][b] * g[b];
      if (a < m)
        EXPECT_NEAR(hg, 0.0, 1e-12) << "seed " << seed << ", pattern atom " << a;
      else
        EXPECT_NEAR(g[m] * hg, 1.0, 1e-12) << "seed " << seed;
    }
  }
}

TEST(QEqFsai, NotPositiveDefiniteIsJacobisRow) {
  const Taper tap = make_taper(0.0, 10.0);
  // two atoms 0.1 A apart with a tiny hardness: H(J,J) = [[e, h], [h, e]], h > e
  std::vector<FsaiCandidate> c = {FsaiCandidate{1, 0, 0, 0.01, vec3{0.1, 0, 0}}};
  const std::vector<double> eta = {0.01, 0.01, 0.01};
  double g[kFsaiPattern], scratch[kFsaiPattern * kFsaiPattern];
  const unsigned char order[1] = {0};
  EXPECT_FALSE(fsai_row(c.data(), order, 1, 0, eta.data(), kGamma.data(), tap, scratch, g));
  EXPECT_EQ(g[0], 0.0);
  EXPECT_DOUBLE_EQ(g[1], 1.0 / std::sqrt(0.01));
}

TEST(QEqFsai, PatternIsTheNearestInIdOrder) {
  std::vector<FsaiCandidate> c;
  std::vector<long long> tags(24);
  std::iota(tags.begin(), tags.end(), 1000);
  std::shuffle(tags.begin(), tags.end(), std::mt19937(5));
  for (int a = 0; a < 24; ++a)  // distance grows with a; ids shuffled
    c.push_back(FsaiCandidate{tags[a], a, 0, 1.0 + 0.1 * a, vec3{1.0 + 0.1 * a, 0, 0}});
  std::vector<FsaiCandidate> in = c;
  std::shuffle(in.begin(), in.end(), std::mt19937(6));
  unsigned char order[kFsaiCandidates];
  const int m = fsai_select(in.data(), static_cast<int>(in.size()), order);
  ASSERT_EQ(m, kFsaiPattern - 1);
  std::vector<long long> want(tags.begin(), tags.begin() + m);  // the m nearest
  std::sort(want.begin(), want.end());
  for (int a = 0; a < m; ++a) EXPECT_EQ(in[order[a]].tag, want[a]) << "entry " << a;
}

TEST(QEqFsai, JacobisChargesInFewerIterations) {
  const System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  for (double tol : {1e-6, 1e-10}) {
    QEqSettings set = fsai_settings(tol);
    HostQEq fsai(set);
    set.preconditioner = kQEqJacobi;
    HostQEq jacobi(set);
    SingleRankComm cf = make_comm(sys), cj = make_comm(sys);
    std::vector<double> qf(sys.n_total()), qj(sys.n_total());
    for (int solve = 0; solve < 3; ++solve) {  // later ones from a history
      const QEqResult rf = fsai.solve(make_input(sys), cf, qf.data());
      const QEqResult rj = jacobi.solve(make_input(sys), cj, qj.data());
      ASSERT_TRUE(rf.converged());
      const std::string where = "tol " + std::to_string(tol) + ", solve " + std::to_string(solve);
      // (measured: 9-10 against 17-21 at 1e-6, 15-16 against 30-32 at 1e-10)
      EXPECT_LE(rf.iter_s, rj.iter_s * 6 / 10) << where;
      EXPECT_LE(rf.iter_t, rj.iter_t * 6 / 10) << where;
      for (int i = 0; i < sys.n_total(); ++i)
        ASSERT_NEAR(qf[i], qj[i], 20 * tol) << where << ": atom " << i;
    }
  }
}

// Atoms outside the group take no part (no row, no column of G), and
// per-atom parameters (no types) index G's parameters by the column's atom:
// the charges are still Jacobi's.
TEST(QEqFsai, SubGroupAndPerAtomParameters) {
  System sys = make_periodic_system(64, 10.0, 6.0, 31u);
  for (int i = 0; i < sys.n_local; ++i) sys.active[i] = (i % 4 != 0);
  for (int g = 0; g < sys.n_total() - sys.n_local; ++g)
    sys.active[sys.n_local + g] = sys.active[sys.owner[g]];
  std::vector<double> chi, eta, gamma;
  for (int t : sys.type) {
    chi.push_back(kChi[t]);
    eta.push_back(kEta[t]);
    gamma.push_back(kGamma[t]);
  }
  for (bool per_atom : {false, true}) {
    QEqInput in = make_input(sys);
    if (per_atom) {
      in.type = nullptr;
      in.num_types = 0;
      in.chi = chi.data();
      in.eta = eta.data();
      in.gamma = gamma.data();
    }
    QEqSettings set = fsai_settings(1e-10);
    HostQEq fsai(set);
    set.preconditioner = kQEqJacobi;
    HostQEq jacobi(set);
    SingleRankComm cf = make_comm(sys), cj = make_comm(sys);
    std::vector<double> qf(sys.n_total(), 7.0), qj(sys.n_total(), 7.0);
    const QEqResult rf = fsai.solve(in, cf, qf.data());
    const QEqResult rj = jacobi.solve(in, cj, qj.data());
    ASSERT_TRUE(rf.converged());
    EXPECT_LT(rf.iter_s, rj.iter_s) << (per_atom ? "per atom" : "per type");
    for (int i = 0; i < sys.n_total(); ++i)
      ASSERT_NEAR(qf[i], qj[i], 2e-9) << (per_atom ? "per atom" : "per type") << ": atom " << i;
  }
}

// A radius given must be positive and at most cuthi / 2; 0 is the default
// radius, 3.5 A or cuthi / 2 where that is smaller.
TEST(QEqFsai, RadiusIsChecked) {
  for (double r : {-1.0, -1e-3, 3.01}) {
    QEqSettings set = fsai_settings(1e-6);
    set.fsai_radius = r;
    try {
      check_qeq_settings(set);
      ADD_FAILURE() << "fsai_radius " << r << " accepted with cuthi 6";
    } catch (const InputError &e) {
      EXPECT_NE(std::string(e.what()).find("fsai_radius"), std::string::npos) << e.what();
    }
  }
  QEqSettings set = fsai_settings(1e-6);
  set.fsai_radius = 0.0;
  EXPECT_NO_THROW(check_qeq_settings(set));
  EXPECT_EQ(qeq_solve_settings(set, nullptr).fsai_radius, 3.0);  // cuthi 6
  set.cut_hi = 10.0;
  EXPECT_EQ(qeq_solve_settings(set, nullptr).fsai_radius, kFsaiDefaultRadius);
  set.fsai_radius = 2.5;
  EXPECT_EQ(qeq_solve_settings(set, nullptr).fsai_radius, 2.5);
}

// Settings that name no preconditioner run FSAI (kQEqDefaultPreconditioner)
// with the default radius: the iterations and charges of naming it, bit for
// bit, fewer than Jacobi's. A charge model whose solver keeps its own
// preconditioner (ACKS2) resolves the default to Jacobi, i.e. none besides
// its own.
TEST(QEqFsai, IsTheDefault) {
  EXPECT_STREQ(kQEqDefaultPreconditioner, kQEqFsai);
  const System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  QEqSettings set = fsai_settings(1e-8);
  set.preconditioner = "";
  set.fsai_radius = 0.0;  // (3.0 with cuthi 6, as fsai_settings names)
  HostQEq plain(set);
  set.preconditioner = kQEqFsai;
  set.fsai_radius = 3.0;
  HostQEq fsai(set);
  set.preconditioner = kQEqJacobi;
  HostQEq jacobi(set);
  SingleRankComm cp = make_comm(sys), cf = make_comm(sys), cj = make_comm(sys);
  std::vector<double> qp(sys.n_total()), qf(sys.n_total()), qj(sys.n_total());
  const QEqResult rp = plain.solve(make_input(sys), cp, qp.data());
  const QEqResult rf = fsai.solve(make_input(sys), cf, qf.data());
  const QEqResult rj = jacobi.solve(make_input(sys), cj, qj.data());
  EXPECT_EQ(rp.iter_s, rf.iter_s);
  EXPECT_EQ(rp.iter_t, rf.iter_t);
  EXPECT_EQ(qp, qf);
  EXPECT_LT(rp.iter_s, rj.iter_s);
  EXPECT_EQ(qeq_preconditioner(QEqSettings{}, nullptr), kQEqFsai);
  Acks2Input acks2;
  EXPECT_EQ(qeq_preconditioner(QEqSettings{}, &acks2), kQEqJacobi);
  QEqSettings named;
  named.preconditioner = kQEqFsai;
  EXPECT_EQ(qeq_preconditioner(named, &acks2), kQEqFsai);  // (which ACKS2's solve refuses)
}

// When G is built again (common/charges/fsai_refresh.h, both drivers): kept while
// the owned atoms are those of the build and the counts and radius are the
// same, for kFsaiRefreshSolves solves; built again on any change, and at an
// extended-Lagrangian run's first solve (Hold, or a Start after another
// mode), not at its others nor at the minimizer's run of Starts.
TEST(QEqFsai, RebuiltWhenOwnedAtomsReorderOrEveryRefresh) {
  const QEqXl off = QEqXl::Off;
  FsaiBuild b;
  EXPECT_FALSE(b.keep(100, 90, 3.5, off, true));  // nothing built yet
  for (int k = 1; k < kFsaiRefreshSolves; ++k) EXPECT_TRUE(b.keep(100, 90, 3.5, off, true)) << k;
  EXPECT_FALSE(b.keep(100, 90, 3.5, off, true));  // the refresh
  EXPECT_TRUE(b.keep(100, 90, 3.5, off, true));
  EXPECT_FALSE(b.keep(100, 90, 3.5, off, false));  // owned atoms reordered
  EXPECT_TRUE(b.keep(100, 90, 3.5, off, true));
  EXPECT_FALSE(b.keep(101, 90, 3.5, off, true));  // an atom more
  EXPECT_FALSE(b.keep(101, 91, 3.5, off, true));  // a row more
  EXPECT_FALSE(b.keep(101, 91, 3.0, off, true));  // another radius
  EXPECT_TRUE(b.keep(101, 91, 3.0, off, true));
  EXPECT_FALSE(b.keep(101, 91, 3.0, QEqXl::Start, true));  // a run starts afresh
  EXPECT_TRUE(b.keep(101, 91, 3.0, QEqXl::Warm, true));
  EXPECT_TRUE(b.keep(101, 91, 3.0, QEqXl::Step, true));
  EXPECT_FALSE(b.keep(101, 91, 3.0, QEqXl::Hold, true));  // a run goes on from the history
  EXPECT_TRUE(b.keep(101, 91, 3.0, QEqXl::Step, true));
  EXPECT_FALSE(b.keep(101, 91, 3.0, QEqXl::Start, true));  // the minimizer's first solve
  EXPECT_TRUE(b.keep(101, 91, 3.0, QEqXl::Start, true));   // and its next ones
  EXPECT_TRUE(b.keep(101, 91, 3.0, QEqXl::Start, true));
  EXPECT_FALSE(b.keep(101, 91, 3.0, QEqXl::Hold, true));  // the run after it
}
