// A HaloPattern (puremd_gpu/halo.h) grouped for replay, once per recording,
// by both solvers: per round, the values this rank packs for other ranks
// (one message per peer, peers ascending, each message's entries in the
// pattern's order), the copies it makes within itself (periodic images), and
// where the values it receives go. The host solver replays it with
// halo_forward_host; the CUDA solver uploads the index arrays and replays it
// on the GPU (cuda/charges/halo_exchange.h).
#pragma once

#include <vector>

#include "puremd_gpu/halo.h"
#include "puremd_gpu/qeq.h"

namespace puremd {

struct HaloRound {
  // A message of the round: `count` entries of the round's packed (to) or
  // received (from) buffer from entry `offset` on.
  struct Peer {
    int peer, offset, count;
  };
  std::vector<Peer> to, from;
  // The round's ranges of HaloPlan's index arrays.
  int pack_begin = 0, pack_end = 0;  // pack_index
  int self_begin = 0, self_end = 0;  // self_src, self_dst
  int recv_begin = 0, recv_end = 0;  // recv_index
};

struct HaloPlan {
  long long version = -1;  // the pattern's
  std::vector<HaloRound> rounds;
  std::vector<int> pack_index;          // the local atom each packed entry is read from
  std::vector<int> self_src, self_dst;  // copies within this rank
  std::vector<int> recv_index;          // the ghost each received entry goes to
  int max_pack = 0, max_recv = 0;       // entries of the largest round
  bool empty() const { return pack_index.empty() && self_src.empty() && recv_index.empty(); }
};

// Groups `pattern` for this rank (`me`), checking it against the atom counts
// (indices within the atoms, receives within the ghosts, a receive for every
// message to itself): throws RuntimeError naming what does not fit.
HaloPlan make_halo_plan(const HaloPattern &pattern, int me, int n_local, int n_total);

// Ghost entries of v (owned and ghost) from the atoms they are images of, by
// replaying the plan with `comm` (collective over the ranks of the pattern).
template <class T>
void halo_forward_host(const HaloPlan &plan, T *v, QEqComm &comm, std::vector<T> &send,
                       std::vector<T> &recv) {
  send.resize(plan.max_pack);
  recv.resize(plan.max_recv);
  std::vector<QEqComm::Message> out, in;
  for (const HaloRound &r : plan.rounds) {
    for (int k = r.pack_begin; k < r.pack_end; ++k) send[k - r.pack_begin] = v[plan.pack_index[k]];
    for (int k = r.self_begin; k < r.self_end; ++k) v[plan.self_dst[k]] = v[plan.self_src[k]];
    out.clear();
    in.clear();
    for (const HaloRound::Peer &p : r.to)
      out.push_back({p.peer, send.data() + p.offset, p.count * sizeof(T)});
    for (const HaloRound::Peer &p : r.from)
      in.push_back({p.peer, recv.data() + p.offset, p.count * sizeof(T)});
    if (!out.empty() || !in.empty())
      comm.exchange(out.data(), static_cast<int>(out.size()), in.data(),
                    static_cast<int>(in.size()));
    for (int k = r.recv_begin; k < r.recv_end; ++k) v[plan.recv_index[k]] = recv[k - r.recv_begin];
  }
}

}  // namespace puremd
