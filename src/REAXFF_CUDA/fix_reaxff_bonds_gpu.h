/* fix reaxff/bonds/gpu: LAMMPS's fix reaxff/bonds for pair_style reaxff/gpu
   (what `-sf gpu` makes of it). The same file, line for line. The bonds above
   the bond_graph_cutoff are picked on the GPU and only the owned atoms' rows
   leave it, on the output steps; each rank formats its own lines (several
   threads) and rank 0 writes them in rank order, where LAMMPS's fix copies
   the whole bond list and rank 0 formats every line. */
#ifndef LMP_FIX_REAXFF_BONDS_GPU_H
#define LMP_FIX_REAXFF_BONDS_GPU_H

#include <cstdio>

#include "asks_pair.h"
#include "fix_reaxff_bonds.h"

namespace puremd {
struct BondRows;
}

namespace LAMMPS_NS {

class FixReaxFFBondsGPU : public FixReaxFFBonds, public reaxff_gpu::AsksPair {
 public:
  using FixReaxFFBonds::FixReaxFFBonds;
  void init() override;

 protected:
  void Output_ReaxFF_Bonds() override;

 private:
  class PairReaxFFGPU *ours = nullptr;
  int threads = 1;  // formatting this rank's lines (init: the node's cores over its ranks)
  void keep_rows(const puremd::BondRows &rows);
  bool writes_file() const;
  FILE *output_file();
};

}  // namespace LAMMPS_NS

#endif
