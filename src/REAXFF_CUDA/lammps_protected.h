/* Every read of LAMMPS state that LAMMPS keeps protected and offers no public
   route to, in one place (the rest of the plugin uses LAMMPS's public
   interface only):
   - fix reaxff/species's Nrepeat and next output step, which pair_style
     reaxff/gpu needs to fill PairReaxFF's tmpid / tmpbo for LAMMPS's own fix
     on the steps it reads them, and only then;
   - fix efield's field, its styles and its per-atom array, which LAMMPS's
     ReaxFF charge fixes read as its friends and ours take into the charge
     solve the same way.
   A class derived from LAMMPS's may name its protected members, and a
   pointer to a member named so reads them from any object of the base. A
   LAMMPS that renames one stops this file compiling; one that changes what a
   member holds fails its test (unittest/lammps/test_lammps_protected.cpp,
   run against both LAMMPS versions). */
#ifndef LMP_REAXFF_GPU_LAMMPS_PROTECTED_H
#define LMP_REAXFF_GPU_LAMMPS_PROTECTED_H

#include "lmptype.h"

namespace LAMMPS_NS {
class Fix;
class FixEfield;
class Memory;
class Region;
}  // namespace LAMMPS_NS

namespace reaxff_gpu {

// What fix reaxff/species keeps of its schedule beyond Fix's public nevery
// and global_freq (Nfreq).
struct SpeciesScheduleRead {
  int nrepeat = 0;
  LAMMPS_NS::bigint next_output = -1;  // -1 before the first output (a run's set-up)
};
// False where `fix` is not a fix reaxff/species (or a style derived from it).
bool species_schedule(const LAMMPS_NS::Fix *fix, SpeciesScheduleRead &out);

// fix efield's field as it stands: components in LAMMPS's force units per
// unit charge (the fix's own units), variables as last evaluated.
struct EfieldRead {
  double field[3] = {0.0, 0.0, 0.0};
  bool constant[3] = {true, true, true};  // each component a number, not a variable
  bool varying = false;                   // any component a variable
  bool atom_style = false;                // the field an atom-style variable
  bool atom_potential = false;            // with an atom-style potential variable
  LAMMPS_NS::Region *region = nullptr;    // the fix's region, or null
};
EfieldRead efield_state(const LAMMPS_NS::FixEfield *fix);
// Evaluates fix efield's variables now (the field, and for an atom-style one
// its per-atom rows), as the fix does in its post_force.
void efield_evaluate(LAMMPS_NS::FixEfield *fix);
// fix efield's per-atom rows (field x, y, z and potential), at least `nmax`
// of them: the fix grows them in its post_force, after the charge fixes.
double **efield_rows(LAMMPS_NS::FixEfield *fix, int nmax, LAMMPS_NS::Memory *memory);

}  // namespace reaxff_gpu

#endif
