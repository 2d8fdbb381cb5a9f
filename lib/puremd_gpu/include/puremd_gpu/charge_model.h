// A charge model beside QEq's own, chosen by the input the caller gives a
// solve (QEqProblem::model): QTPIE's or QEqR's electronegativities
// (physics/qtpie.h), ACKS2's extended system (physics/acks2.h). A model's
// input derives from ChargeModelInput in the model's own header; each solver
// finds the model's implementation by the input's type, where the model's own
// source registers it (src/host/charges/host_charge_model.h,
// src/cuda/charges/cuda_charge_model.h). No list of models exists to extend.
#pragma once

namespace puremd {

struct ChargeModelInput {
  virtual ~ChargeModelInput() = default;
  // The model as messages name it ("QTPIE/QEqR", "ACKS2").
  virtual const char *name() const = 0;
  // How far (A) the engine's far list must reach for the model's own sums
  // (0: QEq's cut-off is enough).
  virtual double reach() const { return 0.0; }
  // True where the model's solver keeps a preconditioner of its own, so that
  // QEqSettings::preconditioner must stay Jacobi (ACKS2's BiCGStab).
  virtual bool own_preconditioner() const { return false; }
};

// The input as model M's, or null when it is another model's (or none).
template <class M>
const M *model_input(const ChargeModelInput *m) {
  return dynamic_cast<const M *>(m);
}

}  // namespace puremd
