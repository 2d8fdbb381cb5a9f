/* fix qeq/rel/reaxff/gpu: see fix_qeq_rel_reaxff_gpu.h. */
#include "fix_qeq_rel_reaxff_gpu.h"

#include "comm.h"
#include "error.h"
#include "kokkos_atoms.h"
#include "modify.h"
#include "puremd_gpu/qeq.h"
#include "qeq_efield.h"
#include "style_registry.h"

using namespace LAMMPS_NS;

FixQEqRelReaxFFGPU::FixQEqRelReaxFFGPU(LAMMPS *lmp, int narg, char **arg)
    : FixQtpieReaxFFGPU(lmp, narg, arg, puremd::OverlapModel::Relative) {}

void FixQEqRelReaxFFGPU::init() {
  FixQtpieReaxFFGPU::init();
  if (!efield && comm->me == 0)
    error->warning(FLERR, "Use fix qeq/reaxff/gpu instead of fix {} when not using fix efield",
                   style);
}

// Without a field, chi_eff = chi: the plain QEq solve.
void FixQEqRelReaxFFGPU::charge_model(puremd::QEqProblem &in) {
  if (efield) FixQtpieReaxFFGPU::charge_model(in);
}

namespace {
// The LAMMPS versions differ here: a style for fix qeq/rel/reaxff only where
// LAMMPS has that fix (4Jul2026 on), so that `-sf gpu` maps exactly what
// runs without it.
bool lammps_has_qeq_rel(LAMMPS *lmp) { return lmp->modify->fix_map->count("qeq/rel/reaxff") > 0; }
const reaxff_gpu::RegisterStyle registered{
    reaxff_gpu::fix_style({"qeq/rel/reaxff/gpu"}, "QEqR charges for pair_style reaxff/gpu",
                          &reaxff_gpu::new_charge_fix<FixQEqRelReaxFFGPU>, &lammps_has_qeq_rel)};
}  // namespace
