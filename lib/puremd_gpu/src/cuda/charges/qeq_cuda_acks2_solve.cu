// ACKS2's solve in the CUDA solver (Acks2Input, physics/acks2.h): the
// model's CUDA implementation (cuda_charge_model.h), registered below; its
// start (right-hand side, diagonals, the history's guesses), BiCGStab
// (qeq_cuda_acks2.cu) and its results, q and u, home.
#include <cuda_runtime.h>

#include <algorithm>

#include "common/acks2_bicgstab.h"
#include "cuda/charges/qeq_cuda_solver.h"
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

QEqResult CudaQEqSolver::solve_acks2(const QEqInput &in, QEqComm &comm, double *q) {
  const int n = in.n_total, nl = in.n_local, nr = n_rows_;
  double *u = acks2_u_;
  const int *rows = rows_dev_.data();
  // b, r, p, r_hat and s are read at rows only; products read and write every atom
  for (DeviceArray<double2> *a : {&r_hat_, &s_}) a->reserve_discarding(nl, kGrowHeadroom);
  for (DeviceArray<double2> *a : {&z_, &s_hat_, &y_}) a->reserve_discarding(n, kGrowHeadroom);
  xdiag_.reserve_discarding(nl, kGrowHeadroom);
  xdiag_inv_.reserve_discarding(nl, kGrowHeadroom);
  u_dev_.reserve_discarding(n, kGrowHeadroom);
  acks2_x_diagonal(comm);  // (uses d and w)
  // entries off the rows stay zero in every vector a product reads
  if (n > 0)
    for (DeviceArray<double2> *v : {&x_, &d_, &s_hat_})
      PMD_CUDA_CHECK(cudaMemsetAsync(v->data(), 0, n * sizeof(double2), stream_));
  if (nl > 0) PMD_CUDA_CHECK(cudaMemsetAsync(diag_.data(), 0, nl * sizeof(double), stream_));
  if (nr > 0) {
    k_acks2_init<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows, params_, hist_dev_, hist_depth_, settings_.predictor, b_.data(), x_.data(),
        diag_.data(), diag_inv_.data());
    PMD_CUDA_CHECK_LAUNCH("k_acks2_init", stream_);
  }
  Acks2State start;
  start.tol = settings_.tolerance;
  start.max_iter = settings_.max_iter;
  start.x = Acks2Mult{qeq_guess_s(global_hist_, settings_.predictor),
                      qeq_guess_s(global_hist_ + hist_depth_, settings_.predictor)};
  const Acks2State end = bicgstab(start, comm);

  QEqResult res;
  res.iter_s = end.it;
  res.iter_t = 0;
  res.converged_s = end.it < settings_.max_iter;
  res.breakdown = end.breakdown != 0;
  res.matrix = store_->format();
  res.matrix_free = res.matrix == QEqMatrix::Free;
  note_halo(res);
  qeq_push_history(global_hist_, hist_depth_, end.x.u, end.x.q);

  const ResultHome out[] = {{q, &q_dev_}, {u, &u_dev_}};
  results_home(out, 2, comm, [&] {
    k_acks2_results<<<blocks_for(nr, kQEqBlock), kQEqBlock, 0, stream_>>>(
        nr, rows, x_.data(), q_dev_.data(), u_dev_.data(), hist_dev_, hist_depth_);
    PMD_CUDA_CHECK_LAUNCH("k_acks2_results", stream_);
  });
  return res;
}

// In setup, once the parameters are up: the input's checks (as the host's),
// bcut up; this solve builds X beside H.
void CudaQEqSolver::use_acks2(const QEqInput &in, const Acks2Input &ak) {
  ak.check();
  upload(bcut_dev_, ak.bcut, in.type ? std::max(in.num_types, 0) : in.n_total);
  acks2_ = true;
  acks2_softness_ = ak.softness;
  acks2_u_ = ak.u;
}

namespace {

// The model's hooks: its arrays and steps are the solver's (qeq_cuda_solver.h).
class CudaAcks2 final : public CudaChargeModel {
 public:
  explicit CudaAcks2(MemoryTracker &) {}
  bool reads_reverse_index() const override { return true; }
  void setup(const QEqInput &in, CudaQEqSolver &s) override {
    s.use_acks2(in, *model_input<Acks2Input>(in.model));
  }
  bool solve(const QEqInput &in, CudaQEqSolver &s, QEqComm &comm, double *q,
             QEqResult &res) override {
    res = s.solve_acks2(in, comm, q);
    return true;
  }
};

const CudaModels::Add<Acks2Input, CudaAcks2> kCudaAcks2;

}  // namespace
}  // namespace puremd::cuda
