// CG's preconditioner registry on the CUDA driver: a preconditioner is one
// file and its registration. This file's, scaled Jacobi (M = 2 diag(H)),
// applies itself (no diagonal to fuse, so CG takes the path of
// CudaPreconditioner::apply), the slow way, through the host; CG's iterates
// do not depend on a constant factor of M, so its charges are Jacobi's to
// round-off, with the scalars on the GPU (one rank) or at home (several).
// An unknown name is refused with the driver's names. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cuda_qeq_compare.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"
#include "two_rank_stand_in.h"

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>

#include "cuda/charges/cuda_preconditioner.h"
#endif

using namespace puremd;
using namespace qeq_test;

namespace {

constexpr const char *kScaledJacobi = "scaled-jacobi (test)";

#if defined(PUREMD_WITH_CUDA)
class CudaScaledJacobi final : public cuda::CudaPreconditioner {
 public:
  explicit CudaScaledJacobi(cuda::MemoryTracker &) {}
  void setup(const cuda::CudaPreconditionerInput &in) override {
    stream_ = in.stream;
    rows_.assign(in.n_rows, 0);
    if (in.n_rows > 0)
      PMD_CUDA_CHECK(cudaMemcpyAsync(rows_.data(), in.rows, in.n_rows * sizeof(int),
                                     cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
    n_ = rows_.empty() ? 0 : *std::max_element(rows_.begin(), rows_.end()) + 1;
    diag_.assign(n_, 0.0);
    if (n_ > 0)
      PMD_CUDA_CHECK(cudaMemcpyAsync(diag_.data(), in.diag, n_ * sizeof(double),
                                     cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void apply(const double2 *r, double2 *p, const int *running) override {
    if (running) {
      int run = 0;
      PMD_CUDA_CHECK(cudaMemcpyAsync(&run, running, sizeof run, cudaMemcpyDeviceToHost, stream_));
      PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (!run) return;
    }
    if (n_ == 0) return;
    r_.resize(n_);
    p_.resize(n_);
    PMD_CUDA_CHECK(
        cudaMemcpyAsync(r_.data(), r, n_ * sizeof(double2), cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(
        cudaMemcpyAsync(p_.data(), p, n_ * sizeof(double2), cudaMemcpyDeviceToHost, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (int i : rows_) {
      const double m = 1.0 / (2.0 * diag_[i]);
      p_[i] = make_double2(r_[i].x * m, r_[i].y * m);
    }
    PMD_CUDA_CHECK(
        cudaMemcpyAsync(p, p_.data(), n_ * sizeof(double2), cudaMemcpyHostToDevice, stream_));
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));  // (p_ is reused at the next call)
  }

 private:
  cudaStream_t stream_ = nullptr;
  int n_ = 0;
  std::vector<int> rows_;
  std::vector<double> diag_;
  std::vector<double2> r_, p_;
};

const cuda::CudaPreconditioners::Add<CudaScaledJacobi> kCudaScaledJacobi(kScaledJacobi);
#endif

}  // namespace

TEST(CudaPreconditioner, ARegisteredPreconditionerGivesJacobisCharges) {
  REQUIRE_GPU();
  const System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  for (QEqMatrix matrix : {QEqMatrix::Full, QEqMatrix::Half})
    for (int ranks : {1, 2}) {
      const std::string where = std::string(matrix == QEqMatrix::Full ? "full" : "half") +
                                (ranks == 1 ? ", one rank" : ", several ranks");
      QEqSettings set = settings(0.0, 6.0, 1e-12, 1000);
      set.matrix = matrix;
      set.preconditioner = kQEqJacobi;  // (the default is FSAI)
      CudaQEq jacobi(set);
      set.preconditioner = kScaledJacobi;
      CudaQEq scaled(set);
      std::vector<double> qj(sys.n_total()), qs(sys.n_total());
      TwoRankStandIn cj = stand_in(sys), cs = stand_in(sys);
      SingleRankComm oj = make_comm(sys), os = make_comm(sys);
      QEqComm &comm_j = ranks == 1 ? static_cast<QEqComm &>(oj) : cj;
      QEqComm &comm_s = ranks == 1 ? static_cast<QEqComm &>(os) : cs;
      for (int solve = 0; solve < 2; ++solve) {  // the second from a history
        const QEqResult rj = jacobi.solve(make_input(sys), comm_j, qj.data());
        const QEqResult rs = scaled.solve(make_input(sys), comm_s, qs.data());
        EXPECT_TRUE(rs.converged()) << where;
        EXPECT_NEAR(rs.iter_s, rj.iter_s, 2) << where;
        EXPECT_NEAR(rs.iter_t, rj.iter_t, 2) << where;
        for (int i = 0; i < sys.n_total(); ++i)
          ASSERT_NEAR(qs[i], qj[i], 1e-9) << where << ", solve " << solve << ": atom " << i;
      }
    }
}

TEST(CudaPreconditioner, UnknownNameListsTheDriversNames) {
  REQUIRE_GPU();
  const System sys = make_periodic_system(27, 9.0, 6.0, 3u);
  QEqSettings set = settings(0.0, 6.0, 1e-10);
  set.preconditioner = "no-such-preconditioner";
  CudaQEq cuda(set);
  SingleRankComm comm = make_comm(sys);
  std::vector<double> q(sys.n_total());
  try {
    cuda.solve(make_input(sys), comm, q.data());
    ADD_FAILURE() << "an unknown preconditioner was taken";
  } catch (const InputError &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no-such-preconditioner"), std::string::npos) << what;
    EXPECT_NE(what.find(kQEqJacobi), std::string::npos) << what;
    EXPECT_NE(what.find(kScaledJacobi), std::string::npos) << what;
  }
}

// FSAI (physics/qeq_fsai.h) on the GPU: G built by the GPU from the far
// list equals the host's from its own search, so one rank's counts and
// charges are the host's; on several ranks (G without the other rank's
// columns) the charges are one rank's.
TEST(CudaPreconditioner, FsaiIsTheHostsOnOneRankAndSolvesOnSeveral) {
  REQUIRE_GPU();
  const System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  for (QEqMatrix matrix : {QEqMatrix::Full, QEqMatrix::Half}) {
    const std::string where = matrix == QEqMatrix::Full ? "full" : "half";
    QEqSettings set = settings(0.0, 6.0, 1e-10, 500);
    set.matrix = matrix;
    set.preconditioner = kQEqFsai;
    set.fsai_radius = 3.0;
    HostQEq host(set);
    CudaQEq one(set), two(set);
    QEqResult r1;
    for (int solve = 0; solve < 2; ++solve)
      expect_same_solve(host, one, make_input(sys), sys, where + ", solve " + std::to_string(solve),
                        &r1);
    QEqSettings jac = set;
    jac.preconditioner = kQEqJacobi;
    HostQEq jacobi(jac);
    SingleRankComm cj = make_comm(sys);
    std::vector<double> qj(sys.n_total());
    const QEqResult rj = jacobi.solve(make_input(sys), cj, qj.data());
    EXPECT_LT(r1.iter_s, rj.iter_s) << where;

    // a sub-group (atoms outside it: no row, no column of G)
    System sub = sys;
    for (int i = 0; i < sub.n_local; ++i) sub.active[i] = (i % 4 != 0);
    for (int g = 0; g < sub.n_total() - sub.n_local; ++g)
      sub.active[sub.n_local + g] = sub.active[sub.owner[g]];
    HostQEq host_sub(set);
    CudaQEq cuda_sub(set);
    expect_same_solve(host_sub, cuda_sub, make_input(sub), sub, where + ", sub-group");

    TwoRankStandIn c2 = stand_in(sys);
    std::vector<double> q2(sys.n_total()), q1(sys.n_total());
    SingleRankComm c1 = make_comm(sys);
    CudaQEq ref(set);
    ref.solve(make_input(sys), c1, q1.data());
    const QEqResult r2 = two.solve(make_input(sys), c2, q2.data());
    EXPECT_TRUE(r2.converged()) << where;
    for (int i = 0; i < sys.n_local; ++i)
      ASSERT_NEAR(q2[i], q1[i], 1e-8) << where << ", several ranks: atom " << i;
  }
}

// FSAI's products gather (G and G^T stored, each row's sum in a fixed
// order), so with the matrix in full rows two solvers give the same bits,
// solve after solve (with G^T by atomics they did not).
TEST(CudaPreconditioner, FsaiWithFullRowsGivesTheSameBitsEveryRun) {
  REQUIRE_GPU();
  const System sys = make_periodic_system(512, 20.0, 6.0, 91u);
  QEqSettings set = settings(0.0, 6.0, 1e-10, 500);
  set.matrix = QEqMatrix::Full;
  set.preconditioner = kQEqFsai;
  CudaQEq a(set), b(set);
  for (int solve = 0; solve < 3; ++solve) {
    SingleRankComm ca = make_comm(sys), cb = make_comm(sys);
    std::vector<double> qa(sys.n_total()), qb(sys.n_total());
    const QEqResult ra = a.solve(make_input(sys), ca, qa.data());
    const QEqResult rb = b.solve(make_input(sys), cb, qb.data());
    EXPECT_EQ(ra.iter_s, rb.iter_s) << "solve " << solve;
    EXPECT_EQ(ra.iter_t, rb.iter_t) << "solve " << solve;
    for (int i = 0; i < sys.n_total(); ++i)
      ASSERT_EQ(qa[i], qb[i]) << "solve " << solve << ", atom " << i;
  }
}
