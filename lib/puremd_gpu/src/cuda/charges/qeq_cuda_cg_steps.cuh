// The device side of CG's scalars (qeq_cuda_cg.cu): the state's steps that
// the last block of a row kernel runs once every block has written its
// partial sums, shared by the fused kernels and those of a preconditioner
// that applies itself (qeq_cuda_cg_apply.cu).
#pragma once

#include "cuda/charges/peer_reduce.cuh"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_cuda_types.h"
#include "puremd_gpu/physics/qeq_cg.h"

namespace puremd::cuda {

// The scalars of this iteration: from the device state when there is one.
__device__ __forceinline__ CgStep qeq_scalars(const CgStep &given, const CgState *st, int par) {
  return st ? st->step[par] : given;
}

// Which systems run the iteration after one that left (it, rho) behind.
__device__ __forceinline__ int qeq_running(const CgState &s) {
  int run = 0;
  for (int c = 0; c < 2; ++c)
    if (qeq_cg_continues(s.it[c], s.max_iter, s.stop[c], s.b_norm[c], s.tol)) run |= 1 << c;
  return run;
}

// alpha = rho / d.w for the systems running this iteration (one block).
__device__ __forceinline__ void qeq_cg_alpha(const double *partial, int nblocks, CgState *st,
                                             int par, const PeerReduce &pr) {
  CgStep &c = st->step[par];
  if (!c.running) return;
  double dw[2];
  qeq_finish_partials<2>(partial, nblocks, dw);
  if (threadIdx.x != 0) return;
  if (pr.n > 0) peer_sum(pr, dw, 2);
  for (int k = 0; k < 2; ++k) c.alpha[k] = (c.running >> k & 1) ? st->rho[k] / dw[k] : 0.0;
}

// rho = r.p, beta = rho / rho_old, the stopping sum and one more iteration
// for the systems that ran (one block, only where some ran); then which
// systems run the next iteration (the other parity). NC 2: the partials are
// r.p's, which is the stopping sum too (a diagonal M); NC 4: the stopping
// sums follow.
template <int NC>
__device__ __forceinline__ void qeq_cg_rho(const double *partial, int nblocks, CgState *st, int par,
                                           const PeerReduce &pr) {
  CgStep &c = st->step[par];
  double rp[NC];
  qeq_finish_partials<NC>(partial, nblocks, rp);
  if (threadIdx.x != 0) return;
  if (pr.n > 0) peer_sum(pr, rp, NC);
  for (int k = 0; k < 2; ++k) {
    c.beta[k] = 0.0;
    if (c.running >> k & 1) {
      const double rho_old = st->rho[k];
      st->rho[k] = rp[k];
      st->stop[k] = rp[NC - 2 + k];
      c.beta[k] = rp[k] / rho_old;
      ++st->it[k];
    }
  }
  st->step[par ^ 1].running = qeq_running(*st);
}

// True in the last block of the grid to get here, once every block has
// written its partial sums (the pattern of __threadfence's documentation):
// that block finishes the sums, where a one-block kernel did before, and no
// block waits for another. The ticket is back at 0 for the next kernel.
__device__ __forceinline__ bool qeq_last_block(unsigned *ticket) {
  __shared__ bool last;
  __threadfence();  // this block's partials before its ticket
  __syncthreads();
  if (threadIdx.x == 0) {
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    if (last) *ticket = 0u;
  }
  __syncthreads();
  return last;
}

}  // namespace puremd::cuda
