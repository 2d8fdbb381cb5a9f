// Sums over the ranks on the GPUs, for the CUDA QEq solver's CG on several
// ranks of one node whose GPUs reach each other (CudaHalo::peer_reduce): each
// rank writes its partial sums into every rank's inbox (CUDA IPC) and then
// its number of the reduction into their flags; each waits for every rank's
// flag and adds the inbox in rank order, so every rank gets the same bits
// and the same CG decisions, with no host step (as one rank keeps CG's
// scalars on the GPU). Run by one thread.
#pragma once

#include <cuda_runtime.h>

#include "cuda/charges/peer_reduce.h"

namespace puremd::cuda {

// v[0..nv) summed over the ranks, in place.
__device__ __forceinline__ void peer_sum(const PeerReduce &p, double *v, int nv) {
  const int par = static_cast<int>(p.seq & 1);
  for (int r = 0; r < p.n; ++r) {
    volatile double *slot = p.inbox[r] + (par * kPeerRanks + p.me) * kPeerSums;
    for (int c = 0; c < nv; ++c) slot[c] = v[c];
  }
  __threadfence_system();
  for (int r = 0; r < p.n; ++r)
    *reinterpret_cast<volatile unsigned long long *>(p.flag[r] + p.me) = p.seq;
  volatile unsigned long long *mine = p.flag[p.me];
  for (int r = 0; r < p.n; ++r)
    while (mine[r] < p.seq) {
    }
  __threadfence_system();
  const volatile double *in = p.inbox[p.me] + par * kPeerRanks * kPeerSums;
  for (int c = 0; c < nv; ++c) {
    double s = 0.0;
    for (int r = 0; r < p.n; ++r) s += in[r * kPeerSums + c];
    v[c] = s;
  }
}

}  // namespace puremd::cuda
