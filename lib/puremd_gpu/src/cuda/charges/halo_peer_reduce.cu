// The charge solvers' sums over the ranks on the GPUs (peer_reduce.cuh):
// made once, collective over all ranks, where every rank is on this node
// with a GPU of its own that reaches all the others' (halo_exchange.h).
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "cuda/charges/halo_exchange.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

PeerReduce CudaHalo::peer_reduce(QEqComm &comm, bool peer_copies) {
  if (peer_state_ < 0) setup_peer_reduce(comm, peer_copies);
  PeerReduce p = peer_;
  if (p.n > 0) p.seq = ++peer_.seq;
  return p;
}

namespace {
struct PeerCard {
  char host[64];
  char bus[32];
  cudaIpcMemHandle_t inbox, flags;
  int ok;
};
}  // namespace

// Every rank's card to every other; all agree (a sum over the ranks) before
// any uses it.
void CudaHalo::setup_peer_reduce(QEqComm &comm, bool peer_copies) {
  const int n = comm.size(), me = comm.rank();
  peer_state_ = 0;
  peer_ = PeerReduce{};
  if (n < 2 || n > kPeerRanks) return;  // (every rank sees the same n)
  inbox_.reserve_discarding(2 * kPeerRanks * kPeerSums);
  inbox_flags_.reserve_discarding(kPeerRanks);
  PMD_CUDA_CHECK(
      cudaMemsetAsync(inbox_.data(), 0, 2 * kPeerRanks * kPeerSums * sizeof(double), stream_));
  PMD_CUDA_CHECK(
      cudaMemsetAsync(inbox_flags_.data(), 0, kPeerRanks * sizeof(unsigned long long), stream_));
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  int device = 0;
  PMD_CUDA_CHECK(cudaGetDevice(&device));
  PeerCard mine{};
  gethostname(mine.host, sizeof mine.host - 1);
  PMD_CUDA_CHECK(cudaDeviceGetPCIBusId(mine.bus, sizeof mine.bus, device));
  mine.ok = peer_copies && cudaIpcGetMemHandle(&mine.inbox, inbox_.data()) == cudaSuccess &&
            cudaIpcGetMemHandle(&mine.flags, inbox_flags_.data()) == cudaSuccess;
  cudaGetLastError();
  std::vector<PeerCard> cards(n);
  out_.clear();
  in_.clear();
  for (int r = 0; r < n; ++r)
    if (r != me) {
      out_.push_back({r, &mine, sizeof mine});
      in_.push_back({r, &cards[r], sizeof(PeerCard)});
    }
  comm.exchange(out_.data(), static_cast<int>(out_.size()), in_.data(),
                static_cast<int>(in_.size()));
  cards[me] = mine;
  bool ok = mine.ok != 0;
  PeerReduce p;
  p.n = n;
  p.me = me;
  for (int r = 0; r < n && ok; ++r) {
    const PeerCard &c = cards[r];
    ok = c.ok && std::strncmp(c.host, mine.host, sizeof c.host) == 0;
    if (!ok || r == me) continue;
    int dev = -1, access = 0;
    // one rank per GPU: a spinning reduction would hold a GPU its sharer waits for
    ok = cudaDeviceGetByPCIBusId(&dev, c.bus) == cudaSuccess && dev != device &&
         cudaDeviceCanAccessPeer(&access, device, dev) == cudaSuccess && access;
    void *a = nullptr, *b = nullptr;
    ok = ok && cudaIpcOpenMemHandle(&a, c.inbox, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess;
    p.inbox[r] = static_cast<double *>(a);
    ok = ok && cudaIpcOpenMemHandle(&b, c.flags, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess;
    p.flag[r] = static_cast<unsigned long long *>(b);
  }
  cudaGetLastError();
  p.inbox[me] = inbox_.data();
  p.flag[me] = inbox_flags_.data();
  const double not_ok = comm.sum(ok ? 0.0 : 1.0);
  if (not_ok > 0.0) {
    for (int r = 0; r < n; ++r)
      if (r != me) {
        if (p.inbox[r]) cudaIpcCloseMemHandle(p.inbox[r]);
        if (p.flag[r]) cudaIpcCloseMemHandle(p.flag[r]);
      }
    cudaGetLastError();
    return;
  }
  peer_ = p;
  peer_state_ = 1;
}

}  // namespace puremd::cuda
