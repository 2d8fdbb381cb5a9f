// Where CG's scalars are summed over the ranks and used, one way per home
// (common/charges/qeq_scalars_home.h chooses, once per solve, after the first sum):
//   on the GPU (one rank): nothing crosses a rank;
//   on the GPUs, summed GPU to GPU (peer_reduce.cuh): the last block of a
//     row kernel adds the ranks' sums, each reduction numbered;
//   at home: each sum through QEqComm::sum, the loop on the host.
#pragma once

#include <memory>

#include "cuda/charges/halo_exchange.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

class CgScalars {
 public:
  virtual ~CgScalars() = default;
  // the scalars stay on the GPU (CgState), the host reads "still running?"
  virtual bool on_device() const = 0;
  // what the last block of a row kernel adds over the ranks (n == 0: none);
  // each call numbers one more reduction (the same on every rank)
  virtual PeerReduce reduction() { return PeerReduce{}; }
  // n sums over the ranks, in place (one collective call; home only)
  virtual void sum(double *, int) {}
};

class CgScalarsOnGpu final : public CgScalars {
 public:
  bool on_device() const override { return true; }
};

class CgScalarsOnPeerGpus final : public CgScalars {
 public:
  CgScalarsOnPeerGpus(CudaHalo &halo, QEqComm &comm) : halo_(halo), comm_(comm) {}
  bool on_device() const override { return true; }
  PeerReduce reduction() override { return halo_.peer_reduce(comm_, true); }

 private:
  CudaHalo &halo_;
  QEqComm &comm_;
};

class CgScalarsAtHome final : public CgScalars {
 public:
  explicit CgScalarsAtHome(QEqComm &comm) : comm_(comm) {}
  bool on_device() const override { return false; }
  void sum(double *v, int n) override { comm_.sum(v, n); }

 private:
  QEqComm &comm_;
};

// (halo: the exchange of several ranks, which PeerGpus needs)
inline std::unique_ptr<CgScalars> make_cg_scalars(QEqScalarsHome home, CudaHalo *halo,
                                                  QEqComm &comm) {
  switch (home) {
    case QEqScalarsHome::Gpu:
      return std::make_unique<CgScalarsOnGpu>();
    case QEqScalarsHome::PeerGpus:
      return std::make_unique<CgScalarsOnPeerGpus>(*halo, comm);
    default:
      return std::make_unique<CgScalarsAtHome>(comm);
  }
}

}  // namespace puremd::cuda
