// kokkos_atoms.h with LAMMPS's KOKKOS package: atomKK's views. Built with
// Kokkos's compiler settings (CUDA for a GPU backend), as LAMMPS's own
// KOKKOS sources are.
#include "kokkos_atoms.h"

#include <stdexcept>
#include <type_traits>

#include "atom_kokkos.h"
#include "kokkos_type.h"
#include "lammps.h"

namespace reaxff_gpu {

using namespace LAMMPS_NS;

// lib/puremd_gpu reads positions and forces as 3 doubles an atom, in order.
static_assert(std::is_same<X_FLOAT, double>::value && std::is_same<F_FLOAT, double>::value,
              "reaxff/gpu needs LAMMPS's KOKKOS package in double precision");
static_assert(std::is_same<DAT::tdual_x_array::array_layout, Kokkos::LayoutRight>::value &&
                  std::is_same<DAT::tdual_f_array::array_layout, Kokkos::LayoutRight>::value,
              "reaxff/gpu needs KOKKOS's positions and forces as rows of 3 (LayoutRight)");

namespace {
AtomKokkos *atom_kk(LAMMPS *lmp) {
  auto *a = dynamic_cast<AtomKokkos *>(lmp->atom);
  if (!a) throw std::logic_error("reaxff/gpu: LAMMPS runs with KOKKOS but its Atom is not atomKK");
  return a;
}

template <class Dual>
auto *data_in(Dual &v, ExecutionSpace space) {
  return space == Device ? v.d_view.data() : v.h_view.data();
}
}  // namespace

bool kokkos_styles_built() { return true; }

bool kokkos_device_is_gpu() {
  return !Kokkos::SpaceAccessibility<Kokkos::HostSpace, LMPDeviceType::memory_space>::accessible;
}

AtomArrays kokkos_arrays(LAMMPS *lmp, ExecutionSpace space) {
  AtomKokkos *a = atom_kk(lmp);
  AtomArrays r;
  r.x = data_in(a->k_x, space);
  r.f = data_in(a->k_f, space);
  r.type = data_in(a->k_type, space);
  r.tag = data_in(a->k_tag, space);
  r.q = data_in(a->k_q, space);
  r.mask = data_in(a->k_mask, space);
  r.on_gpu = space == Device && kokkos_device_is_gpu();
  return r;
}

void kokkos_sync(LAMMPS *lmp, ExecutionSpace space, AtomMask mask) {
  atom_kk(lmp)->sync(space, mask);
}

void kokkos_modified(LAMMPS *lmp, ExecutionSpace space, AtomMask mask) {
  atom_kk(lmp)->modified(space, mask);
}

}  // namespace reaxff_gpu
