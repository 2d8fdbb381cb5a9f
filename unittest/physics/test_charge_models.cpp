// The charge-model registry on the host driver: a model the library does not
// know (support/shifted_chi_model.h), registered in this file, is solved
// through its own implementation; a model without one is refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "host/charges/host_charge_model.h"
#include "host/charges/host_qeq_solver.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "shifted_chi_model.h"

using namespace puremd;
using namespace qeq_test;

namespace {

class HostShiftedChi final : public host::HostChargeModel {
 public:
  void setup(const QEqInput &in) override {
    if (!model_input<ShiftedChi>(in.model)->shift)
      throw InputError("shifted chi (test): no shifts given");
  }
  const double *electronegativities(const QEqInput &in, host::HostQEqSolver &s) override {
    const ShiftedChi &m = *model_input<ShiftedChi>(in.model);
    chi_.assign(in.n_total, 0.0);
    for (int i : s.rows()) chi_[i] = host::HostQEqSolver::chi_of(in, i) + m.shift[i];
    return chi_.data();
  }

 private:
  std::vector<double> chi_;
};

const host::HostModels::Add<ShiftedChi, HostShiftedChi> kHostShiftedChi;

QEqSettings tight() {
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-14;
  set.max_iter = 1000;
  return set;
}

}  // namespace

TEST(ChargeModels, ARegisteredModelSolvesThroughItsImplementation) {
  const System sys = make_periodic_system(27, 6.0, 6.0, 11u);
  std::vector<double> shift(sys.n_local);
  for (int i = 0; i < sys.n_local; ++i) shift[i] = 0.4 * std::sin(1.7 * i);
  HostQEq by_model(tight()), by_shift(tight()), plain(tight());
  std::vector<double> q_model(sys.n_total()), q_shift(sys.n_total()), q_plain(sys.n_total());
  ShiftedChi m;
  m.shift = shift.data();
  QEqInput in = make_input(sys);
  in.model = &m;
  SingleRankComm c1 = make_comm(sys), c2 = make_comm(sys), c3 = make_comm(sys);
  const QEqResult r = by_model.solve(in, c1, q_model.data());
  QEqInput ref = make_input(sys);
  ref.chi_shift = shift.data();
  const QEqResult r_ref = by_shift.solve(ref, c2, q_shift.data());
  plain.solve(make_input(sys), c3, q_plain.data());
  EXPECT_EQ(r.iter_s, r_ref.iter_s);
  EXPECT_EQ(r.iter_t, r_ref.iter_t);
  double moved = 0.0;
  for (int i = 0; i < sys.n_total(); ++i) {
    EXPECT_NEAR(q_model[i], q_shift[i], 1e-12) << "atom " << i;
    moved = std::max(moved, std::fabs(q_model[i] - q_plain[i]));
  }
  EXPECT_GT(moved, 1e-3) << "the shifts must move the charges for this test to tell";
  m.shift = nullptr;  // the model's own check
  EXPECT_THROW(by_model.solve(in, c1, q_model.data()), InputError);
}

TEST(ChargeModels, AModelWithoutAnImplementationIsRefusedByName) {
  HostQEq solver(tight());
  EXPECT_EQ(unimplemented_refusal(solver),
            "unimplemented (test): the charge model has no host implementation in this build");
}
