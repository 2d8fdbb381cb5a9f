// A stand-in for several ranks in the CUDA charge tests (one process, one
// GPU): what the solver does when QEqComm::size() > 1, on a system whose
// ghosts are all images of its own atoms.
#pragma once

#include <cstring>

#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"

namespace qeq_test {

// The CUDA solver's path of several ranks, on one process: size() 2, every
// ghost an image of this rank's own atoms (image_halo: no message leaves the
// rank), the other rank silent (what it would send arrives as zeros: it
// takes no part in GPU-to-GPU sums). CG's scalars then come home through
// sum(), which is the local value.
struct TwoRankStandIn : SingleRankComm {
  int size() const override { return 2; }
  bool peer_copies() const override { return false; }
  void exchange(const Message *, int, const Message *recv, int n_recv) override {
    for (int k = 0; k < n_recv; ++k) std::memset(recv[k].data, 0, recv[k].bytes);
  }
};
inline TwoRankStandIn stand_in(const System &sys) {
  TwoRankStandIn c;
  c.n_local = sys.n_local;
  c.owner = sys.owner;
  return c;
}

}  // namespace qeq_test
