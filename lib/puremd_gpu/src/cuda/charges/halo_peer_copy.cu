// The halo's peer copies (halo_transport.h): a peer on this node with a GPU
// of its own that this one can reach (NVLink or PCIe peer access) gets the
// packed values copied straight into its receive buffer (CUDA IPC, opened
// once per buffer); the sender then writes its count of exchanges into the
// peer's arrival flag for it, and the receiver's GPU waits for the flags of
// the round's peers before the unpack. No host takes part: a round of peer
// copies is queued, not waited for.
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "cuda/charges/halo_transport.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

constexpr int kMaxHaloRounds = 16;  // peer copies for plans of up to this many rounds

// Arrival flags: a sender writes, after its copies, the number of its
// exchanges with this rank so far into this rank's slot for it; the
// receiver waits on the GPU until every peer of the round has written its
// number, so no host takes part in a round of peer copies.
constexpr int kFlagBatch = 32;
struct FlagBatch {
  unsigned long long *flag[kFlagBatch];
  unsigned long long value[kFlagBatch];
  int n;
};

__global__ void k_halo_signal(FlagBatch b) {
  __threadfence_system();  // the copies before, on this stream, are seen first
  const int k = threadIdx.x;
  if (k < b.n) *reinterpret_cast<volatile unsigned long long *>(b.flag[k]) = b.value[k];
}

__global__ void k_halo_wait(FlagBatch b) {
  const int k = threadIdx.x;
  if (k < b.n)
    while (*reinterpret_cast<volatile unsigned long long *>(b.flag[k]) < b.value[k]) {
    }
  __threadfence_system();
}

// What a rank tells each linked peer of its receive buffer.
struct HaloCard {
  char host[64];
  char bus[32];
  cudaIpcMemHandle_t handle;
  long long half_bytes;
  int offset[kMaxHaloRounds];  // entries into a half where the peer's values go (-1: none)
  int can_copy;                // takes peer copies at all
  cudaIpcMemHandle_t flags;    // its arrival flags (the peer writes slot peer-rank)
};

// Opens the peer memory `h` into *p unless it is what *p holds (`held`).
bool open_peer(char **p, cudaIpcMemHandle_t *held, const cudaIpcMemHandle_t &h) {
  if (*p && std::memcmp(held, &h, sizeof h) == 0) return true;
  if (*p) cudaIpcCloseMemHandle(*p);
  *p = nullptr;
  if (cudaIpcOpenMemHandle(reinterpret_cast<void **>(p), h, cudaIpcMemLazyEnablePeerAccess) !=
      cudaSuccess)
    return false;
  *held = h;
  return true;
}

class HaloPeerCopy final : public HaloTransport {
 public:
  explicit HaloPeerCopy(MemoryTracker &mem) : mem_(mem) {}
  ~HaloPeerCopy() override { close(links_); }

  void connect(const HaloShared &h, QEqComm &comm, bool peer_copies, const std::vector<int> &peers,
               std::vector<char> &taken) override;
  void send(const HaloShared &h, QEqComm &comm, const HaloRoundIo &io) override;
  void complete(const HaloShared &h, QEqComm &comm, const HaloRoundIo &io) override;
  int peers() const override {
    return static_cast<int>(
        std::count_if(links_.begin(), links_.end(), [](const auto &l) { return l.second.copy; }));
  }

 private:
  struct Link {
    bool copy = false;       // reached by peer copies (both sides agreed)
    char *remote = nullptr;  // the peer's receive buffer, opened through CUDA IPC
    cudaIpcMemHandle_t handle{};
    long long half_bytes = 0;
    int offset[kMaxHaloRounds] = {};
    unsigned long long *remote_flags = nullptr;  // the peer's arrival flags, opened
    cudaIpcMemHandle_t flags_handle{};
  };
  static void close(std::map<int, Link> &links) {
    for (auto &e : links) {  // errors ignored (may run at exit)
      if (e.second.remote) cudaIpcCloseMemHandle(e.second.remote);
      if (e.second.remote_flags) cudaIpcCloseMemHandle(e.second.remote_flags);
    }
    links.clear();
  }

  MemoryTracker &mem_;
  std::map<int, Link> links_;  // by peer rank, every linked peer (copy: taken)
  // arrival flags of peer copies (a slot per peer rank), and the exchanges
  // with each peer rank so far (both sides count alike; never reset)
  DeviceArray<unsigned long long> flags_{"QEq halo: arrival flags", &mem_};
  std::map<int, unsigned long long> exchanges_;
  std::vector<QEqComm::Message> out_, in_;
};

// Every linked peer gets a card and a verdict (one exchange each way): a
// peer takes peer copies where both ranks are on this node, this GPU can
// reach the peer's, and its buffer opened.
void HaloPeerCopy::connect(const HaloShared &h, QEqComm &comm, bool peer_copies,
                           const std::vector<int> &peers, std::vector<char> &taken) {
  // keep the links (and their opened buffers) of peers still linked
  std::map<int, Link> kept;
  for (int p : peers) {
    auto it = links_.find(p);
    if (it != links_.end()) {
      kept[p] = it->second;
      links_.erase(it);
    } else {
      kept[p] = Link{};
    }
  }
  close(links_);
  links_ = kept;
  if (peers.empty()) return;

  const HaloPlan &plan = *h.plan;
  const int nr = static_cast<int>(plan.rounds.size());
  const bool can = peer_copies && nr <= kMaxHaloRounds;
  int device = 0;
  PMD_CUDA_CHECK(cudaGetDevice(&device));
  HaloCard mine{};
  gethostname(mine.host, sizeof mine.host - 1);
  PMD_CUDA_CHECK(cudaDeviceGetPCIBusId(mine.bus, sizeof mine.bus, device));
  mine.half_bytes = h.total_recv * static_cast<long long>(sizeof(double2));
  // arrival flags, a slot per peer rank (they only grow: a sender writes
  // absolute numbers)
  int top = h.rank;
  for (int p : peers) top = std::max(top, p);
  if (flags_.capacity() < static_cast<std::size_t>(top) + 1) {
    flags_.reserve_discarding(static_cast<std::size_t>(top) + 1, 2.0);
    PMD_CUDA_CHECK(cudaMemsetAsync(flags_.data(), 0, flags_.capacity() * sizeof(unsigned long long),
                                   h.stream));
    PMD_CUDA_CHECK(cudaStreamSynchronize(h.stream));
  }
  mine.can_copy = can && cudaIpcGetMemHandle(&mine.handle, h.recv->data()) == cudaSuccess &&
                  cudaIpcGetMemHandle(&mine.flags, flags_.data()) == cudaSuccess;
  cudaGetLastError();
  const std::size_t nl = peers.size();
  std::vector<HaloCard> cards(nl, mine), theirs(nl);
  for (std::size_t k = 0; k < nl; ++k) {
    std::fill(cards[k].offset, cards[k].offset + kMaxHaloRounds, -1);
    for (int r = 0; r < std::min(nr, kMaxHaloRounds); ++r)
      for (const auto &p : plan.rounds[r].from)
        if (p.peer == peers[k]) cards[k].offset[r] = plan.rounds[r].recv_begin + p.offset;
  }
  out_.clear();
  in_.clear();
  for (std::size_t k = 0; k < nl; ++k) {
    out_.push_back({peers[k], &cards[k], sizeof(HaloCard)});
    in_.push_back({peers[k], &theirs[k], sizeof(HaloCard)});
  }
  comm.exchange(out_.data(), static_cast<int>(nl), in_.data(), static_cast<int>(nl));
  std::vector<int> ok(nl, 0), their_ok(nl, 0);
  for (std::size_t k = 0; k < nl; ++k) {
    Link &l = links_[peers[k]];
    const HaloCard &c = theirs[k];
    bool good = !taken[k] && mine.can_copy && c.can_copy &&
                std::strncmp(mine.host, c.host, sizeof c.host) == 0;
    int peer_device = -1, access = 0;
    good = good && cudaDeviceGetByPCIBusId(&peer_device, c.bus) == cudaSuccess;
    // (not two ranks on one GPU: a rank's wait for the flag would hold the
    // GPU its sharer needs to write it, without MPS a time slice a round)
    good = good && peer_device != device &&
           cudaDeviceCanAccessPeer(&access, device, peer_device) == cudaSuccess && access;
    good = good && open_peer(&l.remote, &l.handle, c.handle) &&
           open_peer(reinterpret_cast<char **>(&l.remote_flags), &l.flags_handle, c.flags);
    cudaGetLastError();  // (a peer not reachable is no error: another transport reaches it)
    l.half_bytes = c.half_bytes;
    std::copy(c.offset, c.offset + kMaxHaloRounds, l.offset);
    ok[k] = good ? 1 : 0;
  }
  out_.clear();
  in_.clear();
  for (std::size_t k = 0; k < nl; ++k) {
    out_.push_back({peers[k], &ok[k], sizeof(int)});
    in_.push_back({peers[k], &their_ok[k], sizeof(int)});
  }
  comm.exchange(out_.data(), static_cast<int>(nl), in_.data(), static_cast<int>(nl));
  for (std::size_t k = 0; k < nl; ++k) {
    Link &l = links_[peers[k]];
    l.copy = ok[k] && their_ok[k];
    if (l.copy) taken[k] = 1;
  }
}

// The round's values copied into the peers' receive buffers.
void HaloPeerCopy::send(const HaloShared &h, QEqComm &, const HaloRoundIo &io) {
  for (const HaloRound::Peer &p : h.plan->rounds[io.round].to) {
    auto it = links_.find(p.peer);
    if (it == links_.end() || !it->second.copy) continue;
    const Link &l = it->second;
    if (l.offset[io.round] < 0) throw RuntimeError("QEq halo: a peer expects no values this round");
    char *dst = l.remote + io.half * l.half_bytes + l.offset[io.round] * io.elem;
    PMD_CUDA_CHECK(cudaMemcpyAsync(dst, io.send_dev + p.offset * io.elem, p.count * io.elem,
                                   cudaMemcpyDeviceToDevice, h.stream));
  }
}

// "Done" by the arrival flags, on the GPUs: this rank's signal to each peer
// of the round, then its wait for theirs.
void HaloPeerCopy::complete(const HaloShared &h, QEqComm &, const HaloRoundIo &io) {
  const HaloRound &r = h.plan->rounds[io.round];
  FlagBatch sig{}, wait{};
  for (auto &e : links_) {
    const int peer = e.first;
    if (!e.second.copy || !(halo_round_has(r.to, peer) || halo_round_has(r.from, peer))) continue;
    const unsigned long long n = ++exchanges_[peer];
    sig.flag[sig.n] = e.second.remote_flags + h.rank;
    sig.value[sig.n++] = n;
    wait.flag[wait.n] = flags_.data() + peer;
    wait.value[wait.n++] = n;
    if (sig.n == kFlagBatch) {
      k_halo_signal<<<1, kFlagBatch, 0, h.stream>>>(sig);
      k_halo_wait<<<1, kFlagBatch, 0, h.stream>>>(wait);
      sig.n = wait.n = 0;
    }
  }
  if (sig.n > 0) {
    k_halo_signal<<<1, kFlagBatch, 0, h.stream>>>(sig);
    k_halo_wait<<<1, kFlagBatch, 0, h.stream>>>(wait);
    PMD_CUDA_CHECK_LAUNCH("k_halo_signal/wait", h.stream);
  }
}

const HaloTransports::Add<HaloPeerCopy> kHaloPeerCopy("peer copy", 10);

}  // namespace
}  // namespace puremd::cuda
