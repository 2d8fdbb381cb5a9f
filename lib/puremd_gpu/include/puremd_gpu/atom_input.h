// Per-atom input in the caller's own representation, so that the caller has
// no per-atom conversion to do on every step: the CUDA driver uploads the
// arrays as they are and converts on the GPU, the host driver while copying.
#pragma once

#include <cstddef>
#include <cstdint>

#include "puremd_gpu/hd.h"

namespace puremd {

// Force-field element of an atom of (LAMMPS) type t, from a map of
// num_mapped entries; -1 (the atom takes no part) for a type the map does
// not cover. Without a map, the type is the element.
PMD_HD PMD_INLINE int mapped_element(const int *map, int num_mapped, int t) {
  if (!map) return t;
  return (t >= 0 && t < num_mapped) ? map[t] : -1;
}

// Id i of an array of 8-byte (wide) or 4-byte ids.
PMD_HD PMD_INLINE long long id_at(const void *ids, bool wide, std::size_t i) {
  return wide ? static_cast<const std::int64_t *>(ids)[i]
              : static_cast<const std::int32_t *>(ids)[i];
}

// Global atom ids as the caller stores them. LAMMPS's tagint is a 32-bit int
// by default and a 64-bit integer with -DLAMMPS_BIGBIG; either is taken.
class TagArray {
 public:
  TagArray() = default;
  TagArray(std::nullptr_t) {}
  TagArray(const int *p) : p_(p), wide_(false) {}
  TagArray(const long *p) : p_(p), wide_(sizeof(long) == 8) {}
  TagArray(const long long *p) : p_(p), wide_(true) {}

  explicit operator bool() const { return p_ != nullptr; }
  bool wide() const { return wide_; }  // 8 bytes per id, else 4
  std::size_t bytes_per_id() const { return wide_ ? 8 : 4; }
  const void *data() const { return p_; }
  long long operator[](std::size_t i) const { return id_at(p_, wide_, i); }

 private:
  static_assert(sizeof(int) == 4 && sizeof(long long) == 8, "ids are 4 or 8 bytes");
  const void *p_ = nullptr;
  bool wide_ = true;
};

// The atoms of a call as the caller holds them (LAMMPS's arrays, read as they
// are): the one view of the atoms across the library's boundary. A force
// step (StepInput) and a charge solve's problem on them (QEqInput) are this
// plus what each adds.
struct AtomsInput {
  int n_local = 0;            // owned atoms
  int n_total = 0;            // owned + ghosts
  const double *x = nullptr;  // 3 * n_total positions (LAMMPS layout)
  // n_total atom types; atom i is of force-field element
  // mapped_element(type_map, num_mapped, type[i]): with no map, type[i] is
  // the element itself; -1 means the atom takes no part.
  const int *type = nullptr;
  const int *type_map = nullptr;
  int num_mapped = 0;
  TagArray tag;  // n_total global ids
  // Indices or ghosts changed since the last call (LAMMPS re-neighboured or
  // sorted): what a driver found by index (ghost owners) is found again.
  bool atoms_reordered = true;
  // The caller's arrays of this call (x, type, tag, and what a step or a
  // solve adds: q, u, the group mask, the forces and charges written back)
  // are in the memory of the engine's GPU, not the host's (LAMMPS's KOKKOS
  // views). The CUDA driver reads and writes them there, device to device;
  // the host driver cannot read them and refuses the call.
  bool on_gpu = false;
};

}  // namespace puremd
