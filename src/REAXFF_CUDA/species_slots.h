/* fix reaxff/species's slots (PairReaxFF's tmpid / tmpbo) filled so that each
   partner keeps its slot through an averaging window.

   The fix averages tmpbo[i][k] over Nrepeat samples slot by slot (fix
   ave/atom) and reads the partners from the last sample's tmpid. Filled in
   list order, a partner that crosses the 0.10 bond-order floor in mid-window
   moves the partners after it to other slots, and their averages mix (LAMMPS's
   reaxff does this in its list's order). Here a partner keeps its slot from
   its first sample in the window to the window's end; a slot whose partner is
   gone holds 0 until then, so every average is one partner's. Slots are held
   by atom IDs, atom and partner: fix ave/atom's sums move with their atoms
   when LAMMPS sorts or re-neighbours them (a new run's set-up does both, in
   mid-window), and the slots follow. An atom that arrives from another rank
   in mid-window starts with free slots here. The arrays are LAMMPS's
   [n][cap]. */
#ifndef LMP_REAXFF_GPU_SPECIES_SLOTS_H
#define LMP_REAXFF_GPU_SPECIES_SLOTS_H

#include <unordered_map>
#include <vector>

#include "lmptype.h"
#include "puremd_gpu/engine.h"

namespace LAMMPS_NS {

class SpeciesSlots {
 public:
  // A new window: every slot is free again.
  void reset() { slots_.clear(); }
  // This sample's bonds of the owned atoms [0, n) (partners as local
  // indices, IDs in tag) into id / bo, rows of cap slots (sb.widest <= cap);
  // the rest of each row is zeroed.
  void fill(const puremd::BondRows &sb, int n, int cap, const tagint *tag, int **id, double **bo);

 private:
  // atom ID -> the partner ID each slot is kept for this window
  std::unordered_map<tagint, std::vector<tagint>> slots_;
};

}  // namespace LAMMPS_NS

#endif
