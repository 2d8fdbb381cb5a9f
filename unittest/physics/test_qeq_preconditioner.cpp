// CG's preconditioner as a registered piece of the host solver
// (host/charges/host_preconditioner.h): a preconditioner registered here,
// in the test only (M = I: plain CG), is found by its name in
// QEqSettings::preconditioner, set up and applied by the solver, converges
// to Jacobi's charges and takes the iterations plain CG takes on the dense
// matrix; Jacobi's counts are those of Jacobi-preconditioned CG on it; an
// unknown name is refused with the names there are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dense_qeq.h"
#include "host/charges/host_preconditioner.h"
#include "host/charges/host_qeq_solver.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "qeq_test_system.h"

using namespace puremd;
using namespace qeq_test;

namespace {

constexpr const char *kIdentity = "test-identity";
int g_setups = 0, g_applies = 0;

class IdentityPreconditioner final : public host::HostPreconditioner {
 public:
  void setup(const host::HostQEqSolver &) override { ++g_setups; }
  void apply(const host::HostQEqSolver &s, const double *r, double *p) override {
    ++g_applies;
    for (int i : s.rows()) p[i] = r[i];
  }
};

const host::HostPreconditioners::Add<IdentityPreconditioner> kIdentityAdded(kIdentity);

// Iterations of CG preconditioned by diag(minv)^-1 on A x = b from x = 0,
// counted and stopped as fix qeq/reaxff does (1 after the initial residual;
// while sqrt(r . diag(A)^-1 r) / |b| > tol, its Jacobi M's r . M^-1 r,
// whatever M is).
int dense_pcg_iterations(const std::vector<std::vector<double>> &A, const std::vector<double> &b,
                         const std::vector<double> &minv, double tol, int max_iter) {
  const std::size_t m = b.size();
  auto dot = [](const std::vector<double> &u, const std::vector<double> &v) {
    double s = 0;
    for (std::size_t k = 0; k < u.size(); ++k) s += u[k] * v[k];
    return s;
  };
  std::vector<double> x(m, 0.0), r = b, z(m), d(m), w(m);
  for (std::size_t k = 0; k < m; ++k) d[k] = z[k] = minv[k] * r[k];
  double rho = dot(r, z);
  auto stop = [&] {
    double s = 0;
    for (std::size_t k = 0; k < m; ++k) s += r[k] * r[k] / A[k][k];
    return std::sqrt(s);
  };
  const double b_norm = std::sqrt(dot(b, b));
  int it = 1;
  while (it < max_iter && stop() / b_norm > tol) {
    for (std::size_t a = 0; a < m; ++a) w[a] = dot(A[a], d);
    const double alpha = rho / dot(d, w);
    for (std::size_t k = 0; k < m; ++k) {
      x[k] += alpha * d[k];
      r[k] -= alpha * w[k];
      z[k] = minv[k] * r[k];
    }
    const double rho_new = dot(r, z);
    for (std::size_t k = 0; k < m; ++k) d[k] = z[k] + rho_new / rho * d[k];
    rho = rho_new;
    ++it;
  }
  return it;
}

struct Solve {
  QEqResult res;
  std::vector<double> q;
};

Solve solve_with(const System &sys, const QEqSettings &set) {
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  Solve out;
  out.q.assign(sys.n_total(), 0.0);
  out.res = solver.solve(make_input(sys), comm, out.q.data());
  return out;
}

}  // namespace

TEST(QEqPreconditioner, RegisteredOneIsUsedAndTakesItsIterations) {
  const System sys = make_periodic_system(27, 9.0, 6.0, 2718u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-8;
  set.max_iter = 500;
  set.preconditioner = kQEqJacobi;  // (the default is FSAI)
  const Solve jacobi = solve_with(sys, set);
  set.preconditioner = kIdentity;
  g_setups = g_applies = 0;
  const Solve plain = solve_with(sys, set);
  EXPECT_EQ(g_setups, 1);
  // M^-1 r once after each system's initial residual and once per iteration
  EXPECT_EQ(g_applies, plain.res.iter_s + plain.res.iter_t);
  ASSERT_TRUE(plain.res.converged());
  for (int i = 0; i < sys.n_total(); ++i)
    EXPECT_NEAR(plain.q[i], jacobi.q[i], 1e-6) << "atom " << i;

  // the counts each preconditioner implies, from CG on the dense matrix
  std::vector<int> idx;
  for (int i = 0; i < sys.n_local; ++i) idx.push_back(i);
  const auto H = dense_qeq_matrix(sys, idx, kEta, kGamma, 0.0, 6.0);
  std::vector<double> bs, bt(idx.size(), -1.0), ones(idx.size(), 1.0), diag_inv;
  for (int i : idx) {
    bs.push_back(-kChi[sys.type[i]]);
    diag_inv.push_back(1.0 / kEta[sys.type[i]]);
  }
  EXPECT_EQ(plain.res.iter_s, dense_pcg_iterations(H, bs, ones, set.tolerance, set.max_iter));
  EXPECT_EQ(plain.res.iter_t, dense_pcg_iterations(H, bt, ones, set.tolerance, set.max_iter));
  EXPECT_EQ(jacobi.res.iter_s, dense_pcg_iterations(H, bs, diag_inv, set.tolerance, set.max_iter));
  EXPECT_EQ(jacobi.res.iter_t, dense_pcg_iterations(H, bt, diag_inv, set.tolerance, set.max_iter));
  EXPECT_NE(plain.res.iter_s + plain.res.iter_t, jacobi.res.iter_s + jacobi.res.iter_t)
      << "the test system does not tell the preconditioners apart";
}

TEST(QEqPreconditioner, UnknownNameListsTheDriversNames) {
  const System sys = make_periodic_system(8, 8.0, 5.0, 1u);
  QEqSettings set;
  set.cut_hi = 5.0;
  set.preconditioner = "no-such-one";
  HostQEq solver(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  try {
    solver.solve(make_input(sys), comm, q.data());
    ADD_FAILURE() << "an unknown preconditioner was accepted";
  } catch (const InputError &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("no-such-one"), std::string::npos) << msg;
    EXPECT_NE(msg.find("host"), std::string::npos) << msg;
    for (const std::string &name : host::HostPreconditioners::names())
      EXPECT_NE(msg.find(name), std::string::npos) << name << " not listed: " << msg;
  }
  const std::vector<std::string> names = host::HostPreconditioners::names();
  EXPECT_NE(std::find(names.begin(), names.end(), kQEqJacobi), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), kIdentity), names.end());
}
