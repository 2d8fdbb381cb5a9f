// kokkos_atoms.h with LAMMPS's KOKKOS package: atomKK's views. Built with
// Kokkos's compiler settings (CUDA for a GPU backend), as LAMMPS's own
// KOKKOS sources are.
#include "kokkos_atoms.h"

#include <initializer_list>
#include <stdexcept>
#include <string>

#include "atom_kokkos.h"
#include "error.h"
#include "info.h"
#include "kokkos_compat.h"
#include "kokkos_type.h"
#include "lammps.h"

namespace reaxff_gpu {

using namespace LAMMPS_NS;

namespace {
AtomKokkos *atom_kk(LAMMPS *lmp) {
  auto *a = dynamic_cast<AtomKokkos *>(lmp->atom);
  if (!a) throw std::logic_error("reaxff/gpu: LAMMPS runs with KOKKOS but its Atom is not atomKK");
  return a;
}

// (Host: LAMMPS's legacy host arrays, which 4Jul2026's Kokkos host copies
// are not when they need a transform; kokkos_compat.h checks they need none)
template <class Array>
auto *data_in(Array &v, ExecutionSpace space) {
  return space == Device ? v.view_device().data() : v.view_host().data();
}

// Which of `settings` this LAMMPS's KOKKOS reports for `category`.
std::string lammps_setting(const char *category, std::initializer_list<const char *> settings) {
  for (const char *s : settings)
    if (Info::has_accelerator_feature("KOKKOS", category, s)) return s;
  return "unknown";
}
}  // namespace

bool kokkos_styles_built() { return true; }

// The plugin reads atomKK's arrays as LAMMPS's KOKKOS headers laid them out
// when it was compiled (kokkos_compat.h): a LAMMPS built with another
// precision or view layout has other arrays under the same names.
void kokkos_check_build(LAMMPS *lmp) {
  static bool matches = false;  // (one liblammps a process)
  if (matches) return;
  const std::string precision = lammps_setting("precision", {"double", "mixed", "single"});
  if (precision != kk::kPrecision)
    lmp->error->all(FLERR,
                    "reaxff/gpu's KOKKOS styles were compiled for LAMMPS's KOKKOS package in {} "
                    "precision, but this LAMMPS's is {}: run them in a LAMMPS built with "
                    "-DKOKKOS_PREC={} (the default), or without -k on",
                    kk::kPrecision, precision, kk::kPrecision);
  if (kk::kLayout) {
    const std::string layout = lammps_setting("layout", {"legacy", "default"});
    if (layout != kk::kLayout)
      lmp->error->all(FLERR,
                      "reaxff/gpu's KOKKOS styles were compiled for LAMMPS's KOKKOS view layout "
                      "'{}', but this LAMMPS's is '{}': build the plugin against this LAMMPS (a "
                      "fresh build folder with -DLAMMPS_INSTALL_DIR naming it), or run the LAMMPS "
                      "it was built for",
                      kk::kLayout, layout);
  }
  matches = true;
}

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
  // LAMMPS's KOKKOS kernels (the integrator, the ghosts' forward
  // communication, force clearing) run asynchronously on Kokkos's stream, the
  // library on its own: they must be done before it reads these arrays. Seen
  // without this fence on one H100, one rank: forces of stale ghost positions
  // (HNS after 100 steps 2.6e-5 off, RunStyles' second runs 2 % off).
  if (r.on_gpu) Kokkos::fence("reaxff/gpu: LAMMPS's kernels before the library reads the atoms");
  return r;
}

void kokkos_sync(LAMMPS *lmp, ExecutionSpace space, AtomMask mask) {
  atom_kk(lmp)->sync(space, mask);
}

void kokkos_modified(LAMMPS *lmp, ExecutionSpace space, AtomMask mask) {
  atom_kk(lmp)->modified(space, mask);
}

}  // namespace reaxff_gpu
