/* fix reaxff/species/gpu: LAMMPS's fix reaxff/species for pair_style
   reaxff/gpu (what `-sf gpu` makes of it). Same arguments, molecules,
   species and files; two parts of LAMMPS's made fast (bench/README, issue 41):
   - The averaging. LAMMPS's fix averages 31 per-atom columns (charge,
     position, velocity, 24 bond-order slots) through a compute and fix
     ave/atom, column by column, about 0.1 s per sample at 155,648 atoms.
     Here each atom keeps, per partner (by atom ID, so it is the partner's
     average whatever the order of the lists), the sum of its bond orders
     over the samples: one pass over the bonds the pair sends from the GPU
     (only on sample steps). The window follows LAMMPS's fix ave/atom
     (Nevery, Nrepeat, Nfreq), and the sums move with their atoms as
     ave/atom's do.
   - The molecule and species search of the output steps: LAMMPS's labels
     molecules by sweeping every atom's bonds until no label changes, then
     counts each molecule's elements in a pass over all atoms per molecule,
     with two MPI_Allreduce per molecule: O(molecules x atoms). Here a
     union-find over the bonds above the cut-off (repeated over LAMMPS's
     forward communication until no rank changes a label), one pass to count
     elements and one MPI_Allreduce; LAMMPS's own SortMolecule and
     WriteFormulas then number and write them.
   With `position` or `delete`, whose outputs read the averaged positions and
   LAMMPS's own search, the fix is LAMMPS's (on tmpid / tmpbo from the pair). */
#ifndef LMP_FIX_REAXFF_SPECIES_GPU_H
#define LMP_FIX_REAXFF_SPECIES_GPU_H

#include <vector>

#include "asks_pair.h"
#include "ave_atom_schedule.h"
#include "fix_reaxff_species.h"
#include "species_window.h"

namespace LAMMPS_NS {

class FixReaxFFSpeciesGPU : public FixReaxFFSpecies, public reaxff_gpu::AsksPair {
 public:
  FixReaxFFSpeciesGPU(class LAMMPS *, int, char **);
  ~FixReaxFFSpeciesGPU() override;
  void init() override;
  void setup(int) override;
  void post_integrate() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  double memory_usage() override;
  // This fix averages the pair's bonds itself (PairReaxFFGPU then leaves
  // tmpid / tmpbo alone for it), but with `position` or `delete`.
  bool asks_pair() const override { return fast; }

 private:
  bool fast = false;
  bool specbond_replaced = false;  // LAMMPS's averaging fix replaced (init)
  class PairReaxFFGPU *ours = nullptr;
  // Per owned atom: up to MAXSPECBOND partners, each with its bond-order sum
  // or, after the window's last sample, average (species_window.h).
  SpeciesWindow window;
  int irepeat = 0;
  bigint next_sample = -1;
  std::vector<int> parent;
  std::vector<double> label;
  std::vector<std::pair<int, int>> edges;

  AveAtomSchedule schedule() const { return {nevery, nrepeat, nfreq}; }
  void sample();
  void write_output();
  void find_molecules();
  void count_species(int nmole, int &nspec);
};

}  // namespace LAMMPS_NS

#endif
