/* LAMMPS's per-atom arrays as our styles hand them to lib/puremd_gpu, and
   where they are. Without KOKKOS: LAMMPS's host arrays. Under `-k on`
   (LAMMPS's KOKKOS package, a /kk atom style): atomKK's views, and our
   styles are KOKKOS styles (kokkosable, an execution space, data masks), so
   that LAMMPS's integrators and communication keep the atoms on the GPU and
   the CUDA driver reads and writes them there, device to device.

   Only KOKKOS/kokkos_atoms.cpp includes Kokkos's headers (it is built where
   LAMMPS has KOKKOS); KOKKOS/kokkos_atoms_none.cpp stands in elsewhere. */
#ifndef LMP_REAXFF_GPU_KOKKOS_ATOMS_H
#define LMP_REAXFF_GPU_KOKKOS_ATOMS_H

#include <typeinfo>

#include "lmptype.h"
#include "pair.h"
#include "pointers.h"
#include "style_registry.h"

namespace LAMMPS_NS {
class Fix;
}

namespace reaxff_gpu {

// atom_masks.h's masks, as this LAMMPS holds them (32 bits in 4Feb2025, 64 later)
using AtomMask = decltype(LAMMPS_NS::Pair::datamask_read);

struct AtomArrays {
  double *x = nullptr;  // 3 per atom
  int *type = nullptr;
  LAMMPS_NS::tagint *tag = nullptr;
  double *q = nullptr;
  double *f = nullptr;  // 3 per atom
  int *mask = nullptr;
  bool on_gpu = false;  // GPU memory (puremd::AtomsInput::on_gpu)
};

// LAMMPS's own host arrays.
AtomArrays host_arrays(LAMMPS_NS::LAMMPS *lmp);

// LAMMPS runs with KOKKOS (`-k on`), and this plugin was built with its
// KOKKOS styles (against a LAMMPS with KOKKOS); then also checks, once, that
// this LAMMPS's KOKKOS has the precision and view layout the styles were
// compiled for (kokkos_check_build: a LAMMPS error otherwise).
bool kokkos_running(LAMMPS_NS::LAMMPS *lmp);
bool kokkos_styles_built();
void kokkos_check_build(LAMMPS_NS::LAMMPS *lmp);
// Kokkos's device memory is not the host's (a GPU backend).
bool kokkos_device_is_gpu();

// atomKK's arrays in `space` (LAMMPS synced there for the style).
AtomArrays kokkos_arrays(LAMMPS_NS::LAMMPS *lmp, LAMMPS_NS::ExecutionSpace space);
// atomKK->sync / modified (masks of atom_masks.h).
void kokkos_sync(LAMMPS_NS::LAMMPS *lmp, LAMMPS_NS::ExecutionSpace space, AtomMask mask);
void kokkos_modified(LAMMPS_NS::LAMMPS *lmp, LAMMPS_NS::ExecutionSpace space, AtomMask mask);

// Before host code of ours reads the arrays of `mask` (tags for the halo,
// positions for an electric field, ...): under KOKKOS, brought up to date
// on the host; nothing to do otherwise.
void host_arrays_current(LAMMPS_NS::LAMMPS *lmp, AtomMask mask);

// Under KOKKOS, a charge fix whose history moves with the atoms in LAMMPS's
// KOKKOS exchange and sort: each charge fix's KOKKOS form registers itself by
// the fix's C++ type, in a file of its own in KOKKOS/ (charge_fix_kokkos.h:
// one line), built where LAMMPS has KOKKOS; none is registered elsewhere.
// (FixMaker: style_registry.h's)
void register_kokkos_charge_fix(const std::type_info &fix, FixMaker make);
FixMaker kokkos_charge_fix(const std::type_info &fix);  // null: none registered
// fix_style's maker for T: its KOKKOS form under `-k on`
template <class T>
LAMMPS_NS::Fix *new_charge_fix(LAMMPS_NS::LAMMPS *lmp, int narg, char **arg) {
  if (kokkos_running(lmp))
    if (FixMaker make = kokkos_charge_fix(typeid(T))) return make(lmp, narg, arg);
  return new T(lmp, narg, arg);
}

}  // namespace reaxff_gpu

#endif
