/* What pair_style reaxff/gpu knows of the companion styles beside it (fix
   reaxff/bonds, fix reaxff/species, compute reaxff/atom): those of ours that
   ask the pair for its bonds when they read them are marked so, and the pair
   copies nothing after compute() for them. LAMMPS's own styles cannot ask:
   the pair fills PairReaxFF's arrays on the steps they read them. The pair
   needs no analysis style's header to tell them apart. */
#ifndef LMP_REAXFF_GPU_ASKS_PAIR_H
#define LMP_REAXFF_GPU_ASKS_PAIR_H

namespace reaxff_gpu {

class AsksPair {
 public:
  // Whether this style asks the pair for all it reads (a style that falls
  // back on LAMMPS's own code for some arguments says no).
  virtual bool asks_pair() const { return true; }

 protected:
  // (never deleted through this base: LAMMPS deletes styles through its own)
  ~AsksPair() = default;
};

// Whether the LAMMPS fix or compute `style` is one that asks the pair itself.
template <class Style>
bool asks_pair(const Style *style) {
  const auto *marked = dynamic_cast<const AsksPair *>(style);
  return marked && marked->asks_pair();
}

}  // namespace reaxff_gpu

#endif
