// CG with a preconditioner that applies itself (cuda_preconditioner.h:
// diagonal_inverse() null): k_residual and k_update then leave M^-1 out, the
// preconditioner's apply() sets d, resp. p, and the dot products r.d and r.p
// follow here, with the device state's steps where k_update would run them
// (qeq_cuda_cg_steps.cuh), with the stopping rule's r . diag(H)^-1 r beside
// them. A diagonal preconditioner (Jacobi) never comes here.
#include <cuda_runtime.h>

#include "cuda/charges/qeq_cuda_cg_steps.cuh"
#include "cuda/charges/qeq_cuda_krylov.h"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/kernel_utils.cuh"

namespace puremd::cuda {
namespace {

// One row's terms of the stopping sums of s and t (physics/qeq_cg.h).
__device__ __forceinline__ void qeq_stop_terms(double2 ri, double dinv, double &s, double &t) {
  s += qeq_stop_term(ri.x, dinv);
  t += qeq_stop_term(ri.y, dinv);
}

// Partial sums of r.d and of the stopping sums for s and t, where
// k_residual's would be (after its b.b: components 2 to 5 of the same
// grid's partials).
__global__ void k_dot_rd(int n_rows, const int *rows, const double2 *r, const double2 *d,
                         const double *diag_inv, double *partial) {
  double v[4] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 ri = r[i], di = d[i];
    v[0] += ri.x * di.x;
    v[1] += ri.y * di.y;
    qeq_stop_terms(ri, diag_inv[i], v[2], v[3]);
  }
  qeq_block_partials<4>(v, partial + 2 * gridDim.x);
}

// Partial sums of r.p and the stopping sums for the systems still running;
// with the device state, rho, beta and who runs next (as k_update's fused end).
__global__ void k_dot_rp(int n_rows, const int *rows, CgStep given, CgState *st, int par,
                         const double2 *r, const double2 *p, const double *diag_inv,
                         double *partial, PeerReduce pr) {
  const CgStep c = qeq_scalars(given, st, par);
  if (!c.running) {
    if (st && blockIdx.x == 0 && threadIdx.x == 0) st->step[par ^ 1].running = 0;
    return;
  }
  double v[4] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 ri = r[i], pi = p[i];
    if (c.running & 1) v[0] += ri.x * pi.x;
    if (c.running & 2) v[1] += ri.y * pi.y;
    qeq_stop_terms(ri, diag_inv[i], v[2], v[3]);
  }
  qeq_block_partials<4>(v, partial);
  if (st && qeq_last_block(&st->ticket)) qeq_cg_rho<4>(partial, gridDim.x, st, par, pr);
}

}  // namespace

// d = M^-1 r and r.d's partials, after k_residual<false>.
void CudaKrylov::apply_start(const CgProblem &pb, unsigned g) {
  pb.precond->apply(r_.data(), d_.data(), nullptr);
  k_dot_rd<<<g, kQEqBlock, 0, stream_>>>(pb.n_rows, pb.rows, r_.data(), d_.data(), pb.diag_inv,
                                         partial_.data());
  PMD_CUDA_CHECK_LAUNCH("k_dot_rd", stream_);
}

// p = M^-1 r and r.p's partials (device state: its step), after k_update<false>.
void CudaKrylov::apply_update(const CgProblem &pb, unsigned g, const CgStep &c, CgState *st,
                              int par, const PeerReduce &pr) {
  pb.precond->apply(r_.data(), p_.data(), st ? &st->step[par].running : nullptr);
  k_dot_rp<<<g, kQEqBlock, 0, stream_>>>(pb.n_rows, pb.rows, c, st, par, r_.data(), p_.data(),
                                         pb.diag_inv, partial_.data(), pr);
  PMD_CUDA_CHECK_LAUNCH("k_dot_rp", stream_);
}

}  // namespace puremd::cuda
