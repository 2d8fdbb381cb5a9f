#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/charges/halo_exchange.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

constexpr int kHaloBlock = 256;
constexpr int kMaxHaloRounds = 16;  // peer copies for plans of up to this many rounds

// The round's packed values (entries 0..n_pack-1) and its copies within
// this rank: both read only values of earlier rounds, so one launch.
template <class T>
__global__ void k_halo_pack(const int *__restrict__ pack, int n_pack, const int *__restrict__ src,
                            const int *__restrict__ dst, int n_self, T *v, T *__restrict__ out) {
  const int k = blockIdx.x * kHaloBlock + threadIdx.x;
  if (k < n_pack) {
    out[k] = v[pack[k]];
  } else if (k - n_pack < n_self) {
    const int m = k - n_pack;
    v[dst[m]] = v[src[m]];
  }
}

template <class T>
__global__ void k_halo_unpack(const int *__restrict__ recv, int n, const T *__restrict__ in, T *v) {
  const int k = blockIdx.x * kHaloBlock + threadIdx.x;
  if (k < n) v[recv[k]] = in[k];
}

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

template <class T>
void upload_ints(DeviceArray<T> &dst, const std::vector<T> &src, cudaStream_t s) {
  dst.reserve_discarding(std::max<std::size_t>(src.size(), 1), kGrowHeadroom);
  if (!src.empty())
    PMD_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, s));
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

}  // namespace

struct CudaHalo::Link {
  int peer = -1;
  bool copy = false;       // reached by peer copies (both sides agreed)
  char *remote = nullptr;  // the peer's receive buffer, opened through CUDA IPC
  cudaIpcMemHandle_t handle{};
  long long half_bytes = 0;
  int offset[kMaxHaloRounds] = {};
  unsigned long long *remote_flags = nullptr;  // the peer's arrival flags, opened
  cudaIpcMemHandle_t flags_handle{};
};

CudaHalo::~CudaHalo() {
  close_links();
  for (int r = 0; r < peer_.n; ++r)
    if (r != peer_.me) {  // errors ignored (may run at exit)
      cudaIpcCloseMemHandle(peer_.inbox[r]);
      cudaIpcCloseMemHandle(peer_.flag[r]);
    }
}

void CudaHalo::close_links() {
  for (Link *l : links_) {  // errors ignored (may run at exit)
    if (l->remote) cudaIpcCloseMemHandle(l->remote);
    if (l->remote_flags) cudaIpcCloseMemHandle(l->remote_flags);
    delete l;
  }
  links_.clear();
}

// Opens the peer memory `h` into *p unless it is what *p holds (`held`).
static bool open_peer(char **p, cudaIpcMemHandle_t *held, const cudaIpcMemHandle_t &h) {
  if (*p && std::memcmp(held, &h, sizeof h) == 0) return true;
  if (*p) cudaIpcCloseMemHandle(*p);
  *p = nullptr;
  void *q = nullptr;
  if (cudaIpcOpenMemHandle(&q, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) return false;
  *p = static_cast<char *>(q);
  *held = h;
  return true;
}

int CudaHalo::peers_by_copy() const {
  return static_cast<int>(
      std::count_if(links_.begin(), links_.end(), [](Link *l) { return l->copy; }));
}
int CudaHalo::peers_by_mpi() const { return static_cast<int>(links_.size()) - peers_by_copy(); }

void CudaHalo::update(const HaloPattern &pattern, QEqComm &comm, int n_local, int n_total,
                      bool peer_copies) {
  if (pattern.version == plan_.version && n_local == n_local_ && n_total == n_total_) return;
  plan_ = make_halo_plan(pattern, comm.rank(), n_local, n_total);
  n_local_ = n_local;
  n_total_ = n_total;
  upload_ints(pack_, plan_.pack_index, stream_);
  upload_ints(self_src_, plan_.self_src, stream_);
  upload_ints(self_dst_, plan_.self_dst, stream_);
  upload_ints(recv_, plan_.recv_index, stream_);
  total_recv_ = static_cast<long long>(plan_.recv_index.size());
  const std::size_t np = std::max(plan_.max_pack, 1);
  const std::size_t nr = static_cast<std::size_t>(std::max<long long>(total_recv_, 1));
  send_dev_.reserve_discarding(np, kGrowHeadroom);
  recv_dev_.reserve_discarding(2 * nr, kGrowHeadroom);
  send_host_.reserve_discarding(np, kGrowHeadroom);
  recv_host_.reserve_discarding(nr, kGrowHeadroom);
  // the pinned sources of the uploads may not change before they are read
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  connect(comm, peer_copies);
}

// The linked peers (a message either way in some round), and for each
// whether it takes peer copies: both ranks on this node, this GPU able to
// reach the peer's, its buffer opened (one card and one verdict each way).
void CudaHalo::connect(QEqComm &comm, bool peer_copies) {
  std::vector<int> peers;
  for (const HaloRound &r : plan_.rounds) {
    for (const auto &p : r.to) peers.push_back(p.peer);
    for (const auto &p : r.from) peers.push_back(p.peer);
  }
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  // keep the links (and their opened buffers) of peers still linked
  std::vector<Link *> kept;
  for (int p : peers) {
    auto it = std::find_if(links_.begin(), links_.end(), [&](Link *l) { return l->peer == p; });
    if (it != links_.end()) {
      kept.push_back(*it);
      links_.erase(it);
    } else {
      kept.push_back(new Link);
      kept.back()->peer = p;
    }
  }
  close_links();
  links_ = kept;
  const int nr = static_cast<int>(plan_.rounds.size());
  round_links_.assign(nr, {});
  for (int r = 0; r < nr; ++r)
    for (std::size_t k = 0; k < links_.size(); ++k) {
      const int p = links_[k]->peer;
      const HaloRound &hr = plan_.rounds[r];
      auto is_p = [&](const HaloRound::Peer &x) { return x.peer == p; };
      if (std::any_of(hr.to.begin(), hr.to.end(), is_p) ||
          std::any_of(hr.from.begin(), hr.from.end(), is_p))
        round_links_[r].push_back(static_cast<int>(k));
    }
  if (links_.empty()) return;

  const bool can = peer_copies && nr <= kMaxHaloRounds;
  int device = 0;
  PMD_CUDA_CHECK(cudaGetDevice(&device));
  HaloCard mine{};
  gethostname(mine.host, sizeof mine.host - 1);
  PMD_CUDA_CHECK(cudaDeviceGetPCIBusId(mine.bus, sizeof mine.bus, device));
  mine.half_bytes = total_recv_ * static_cast<long long>(sizeof(double2));
  // arrival flags, a slot per peer rank (they only grow: a sender writes
  // absolute numbers)
  int top = comm.rank();
  for (Link *l : links_) top = std::max(top, l->peer);
  if (flags_.capacity() < static_cast<std::size_t>(top) + 1) {
    flags_.reserve_discarding(static_cast<std::size_t>(top) + 1, 2.0);
    PMD_CUDA_CHECK(
        cudaMemsetAsync(flags_.data(), 0, flags_.capacity() * sizeof(unsigned long long), stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  mine.can_copy = can && cudaIpcGetMemHandle(&mine.handle, recv_dev_.data()) == cudaSuccess &&
                  cudaIpcGetMemHandle(&mine.flags, flags_.data()) == cudaSuccess;
  cudaGetLastError();
  const std::size_t nl = links_.size();
  std::vector<HaloCard> cards(nl, mine), theirs(nl);
  for (std::size_t k = 0; k < nl; ++k) {
    std::fill(cards[k].offset, cards[k].offset + kMaxHaloRounds, -1);
    for (int r = 0; r < std::min(nr, kMaxHaloRounds); ++r)
      for (const auto &p : plan_.rounds[r].from)
        if (p.peer == links_[k]->peer) cards[k].offset[r] = plan_.rounds[r].recv_begin + p.offset;
  }
  out_.clear();
  in_.clear();
  for (std::size_t k = 0; k < nl; ++k) {
    out_.push_back({links_[k]->peer, &cards[k], sizeof(HaloCard)});
    in_.push_back({links_[k]->peer, &theirs[k], sizeof(HaloCard)});
  }
  comm.exchange(out_.data(), static_cast<int>(nl), in_.data(), static_cast<int>(nl));
  std::vector<int> ok(nl, 0), their_ok(nl, 0);
  for (std::size_t k = 0; k < nl; ++k) {
    Link &l = *links_[k];
    const HaloCard &c = theirs[k];
    bool good = mine.can_copy && c.can_copy && std::strncmp(mine.host, c.host, sizeof c.host) == 0;
    int peer_device = -1, access = 0;
    good = good && cudaDeviceGetByPCIBusId(&peer_device, c.bus) == cudaSuccess;
    // (not two ranks on one GPU: a rank's wait for the flag would hold the
    // GPU its sharer needs to write it, without MPS a time slice a round)
    good = good && peer_device != device &&
           cudaDeviceCanAccessPeer(&access, device, peer_device) == cudaSuccess && access;
    good = good && open_peer(&l.remote, &l.handle, c.handle) &&
           open_peer(reinterpret_cast<char **>(&l.remote_flags), &l.flags_handle, c.flags);
    cudaGetLastError();  // (a peer not reachable is no error: MPI reaches it)
    l.half_bytes = c.half_bytes;
    std::copy(c.offset, c.offset + kMaxHaloRounds, l.offset);
    ok[k] = good ? 1 : 0;
  }
  out_.clear();
  in_.clear();
  for (std::size_t k = 0; k < nl; ++k) {
    out_.push_back({links_[k]->peer, &ok[k], sizeof(int)});
    in_.push_back({links_[k]->peer, &their_ok[k], sizeof(int)});
  }
  comm.exchange(out_.data(), static_cast<int>(nl), in_.data(), static_cast<int>(nl));
  for (std::size_t k = 0; k < nl; ++k) links_[k]->copy = ok[k] && their_ok[k];
}

template <class T>
void CudaHalo::run(T *v, QEqComm &comm) {
  const bool device = comm.device_memory();
  const long long half_bytes = total_recv_ * static_cast<long long>(sizeof(double2));
  // this exchange's half of every rank's receive buffer (every rank replays
  // its plan as often as the others, so all take the same half)
  const int half = parity_;
  parity_ ^= 1;
  char *recv_half = reinterpret_cast<char *>(recv_dev_.data()) + half * half_bytes;
  T *send_dev = reinterpret_cast<T *>(send_dev_.data());
  T *send_host = reinterpret_cast<T *>(send_host_.data());
  T *recv_host = reinterpret_cast<T *>(recv_host_.data());
  for (int ri = 0; ri < static_cast<int>(plan_.rounds.size()); ++ri) {
    const HaloRound &r = plan_.rounds[ri];
    const int np = r.pack_end - r.pack_begin, ns = r.self_end - r.self_begin,
              nr = r.recv_end - r.recv_begin;
    if (np + ns > 0) {
      k_halo_pack<T><<<blocks_for(np + ns, kHaloBlock), kHaloBlock, 0, stream_>>>(
          pack_.data() + r.pack_begin, np, self_src_.data() + r.self_begin,
          self_dst_.data() + r.self_begin, ns, v, send_dev);
      PMD_CUDA_CHECK_LAUNCH("k_halo_pack", stream_);
    }
    if (round_links_[ri].empty()) continue;
    T *round_recv = reinterpret_cast<T *>(recv_half) + r.recv_begin;
    auto link_of = [&](int peer) {
      return *std::find_if(links_.begin(), links_.end(), [&](Link *l) { return l->peer == peer; });
    };
    bool staged_out = false;
    for (const HaloRound::Peer &p : r.to) {
      Link *l = link_of(p.peer);
      if (!l->copy) {
        staged_out = true;
        continue;
      }
      if (l->offset[ri] < 0) throw RuntimeError("QEq halo: a peer expects no values this round");
      char *dst = l->remote + half * l->half_bytes + l->offset[ri] * sizeof(T);
      PMD_CUDA_CHECK(cudaMemcpyAsync(dst, send_dev + p.offset, p.count * sizeof(T),
                                     cudaMemcpyDeviceToDevice, stream_));
    }
    // peer copies: "done" by the arrival flags, on the GPUs
    FlagBatch sig{}, wait{};
    bool by_mpi = false;
    for (int k : round_links_[ri]) {
      Link &l = *links_[k];
      if (!l.copy) {
        by_mpi = true;
        continue;
      }
      const unsigned long long n = ++exchanges_[l.peer];
      sig.flag[sig.n] = l.remote_flags + comm.rank();
      sig.value[sig.n++] = n;
      wait.flag[wait.n] = flags_.data() + l.peer;
      wait.value[wait.n++] = n;
      if (sig.n == kFlagBatch) {
        k_halo_signal<<<1, kFlagBatch, 0, stream_>>>(sig);
        k_halo_wait<<<1, kFlagBatch, 0, stream_>>>(wait);
        sig.n = wait.n = 0;
      }
    }
    if (sig.n > 0) {
      k_halo_signal<<<1, kFlagBatch, 0, stream_>>>(sig);
      k_halo_wait<<<1, kFlagBatch, 0, stream_>>>(wait);
      PMD_CUDA_CHECK_LAUNCH("k_halo_signal/wait", stream_);
    }
    if (!by_mpi) {
      if (nr > 0) {
        k_halo_unpack<T><<<blocks_for(nr, kHaloBlock), kHaloBlock, 0, stream_>>>(
            recv_.data() + r.recv_begin, nr, round_recv, v);
        PMD_CUDA_CHECK_LAUNCH("k_halo_unpack", stream_);
      }
      continue;
    }
    if (staged_out && !device && np > 0)
      PMD_CUDA_CHECK(
          cudaMemcpyAsync(send_host, send_dev, np * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
    // the values of the peers MPI reaches
    out_.clear();
    in_.clear();
    T *send = device ? send_dev : send_host;
    T *recv = device ? round_recv : recv_host + r.recv_begin;
    for (int k : round_links_[ri]) {
      const Link &l = *links_[k];
      if (l.copy) continue;
      for (const HaloRound::Peer &p : r.to)
        if (p.peer == l.peer) out_.push_back({p.peer, send + p.offset, p.count * sizeof(T)});
      for (const HaloRound::Peer &p : r.from)
        if (p.peer == l.peer) in_.push_back({p.peer, recv + p.offset, p.count * sizeof(T)});
    }
    comm.exchange(out_.data(), static_cast<int>(out_.size()), in_.data(),
                  static_cast<int>(in_.size()));
    if (!device)
      for (const HaloRound::Peer &p : r.from)
        if (!link_of(p.peer)->copy)
          PMD_CUDA_CHECK(cudaMemcpyAsync(round_recv + p.offset, recv_host + r.recv_begin + p.offset,
                                         p.count * sizeof(T), cudaMemcpyHostToDevice, stream_));
    if (nr > 0) {
      k_halo_unpack<T><<<blocks_for(nr, kHaloBlock), kHaloBlock, 0, stream_>>>(
          recv_.data() + r.recv_begin, nr, round_recv, v);
      PMD_CUDA_CHECK_LAUNCH("k_halo_unpack", stream_);
    }
  }
}

template void CudaHalo::run<double>(double *, QEqComm &);
template void CudaHalo::run<double2>(double2 *, QEqComm &);

}  // namespace puremd::cuda
