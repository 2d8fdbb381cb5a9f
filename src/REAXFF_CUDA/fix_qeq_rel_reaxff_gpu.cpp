/* fix qeq/rel/reaxff/gpu: see fix_qeq_rel_reaxff_gpu.h. */
#include "fix_qeq_rel_reaxff_gpu.h"

#include "comm.h"
#include "error.h"
#include "puremd_gpu/qeq.h"
#include "qeq_efield.h"

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
