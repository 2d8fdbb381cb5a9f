/* fix acks2/reaxff/gpu: ACKS2 charges for pair_style reaxff/gpu.

   Same syntax, keywords and parameter file as fix acks2/reaxff:
       fix ID group acks2/reaxff/gpu Nevery cutlo cuthi tol params [nowarn] [maxiter N]
   params is "reaxff" (chi, eta, gamma, bcut_acks2 and the bond softness from
   pair_style reaxff/gpu's force field) or a file whose first line is the
   bond softness, then one line "itype chi eta gamma bcut_acks2" per atom
   type. Registered also as acks2/reax/gpu (`-sf gpu` maps both LAMMPS names).

   The solve is fix qeq/reaxff/gpu's charge stage with the ACKS2 system
   (puremd::Acks2Input): one BiCGStab solve for the charges q and the
   effective potentials u, which the pair style then reads
   (ChargeFixGPU::effective_potentials) for the bond-softness energy and forces and the
   q u polarization term. u follows the atoms through the charge history
   (u where QEq keeps t): on steps between solves (Nevery > 1) it is taken
   from there and sent to the ghosts. With fix efield, the field shifts the
   electronegativities as in fix qeq/reaxff. f_ID is half the BiCGStab
   iteration count, as fix acks2/reaxff reports it. */
#ifndef LMP_FIX_ACKS2_REAXFF_GPU_H
#define LMP_FIX_ACKS2_REAXFF_GPU_H

#include <string>
#include <vector>

#include "fix_qeq_reaxff_gpu.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/qeq.h"

namespace LAMMPS_NS {

class FixAcks2ReaxFFGPU : public FixQEqReaxFFGPU {
 public:
  FixAcks2ReaxFFGPU(class LAMMPS *, int, char **);
  void pre_force(int) override;
  double memory_usage() override;

  // u of every atom, owned and ghost (eV), for this step's forces
  // (ChargeFixGPU: pair_style reaxff/gpu reads it so).
  const double *effective_potentials() const override { return u.data(); }

 protected:
  void extract_pair_parameters() override;
  void read_parameter_file(const char *) override;
  void charge_model(puremd::QEqProblem &in) override;

 private:
  std::vector<double> bcut_acks2;  // per atom type, 1..ntypes
  double bond_softness = 0.0;
  std::vector<double> u;
  puremd::Acks2Input acks2;  // what charge_model gives the solve
  void size_potentials();
};

}  // namespace LAMMPS_NS

#endif
