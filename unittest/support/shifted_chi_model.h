// A charge model made for the tests the way doc/design.md's recipe makes
// one, without touching the library: its input here, its host implementation
// registered in physics/test_charge_models.cpp, its CUDA implementation in
// cuda/test_cuda_charge_models.cpp. Its electronegativities are chi plus a
// shift per owned atom, the system QEq solves with chi_shift, so a solve
// through the model has a reference that does not go through any model.
#pragma once

#include "puremd_gpu/charge_model.h"

namespace qeq_test {

struct ShiftedChi final : puremd::ChargeModelInput {
  const double *shift = nullptr;  // n_local entries
  const char *name() const override { return "shifted chi (test)"; }
};

// A model no driver implements.
struct Unimplemented final : puremd::ChargeModelInput {
  const char *name() const override { return "unimplemented (test)"; }
};

}  // namespace qeq_test
