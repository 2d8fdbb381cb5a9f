// A charge model made for the tests the way doc/design.md's recipe makes
// one, without touching the library: its input here, its host implementation
// registered in physics/test_charge_models.cpp, its CUDA implementation in
// cuda/test_cuda_charge_models.cpp. Its electronegativities are chi plus a
// shift per owned atom, the system QEq solves with chi_shift, so a solve
// through the model has a reference that does not go through any model.
#pragma once

#include <string>
#include <vector>

#include "puremd_gpu/charge_model.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

namespace qeq_test {

struct ShiftedChi final : puremd::ChargeModelInput {
  const double *shift = nullptr;  // n_local entries
  const char *name() const override { return "shifted chi (test)"; }
};

// A model no driver implements.
struct Unimplemented final : puremd::ChargeModelInput {
  const char *name() const override { return "unimplemented (test)"; }
};

// What `solver` (HostQEq or CudaQEq) says of a solve of Unimplemented's
// model: the InputError's text, or "(no error)".
template <class Solver>
std::string unimplemented_refusal(Solver &solver) {
  const System sys = make_periodic_system(8, 6.0, 6.0, 5u);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  Unimplemented m;
  puremd::QEqInput in = make_input(sys);
  in.model = &m;
  try {
    solver.solve(in, comm, q.data());
  } catch (const puremd::InputError &e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace qeq_test
