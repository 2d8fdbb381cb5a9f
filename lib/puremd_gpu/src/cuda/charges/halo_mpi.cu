// The halo through MPI (halo_transport.h): QEqComm::exchange, on GPU buffers
// where MPI takes them (QEqComm::device_memory), else through one
// page-locked copy each way. It reaches every peer, so it comes last.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda/charges/halo_transport.h"
#include "cuda/kernel_utils.cuh"

namespace puremd::cuda {
namespace {

class HaloMpi final : public HaloTransport {
 public:
  explicit HaloMpi(MemoryTracker &) {}

  void connect(const HaloShared &h, QEqComm &, bool, const std::vector<int> &peers,
               std::vector<char> &taken) override {
    mine_.clear();
    for (std::size_t k = 0; k < peers.size(); ++k)
      if (!taken[k]) {
        mine_.push_back(peers[k]);
        taken[k] = 1;
      }
    const std::size_t np = std::max(h.plan->max_pack, 1);
    const std::size_t nr = static_cast<std::size_t>(std::max<long long>(h.total_recv, 1));
    send_host_.reserve_discarding(np, kGrowHeadroom);
    recv_host_.reserve_discarding(nr, kGrowHeadroom);
  }

  void send(const HaloShared &, QEqComm &, const HaloRoundIo &) override {}

  // The round's values of the peers MPI reaches, staged through the host
  // unless MPI takes GPU memory.
  void complete(const HaloShared &h, QEqComm &comm, const HaloRoundIo &io) override {
    const HaloRound &r = h.plan->rounds[io.round];
    bool sends = false, any = false;
    for (int p : mine_) {
      const bool to = halo_round_has(r.to, p);
      sends = sends || to;
      any = any || to || halo_round_has(r.from, p);
    }
    if (!any) return;
    const bool device = comm.device_memory();
    char *send_host = reinterpret_cast<char *>(send_host_.data());
    char *recv_host = reinterpret_cast<char *>(recv_host_.data()) + r.recv_begin * io.elem;
    if (sends && !device && io.n_pack > 0)
      PMD_CUDA_CHECK(cudaMemcpyAsync(send_host, io.send_dev, io.n_pack * io.elem,
                                     cudaMemcpyDeviceToHost, h.stream));
    PMD_CUDA_CHECK(cudaStreamSynchronize(h.stream));
    out_.clear();
    in_.clear();
    char *send = device ? const_cast<char *>(io.send_dev) : send_host;
    char *recv = device ? io.recv_dev : recv_host;
    for (int peer : mine_) {
      for (const HaloRound::Peer &p : r.to)
        if (p.peer == peer) out_.push_back({p.peer, send + p.offset * io.elem, p.count * io.elem});
      for (const HaloRound::Peer &p : r.from)
        if (p.peer == peer) in_.push_back({p.peer, recv + p.offset * io.elem, p.count * io.elem});
    }
    comm.exchange(out_.data(), static_cast<int>(out_.size()), in_.data(),
                  static_cast<int>(in_.size()));
    if (!device)
      for (const HaloRound::Peer &p : r.from)
        if (std::find(mine_.begin(), mine_.end(), p.peer) != mine_.end())
          PMD_CUDA_CHECK(cudaMemcpyAsync(io.recv_dev + p.offset * io.elem,
                                         recv_host + p.offset * io.elem, p.count * io.elem,
                                         cudaMemcpyHostToDevice, h.stream));
  }

  int peers() const override { return static_cast<int>(mine_.size()); }

 private:
  std::vector<int> mine_;  // the peers it reaches, ascending
  PinnedArray<double2> send_host_{"QEq halo: send staging (pinned)"},
      recv_host_{"QEq halo: receive staging (pinned)"};
  std::vector<QEqComm::Message> out_, in_;
};

const HaloTransports::Add<HaloMpi> kHaloMpi("mpi", 1000);

}  // namespace
}  // namespace puremd::cuda
