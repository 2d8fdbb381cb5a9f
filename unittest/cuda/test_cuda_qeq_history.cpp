// The CUDA QEq solver's history between solves against the host solver's:
// kept on the GPU, and each predictor's first guess (test_cuda_qeq.cpp: the
// solver's other paths).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cuda_qeq_compare.h"
#include "cuda_qeq_engine.h"
#include "host_qeq.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"

using namespace puremd;
using namespace qeq_test;

TEST(CudaQEq, HistoryStaysOnTheGpuBetweenSolves) {
  REQUIRE_GPU();
  // Several solves with moving atoms and no history access in between (as
  // between LAMMPS's neighbour builds), then an atom swap through the
  // history API (as LAMMPS's sort), then more solves: same as the host.
  const int n = 64;
  const double L = 10.0, cut = 6.0;
  std::vector<double> pos;
  std::vector<int> type;
  random_atoms(n, L, 1234u, pos, type);
  std::vector<int> active(n, 1);
  std::mt19937 rng(9u);
  std::normal_distribution<double> kick(0.0, 0.05);
  HostQEq host(settings(0.0, cut, 1e-12));
  CudaQEq cuda(settings(0.0, cut, 1e-12));
  for (int step = 0; step < 8; ++step) {
    const System sys = periodic_from_positions(pos, type, active, L, cut);
    QEqInput in = make_input(sys);
    SingleRankComm ch = make_comm(sys), cc = make_comm(sys);
    std::vector<double> qh(sys.n_total()), qc(sys.n_total());
    host.solve(in, ch, qh.data());
    cuda.solve(in, cc, qc.data());
    for (int i = 0; i < sys.n_total(); ++i)
      ASSERT_NEAR(qc[i], qh[i], 1e-10) << "step " << step << ": q of atom " << i;
    for (double &v : pos) v += kick(rng);
    if (step == 3) {  // the first call of the history API brings it home
      std::vector<double> block(kQEqHistoryPerAtom);
      for (ChargeHistory *h : {&host.history, &cuda.history}) {
        h->pack(5, block.data());
        h->copy(40, 5);
        h->unpack(40, block.data());
      }
      expect_same_history(host.history, cuda.history, n, "after the swap");
      for (int k = 0; k < 3; ++k) std::swap(pos[15 + k], pos[120 + k]);
      std::swap(type[5], type[40]);
    }
  }
  expect_same_history(host.history, cuda.history, n, "after 8 solves");
}

// Every predictor (QEqSettings::predictor) starts CG where the host's does,
// to the bit: with max_iter 1 (no CG step) both push their guesses into the
// history. Then solves of moving atoms, the history filling up, as the host.
TEST(CudaQEq, EveryPredictorStartsWhereTheHostDoes) {
  REQUIRE_GPU();
  const System sys = make_periodic_system(27, 9.0, 6.0, 4242u);
  for (QEqPredictor p :
       {QEqPredictor::Lammps, QEqPredictor::Aspc, QEqPredictor::Quadratic, QEqPredictor::Linear}) {
    const std::string name = "predictor " + std::to_string(static_cast<int>(p));
    QEqSettings set = settings(0.0, 6.0, 1e-12, 1);
    set.predictor = p;
    HostQEq host(set);
    CudaQEq cuda(set);
    std::vector<double> block(kQEqHistoryPerAtom);
    for (ChargeHistory *h : {&host.history, &cuda.history}) {
      h->grow(sys.n_local);
      for (int i = 0; i < sys.n_local; ++i) {
        for (int k = 0; k < kQEqHistoryPerAtom; ++k)
          block[k] = 0.01 * i - 0.3 * k + 0.07 * k * k - 0.011 * k * k * k;
        h->unpack(i, block.data());
      }
    }
    SingleRankComm ch = make_comm(sys), cc = make_comm(sys);
    std::vector<double> qh(sys.n_total()), qc(sys.n_total());
    host.solve(make_input(sys), ch, qh.data());
    cuda.solve(make_input(sys), cc, qc.data());
    for (int i = 0; i < sys.n_local; ++i) {
      ASSERT_EQ(cuda.history.s(i, 0), host.history.s(i, 0)) << name << ": s guess of atom " << i;
      ASSERT_EQ(cuda.history.t(i, 0), host.history.t(i, 0)) << name << ": t guess of atom " << i;
    }

    set.max_iter = 1000;
    HostQEq host_md(set);
    CudaQEq cuda_md(set);
    const int n = 64;
    const double L = 10.0, cut = 6.0;
    std::vector<double> pos;
    std::vector<int> type;
    random_atoms(n, L, 31u, pos, type);
    std::vector<int> active(n, 1);
    std::mt19937 rng(3u);
    std::normal_distribution<double> kick(0.0, 0.02);
    for (int step = 0; step < 6; ++step) {
      const System moving = periodic_from_positions(pos, type, active, L, cut);
      expect_same_solve(host_md, cuda_md, make_input(moving), moving,
                        name + ", step " + std::to_string(step));
      for (double &v : pos) v += kick(rng);
    }
  }
}
