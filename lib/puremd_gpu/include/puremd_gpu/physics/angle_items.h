// Bonded stages made of work items over the three-body list: an item is
// (p, s), three-body entry s of row p (bond entry p in the bond row of centre
// j). A stage names its items with a struct of static functions,
//   centre_on(j, v)            whether centre j has items at all
//   range(j, p, v, first, last) the entries of row p that are items
//   before(j, v)               per-centre work before the items (kBefore
//                              says whether there is any)
//   item(j, p, s, v)           one item: it adds what it owes to atoms and
//                              bonds itself (atomic_add on the GPU)
// The host driver runs a centre's items in a loop (angle_items_atom); the
// CUDA driver lists the items of all centres and runs a thread per item
// (cuda_stages.cu): a thread's work is then one angle's, not every angle or
// torsion of an atom, which kept a thread per atom waiting on latency.
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

// The `lanes` column of stages.h for a stage of work items.
constexpr int kAngleItems = 0;

template <class Items>
PMD_HD PMD_INLINE void angle_items_atom(int j, const StepView &v) {
  if (!Items::centre_on(j, v)) return;
  if constexpr (Items::kBefore) Items::before(j, v);
  for (int p = v.bonds.start[j]; p < v.bonds.end[j]; ++p) {
    int first = 0, last = 0;
    Items::range(j, p, v, first, last);
    for (int s = first; s < last; ++s) Items::item(j, p, s, v);
  }
}

}  // namespace puremd
