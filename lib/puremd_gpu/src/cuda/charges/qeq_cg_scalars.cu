// The homes of CG's scalars (qeq_cg_scalars.h), each registered here.
#include "cuda/charges/qeq_cg_scalars.h"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

class CgScalarsOnGpu final : public CgScalars {
 public:
  CgScalarsOnGpu(CudaHalo *, QEqComm &) {}
  bool on_device() const override { return true; }
};

class CgScalarsOnPeerGpus final : public CgScalars {
 public:
  CgScalarsOnPeerGpus(CudaHalo *halo, QEqComm &comm) : halo_(*halo), comm_(comm) {}
  bool on_device() const override { return true; }
  PeerReduce reduction() override { return halo_.peer_reduce(comm_, true); }

 private:
  CudaHalo &halo_;
  QEqComm &comm_;
};

class CgScalarsAtHome final : public CgScalars {
 public:
  CgScalarsAtHome(CudaHalo *, QEqComm &comm) : comm_(comm) {}
  bool on_device() const override { return false; }
  void sum(double *v, int n) override { comm_.sum(v, n); }

 private:
  QEqComm &comm_;
};

const CgReductions::Add<CgScalarsOnGpu> kOnGpu(QEqScalarsHome::Gpu);
const CgReductions::Add<CgScalarsOnPeerGpus> kOnPeerGpus(QEqScalarsHome::PeerGpus);
const CgReductions::Add<CgScalarsAtHome> kAtHome(QEqScalarsHome::Host);

}  // namespace

std::unique_ptr<CgScalars> make_cg_scalars(QEqScalarsHome home, CudaHalo *halo, QEqComm &comm) {
  const auto *way = CgReductions::find(home);
  if (!way) throw RuntimeError("QEq (CUDA): no way registered to sum CG's scalars there");
  return way->make(halo, comm);
}

}  // namespace puremd::cuda
