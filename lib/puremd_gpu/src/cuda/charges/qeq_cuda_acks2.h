// ACKS2 in the CUDA solver (Acks2Input, physics/acks2.h): the model's CUDA
// implementation (cuda_charge_model.h), with its arrays. Its X has rows of
// its own beside H's (only the pairs within bcut_ij, a few per cent of H's),
// counted with H's rows and stored after them (qeq_cuda_acks2_x.cu); a
// double2 per atom holds (q, u): its product takes H to the .x parts and X
// to the .y parts (qeq_cuda_acks2_product.cu); BiCGStab on the extended
// system (qeq_cuda_acks2.cu), the multipliers and its scalars one state
// (common/charges/acks2_bicgstab.h), on the GPU on one rank, else on the host; the
// solve itself in qeq_cuda_acks2_solve.cu.
#pragma once

#include <cuda_runtime.h>

#include "common/charges/acks2_bicgstab.h"
#include "cuda/charges/cuda_charge_model.h"
#include "puremd_gpu/physics/acks2.h"

namespace puremd::cuda {

class CudaAcks2 final : public CudaChargeModel {
 public:
  explicit CudaAcks2(MemoryTracker &mem) : mem_(mem) {}
  bool reads_reverse_index() const override { return true; }
  bool own_product() const override { return true; }
  // The input's checks (as the host's), bcut up.
  void setup(const QEqInput &in, CudaSolveContext &s) override;
  void row_args(QEqRowArgs &a) const override;
  int *count_beside_rows(CudaSolveContext &s, bool stored) override;
  void beside_matrix(CudaSolveContext &s, bool tiles) override;
  bool solve(const QEqInput &in, CudaSolveContext &s, QEqComm &comm, double *q,
             QEqResult &res) override;

 private:
  // --- qeq_cuda_acks2_x.cu: X's rows where their counts put them
  void build_x_rows(const CudaSolveParts &p);
  // --- qeq_cuda_acks2_product.cu
  // X_ii = -(sum of row i's X, its images' rows included), and its inverse
  void x_diagonal(CudaSolveContext &s, const CudaSolveParts &p, QEqComm &comm);
  // y = (H v.q, X v.u) off the diagonal over every row, ghost rows to be
  // folded; nothing when `phase` (device) says the iteration has stopped
  void product(CudaSolveContext &s, const CudaSolveParts &p, const double2 *v, double2 *y,
               QEqComm &comm, const int *phase);
  template <int TPR>
  void launch_product(const CudaSolveParts &p, const double2 *v, double2 *y, const int *phase);
  // --- qeq_cuda_acks2.cu: from the guess in p.x (q, u) and `start`'s
  // multipliers; the final state (its x: the multipliers of the solution)
  Acks2State bicgstab(CudaSolveContext &s, const CudaSolveParts &p, Acks2State start,
                      QEqComm &comm);

  MemoryTracker &mem_;
  double softness_ = 0.0;
  double *u_ = nullptr;  // the caller's u (Acks2Input::u)
  int last_iters_ = 0;   // BiCGStab iterations of the last solve (the first batch)
  long long x_nnz_ = 0;  // X's stored entries
  DeviceArray<double> bcut_{"ACKS2: bcut", &mem_}, u_dev_{"ACKS2: effective potentials", &mem_};
  // X, its own rows (entries within bcut only): counts, starts, columns, values
  DeviceArray<int> x_count_{"ACKS2: bond softness row counts", &mem_},
      x_start_{"ACKS2: bond softness row starts", &mem_},
      x_col_{"ACKS2: bond softness matrix columns", &mem_};
  DeviceArray<double> x_val_{"ACKS2: bond softness matrix values", &mem_};
  // BiCGStab's vectors beyond CG's (the solve's x, b, r, d, p, w serve it too)
  DeviceArray<double2> r_hat_{"ACKS2: shadow residual", &mem_}, z_{"ACKS2: product A d", &mem_},
      s_{"ACKS2: half-step residual", &mem_}, s_hat_{"ACKS2: preconditioned half step", &mem_},
      y_{"ACKS2: product A s_hat", &mem_};
  DeviceArray<double> xdiag_{"ACKS2: X diagonal", &mem_},
      xdiag_inv_{"ACKS2: X preconditioner", &mem_};
  DeviceArray<Acks2State> state_{"ACKS2: BiCGStab state", &mem_};
  PinnedArray<Acks2State> probe_{"ACKS2: BiCGStab state (pinned)"};
};

}  // namespace puremd::cuda
