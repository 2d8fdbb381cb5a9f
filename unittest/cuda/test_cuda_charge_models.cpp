// The charge-model registry on the CUDA driver: the tests' model
// (support/shifted_chi_model.h) through its CUDA implementation, registered
// in this file, gives the host driver's charges; a model with no CUDA
// implementation is refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cuda_qeq_engine.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"
#include "shifted_chi_model.h"

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>

#include "cuda/charges/cuda_charge_model.h"
#include "cuda/device_buffer.h"
#endif

using namespace puremd;
using namespace qeq_test;

namespace {

#if defined(PUREMD_WITH_CUDA)
// Its electronegativities made on the host and sent up: the model's own
// array, on the engine's tracker.
class CudaShiftedChi final : public cuda::CudaChargeModel {
 public:
  explicit CudaShiftedChi(cuda::MemoryTracker &mem) : mem_(mem) {}
  void setup(const QEqInput &in, cuda::CudaSolveContext &) override {
    if (!model_input<ShiftedChi>(in.model)->shift)
      throw InputError("shifted chi (test): no shifts given");
  }
  const double *electronegativities(const QEqInput &in, cuda::CudaSolveContext &) override {
    const ShiftedChi &m = *model_input<ShiftedChi>(in.model);
    host_.assign(in.n_local, 0.0);
    for (int i = 0; i < in.n_local; ++i) host_[i] = in.chi[in.type ? in.type[i] : i] + m.shift[i];
    chi_.reserve_discarding(in.n_local);
    if (in.n_local > 0)
      PMD_CUDA_CHECK(cudaMemcpy(chi_.data(), host_.data(), in.n_local * sizeof(double),
                                cudaMemcpyHostToDevice));
    return chi_.data();
  }

 private:
  cuda::MemoryTracker &mem_;
  std::vector<double> host_;
  cuda::DeviceArray<double> chi_{"shifted chi (test)", &mem_};
};

const cuda::CudaModels::Add<ShiftedChi, CudaShiftedChi> kCudaShiftedChi;
#endif

}  // namespace

TEST(CudaChargeModels, ARegisteredModelGivesTheHostCharges) {
  REQUIRE_GPU();
  const System sys = make_periodic_system(64, 8.0, 6.0, 21u);
  std::vector<double> shift(sys.n_local);
  for (int i = 0; i < sys.n_local; ++i) shift[i] = 0.4 * std::sin(1.7 * i);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-14;
  set.max_iter = 1000;
  HostQEq host(set);
  CudaQEq gpu(set), plain(set);
  ShiftedChi m;
  m.shift = shift.data();
  QEqInput in = make_input(sys);
  in.model = &m;
  std::vector<double> q_host(sys.n_total()), q_gpu(sys.n_total()), q_plain(sys.n_total());
  SingleRankComm c1 = make_comm(sys), c2 = make_comm(sys), c3 = make_comm(sys);
  const QEqResult rh = host.solve(in, c1, q_host.data());
  const QEqResult rg = gpu.solve(in, c2, q_gpu.data());
  plain.solve(make_input(sys), c3, q_plain.data());
  EXPECT_NEAR(rg.iter_s, rh.iter_s, 2);
  EXPECT_NEAR(rg.iter_t, rh.iter_t, 2);
  double moved = 0.0;
  for (int i = 0; i < sys.n_total(); ++i) {
    EXPECT_NEAR(q_gpu[i], q_host[i], 1e-9) << "atom " << i;
    moved = std::max(moved, std::fabs(q_gpu[i] - q_plain[i]));
  }
  EXPECT_GT(moved, 1e-3) << "the shifts must move the charges for this test to tell";
}

TEST(CudaChargeModels, AModelWithoutAnImplementationIsRefusedByName) {
  REQUIRE_GPU();
  QEqSettings set;
  set.cut_hi = 6.0;
  CudaQEq gpu(set);
  EXPECT_EQ(unimplemented_refusal(gpu),
            "unimplemented (test): the charge model has no CUDA implementation in this build");
}
