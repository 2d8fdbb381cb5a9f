/* fix qtpie/reaxff/gpu: QTPIE charges for pair_style reaxff/gpu.

   Same syntax as fix qtpie/reaxff:
       fix ID group qtpie/reaxff/gpu Nevery cutlo cuthi tol params gauss_file [nowarn]
           [maxiter N] [scale S]
   gauss_file has one line "itype exponent" (1/Bohr^2) per atom type, with
   '#' comments. The charges are fix qeq/reaxff/gpu's solve with each atom's
   electronegativity replaced by QTPIE's overlap-weighted one
   (puremd::QtpieInput, physics/qtpie.h), over every atom within the overlap
   cut-off of the most diffuse orbital; with fix efield, its potential at
   each atom's coordinates enters that sum, times `scale` (1 by default; the
   keyword of fix qtpie/reaxff from LAMMPS 4Jul2026 on, accepted with any
   LAMMPS), as in fix qtpie/reaxff. The extra keywords of fix qeq/reaxff/gpu
   apply too. */
#ifndef LMP_FIX_QTPIE_REAXFF_GPU_H
#define LMP_FIX_QTPIE_REAXFF_GPU_H

#include <string>
#include <vector>

#include "fix_qeq_reaxff_gpu.h"
#include "puremd_gpu/physics/qtpie.h"
#include "puremd_gpu/qeq.h"

namespace LAMMPS_NS {

class FixQtpieReaxFFGPU : public FixQEqReaxFFGPU {
 public:
  FixQtpieReaxFFGPU(class LAMMPS *, int, char **);
  void post_constructor() override;
  void setup_pre_force(int) override;

 protected:
  // For fix qeq/rel/reaxff/gpu: the same fix with another chi_eff.
  FixQtpieReaxFFGPU(class LAMMPS *, int, char **, puremd::OverlapModel);
  std::unique_ptr<QEqEfield> find_efield() override;
  void charge_model(puremd::QEqProblem &in) override;
  // Whether the solve takes chi_eff from the overlaps (every atom type must
  // then be ReaxFF's).
  virtual bool uses_overlaps() const { return true; }
  void own_keyword(size_t k) override;  // scale

 private:
  const puremd::OverlapModel model;
  std::string gauss_file;
  double phi_scale = 1.0;        // `scale`
  std::vector<double> exponent;  // per atom type, 1..ntypes
  double cutoff_bohr = 0.0;      // overlap cut-off of the smallest exponent
  puremd::QtpieInput qtpie;      // what charge_model gives the solve
  void read_exponents();
};

}  // namespace LAMMPS_NS

#endif
