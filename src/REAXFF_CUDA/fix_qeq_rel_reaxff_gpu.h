/* fix qeq/rel/reaxff/gpu: QEqR charges for pair_style reaxff/gpu.

   Same syntax as fix qeq/rel/reaxff (LAMMPS 4Jul2026 on):
       fix ID group qeq/rel/reaxff/gpu Nevery cutlo cuthi tol params gauss_file [nowarn]
           [maxiter N] [scale S]
   With fix efield, each atom's electronegativity is shifted by the field's
   potential relative to its overlap-weighted mean over the atoms within the
   overlap cut-off, times `scale` (OverlapModel::Relative,
   puremd_gpu/physics/qtpie.h), so a field may point along a periodic
   direction. Without fix efield the charges are fix qeq/reaxff/gpu's, with a
   warning, as fix qeq/rel/reaxff gives them. Everything else (gauss file,
   comm cut-off, fix efield's restrictions, extra keywords) is fix
   qtpie/reaxff/gpu's. Registered only in a LAMMPS that has fix qeq/rel/reaxff
   (plugin.cpp). */
#ifndef LMP_FIX_QEQ_REL_REAXFF_GPU_H
#define LMP_FIX_QEQ_REL_REAXFF_GPU_H

#include "fix_qtpie_reaxff_gpu.h"

namespace LAMMPS_NS {

class FixQEqRelReaxFFGPU : public FixQtpieReaxFFGPU {
 public:
  FixQEqRelReaxFFGPU(class LAMMPS *, int, char **);
  void init() override;

 protected:
  void charge_model(puremd::QEqProblem &in) override;
  bool uses_overlaps() const override { return efield != nullptr; }
};

}  // namespace LAMMPS_NS

#endif
