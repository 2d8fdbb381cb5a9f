// The halo's plan on the GPU and its replay (halo_exchange.h): the pack and
// unpack kernels, the rounds, the transports asked in their order.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/charges/halo_exchange.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

constexpr int kHaloBlock = 256;

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

template <class T>
void upload_ints(DeviceArray<T> &dst, const std::vector<T> &src, cudaStream_t s) {
  dst.reserve_discarding(std::max<std::size_t>(src.size(), 1), kGrowHeadroom);
  if (!src.empty())
    PMD_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, s));
}

}  // namespace

CudaHalo::~CudaHalo() {
  for (int r = 0; r < peer_.n; ++r)
    if (r != peer_.me) {  // errors ignored (may run at exit)
      cudaIpcCloseMemHandle(peer_.inbox[r]);
      cudaIpcCloseMemHandle(peer_.flag[r]);
    }
}

int CudaHalo::peers_by(const char *transport) const {
  for (const auto &t : transports_)
    if (t.first == transport) return t.second->peers();
  return 0;
}

HaloShared CudaHalo::shared() {
  HaloShared h;
  h.stream = stream_;
  h.plan = &plan_;
  h.rank = rank_;
  h.recv = &recv_dev_;
  h.total_recv = total_recv_;
  return h;
}

void CudaHalo::update(const HaloPattern &pattern, QEqComm &comm, int n_local, int n_total,
                      bool peer_copies) {
  if (pattern.version == plan_.version && n_local == n_local_ && n_total == n_total_) return;
  plan_ = make_halo_plan(pattern, comm.rank(), n_local, n_total);
  rank_ = comm.rank();
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
  // the pinned sources of the uploads may not change before they are read
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  connect(comm, peer_copies);
}

// The linked peers (a message either way in some round), each given to the
// first transport that reaches it (collective with the linked peers: every
// transport is asked, in the same order on every rank).
void CudaHalo::connect(QEqComm &comm, bool peer_copies) {
  std::vector<int> peers;
  for (const HaloRound &r : plan_.rounds) {
    for (const auto &p : r.to) peers.push_back(p.peer);
    for (const auto &p : r.from) peers.push_back(p.peer);
  }
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  std::vector<char> taken(peers.size(), 0);
  const HaloShared h = shared();
  for (auto &t : transports_) t.second->connect(h, comm, peer_copies, peers, taken);
  for (std::size_t k = 0; k < peers.size(); ++k)
    if (!taken[k])
      throw RuntimeError("QEq halo: no transport reaches rank " + std::to_string(peers[k]));
}

template <class T>
void CudaHalo::run(T *v, QEqComm &comm) {
  const long long half_bytes = total_recv_ * static_cast<long long>(sizeof(double2));
  // this exchange's half of every rank's receive buffer (every rank replays
  // its plan as often as the others, so all take the same half)
  const int half = parity_;
  parity_ ^= 1;
  char *recv_half = reinterpret_cast<char *>(recv_dev_.data()) + half * half_bytes;
  T *send_dev = reinterpret_cast<T *>(send_dev_.data());
  const HaloShared h = shared();
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
    if (r.to.empty() && r.from.empty()) continue;  // no peer in this round
    T *round_recv = reinterpret_cast<T *>(recv_half) + r.recv_begin;
    HaloRoundIo io;
    io.round = ri;
    io.half = half;
    io.elem = sizeof(T);
    io.send_dev = reinterpret_cast<const char *>(send_dev);
    io.n_pack = np;
    io.recv_dev = reinterpret_cast<char *>(round_recv);
    for (auto &t : transports_) t.second->send(h, comm, io);
    for (auto &t : transports_) t.second->complete(h, comm, io);
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
