/* What pair_style reaxff/gpu asks of this package's charge fixes (fix
   qeq/reaxff/gpu, acks2/reaxff/gpu, qtpie/reaxff/gpu, qeq/rel/reaxff/gpu):
   each implements ChargeFixGPU, and the pair finds the run's one among
   LAMMPS's fixes by this interface (find_charge_fix), never by a fix's name
   or class, so that it includes no charge fix's header. */
#ifndef LMP_CHARGE_FIX_GPU_H
#define LMP_CHARGE_FIX_GPU_H

namespace LAMMPS_NS {

class LAMMPS;
class Fix;

class ChargeFixGPU {
 public:
  // The effective potentials u (eV) of every atom, owned and ghost, that this
  // step's forces take with the charges (ACKS2's bond-softness and q u
  // terms); null for a charge model without them.
  virtual const double *effective_potentials() const = 0;

 protected:
  // (a fix is deleted as LAMMPS's Fix, never through this interface)
  ~ChargeFixGPU() = default;
};

// The run's charge fix of this package among LAMMPS's fixes (null: none),
// with what pair_style reaxff/gpu needs of the fixes: LAMMPS's own ReaxFF charge
// fixes are refused with the one to use instead (they need PairReaxFF's CPU
// lists), and unless `checkqeq` is off there must be exactly one charge fix,
// one of ours or fix qeq/shielded. `charge_fix` is set to the LAMMPS fix
// that is the returned one.
ChargeFixGPU *find_charge_fix(LAMMPS *lmp, bool checkqeq, Fix *&charge_fix);

}  // namespace LAMMPS_NS

#endif
