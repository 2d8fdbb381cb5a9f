/* The lines of a fix reaxff/bonds file for one rank's atoms, in LAMMPS's
   format (FixReaxFFBonds::RecvBuffer's), made by several threads: a million
   atoms are a hundred megabytes of text, which one thread formats in about a
   second (bench/README, "fix reaxff/bonds/gpu"). */
#ifndef LMP_REAXFF_GPU_BONDS_TEXT_H
#define LMP_REAXFF_GPU_BONDS_TEXT_H

#include <string>
#include <vector>

#include "lmptype.h"

namespace LAMMPS_NS {

// One rank's atoms, in the order they are written.
struct BondsBlock {
  std::vector<tagint> ids;   // per atom: tag, type, nb, the nb partners' tags, molecule
  std::vector<double> vals;  // per atom: the nb bond orders, total bond order, lone pairs, q
  int atoms = 0;
  void add_atom(tagint tag, int type, int nb) {
    ids.push_back(tag);
    ids.push_back(type);
    ids.push_back(nb);
    ++atoms;
  }
};

// The block's lines, as consecutive pieces of text (one per thread).
std::vector<std::string> bonds_text(const BondsBlock &block, int threads);

}  // namespace LAMMPS_NS

#endif
