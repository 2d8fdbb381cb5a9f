// kokkos_atoms.h where LAMMPS has no KOKKOS package (or this plugin was built
// without a CUDA compiler for it): our styles are host styles under `-k on`.
#include <stdexcept>

#include "kokkos_atoms.h"

namespace reaxff_gpu {

using namespace LAMMPS_NS;

namespace {
[[noreturn]] void not_built() {
  throw std::logic_error("reaxff/gpu: built without LAMMPS's KOKKOS package");
}
}  // namespace

bool kokkos_styles_built() { return false; }
bool kokkos_device_is_gpu() { return false; }
void kokkos_check_build(LAMMPS *) {}
AtomArrays kokkos_arrays(LAMMPS *, ExecutionSpace) { not_built(); }
void kokkos_sync(LAMMPS *, ExecutionSpace, AtomMask) { not_built(); }
void kokkos_modified(LAMMPS *, ExecutionSpace, AtomMask) { not_built(); }

}  // namespace reaxff_gpu
