#include "species_slots.h"

#include <algorithm>

using namespace LAMMPS_NS;

void SpeciesSlots::reset(int n, int **id, double **bo) {
  for (int i = 0; i < n && i < static_cast<int>(used_.size()); ++i) {
    for (int k = 0; k < used_[i]; ++k) {
      id[i][k] = 0;
      bo[i][k] = 0.0;
      partner_[static_cast<size_t>(i) * cap_ + k] = -1;
    }
    used_[i] = 0;
  }
}

void SpeciesSlots::fill(const puremd::BondRows &sb, int n, int cap, int **id, double **bo) {
  if (cap != cap_ || static_cast<int>(used_.size()) < n) {
    const size_t rows = std::max<size_t>(n, used_.size());
    partner_.assign(rows * cap, -1);
    used_.assign(rows, 0);
    cap_ = cap;
    for (int i = 0; i < n; ++i) std::fill_n(id[i], cap, 0), std::fill_n(bo[i], cap, 0.0);
  }
  for (int i = 0; i < n; ++i) {
    int *slot = partner_.data() + static_cast<size_t>(i) * cap;
    const int first = sb.start[i], last = sb.start[i + 1];
    // partners this sample: in their slots, or not yet placed (-1)
    for (int k = 0; k < used_[i]; ++k) {
      id[i][k] = 0;
      bo[i][k] = 0.0;
    }
    int placed_all = 1;
    for (int e = first; e < last; ++e) {
      const int j = sb.partner[e];
      int k = 0;
      while (k < used_[i] && slot[k] != j) ++k;
      if (k == used_[i]) {
        placed_all = 0;
        continue;
      }
      id[i][k] = j;
      bo[i][k] = sb.bo[e];
    }
    if (placed_all) continue;
    // newcomers: after the used slots; if they do not fit there, the slots of
    // partners that are gone are given up (their averages are lost)
    int free_slots = cap - used_[i];
    for (int e = first; e < last; ++e) {
      const int j = sb.partner[e];
      int k = 0;
      while (k < used_[i] && slot[k] != j) ++k;
      if (k < used_[i]) continue;
      if (free_slots == 0) {  // compact: keep only this sample's partners
        int w = 0;
        for (int r = 0; r < used_[i]; ++r)
          if (id[i][r] != 0 || bo[i][r] != 0.0) {
            slot[w] = slot[r];
            id[i][w] = id[i][r];
            bo[i][w] = bo[i][r];
            ++w;
          }
        for (int r = w; r < used_[i]; ++r) slot[r] = -1, id[i][r] = 0, bo[i][r] = 0.0;
        used_[i] = w;
        free_slots = cap - w;
      }
      slot[used_[i]] = j;
      id[i][used_[i]] = j;
      bo[i][used_[i]] = sb.bo[e];
      ++used_[i];
      --free_slots;
    }
  }
}
