// make_cuda_qeq_solver for builds without CUDA (the real one is in
// src/cuda/qeq_cuda.cu): callers link either way and get a clear error.
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"

#if !defined(PUREMD_WITH_CUDA)
namespace puremd {

std::unique_ptr<QEqSolver> make_cuda_qeq_solver(const QEqSettings &) {
  throw RuntimeError("QEq: the CUDA solver was requested but this build has no CUDA support");
}

}  // namespace puremd
#endif
