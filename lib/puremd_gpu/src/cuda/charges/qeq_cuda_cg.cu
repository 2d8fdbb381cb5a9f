// The CUDA QEq solver's conjugate gradients: both systems (s in .x, t in .y
// of every double2) in lock step, one product for both, each system stopping
// on its own test (physics/qeq_cg.h), so the iteration counts are those of
// two separate runs, as the host solver's.
//
// The scalars of an iteration (r.d, d.w, r.p) are block partial sums finished
// by one block. Where they go next depends on the sub-domains:
//   several ranks: home to the host, summed
//     over the ranks by QEqComm::sum (one collective call per reduction,
//     both systems in it), alpha / beta computed there by the loop the host
//     solver runs too (common/charges/qeq_cg_loop.h) and passed to the next kernels
//     (two round trips per iteration);
//   several ranks of one node whose GPUs reach each other (halo mode with
//     peer copies): as one rank below, the last block of d.w's and
//     r.p's kernels adding the ranks' sums GPU to GPU (peer_reduce.cuh) before
//     it sets alpha, resp. beta; only the start (|b|, rho, and whether every
//     rank has rows) goes through QEqComm::sum;
//   one rank (QEqComm::size() == 1): alpha, beta, rho, the iteration counts and
//     which systems still run stay on the GPU (CgState); the host queues
//     iterations and reads "still running?" once per few iterations. An
//     iteration queued after both systems stopped does nothing: every kernel
//     of it reads the running flags first. The last block of d.w's and of
//     r.p's kernel finishes their sums and sets alpha, resp. beta and rho
//     (qeq_last_block): four launches an iteration, not six. Same
//     operations, same results as the host loop.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/charges/device_iterations.h"
#include "common/charges/qeq_cg_loop.h"
#include "common/charges/qeq_scalars_home.h"
#include "cuda/charges/qeq_cg_scalars.h"
#include "cuda/charges/qeq_cuda_cg_steps.cuh"
#include "cuda/charges/qeq_cuda_krylov.h"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_matrix_store.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/physics/qeq_cg.h"

namespace puremd::cuda {
namespace {

template <int NC>
__global__ void k_finish_sums(const double *partial, int nblocks, double *out) {
  double s[NC];
  qeq_finish_partials<NC>(partial, nblocks, s);
  if (threadIdx.x == 0)
    for (int c = 0; c < NC; ++c) out[c] = s[c];
}

// r = b - H x, d = M^-1 r; partial sums of b.b, r.d and the stopping
// rule's r.diag(H)^-1 r for s and t (kFused: M^-1 the diagonal diag_inv, so
// the last two are one sum; else r and b.b only, the preconditioner's apply
// and k_dot_rd add d, r.d and the stopping sums).
template <bool kFused>
__global__ void k_residual(int n_rows, const int *rows, ImageMap im, double2 *w, const double2 *b,
                           const double *diag_inv, double2 *r, double2 *d, double *partial) {
  double v[6] = {0, 0, 0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 wi = qeq_fold(i, w, im);
    const double2 bi = b[i];
    const double2 ri = make_double2(bi.x - wi.x, bi.y - wi.y);
    r[i] = ri;
    v[0] += bi.x * bi.x;
    v[1] += bi.y * bi.y;
    if constexpr (kFused) {
      const double di = diag_inv[i];
      const double2 zi = make_double2(ri.x * di, ri.y * di);
      d[i] = zi;
      v[2] += ri.x * zi.x;
      v[3] += ri.y * zi.y;
    }
  }
  v[4] = v[2];
  v[5] = v[3];
  qeq_block_partials<6>(v, partial);  // (not fused: k_dot_rd writes its sums over the zeros)
}

// Device loop, start: |b|, rho and the stopping sums from k_residual's
// partials; iteration 0 runs the systems that have not converged yet.
__global__ void k_cg_begin(const double *partial, int nblocks, CgState *st) {
  double s[6];
  qeq_finish_partials<6>(partial, nblocks, s);
  if (threadIdx.x != 0) return;
  for (int c = 0; c < 2; ++c) {
    st->b_norm[c] = sqrt(s[c]);
    st->rho[c] = s[2 + c];
    st->stop[c] = s[4 + c];
    st->it[c] = 1;
  }
  st->step[0].running = qeq_running(*st);
}

// Partial sums of d.w (w folded first); with the device state, alpha.
__global__ void k_dot_dw(int n_rows, const int *rows, ImageMap im, double2 *w, const double2 *d,
                         double *partial, CgState *st, int par, PeerReduce pr) {
  if (st && !st->step[par].running) return;
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 wi = qeq_fold(i, w, im);
    const double2 di = d[i];
    v[0] += di.x * wi.x;
    v[1] += di.y * wi.y;
  }
  qeq_block_partials<2>(v, partial);
  if (st && qeq_last_block(&st->ticket)) qeq_cg_alpha(partial, gridDim.x, st, par, pr);
}

// x += alpha d, r -= alpha w, p = M^-1 r for the systems still running;
// partial sums of r.p; with the device state, rho, beta and who runs next
// (kFused: M^-1 the diagonal diag_inv; else x and r only, the
// preconditioner's apply and k_dot_rp do the rest).
template <bool kFused>
__global__ void k_update(int n_rows, const int *rows, CgStep given, CgState *st, int par,
                         const double2 *d, const double2 *w, const double *diag_inv, double2 *x,
                         double2 *r, double2 *p, double *partial, PeerReduce pr) {
  const CgStep c = qeq_scalars(given, st, par);
  if (!c.running) {
    if (st && blockIdx.x == 0 && threadIdx.x == 0) st->step[par ^ 1].running = 0;
    return;
  }
  double v[2] = {0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 di = d[i], wi = w[i];
    double2 xi = x[i], ri = r[i], pi = kFused ? p[i] : make_double2(0.0, 0.0);
    const double m = kFused ? diag_inv[i] : 0.0;
    if (c.running & 1) {
      xi.x += c.alpha[0] * di.x;
      ri.x -= c.alpha[0] * wi.x;
      if constexpr (kFused) {
        pi.x = ri.x * m;
        v[0] += ri.x * pi.x;
      }
    }
    if (c.running & 2) {
      xi.y += c.alpha[1] * di.y;
      ri.y -= c.alpha[1] * wi.y;
      if constexpr (kFused) {
        pi.y = ri.y * m;
        v[1] += ri.y * pi.y;
      }
    }
    x[i] = xi;
    r[i] = ri;
    if constexpr (kFused) p[i] = pi;
  }
  if constexpr (kFused) {
    qeq_block_partials<2>(v, partial);
    if (st && qeq_last_block(&st->ticket)) qeq_cg_rho<2>(partial, gridDim.x, st, par, pr);
  }
}

// d = p + beta d for the systems still running.
__global__ void k_direction(int n_rows, const int *rows, CgStep given, const CgState *st, int par,
                            const double2 *p, double2 *d) {
  const CgStep c = qeq_scalars(given, st, par);
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows || !c.running) return;
  const int i = rows[k];
  const double2 pi = p[i];
  double2 di = d[i];
  if (c.running & 1) di.x = pi.x + c.beta[0] * di.x;
  if (c.running & 2) di.y = pi.y + c.beta[1] * di.y;
  d[i] = di;
}

}  // namespace

CudaKrylov::CudaKrylov(cudaStream_t stream, MemoryTracker &mem) : stream_(stream), mem_(mem) {
  sums_dev_.reserve_discarding(8);
  partial_.reserve_discarding(static_cast<std::size_t>(6) * kQEqMaxReduceBlocks);
  sums_host_.reserve_discarding(8);
}

void CudaKrylov::size(int n_local, int n_total) {
  x_.reserve_discarding(n_total, kGrowHeadroom);
  d_.reserve_discarding(n_total, kGrowHeadroom);
  w_.reserve_discarding(n_total, kGrowHeadroom);
  b_.reserve_discarding(n_local, kGrowHeadroom);
  r_.reserve_discarding(n_local, kGrowHeadroom);
  p_.reserve_discarding(n_local, kGrowHeadroom);
}

unsigned CudaKrylov::reduce_blocks(int n_rows) {
  return static_cast<unsigned>(std::min<long long>(
      kQEqMaxReduceBlocks, std::max<long long>(1, blocks_for(n_rows, kQEqBlock))));
}

// Finishes the block partial sums of the last row kernel and brings nc sums home.
void CudaKrylov::finish_sums(unsigned nblocks, int nc, double *out) {
  const int nb = static_cast<int>(nblocks);
  if (nc == 6)
    k_finish_sums<6><<<1, kQEqBlock, 0, stream_>>>(partial_.data(), nb, sums_dev_.data());
  else if (nc == 4)
    k_finish_sums<4><<<1, kQEqBlock, 0, stream_>>>(partial_.data(), nb, sums_dev_.data());
  else
    k_finish_sums<2><<<1, kQEqBlock, 0, stream_>>>(partial_.data(), nb, sums_dev_.data());
  PMD_CUDA_CHECK_LAUNCH("k_finish_sums", stream_);
  PMD_CUDA_CHECK(cudaMemcpyAsync(sums_host_.data(), sums_dev_.data(), nc * sizeof(double),
                                 cudaMemcpyDeviceToHost, stream_));
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  std::copy_n(sums_host_.data(), nc, out);
}

// CG on both systems from the initial guesses in x_ (see the top of the file).
QEqResult CudaKrylov::conjugate_gradients(const CgProblem &pb, QEqComm &comm) {
  const int nr = pb.n_rows;
  const int *rows = pb.rows;
  double2 *x = x_.data(), *b = b_.data(), *r = r_.data(), *d = d_.data(), *p = p_.data(),
          *w = w_.data();
  const ImageMap im = pb.im;
  const bool one = qeq_scalars_home(comm.size(), nr > 0, false, 0) == QEqScalarsHome::Gpu;
  // several ranks of one node, each GPU reaching the others: the scalars on
  // the GPUs too, summed GPU to GPU (peer_reduce.cuh), once every rank has rows
  const bool peer_ready = pb.halo && pb.halo->peer_reduce_ready(comm, comm.peer_copies());
  const unsigned g = reduce_blocks(nr);
  const int nb = static_cast<int>(g);

  // M^-1 fused into the vector kernels where it is a diagonal, else applied
  // on its own (qeq_cuda_cg_apply.cu)
  const double *minv = pb.precond->diagonal_inverse();

  // r = b - H x, d = M^-1 r (both systems)
  pb.forward_halo(x);
  pb.multiply(x, w, nullptr);
  double start_sums[7] = {0, 0, 0, 0,
                          0, 0, 0};  // |b|^2, rho, stopping sums (s, t); ranks without rows
  if (nr > 0) {
    if (minv) {
      k_residual<true>
          <<<g, kQEqBlock, 0, stream_>>>(nr, rows, im, w, b, minv, r, d, partial_.data());
    } else {
      k_residual<false>
          <<<g, kQEqBlock, 0, stream_>>>(nr, rows, im, w, b, nullptr, r, d, partial_.data());
    }
    PMD_CUDA_CHECK_LAUNCH("k_residual", stream_);
    if (!minv) apply_start(pb, g);
    if (!one) finish_sums(g, 6, start_sums);
  }
  if (!one) {
    // collective calls, in this order on every rank: one per reduction, both
    // systems' sums in it
    start_sums[6] = nr == 0 ? 1.0 : 0.0;
    comm.sum(start_sums, qeq_peer_sums_possible(comm.size(), peer_ready) ? 7 : 6);
  }
  const QEqScalarsHome home =
      qeq_scalars_home(comm.size(), nr > 0, peer_ready, static_cast<int>(start_sums[6]));
  const std::unique_ptr<CgScalars> scalars = make_cg_scalars(home, pb.halo, comm);
  const bool peer = home == QEqScalarsHome::PeerGpus, on_device = scalars->on_device();
  CgState *st = nullptr;
  if (on_device) {
    cg_state_.reserve_discarding(1);
    st = cg_state_.data();
    CgState init{};
    init.tol = pb.tolerance;
    init.max_iter = pb.max_iter;
    if (peer) {  // k_cg_begin's work, from the sums over the ranks
      for (int c = 0; c < 2; ++c) {
        init.b_norm[c] = std::sqrt(start_sums[c]);
        init.rho[c] = start_sums[2 + c];
        init.stop[c] = start_sums[4 + c];
        init.it[c] = 1;
        if (qeq_cg_continues(1, init.max_iter, init.stop[c], init.b_norm[c], init.tol))
          init.step[0].running |= 1 << c;
      }
    }
    PMD_CUDA_CHECK(cudaMemcpyAsync(st, &init, sizeof init, cudaMemcpyHostToDevice, stream_));
    if (one) {
      k_cg_begin<<<1, kQEqBlock, 0, stream_>>>(partial_.data(), nb, st);
      PMD_CUDA_CHECK_LAUNCH("k_cg_begin", stream_);
    }
  }
  auto reduce = [&]() { return scalars->reduction(); };

  // The kernels of one iteration: `par` selects the device state's scalars
  // (on_device), `c` gives them otherwise (alpha and beta as they are known).
  auto product = [&](int par) {
    pb.forward_halo(d);  // (both systems: one message per peer)
    pb.multiply(d, w, on_device ? &st->step[par].running : nullptr);
    if (nr > 0) {
      k_dot_dw<<<g, kQEqBlock, 0, stream_>>>(nr, rows, im, w, d, partial_.data(), st, par,
                                             reduce());
      PMD_CUDA_CHECK_LAUNCH("k_dot_dw", stream_);
    }
  };
  auto update = [&](const CgStep &c, int par) {
    if (minv) {
      k_update<true><<<g, kQEqBlock, 0, stream_>>>(nr, rows, c, st, par, d, w, minv, x, r, p,
                                                   partial_.data(), reduce());
      PMD_CUDA_CHECK_LAUNCH("k_update", stream_);
      return;
    }
    k_update<false><<<g, kQEqBlock, 0, stream_>>>(nr, rows, c, st, par, d, w, nullptr, x, r, p,
                                                  partial_.data(), PeerReduce{});
    PMD_CUDA_CHECK_LAUNCH("k_update", stream_);
    apply_update(pb, g, c, st, par, reduce());
  };
  auto direction = [&](const CgStep &c, int par) {
    k_direction<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(nr, rows, c, st, par, p, d);
    PMD_CUDA_CHECK_LAUNCH("k_direction", stream_);
  };

  QEqResult res;
  if (on_device) {
    // iterations queued in batches, "still running?" read once a batch
    // (common/charges/device_iterations.h)
    const CgStep none{};
    int queued = 0;
    run_iterations_in_batches(
        last_iters_,
        [&](int k) {
          product(k & 1);       // and alpha
          update(none, k & 1);  // and rho, beta
          direction(none, k & 1);
          queued = k + 1;
        },
        [&] {
          cg_probe_.reserve_discarding(1);
          PMD_CUDA_CHECK(cudaMemcpyAsync(cg_probe_.data(), st, sizeof(CgState),
                                         cudaMemcpyDeviceToHost, stream_));
          PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
          return !cg_probe_[0].step[queued & 1].running;
        });
    res.iter_s = cg_probe_[0].it[0];
    res.iter_t = cg_probe_[0].it[1];
  } else {
    // the scalars at home: the loop written once (common/charges/qeq_cg_loop.h)
    // over these kernels, each sum over the ranks by QEqComm::sum
    auto product_dot = [&](int /*running*/, double dw[2]) {
      product(0);
      if (nr > 0) finish_sums(g, 2, dw);
      scalars->sum(dw, 2);
    };
    // (a diagonal M: r . p is the stopping sum; else k_dot_rp adds it)
    const int nrp = minv ? 2 : 4;
    auto update_rp = [&](const CgStep &c, double rp[4]) {
      if (nr > 0) {
        update(c, 0);
        finish_sums(g, nrp, rp);
      }
      scalars->sum(rp, nrp);
      if (minv) std::copy_n(rp, 2, rp + 2);
    };
    auto next_direction = [&](const CgStep &c) {
      if (nr > 0) direction(c, 0);
    };
    auto ops = cg_ops(product_dot, update_rp, next_direction);
    CgStart start;
    for (int k = 0; k < 2; ++k) {
      start.b_dot_b[k] = start_sums[k];
      start.r_dot_d[k] = start_sums[2 + k];
      start.r_stop[k] = start_sums[4 + k];
    }
    int it[2];
    qeq_cg_iterate(ops, start, pb.max_iter, pb.tolerance, it);
    res.iter_s = it[0];
    res.iter_t = it[1];
  }
  last_iters_ = std::max(res.iter_s, res.iter_t) - 1;
  res.converged_s = res.iter_s < pb.max_iter;
  res.converged_t = res.iter_t < pb.max_iter;
  return res;
}

}  // namespace puremd::cuda
