/* fix efield in charge equilibration, as fix qeq/reaxff takes it: the
   field's potential at each owned atom of fix efield's group (and region)
   shifts that atom's electronegativity, chi_i + phi_i with phi_i = -E . x_i
   (unwrapped x, E in V/A: eV per unit charge) or, for an atom-style field,
   fix efield's atom-style potential. The field's own energy and forces stay
   with fix efield. */
#ifndef LMP_QEQ_EFIELD_H
#define LMP_QEQ_EFIELD_H

#include <memory>
#include <vector>

#include "lammps_protected.h"
#include "pointers.h"

namespace LAMMPS_NS {

class QEqEfield : protected Pointers {
 public:
  // The run's fix efield for the charge fix `qeq_style`, checked against
  // fix qeq/reaxff's restrictions (real units, no field component along a
  // periodic direction, atom-style field only with an atom-style potential);
  // null without fix efield.
  static std::unique_ptr<QEqEfield> find(class LAMMPS *, const char *qeq_style);
  // The same for fix qtpie/reaxff, with its restrictions: real units, fix
  // efield on group all without a region, no atom-style field (fix
  // qtpie/reaxff reads that potential at ghost atoms, where fix efield has
  // not set it).
  static std::unique_ptr<QEqEfield> find_qtpie(class LAMMPS *, const char *qtpie_style);

  // phi_i (eV) of the owned atoms, 0 outside fix efield's group or region.
  const std::vector<double> &potential();
  // phi (eV) at every atom, owned and ghost, from its coordinates as they
  // are (fix qtpie/reaxff's -x . E): find_qtpie's fields only.
  const std::vector<double> &potential_everywhere();

 private:
  QEqEfield(class LAMMPS *lmp, class FixEfield *fix) : Pointers(lmp), fix(fix) {}
  static class FixEfield *the_fix(class LAMMPS *, const char *style);
  reaxff_gpu::EfieldRead evaluated();
  class FixEfield *fix;
  std::vector<double> phi;
};

}  // namespace LAMMPS_NS

#endif
