/* fix reaxff/species/gpu: LAMMPS's fix reaxff/species (what `-sf gpu` makes of
   it) with the molecule and species search of its output steps in linear
   time. LAMMPS's own labels molecules by sweeping every atom's bonds until
   no label changes, then counts each molecule's elements by a pass over all
   atoms per molecule, with two MPI_Allreduce per molecule: O(molecules x
   atoms), a second per output at 155,648 atoms. Here: a union-find over the
   bonds above the cut-off (repeated over LAMMPS's forward communication until
   no rank changes a label), one pass to count elements, one MPI_Allreduce.
   The same molecules (each labelled by its smallest atom ID, as LAMMPS's),
   the same species and order, the same files, through LAMMPS's own
   SortMolecule and WriteFormulas. Inputs with `position` or `delete` keep
   LAMMPS's own search (which those outputs read). */
#ifndef LMP_FIX_REAXFF_SPECIES_GPU_H
#define LMP_FIX_REAXFF_SPECIES_GPU_H

#include <vector>

#include "fix_reaxff_species.h"

namespace LAMMPS_NS {

class FixReaxFFSpeciesGPU : public FixReaxFFSpecies {
 public:
  using FixReaxFFSpecies::FixReaxFFSpecies;
  void post_integrate() override;

 private:
  void find_molecules();
  void count_species(int nmole, int &nspec);
  std::vector<int> parent_;
  std::vector<double> label_;
  std::vector<std::pair<int, int>> edges_;
};

}  // namespace LAMMPS_NS

#endif
