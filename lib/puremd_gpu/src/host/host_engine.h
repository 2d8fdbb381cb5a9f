#pragma once

#include "host/host_context.h"
#include "puremd_gpu/engine.h"

namespace puremd::host {

class HostEngine : public Engine {
 public:
  HostEngine(const ForceField &ff, const Control &control);
  Driver driver() const override { return Driver::Host; }
  std::string description() const override;
  void compute(const StepInput &in, const StepRequest &req, StepOutput &out) override;
  void bond_table(std::vector<int> &row_start, std::vector<BondRecord> &bonds) override;
  void atom_table(std::vector<double> &total_bo, std::vector<double> &nlp) override;
  std::unique_ptr<QEqSolver> make_qeq_solver(const QEqSettings &settings) override;

  HostContext &context() { return c_; }  // for tests

 protected:
  QEqResult charge_stage(const StepInput &atoms, const QEqInput &qeq, QEqSolver &solver,
                         QEqComm &comm, double *q) override;

 private:
  ForceField ff_;
  HostContext c_;
};

}  // namespace puremd::host
