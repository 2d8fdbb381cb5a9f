// QTPIE and QEqR electronegativities (physics/qtpie.h, the host QEq solver):
// the Gaussian overlap against a numerical integral, and chi_eff against a
// brute-force sum over every atom written as fix qtpie/reaxff and fix
// qeq/rel/reaxff write it (all atoms, owned and ghost, in index order), with
// and without an external potential and its `scale`, in a solve whose charges
// must equal a QEq solve with chi_eff given per atom.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/qtpie.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

using namespace puremd;
using namespace qeq_test;

namespace {

// integral of exp(-c (x - x0)^2) exp(-d (x - x1)^2) over x, by the midpoint rule
double overlap_1d(double c, double x0, double d, double x1) {
  const double lo = std::min(x0, x1) - 12.0, hi = std::max(x0, x1) + 12.0;
  const int n = 200000;
  const double h = (hi - lo) / n;
  double s = 0.0;
  for (int k = 0; k < n; ++k) {
    const double x = lo + (k + 0.5) * h;
    s += std::exp(-c * (x - x0) * (x - x0) - d * (x - x1) * (x - x1));
  }
  return s * h;
}

const double kExponent[3] = {0.2240, 0.5434, 0.3100};  // 1/Bohr^2

}  // namespace

TEST(Qtpie, OverlapOfNormalisedGaussiansMatchesNumericalIntegral) {
  for (double a : {0.224, 0.5434})
    for (double b : {0.224, 0.31, 0.5434})
      for (double r : {0.0, 0.7, 2.5, 6.0}) {
        // normalised 1s Gaussians (2a/pi)^(3/4) exp(-a |x|^2): the 3D integral
        // factorises into the axis through both centres and two perpendicular ones
        const double norm = std::pow(2.0 * a / M_PI, 0.75) * std::pow(2.0 * b / M_PI, 0.75);
        const double ref =
            norm * overlap_1d(a, 0.0, b, r) * std::pow(overlap_1d(a, 0.0, b, 0.0), 2);
        EXPECT_NEAR(qtpie_overlap(a, b, r), ref, 1e-9 * std::max(1.0, ref))
            << "a " << a << " b " << b << " r " << r;
      }
  EXPECT_DOUBLE_EQ(qtpie_overlap(0.3, 0.3, 0.0), 1.0);
  // the cut-off: the most diffuse pair's overlap there is 10^-10
  const double cut = qtpie_cutoff_bohr(0.224);
  EXPECT_NEAR(std::exp(-0.224 / 2.0 * cut * cut), 1e-10, 1e-16);
}

struct OverlapCase {
  const char *name;
  OverlapModel model;
  bool field;
  double scale;
};

TEST(Qtpie, ChiEffAsFixQtpieAndFixQEqRelSumIt) {
  const double cut_bohr = qtpie_cutoff_bohr(kExponent[0]);
  const double cut_A = cut_bohr / kBohrPerAngstrom;  // 7.59 A
  const System sys = make_periodic_system(40, 11.0, cut_A + 0.5, 2024u);
  const OverlapCase cases[] = {
      {"QTPIE", OverlapModel::Qtpie, false, 1.0},
      {"QTPIE with a potential", OverlapModel::Qtpie, true, 1.0},
      {"QTPIE with a potential, scale 1.5", OverlapModel::Qtpie, true, 1.5},
      {"QEqR with a potential", OverlapModel::Relative, true, 1.0},
      {"QEqR with a potential, scale 0.7", OverlapModel::Relative, true, 0.7},
  };
  for (const OverlapCase &c : cases) {
    SCOPED_TRACE(c.name);
    const int n = sys.n_total();
    std::vector<double> phi(n, 0.0);
    if (c.field)
      for (int i = 0; i < n; ++i) phi[i] = -0.05 * sys.x[3 * i + 2] + 0.02 * sys.x[3 * i];
    // the fixes' loop: every atom j in index order
    std::vector<double> chi_eff(n, 0.0);
    for (int i = 0; i < sys.n_local; ++i) {
      const int ti = sys.type[i];
      double num = 0.0, den = 0.0;
      for (int j = 0; j < n; ++j) {
        const double dx = sys.x[3 * i] - sys.x[3 * j], dy = sys.x[3 * i + 1] - sys.x[3 * j + 1],
                     dz = sys.x[3 * i + 2] - sys.x[3 * j + 2];
        const double r = std::sqrt(dx * dx + dy * dy + dz * dz) * kBohrPerAngstrom;
        if (!(r < cut_bohr)) continue;
        const int tj = sys.type[j];
        const double p = kExponent[ti] + kExponent[tj], m = kExponent[ti] * kExponent[tj] / p;
        const double s = std::pow(4.0 * m / p, 0.75) * std::exp(-m * r * r);
        if (c.model == OverlapModel::Qtpie)
          num += (kChi[ti] - kChi[tj] + c.scale * (phi[i] - phi[j])) * s;
        else
          num += phi[j] * s;
        den += s;
      }
      chi_eff[i] =
          c.model == OverlapModel::Qtpie ? num / den : kChi[ti] + c.scale * (phi[i] - num / den);
    }

    QEqSettings set;
    set.cut_hi = 6.0;
    set.tolerance = 1e-14;
    set.max_iter = 1000;
    HostQEq qtpie(set), qeq(set);
    SingleRankComm c1 = make_comm(sys), c2 = make_comm(sys);
    std::vector<double> q1(n, 0.0), q2(n, 0.0);
    QtpieInput qt;
    qt.model = c.model;
    qt.exponent = kExponent;
    qt.phi = c.field ? phi.data() : nullptr;
    qt.phi_scale = c.scale;
    qt.cutoff_bohr = cut_bohr;
    QEqInput in = make_input(sys);
    in.model = &qt;
    qtpie.solve(in, c1, q1.data());

    // the same solve with chi_eff given per atom
    std::vector<double> eta, gamma;
    for (int t : sys.type) {
      eta.push_back(kEta[t]);
      gamma.push_back(kGamma[t]);
    }
    QEqInput ref = make_input(sys);
    ref.type = nullptr;
    ref.num_types = 0;
    ref.chi = chi_eff.data();
    ref.eta = eta.data();
    ref.gamma = gamma.data();
    qeq.solve(ref, c2, q2.data());
    double spread = 0.0;
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(q1[i], q2[i], 1e-12) << "atom " << i;
      spread = std::max(spread, std::fabs(q2[i]));
    }
    EXPECT_GT(spread, 1e-3) << "charges too small to tell anything";
  }
}

TEST(Qtpie, RejectsMissingExponentsAndChiShift) {
  const System sys = make_periodic_system(10, 8.0, 8.0, 5u);
  HostQEq solver(QEqSettings{});
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total(), 0.0), shift(sys.n_local, 0.1);
  QtpieInput qt;
  QEqInput in = make_input(sys);
  in.model = &qt;
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
  qt.exponent = kExponent;
  qt.cutoff_bohr = qtpie_cutoff_bohr(kExponent[0]);
  in.chi_shift = shift.data();
  EXPECT_THROW(solver.solve(in, comm, q.data()), InputError);
}
