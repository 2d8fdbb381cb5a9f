// What a sum over the ranks on the GPUs reads (peer_reduce.cuh runs it; the
// halo exchange sets it up, CudaHalo::peer_reduce): host code may hold one.
#pragma once

namespace puremd::cuda {

constexpr int kPeerRanks = 8;  // ranks a node-local reduction serves at most
constexpr int kPeerSums = 4;   // values per reduction at most

struct PeerReduce {
  int n = 0;   // ranks (0: none; the host sums through QEqComm)
  int me = 0;  // this rank
  // every rank's inbox, [2 parities][kPeerRanks senders][kPeerSums], and
  // flags, [kPeerRanks senders] (this rank's own among them)
  double *inbox[kPeerRanks] = {};
  unsigned long long *flag[kPeerRanks] = {};
  unsigned long long seq = 0;  // this reduction's number (the same on every rank)
};

}  // namespace puremd::cuda
