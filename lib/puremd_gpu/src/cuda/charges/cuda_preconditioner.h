// CG's preconditioner M in the CUDA QEq solver, chosen by name
// (QEqSettings::preconditioner) from the ones registered in their own files:
//   const CudaPreconditioners::Add<MyPreconditioner> kMy("my-name");
// (MyPreconditioner(MemoryTracker &)). A preconditioner that is a diagonal
// gives it (diagonal_inverse): CG then fuses p = M^-1 r into its vector
// kernels, with no launch of its own; any other applies itself (apply), and
// CG adds the dot product r . p it then cannot fuse.
// Host code only (no kernels here): a preconditioner's .cu, or a test's .cpp,
// implements it.
#pragma once

#include <cuda_runtime.h>

#include "common/charges/preconditioner_registry.h"
#include "cuda/device_buffer.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

struct QEqRowArgs;  // qeq_cuda_types.h

// What a preconditioner is set up from, at every solve, once H's diagonal
// is on the GPU (queued on `stream` before setup).
struct CudaPreconditionerInput {
  cudaStream_t stream = nullptr;
  int n_rows = 0;                    // the owned atoms of the group (H's rows)
  const int *rows = nullptr;         // their indices (device, n_rows)
  const double *diag = nullptr;      // H's diagonal (device, set at the rows)
  const double *diag_inv = nullptr;  // 1 / diag (device, set at the rows)
  // the matrix's rules and atoms (far list, owners of ghosts, parameters),
  // H's diagonal by parameter index (per type, or per atom) and the settings
  const QEqRowArgs *row_args = nullptr;
  const double *eta = nullptr;
  const QEqSettings *settings = nullptr;
  bool atoms_reordered = true;  // the solve's QEqInput::atoms_reordered
};

class CudaPreconditioner {
 public:
  virtual ~CudaPreconditioner() = default;
  virtual void setup(const CudaPreconditionerInput &in) = 0;
  // M^-1 as a diagonal (device, indexed by atom), fused into CG's kernels;
  // null: CG calls apply().
  virtual const double *diagonal_inverse() const { return nullptr; }
  // p = M^-1 r at the rows, both systems ((s, t) of each double2), queued on
  // the setup's stream; nothing when `running` (device, CgStep::running) is
  // given and 0. Called only where diagonal_inverse() is null.
  virtual void apply(const double2 * /*r*/, double2 * /*p*/, const int * /*running*/) {}
};

using CudaPreconditioners = PreconditionerRegistry<CudaPreconditioner, MemoryTracker &>;

}  // namespace puremd::cuda
