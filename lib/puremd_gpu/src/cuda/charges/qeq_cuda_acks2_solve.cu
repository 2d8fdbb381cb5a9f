// ACKS2's solve in the CUDA solver (qeq_cuda_acks2.h), registered below:
// its checks and input, what X's rows read, its start (right-hand side,
// diagonals, the history's guesses), BiCGStab (qeq_cuda_acks2.cu) and its
// results, q and u, home.
#include <cuda_runtime.h>

#include <algorithm>

#include "common/charges/acks2_bicgstab.h"
#include "cuda/charges/qeq_cuda_acks2.h"
#include "cuda/charges/qeq_matrix_store.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/qeq_history.h"

namespace puremd::cuda {
namespace {

// Right-hand side (-chi, 0), H's Jacobi diagonal and the predictor's guesses
// of q and u from the history (both cubic for QEqPredictor::Lammps), rounded
// as the host does.
__global__ void k_acks2_init(int n_rows, const int *rows, ParamArgs pa, const double *hist,
                             int depth, QEqPredictor predictor, double2 *b, double2 *x,
                             double *diag, double *diag_inv) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const int p = pa.type ? pa.type[i] : i;
  double bq = -pa.chi[p];
  if (pa.chi_shift) bq -= pa.chi_shift[i];
  b[i] = make_double2(bq, 0.0);
  diag[i] = pa.eta[p];
  diag_inv[i] = 1.0 / pa.eta[p];
  const double *h = qeq_history_block(hist, i, depth);
  x[i] = make_double2(qeq_guess_s(h, predictor), qeq_guess_s(h + depth, predictor));
}

// q and u of the rows, and the history shifted to take them.
__global__ void k_acks2_results(int n_rows, const int *rows, const double2 *x, double *q, double *u,
                                double *hist, int depth) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_rows) return;
  const int i = rows[k];
  const double2 xi = x[i];
  q[i] = xi.x;
  u[i] = xi.y;
  qeq_push_history(qeq_history_block(hist, i, depth), depth, xi.x, xi.y);
}

}  // namespace

// In the solver's setup, once the parameters are up: the input's checks
// (as the host's), bcut up.
void CudaAcks2::setup(const QEqInput &in, CudaSolveContext &s) {
  const Acks2Input &ak = *model_input<Acks2Input>(in.model);
  ak.check();
  s.upload(bcut_, ak.bcut, in.type ? std::max(in.num_types, 0) : in.n_total);
  softness_ = ak.softness;
  u_ = ak.u;
}

// X's rows read bcut and the softness beside H's inputs.
void CudaAcks2::row_args(QEqRowArgs &a) const {
  a.bcut = bcut_.data();
  a.softness = softness_;
}

bool CudaAcks2::solve(const QEqInput &in, CudaSolveContext &solver, QEqComm &comm, double *q,
                      QEqResult &res) {
  const CudaSolveParts p = solver.parts();
  const QEqSettings &set = *p.settings;
  const int n = in.n_total, nl = in.n_local, nr = p.n_rows;
  double *u = u_;
  const int *rows = p.rows;
  // b, r, p, r_hat and s are read at rows only; products read and write every atom
  for (DeviceArray<double2> *a : {&r_hat_, &s_}) a->reserve_discarding(nl, kGrowHeadroom);
  for (DeviceArray<double2> *a : {&z_, &s_hat_, &y_}) a->reserve_discarding(n, kGrowHeadroom);
  xdiag_.reserve_discarding(nl, kGrowHeadroom);
  xdiag_inv_.reserve_discarding(nl, kGrowHeadroom);
  u_dev_.reserve_discarding(n, kGrowHeadroom);
  x_diagonal(solver, p, comm);  // (uses d and w)
  // entries off the rows stay zero in every vector a product reads
  if (n > 0)
    for (double2 *v : {p.x, p.d, s_hat_.data()})
      PMD_CUDA_CHECK(cudaMemsetAsync(v, 0, n * sizeof(double2), p.stream));
  if (nl > 0) PMD_CUDA_CHECK(cudaMemsetAsync(p.diag, 0, nl * sizeof(double), p.stream));
  if (nr > 0) {
    k_acks2_init<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, p.stream>>>(
        nr, rows, *p.params, p.hist, p.hist_depth, set.predictor, p.b, p.x, p.diag, p.diag_inv);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_init", p.stream);
  }
  Acks2State start;
  start.tol = set.tolerance;
  start.max_iter = set.max_iter;
  start.x = Acks2Mult{qeq_guess_s(p.global_hist, set.predictor),
                      qeq_guess_s(p.global_hist + p.hist_depth, set.predictor)};
  const Acks2State end = bicgstab(solver, p, start, comm);

  res = QEqResult{};
  res.iter_s = end.it;
  res.iter_t = 0;
  res.converged_s = end.it < set.max_iter;
  res.breakdown = end.breakdown != 0;
  res.matrix = p.store->format();
  res.matrix_free = res.matrix == QEqMatrix::Free;
  solver.note_halo(res);
  qeq_push_history(p.global_hist, p.hist_depth, end.x.u, end.x.q);

  const CudaSolveContext::ResultHome out[] = {{q, p.q}, {u, &u_dev_}};
  solver.results_home(out, 2, comm, [&] {
    k_acks2_results<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, p.stream>>>(
        nr, rows, p.x, p.q->data(), u_dev_.data(), p.hist, p.hist_depth);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_results", p.stream);
  });
  return true;
}

namespace {
const CudaModels::Add<Acks2Input, CudaAcks2> kCudaAcks2;
}  // namespace

}  // namespace puremd::cuda
