/* fix reaxff/species's per-partner window, one for both ways its bonds are
   averaged:
   - fix reaxff/species/gpu sums each partner's bond orders in it over the
     window's samples and averages them itself;
   - LAMMPS's own fix (or ours with `position` / `delete`) averages PairReaxFF's
     tmpid / tmpbo slot by slot (fix ave/atom): pair_style reaxff/gpu fills
     those from the window's slots, so that each slot is one partner's.
   A row per owned atom of `cap` slots (partner atom ID, value), ID 0 a free
   slot. A partner keeps its slot from its first sample in the window to the
   window's end; a newcomer takes the first free slot. Filled in list order
   instead, a partner that crosses the 0.10 floor in mid-window would move the
   partners after it and their averages would mix (LAMMPS's reaxff does so).
   Rows follow their atoms: through LAMMPS's exchange callbacks where a fix
   owns the window (grow / copy / pack / unpack), else by atom ID (follow:
   LAMMPS's sorting and re-neighbouring in mid-window, as a new run's set-up
   does; an atom that arrives from another rank then starts with free slots). */
#ifndef LMP_REAXFF_GPU_SPECIES_WINDOW_H
#define LMP_REAXFF_GPU_SPECIES_WINDOW_H

#include <vector>

#include "lmptype.h"

namespace LAMMPS_NS {

class SpeciesWindow {
 public:
  explicit SpeciesWindow(int cap) : cap_(cap) {}
  int cap() const { return cap_; }
  int width() const { return 2 * cap_; }  // doubles a row packs into

  // Rows for atoms [0, n) at least (new rows free).
  void grow(int n);
  // A new window: every slot of rows [0, n) free.
  void clear(int n);
  // Atom i's row follows atom ID tag[i] for i < n: rows of IDs seen before
  // are kept, others start free (nothing moves if the IDs are as they were).
  void follow(const tagint *tag, int n);

  // The slot of partner `id` in atom i's row: its own, else the first free
  // one (now the partner's), else -1 (every slot held by another partner).
  int slot(int i, tagint id);
  // The slot partner `id` holds in atom i's row, or -1.
  int find(int i, tagint id) const;
  // Atom i's row full: the slots of partners not among present[0, n) are
  // freed (those partners' values are lost); the others keep theirs.
  void free_absent(int i, const tagint *present, int n);

  tagint partner(int i, int k) const { return static_cast<tagint>(row(i)[2 * k]); }
  double &value(int i, int k) { return row_(i)[2 * k + 1]; }
  double value(int i, int k) const { return row(i)[2 * k + 1]; }

  // LAMMPS's per-atom callbacks (a fix's grow_arrays, copy_arrays,
  // pack_exchange, unpack_exchange): a row as width() doubles.
  void copy(int from, int to);
  int pack(int i, double *buf) const;
  int unpack(int i, const double *buf);
  double bytes() const { return static_cast<double>(rows_.size()) * sizeof(double); }

 private:
  int cap_;
  std::vector<double> rows_;   // (partner ID, value) per slot, per atom
  std::vector<tagint> owner_;  // the atom ID each row follows (follow)
  const double *row(int i) const { return rows_.data() + static_cast<size_t>(i) * width(); }
  double *row_(int i) { return rows_.data() + static_cast<size_t>(i) * width(); }
};

}  // namespace LAMMPS_NS

#endif
