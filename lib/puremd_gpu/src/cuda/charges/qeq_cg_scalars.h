// Where CG's scalars are summed over the ranks and used, one way per home
// (common/charges/qeq_scalars_home.h chooses, once per solve, after the first
// sum), each registered under its home (qeq_cg_scalars.cu):
//   on the GPU (one rank): nothing crosses a rank;
//   on the GPUs, summed GPU to GPU (peer_reduce.cuh): the last block of a
//     row kernel adds the ranks' sums, each reduction numbered;
//   at home: each sum through QEqComm::sum, the loop on the host.
#pragma once

#include <memory>

#include "common/charges/qeq_scalars_home.h"
#include "common/registry.h"
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

// The ways, each registered under its home:
//   const CgReductions::Add<MyWay> kMy(QEqScalarsHome::...);  // MyWay(CudaHalo *, QEqComm &)
// (halo: the exchange of several ranks, null on one rank)
using CgReductions = Registry<QEqScalarsHome, CgScalars, CudaHalo *, QEqComm &>;

// The way of `home` (a RuntimeError where none is registered).
std::unique_ptr<CgScalars> make_cg_scalars(QEqScalarsHome home, CudaHalo *halo, QEqComm &comm);

}  // namespace puremd::cuda
