// ACKS2 in the CUDA solver (Acks2Input, physics/acks2.h; the model's CUDA
// implementation, cuda_charge_model.h, registered below): BiCGStab on the
// extended system, step for step as the host solver runs it
// (src/host/host_acks2.cpp, after fix acks2/reaxff): same guesses, stopping
// rules, early exit and preconditioner.
//
// A vector is a double2 per atom, (q part, u part), plus the two
// multipliers (Acks2Mult: u multiplies sum u = 0, q sum q = 0): the
// product's device part is H and X over the rows (qeq_cuda_acks2_product.cu),
// ghost rows folded; a row kernel then adds the diagonal, the identity blocks and
// the multipliers' columns, and sums what the multipliers' rows need.
// Every dot product is block partials finished by one block.
//
// The scalars (common/charges/acks2_bicgstab.h, one code for all): on one rank
// they stay on the GPU, single-block kernels
// step them, every kernel of an iteration reads the phase first, and the
// host queues iterations in batches and reads the state once per batch
// (the first batch as long as the last solve took: usually one read a
// solve; a read per iteration would cost a synchronisation, about as long as
// an iteration's launches at small sizes). With several ranks the
// sums come home to QEqComm::sum (one collective call per row kernel) and
// the same steps run on the host (five round trips an iteration).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "common/charges/acks2_bicgstab.h"
#include "common/charges/device_iterations.h"
#include "common/charges/qeq_scalars_home.h"
#include "cuda/charges/qeq_cg_scalars.h"
#include "cuda/charges/qeq_cuda_acks2.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::cuda {
namespace {

constexpr int kSums = 4;  // partial sums every ACKS2 row kernel writes

// The scalars an iteration's kernels read: the GPU's state (one
// sub-domain), else the host's, passed by value.
__device__ __forceinline__ const Acks2State &acks2_state(const Acks2State &given,
                                                         const Acks2State *st) {
  return st ? *st : given;
}

// The product's rows: w = A v on the group's owned rows (ghost rows folded,
// the diagonals, the identity blocks, v's multipliers v_l); partial sums of
// v.q and v.u (the multipliers' rows), a . w (a given) and w . w.
__global__ void k_acks2_finish(int n_rows, const int *rows, ImageMap im, const double *diag,
                               const double *xdiag, const double2 *v, Acks2Mult given_l,
                               const Acks2Mult *v_l, const int *phase, double2 *w, const double2 *a,
                               double *partial) {
  if (phase && *phase != kAcks2Run) return;
  const Acks2Mult l = v_l ? *v_l : given_l;
  double s[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 vi = v[i];
    double2 wi = qeq_fold(i, w, im);
    wi.x += diag[i] * vi.x + vi.y + l.q;
    wi.y += xdiag[i] * vi.y + vi.x + l.u;
    w[i] = wi;
    s[0] += vi.x;
    s[1] += vi.y;
    if (a) {
      const double2 ai = a[i];
      s[2] += ai.x * wi.x + ai.y * wi.y;
    }
    s[3] += wi.x * wi.x + wi.y * wi.y;
  }
  qeq_block_partials<kSums>(s, partial);
}

// r = b - w, r_hat = r; partial sums of b . b and r . r.
__global__ void k_acks2_residual(int n_rows, const int *rows, const double2 *b, const double2 *w,
                                 double2 *r, double2 *r_hat, double *partial) {
  double s[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 bi = b[i], wi = w[i];
    const double2 ri = make_double2(bi.x - wi.x, bi.y - wi.y);
    r[i] = ri;
    r_hat[i] = ri;
    s[0] += bi.x * bi.x + bi.y * bi.y;
    s[1] += ri.x * ri.x + ri.y * ri.y;
  }
  qeq_block_partials<kSums>(s, partial);
}

// p = r (first iteration) or r + beta (p - omega z); d = M^-1 p.
__global__ void k_acks2_direction(int n_rows, const int *rows, Acks2State given,
                                  const Acks2State *st, const double2 *r, const double2 *z,
                                  const double *diag_inv, const double *xdiag_inv, double2 *p,
                                  double2 *d) {
  const Acks2State &c = acks2_state(given, st);
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows || c.phase != kAcks2Run) return;
  const int i = rows[k];
  const double2 ri = r[i];
  double2 pi = ri;
  if (c.it != 1) {
    const double2 po = p[i], zi = z[i];
    pi.x = ri.x + c.beta * (po.x - c.omega * zi.x);
    pi.y = ri.y + c.beta * (po.y - c.omega * zi.y);
  }
  p[i] = pi;
  d[i] = make_double2(pi.x * diag_inv[i], pi.y * xdiag_inv[i]);
}

// s = r - alpha z, s_hat = M^-1 s; partial sums of s . s.
__global__ void k_acks2_half_step(int n_rows, const int *rows, Acks2State given,
                                  const Acks2State *st, const double2 *r, const double2 *z,
                                  const double *diag_inv, const double *xdiag_inv, double2 *s,
                                  double2 *s_hat, double *partial) {
  const Acks2State &c = acks2_state(given, st);
  if (c.phase != kAcks2Run) return;
  const double alpha = c.alpha;
  double v[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 ri = r[i], zi = z[i];
    const double2 si = make_double2(ri.x - alpha * zi.x, ri.y - alpha * zi.y);
    s[i] = si;
    s_hat[i] = make_double2(si.x * diag_inv[i], si.y * xdiag_inv[i]);
    v[0] += si.x * si.x + si.y * si.y;
  }
  qeq_block_partials<kSums>(v, partial);
}

// x += alpha d (the early exit).
__global__ void k_acks2_early(int n_rows, const int *rows, Acks2State given, const Acks2State *st,
                              const double2 *d, double2 *x) {
  const Acks2State &c = acks2_state(given, st);
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows || c.phase != kAcks2Early) return;
  const int i = rows[k];
  const double2 di = d[i];
  double2 xi = x[i];
  xi.x += c.alpha * di.x;
  xi.y += c.alpha * di.y;
  x[i] = xi;
}

// x += alpha d + omega s_hat, r = s - omega y; partial sums of r . r and r_hat . r.
__global__ void k_acks2_step_end(int n_rows, const int *rows, Acks2State given,
                                 const Acks2State *st, const double2 *d, const double2 *s_hat,
                                 const double2 *s, const double2 *y, const double2 *r_hat,
                                 double2 *x, double2 *r, double *partial) {
  const Acks2State &c = acks2_state(given, st);
  if (c.phase != kAcks2Run) return;
  const double alpha = c.alpha, omega = c.omega;
  double v[kSums] = {0, 0, 0, 0};
  for (int k = blockIdx.x * kQEqBlock + threadIdx.x; k < n_rows; k += gridDim.x * kQEqBlock) {
    const int i = rows[k];
    const double2 di = d[i], shi = s_hat[i], si = s[i], yi = y[i], rhi = r_hat[i];
    double2 xi = x[i];
    xi.x += alpha * di.x + omega * shi.x;
    xi.y += alpha * di.y + omega * shi.y;
    x[i] = xi;
    const double2 ri = make_double2(si.x - omega * yi.x, si.y - omega * yi.y);
    r[i] = ri;
    v[0] += ri.x * ri.x + ri.y * ri.y;
    v[1] += rhi.x * ri.x + rhi.y * ri.y;
  }
  qeq_block_partials<kSums>(v, partial);
}

// --- the steps of common/charges/acks2_bicgstab.h on the GPU (one block; the row
// kernel before each left its partial sums)

// Which step a single-block kernel runs after finishing the partials.
enum Acks2Step : int { kStepProductSums, kStepBegin, kStepAlpha, kStepEarly, kStepOmega, kStepEnd };

template <int STEP>
__global__ void k_acks2_step(const double *partial, int nblocks, Acks2State *st) {
  if (STEP == kStepAlpha || STEP == kStepEarly || STEP == kStepEnd)
    if (st->phase != kAcks2Run) return;  // the row kernel before wrote no partials
  if (STEP == kStepOmega && st->phase == kAcks2Early) {
    if (threadIdx.x == 0) acks2_omega(*st, 0.0, 0.0, Acks2Mult{});  // ends the early exit
    return;
  }
  if (STEP == kStepOmega && st->phase != kAcks2Run) return;
  double v[kSums];
  qeq_finish_partials<kSums>(partial, nblocks, v);
  if (threadIdx.x != 0) return;
  Acks2State &s = *st;
  if (STEP == kStepProductSums) s.ax = Acks2Mult{v[1], v[0]};
  if (STEP == kStepBegin) acks2_begin(s, v[0], v[1]);
  if (STEP == kStepAlpha) acks2_alpha(s, v[2], Acks2Mult{v[1], v[0]});
  if (STEP == kStepEarly) acks2_check_early(s, v[0]);
  if (STEP == kStepOmega) acks2_omega(s, v[2], v[3], Acks2Mult{v[1], v[0]});
  if (STEP == kStepEnd) acks2_end(s, v[0], v[1]);
}

__global__ void k_acks2_direction_step(Acks2State *st) { acks2_direction(*st); }

}  // namespace

// BiCGStab from the guess in parts.x (q, u) and `state`'s multipliers x; returns
// the final state (its x: the multipliers of the solution).
Acks2State CudaAcks2::bicgstab(CudaSolveContext &solver, const CudaSolveParts &parts,
                               Acks2State state, QEqComm &comm) {
  const int nr = parts.n_rows;
  const int *rows = parts.rows;
  const ImageMap im = solver.image_map();
  double2 *x = parts.x, *b = parts.b, *r = parts.r, *p = parts.p, *d = parts.d, *w = parts.w,
          *r_hat = r_hat_.data(), *z = z_.data(), *s = s_.data(), *s_hat = s_hat_.data(),
          *y = y_.data();
  const double *dinv = parts.diag_inv, *xinv = xdiag_inv_.data();
  const unsigned g = solver.reduce_blocks();
  const int nb = static_cast<int>(g);
  const unsigned gr = blocks_for(std::max(nr, 1), kQEqBlock);
  // where the iterations' scalars live (as CG's; no peer sums for ACKS2)
  const std::unique_ptr<CgScalars> scalars =
      make_cg_scalars(qeq_scalars_home(comm.size(), nr > 0, false, 0), nullptr, comm);
  const bool on_device = scalars->on_device();

  // The kernels of one iteration's parts, with the scalars on the device
  // (st) or given by the host (h).
  Acks2State h = state;
  Acks2State *st = nullptr;
  const int *phase = nullptr;
  if (on_device) {
    state_.reserve_discarding(1);
    st = state_.data();
    phase = &st->phase;
    PMD_CUDA_CHECK(cudaMemcpyAsync(st, &h, sizeof h, cudaMemcpyHostToDevice, parts.stream));
  }
  // w = A v (v's multipliers given or in the device state), partial sums
  // of v.q, v.u, a . w, w . w
  auto product = [&](const double2 *v, const Acks2Mult &v_l, const Acks2Mult *v_l_dev, double2 *out,
                     const double2 *a, const int *ph) {
    this->product(solver, parts, v, out, comm, ph);
    if (nr > 0) {
      k_acks2_finish<<<g, kQEqBlock, 0, parts.stream>>>(nr, rows, im, parts.diag, xdiag_.data(), v,
                                                        v_l, v_l_dev, ph, out, a, parts.partial);
      PMD_CUDA_CHECK_LAUNCH("k_acks2_finish", parts.stream);
    }
  };
  auto step = [&](auto which) {
    constexpr int S = decltype(which)::value;
    k_acks2_step<S><<<1, kQEqBlock, 0, parts.stream>>>(parts.partial, nb, st);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_step", parts.stream);
  };
  using ProductSums = std::integral_constant<int, kStepProductSums>;
  using Begin = std::integral_constant<int, kStepBegin>;
  using Alpha = std::integral_constant<int, kStepAlpha>;
  using Early = std::integral_constant<int, kStepEarly>;
  using Omega = std::integral_constant<int, kStepOmega>;
  using End = std::integral_constant<int, kStepEnd>;
  auto direction = [&]() {
    k_acks2_direction<<<gr, kQEqBlock, 0, parts.stream>>>(nr, rows, h, st, r, z, dinv, xinv, p, d);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_direction", parts.stream);
  };
  auto half_step = [&]() {
    k_acks2_half_step<<<g, kQEqBlock, 0, parts.stream>>>(nr, rows, h, st, r, z, dinv, xinv, s,
                                                         s_hat, parts.partial);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_half_step", parts.stream);
  };
  auto early = [&]() {
    k_acks2_early<<<gr, kQEqBlock, 0, parts.stream>>>(nr, rows, h, st, d, x);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_early", parts.stream);
  };
  auto step_end = [&]() {
    k_acks2_step_end<<<g, kQEqBlock, 0, parts.stream>>>(nr, rows, h, st, d, s_hat, s, y, r_hat, x,
                                                        r, parts.partial);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_step_end", parts.stream);
  };
  auto residual = [&]() {
    k_acks2_residual<<<g, kQEqBlock, 0, parts.stream>>>(nr, rows, b, w, r, r_hat, parts.partial);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_residual", parts.stream);
  };

  if (on_device) {
    // r = b - A x, r_hat = r
    product(x, h.x, &st->x, w, nullptr, nullptr);
    step(ProductSums{});
    residual();
    step(Begin{});
    // Iterations in batches (common/charges/device_iterations.h); kernels
    // of an iteration queued after the stop do nothing.
    run_iterations_in_batches(
        last_iters_,
        [&](int) {
          k_acks2_direction_step<<<1, 1, 0, parts.stream>>>(st);
          PMD_CUDA_CHECK_LAUNCH("k_acks2_direction_step", parts.stream);
          direction();
          product(d, h.d, &st->d, z, r_hat, phase);
          step(Alpha{});
          half_step();
          step(Early{});
          early();
          product(s_hat, h.s, &st->s, y, s, phase);  // s_hat's multipliers are s's
          step(Omega{});
          step_end();
          step(End{});
        },
        [&] {
          probe_.reserve_discarding(1);
          PMD_CUDA_CHECK(cudaMemcpyAsync(probe_.data(), st, sizeof(Acks2State),
                                         cudaMemcpyDeviceToHost, parts.stream));
          PMD_CUDA_CHECK(cudaStreamSynchronize(parts.stream));
          h = probe_[0];
          return h.phase == kAcks2Done;
        });
  } else {
    // The loop on the host (common/charges/acks2_bicgstab.h) over these kernels; a
    // row kernel's sums over the ranks in one collective call, in this order
    // on every rank.
    double v[kSums];
    auto home = [&]() {
      std::fill(v, v + kSums, 0.0);
      if (nr > 0) solver.finish_sums(g, kSums, v);
      scalars->sum(v, kSums);
    };
    auto product_sums = [&](Acks2Vector which, const Acks2State &hs) {
      if (which == Acks2Vector::X) product(x, hs.x, nullptr, w, nullptr, nullptr);
      if (which == Acks2Vector::D) product(d, hs.d, nullptr, z, r_hat, nullptr);
      if (which == Acks2Vector::SHat) product(s_hat, hs.s, nullptr, y, s, nullptr);
      home();
      Acks2ProductSums out;
      out.rows_of_mult = Acks2Mult{v[1], v[0]};  // (sum u, sum q)
      out.a_dot_w = v[2];
      out.w_dot_w = v[3];
      return out;
    };
    auto residual_sums = [&](double &bb, double &rr) {
      if (nr > 0) residual();
      home();
      bb = v[0];
      rr = v[1];
    };
    auto new_direction = [&](const Acks2State &) {
      if (nr > 0) direction();
    };
    auto half_step_sums = [&](const Acks2State &) {
      if (nr > 0) half_step();
      home();
      return v[0];
    };
    auto early_exit = [&](const Acks2State &) {
      if (nr > 0) early();
    };
    auto step_end_sums = [&](const Acks2State &, double &rr, double &r_hat_r) {
      if (nr > 0) step_end();
      home();
      rr = v[0];
      r_hat_r = v[1];
    };
    auto ops = acks2_ops(product_sums, residual_sums, new_direction, half_step_sums, early_exit,
                         step_end_sums);
    acks2_bicgstab_iterate(ops, h);  // the kernels above read h as it steps
  }
  last_iters_ = h.it;
  return h;
}

}  // namespace puremd::cuda
