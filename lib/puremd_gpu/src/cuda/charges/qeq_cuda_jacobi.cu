// Jacobi, CG's preconditioner by default (kQEqJacobi, fix qeq/reaxff's):
// M = diag(H), whose inverse the solver's first kernel writes beside the
// diagonal (k_init), so CG fuses it into its vector kernels.
#include "cuda/charges/cuda_preconditioner.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {
namespace {

class CudaJacobi final : public CudaPreconditioner {
 public:
  explicit CudaJacobi(MemoryTracker &) {}
  void setup(const CudaPreconditionerInput &in) override { diag_inv_ = in.diag_inv; }
  const double *diagonal_inverse() const override { return diag_inv_; }

 private:
  const double *diag_inv_ = nullptr;
};

const CudaPreconditioners::Add<CudaJacobi> kCudaJacobi(kQEqJacobi);

}  // namespace
}  // namespace puremd::cuda
