// The host reference solver with a history of its own, as the QEq tests use
// it: settings checked when made (as the fix checks them), every solve
// through puremd::solve_qeq_reference with those settings.
#pragma once

#include "puremd_gpu/qeq.h"

namespace qeq_test {

struct HostQEq {
  puremd::QEqSettings settings;
  // deep enough for the extended Lagrangian's order where s asks for it
  puremd::ChargeHistory history;

  explicit HostQEq(const puremd::QEqSettings &s)
      : settings(s), history(puremd::qeq_history_depth(s.xl, s.xl_order)) {
    puremd::check_qeq_settings(s);
  }

  puremd::QEqResult solve(puremd::QEqInput in, puremd::QEqComm &comm, double *q) {
    in.settings = settings;
    return puremd::solve_qeq_reference(in, history, comm, q);
  }
};

}  // namespace qeq_test
