#pragma once

#include <vector>

#include "host/charges/host_qeq_solver.h"
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
  void bond_rows(BondRowRule rule, double cut, BondRows &out) override;
  long long far_pairs() const override { return static_cast<long long>(c_.far.nbr.size()); }
  QEqResult solve_charges(const StepInput &atoms, const QEqProblem &problem, ChargeHistory &history,
                          QEqComm &comm, double *q) override;

  HostContext &context() { return c_; }  // for tests

 private:
  ForceField ff_;
  HostContext c_;
  HostQEqSolver qeq_;  // the charge stage's scratch
  // The last solve's key and the atoms and charges it left (check_follows_solve).
  StepKey solve_key_;
  // some compute() since the last solve had atoms_reordered (the charge
  // stage's input says so, as the CUDA engine's does)
  bool reordered_since_solve_ = false;
  std::vector<double> solve_x_, solve_q_;
  void check_follows_solve(const StepInput &in);
};

}  // namespace puremd::host
