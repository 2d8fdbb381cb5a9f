#include "species_slots.h"

#include <algorithm>

using namespace LAMMPS_NS;

namespace {
int slot_of(const std::vector<tagint> &slot, tagint partner) {
  const auto at = std::find(slot.begin(), slot.end(), partner);
  return at == slot.end() ? -1 : static_cast<int>(at - slot.begin());
}
}  // namespace

void SpeciesSlots::fill(const puremd::BondRows &sb, int n, int cap, const tagint *tag, int **id,
                        double **bo) {
  for (int i = 0; i < n; ++i) {
    std::fill_n(id[i], cap, 0);
    std::fill_n(bo[i], cap, 0.0);
    const int first = sb.start[i], last = sb.start[i + 1];
    if (first == last) continue;
    std::vector<tagint> &slot = slots_[tag[i]];
    // partners that hold a slot go there; the others are newcomers
    bool newcomers = false;
    for (int e = first; e < last; ++e) {
      const int j = sb.partner[e], k = slot_of(slot, tag[j]);
      if (k < 0) {
        newcomers = true;
        continue;
      }
      id[i][k] = j;
      bo[i][k] = sb.bo[e];
    }
    if (!newcomers) continue;
    // newcomers after the used slots; if they do not fit there, the slots of
    // partners that are gone are given up (their averages are lost)
    for (int e = first; e < last; ++e) {
      const int j = sb.partner[e];
      if (slot_of(slot, tag[j]) >= 0) continue;
      if (static_cast<int>(slot.size()) == cap) {  // keep only this sample's partners
        int w = 0;
        for (int r = 0; r < cap; ++r)
          if (bo[i][r] != 0.0) {  // (a bond here is of order >= 0.10)
            slot[w] = slot[r];
            id[i][w] = id[i][r];
            bo[i][w] = bo[i][r];
            ++w;
          }
        for (int r = w; r < cap; ++r) id[i][r] = 0, bo[i][r] = 0.0;
        slot.resize(w);
      }
      id[i][slot.size()] = j;
      bo[i][slot.size()] = sb.bo[e];
      slot.push_back(tag[j]);
    }
  }
}
