// The charge solvers' halo on the GPU: a HaloPlan (common/charges/halo_plan.h) whose
// index arrays live on the device, replayed per exchange round by round: one
// kernel packs the values other ranks get and makes this rank's own image
// copies, the values travel, one kernel unpacks. A vector of double2 moves s
// and t (or q and u) together. Owned by the CUDA QEq solver, on its stream
// and memory tracker.
//
// How values travel to a peer rank is a transport's (halo_transport.h),
// chosen per peer when the plan is made, the first in their order that
// reaches it: peer copies through CUDA IPC (halo_peer_copy.cu), MPI
// (halo_mpi.cu).
// The receive buffer has two halves, used by alternate exchanges (every rank
// makes the same exchanges in the same order), and each round its own part
// of a half: a peer's copies never meet values still being unpacked.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/charges/halo_plan.h"
#include "cuda/charges/halo_transport.h"
#include "cuda/charges/peer_reduce.h"
#include "cuda/device_buffer.h"

namespace puremd::cuda {

class CudaHalo {
 public:
  CudaHalo(cudaStream_t stream, MemoryTracker &mem)
      : stream_(stream), mem_(mem), transports_(HaloTransports::make_all(mem)) {}
  ~CudaHalo();
  CudaHalo(const CudaHalo &) = delete;
  CudaHalo &operator=(const CudaHalo &) = delete;
  // The plan of `pattern` for this rank on the GPU, made again only when the
  // pattern's version changed (a new recording) or the atom counts did;
  // then (collective with the linked peers) how each peer is reached.
  void update(const HaloPattern &pattern, QEqComm &comm, int n_local, int n_total,
              bool peer_copies);
  // Every ghost entry of v gets the value of the atom it is an image of
  // (collective over the ranks of the pattern).
  void forward(double *v, QEqComm &comm) { run(v, comm); }
  void forward(double2 *v, QEqComm &comm) { run(v, comm); }
  // Peers reached by peer copies / by MPI (for the log).
  int peers_by_copy() const { return peers_by("peer copy"); }
  int peers_by_mpi() const { return peers_by("mpi"); }
  // Sums over the ranks on the GPUs (peer_reduce.cuh), made once (collective
  // over all ranks) where every rank is on this node, each with a GPU of its
  // own that reaches all the others', and peer copies are allowed: n == 0
  // otherwise. Each call numbers one more reduction (the same on every rank).
  PeerReduce peer_reduce(QEqComm &comm, bool peer_copies);
  bool peer_reduce_ready(QEqComm &comm, bool peer_copies) {
    if (peer_state_ < 0) setup_peer_reduce(comm, peer_copies);
    return peer_state_ == 1;
  }

 private:
  template <class T>
  void run(T *v, QEqComm &comm);
  void connect(QEqComm &comm, bool peer_copies);
  int peers_by(const char *transport) const;
  HaloShared shared();

  cudaStream_t stream_;
  MemoryTracker &mem_;
  HaloPlan plan_;
  int n_local_ = -1, n_total_ = -1, rank_ = 0;
  long long total_recv_ = 0;  // entries received per exchange, all rounds
  int parity_ = 0;            // the receive half of the next exchange
  // the transports, in their order, each with the peers it reaches
  std::vector<std::pair<std::string, std::unique_ptr<HaloTransport>>> transports_;
  DeviceArray<int> pack_{"QEq halo: packed atoms", &mem_},
      self_src_{"QEq halo: image sources", &mem_}, self_dst_{"QEq halo: image targets", &mem_},
      recv_{"QEq halo: received ghosts", &mem_};
  DeviceArray<double2> send_dev_{"QEq halo: send buffer", &mem_},
      recv_dev_{"QEq halo: receive buffer (two halves)", &mem_};
  // the ranks' inboxes and flags for peer_reduce (made once: -1 not yet, 0 no, 1 yes)
  int peer_state_ = -1;
  PeerReduce peer_{};
  DeviceArray<double> inbox_{"QEq halo: reduction inbox", &mem_};
  DeviceArray<unsigned long long> inbox_flags_{"QEq halo: reduction flags", &mem_};
  void setup_peer_reduce(QEqComm &comm, bool peer_copies);
  std::vector<QEqComm::Message> out_, in_;
};

}  // namespace puremd::cuda
