// CG's part of the CUDA QEq solver: its workspace (a double2 per atom for
// each CG quantity, s in .x and t in .y; the block partial sums; the device
// state of one-rank solves) and CG itself (qeq_cuda_cg.cu, with
// qeq_cuda_cg_apply.cu for a preconditioner that applies itself). One owner
// for these arrays; the solver (qeq_cuda_solver.h) composes it, and lends the
// vectors to a model that solves its own system (CudaSolveParts).
#pragma once

#include <cuda_runtime.h>

#include <functional>

#include "cuda/charges/cuda_preconditioner.h"
#include "cuda/charges/halo_exchange.h"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/device_buffer.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

// What a CG solve reads of the solve in progress (the solver's, lent).
struct CgProblem {
  int n_rows = 0;
  const int *rows = nullptr;  // H's rows (device, n_rows)
  ImageMap im;                // the fold of ghost rows after each product
  CudaPreconditioner *precond = nullptr;
  const double *diag_inv = nullptr;  // 1 / diag(H) at the rows (the stopping rule's)
  double tolerance = 0.0;
  int max_iter = 0;
  // y = H v (ghost rows still to be folded); nothing while *running == 0
  // (running given)
  std::function<void(const double2 *v, double2 *y, const int *running)> multiply;
  // several ranks: v's ghosts through the halo before a product
  std::function<void(double2 *v)> forward_halo;
  CudaHalo *halo = nullptr;  // several ranks (halo mode): the exchange, else null
};

class CudaKrylov {
 public:
  CudaKrylov(cudaStream_t stream, MemoryTracker &mem);
  // Room for a solve of n_total atoms, n_local owned.
  void size(int n_local, int n_total);
  double2 *x() { return x_.data(); }
  double2 *b() { return b_.data(); }
  double2 *r() { return r_.data(); }
  double2 *d() { return d_.data(); }
  double2 *p() { return p_.data(); }
  double2 *w() { return w_.data(); }
  double *partial() { return partial_.data(); }  // row kernels' block partial sums
  double *sums() { return sums_dev_.data(); }    // finished sums (device)
  // blocks of a row kernel over n_rows rows with partial sums
  static unsigned reduce_blocks(int n_rows);
  // Finishes the block partial sums of the last row kernel and brings nc sums home.
  void finish_sums(unsigned nblocks, int nc, double *out);
  // CG on both systems from the guesses in x (qeq_cuda_cg.cu); the result's
  // iteration counts and convergence.
  QEqResult conjugate_gradients(const CgProblem &p, QEqComm &comm);

 private:
  // qeq_cuda_cg_apply.cu: a preconditioner that is no diagonal
  void apply_start(const CgProblem &p, unsigned g);
  void apply_update(const CgProblem &p, unsigned g, const CgStep &c, CgState *st, int par,
                    const PeerReduce &pr);

  cudaStream_t stream_;
  MemoryTracker &mem_;
  int last_iters_ = 0;  // CG iterations of the last solve (the longer system), less one
  DeviceArray<double2> x_{"QEq: CG solution", &mem_}, b_{"QEq: CG right-hand sides", &mem_},
      r_{"QEq: CG residual", &mem_}, d_{"QEq: CG direction", &mem_},
      p_{"QEq: CG preconditioned residual", &mem_}, w_{"QEq: CG product", &mem_};
  DeviceArray<double> partial_{"QEq: reduction partials", &mem_},
      sums_dev_{"QEq: reduction results", &mem_};
  DeviceArray<CgState> cg_state_{"QEq: CG state", &mem_};
  PinnedArray<double> sums_host_{"QEq: reduction results (pinned)"};
  PinnedArray<CgState> cg_probe_{"QEq: CG state (pinned)"};
};

}  // namespace puremd::cuda
