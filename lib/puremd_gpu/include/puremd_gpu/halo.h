// The halo of a sub-domain as the caller's domain decomposition fills it:
// which owned (or earlier-received ghost) values go to which rank, and which
// ghost entries each rank's message fills, recorded once per re-neighbouring
// (LAMMPS: FixQEqReaxFFGPU records its forward communication's swaps through
// its pack/unpack callbacks). The charge solvers replay it on every exchange
// of a per-atom vector (common/charges/halo_plan.h groups it; the CUDA solver packs,
// sends and unpacks on the GPU, cuda/charges/halo_exchange.h), so that only border
// values move, once per exchange, all of a round's values for one rank in one
// message.
#pragma once

#include <cstddef>
#include <vector>

namespace puremd {

struct HaloPattern {
  // New at every recording: the solvers rebuild their plans when it changes.
  long long version = -1;
  // Messages run in rounds: a message of round r sends only owned values or
  // ghosts received in rounds before r (LAMMPS forwards ghosts through later
  // swaps). The same on every rank.
  int rounds = 0;
  // A message this rank sends: to `peer` (this rank itself for periodic
  // images), in round `round`, the values of `index` (local atoms: owned or
  // ghost). In the order sent: messages to one peer in one round travel as
  // one, concatenated in this order.
  struct Send {
    int peer = 0;
    int round = 0;
    std::vector<int> index;
  };
  // A message this rank receives: from `peer`, in round `round`, into the
  // ghost entries [first, first + count). Ordered as the peer sends them.
  struct Recv {
    int peer = 0;
    int round = 0;
    int first = 0;
    int count = 0;
  };
  std::vector<Send> sends;
  std::vector<Recv> recvs;
};

// A version no other pattern of this process has had (HaloPattern::version):
// every recording or made pattern takes one, so a solver's plan is never
// taken for another pattern's.
long long new_halo_version();

// One sub-domain's periodic images as a pattern (rank 0 sending to itself,
// one round): ghost n_local + g gets owned atom owner[g] (0 <= owner[g] <
// n_local, n_total - n_local entries). A new version at every call.
HaloPattern image_halo(const int *owner, int n_local, int n_total);

}  // namespace puremd
