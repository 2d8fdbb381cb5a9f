// The CUDA QEq solver as it runs in LAMMPS: the charge stage of a CUDA
// engine (Engine::solve_charges, with a history of the caller's), for the
// QEq tests' systems, which have QEq types but no force-field elements.
// The engine gets a real force field (examples/CHO), every QEq type of the
// input becomes its first element (or none, for a type QEqInput::type_map
// maps to -1), so that its far list holds every pair the matrix needs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "puremd_gpu/control.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/qeq.h"

namespace qeq_test {

struct CudaQEq {
  std::unique_ptr<puremd::Engine> engine;
  puremd::QEqSettings settings;
  // deep enough for the extended Lagrangian's order where s asks for it
  puremd::ChargeHistory history;

  explicit CudaQEq(const puremd::QEqSettings &s)
      : settings(s), history(puremd::qeq_history_depth(s.xl, s.xl_order)) {
    const std::string dir = std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/CHO/";
    const puremd::ForceField ff = puremd::read_force_field(dir + "ffield.reax.cho");
    puremd::Control control;
    control.nonb_low = ff.nonb_low();
    control.nonb_cut = ff.nonb_cut();
    control.bo_cut = ff.bo_cut();
    engine = puremd::make_engine(puremd::Driver::Cuda, ff, control);
  }

  puremd::QEqResult solve(const puremd::QEqInput &in, puremd::QEqComm &comm, double *q) {
    constexpr int kTypes = 16;  // covers the tests' types, bad ones included
    element_.assign(kTypes, 0);
    if (in.type_map)
      for (int t = 0; t < kTypes; ++t)
        element_[t] = puremd::mapped_element(in.type_map, in.num_mapped, t) >= 0 ? 0 : -1;
    zeros_.assign(in.n_total, 0);
    puremd::StepInput atoms;
    atoms.n_local = in.n_local;
    atoms.n_total = in.n_total;
    atoms.x = in.x;
    atoms.tag = in.tag;
    atoms.type = in.type ? in.type : zeros_.data();
    atoms.type_map = element_.data();
    atoms.num_mapped = kTypes;
    atoms.atoms_reordered = in.atoms_reordered;
    puremd::QEqProblem problem = in;
    problem.settings = settings;
    problem.num_types = in.type ? in.num_types : 0;
    return engine->solve_charges(atoms, problem, history, comm, q);
  }

 private:
  std::vector<int> element_, zeros_;
};

}  // namespace qeq_test
