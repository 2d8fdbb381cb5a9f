/* fix reaxff/species's slots (PairReaxFF's tmpid / tmpbo) filled so that each
   partner keeps its slot through an averaging window.

   The fix averages tmpbo[i][k] over Nrepeat samples slot by slot (fix
   ave/atom) and reads the partners from the last sample's tmpid. Filled in
   list order, a partner that crosses the 0.10 bond-order floor in mid-window
   moves the partners after it to other slots, and their averages mix (LAMMPS's
   reaxff does this in its list's order). Here a partner keeps its slot from
   its first sample in the window to the window's end; a slot whose partner is
   gone holds 0 (tmpid 0: not read) until then, so every average is one
   partner's. No LAMMPS headers: the arrays are LAMMPS's [n][cap]. */
#ifndef LMP_REAXFF_GPU_SPECIES_SLOTS_H
#define LMP_REAXFF_GPU_SPECIES_SLOTS_H

#include <vector>

#include "puremd_gpu/engine.h"

namespace LAMMPS_NS {

class SpeciesSlots {
 public:
  // A new window (or new atom indices): every slot is free again, and the
  // rows [0, n) of id / bo are zeroed where they were written.
  void reset(int n, int **id, double **bo);
  // This sample's bonds of the owned atoms [0, n) into id / bo (rows of cap
  // slots; sb.widest <= cap).
  void fill(const puremd::BondRows &sb, int n, int cap, int **id, double **bo);

 private:
  int cap_ = 0;
  std::vector<int> partner_;  // [n][cap]: the partner a slot is kept for, -1 free
  std::vector<int> used_;     // slots [0, used_[i]) of row i hold or held a partner
};

}  // namespace LAMMPS_NS

#endif
