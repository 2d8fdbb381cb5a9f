// The parts of kokkos_atoms.h that need no Kokkos header.
#include "kokkos_atoms.h"

#include <map>
#include <typeindex>

#include "atom.h"
#include "lammps.h"

namespace reaxff_gpu {

using namespace LAMMPS_NS;

AtomArrays host_arrays(LAMMPS *lmp) {
  Atom *atom = lmp->atom;
  AtomArrays a;
  a.x = atom->x ? &atom->x[0][0] : nullptr;
  a.f = atom->f ? &atom->f[0][0] : nullptr;
  a.type = atom->type;
  a.tag = atom->tag;
  a.q = atom->q;
  a.mask = atom->mask;
  return a;
}

// (a plugin built without them runs as host styles: LAMMPS copies every
// array to the host for them and back)
bool kokkos_running(LAMMPS *lmp) {
  if (lmp->kokkos == nullptr || !kokkos_styles_built()) return false;
  kokkos_check_build(lmp);
  return true;
}

void host_arrays_current(LAMMPS *lmp, AtomMask mask) {
  if (kokkos_running(lmp)) kokkos_sync(lmp, Host, mask);
}

namespace {
// (a function's static: filled by the KOKKOS files' registrations at load)
std::map<std::type_index, FixMaker> &kokkos_charge_fixes() {
  static std::map<std::type_index, FixMaker> t;
  return t;
}
}  // namespace

void register_kokkos_charge_fix(const std::type_info &fix, FixMaker make) {
  kokkos_charge_fixes()[std::type_index(fix)] = make;
}

FixMaker kokkos_charge_fix(const std::type_info &fix) {
  const auto it = kokkos_charge_fixes().find(std::type_index(fix));
  return it == kokkos_charge_fixes().end() ? nullptr : it->second;
}

}  // namespace reaxff_gpu
