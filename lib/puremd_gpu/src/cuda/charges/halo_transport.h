// How the halo's values reach a peer rank (halo_exchange.h): one transport
// per way, each in its own file and registered there, tried in the order of
// their ranks when the plan is made; the first that reaches a peer takes it:
//   const HaloTransports::Add<MyTransport> kMy("my way", 10);  // MyTransport(MemoryTracker &)
// Copies within this rank (periodic images) are no transport: the halo's
// pack kernel makes them.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/charges/halo_plan.h"
#include "common/registry.h"
#include "cuda/device_buffer.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

// What the transports share of the halo (CudaHalo's), for a plan.
struct HaloShared {
  cudaStream_t stream = nullptr;
  const HaloPlan *plan = nullptr;
  int rank = 0;
  // the receive buffer, two halves of total_recv double2 each (alternate
  // exchanges use alternate halves), each round its part of a half
  DeviceArray<double2> *recv = nullptr;
  long long total_recv = 0;
};

// One round of one exchange, values of `elem` bytes (double or double2).
struct HaloRoundIo {
  int round = 0, half = 0;
  std::size_t elem = 0;
  const char *send_dev = nullptr;  // the round's packed values (n_pack)
  int n_pack = 0;
  char *recv_dev = nullptr;  // the round's part of this exchange's receive half
};

class HaloTransport {
 public:
  virtual ~HaloTransport() = default;
  // When the plan is made, collective with every linked peer (`peers`, the
  // same on both sides of a link): which of them it reaches (taken[k] set;
  // those already taken by an earlier transport are offered as taken).
  virtual void connect(const HaloShared &h, QEqComm &comm, bool peer_copies,
                       const std::vector<int> &peers, std::vector<char> &taken) = 0;
  // One round: this rank's values on their way to its peers of the round;
  virtual void send(const HaloShared &h, QEqComm &comm, const HaloRoundIo &io) = 0;
  // then theirs in the receive buffer (done, or queued on the stream before
  // the unpack). Transports are called in their order, send then complete.
  virtual void complete(const HaloShared &h, QEqComm &comm, const HaloRoundIo &io) = 0;
  virtual int peers() const = 0;  // peers it reaches (for the log)
};

// The transports by rank (lower first), made once per halo: the library's
// registry (common/registry.h), keyed by name.
class HaloTransports {
  using Table = Registry<std::string, HaloTransport, MemoryTracker &>;

 public:
  template <class T>
  struct Add {
    Add(const char *name, int rank) { typename Table::template Add<T>{name, rank}; }
  };
  // one registered for a while only (a test's: Registry::Scoped)
  template <class T>
  using Scoped = typename Table::template Scoped<T>;
  // Every registered transport, in rank order, with its name.
  static std::vector<std::pair<std::string, std::unique_ptr<HaloTransport>>> make_all(
      MemoryTracker &mem) {
    std::vector<std::pair<std::string, std::unique_ptr<HaloTransport>>> out;
    for (const auto &e : Table::entries()) out.emplace_back(e.key, e.make(mem));
    return out;
  }
};

// The peers among `peers` (taken by a transport: mine[k]) that a round sends
// to (to) or receives from (from).
inline bool halo_round_has(const std::vector<HaloRound::Peer> &list, int peer) {
  return std::any_of(list.begin(), list.end(),
                     [&](const HaloRound::Peer &p) { return p.peer == peer; });
}

}  // namespace puremd::cuda
