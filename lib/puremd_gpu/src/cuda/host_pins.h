// Page-locked (pinned) views of the caller's host arrays that every step
// copies to or from the GPU (positions, charges, forces, types, ids). A copy
// from pageable memory goes through the driver's bounce buffers at a fraction
// of the bus speed (HNS 16^3: ~10 ms a step for 24 + 24 + 8 bytes an atom);
// registered in place with cudaHostRegister, the same copies run at the
// bus's rate without an extra host copy.
//
// A slot holds one caller array: pinned again when the caller's pointer or
// capacity changes (LAMMPS reallocates its arrays as atoms are added),
// unpinned before that and at destruction. Small arrays are left as they
// are (they may share pages with others). A registration the system refuses
// (locked-memory limits) leaves the array pageable: slower, not wrong.
#pragma once

#include <cstddef>

namespace puremd::cuda {

class HostPins {
 public:
  enum Slot : int { kPositions = 0, kCharges, kForces, kTypes, kIds, kNumSlots };
  HostPins() = default;
  ~HostPins();
  HostPins(const HostPins &) = delete;
  HostPins &operator=(const HostPins &) = delete;

  // The capacity (atoms) and the position and charge arrays of the caller
  // this step, before any copy from them: when one changes, the caller has
  // reallocated (LAMMPS grows all its per-atom arrays together), and every
  // slot is let go at once, so that no registration of a freed array
  // outlives the step in which another array may take its place (a copy
  // from there would read the old pages).
  void follow(int capacity, const void *x, const void *q);
  // The caller's array p of `bytes` bytes (its whole allocation) in `slot`.
  void keep(Slot slot, const void *p, std::size_t bytes);

 private:
  struct Entry {
    const void *p = nullptr;
    std::size_t bytes = 0;
    bool pinned = false;
  };
  void release(Entry &e);
  Entry slots_[kNumSlots];
  int capacity_ = 0;
  const void *x_ = nullptr, *q_ = nullptr;
};

}  // namespace puremd::cuda
