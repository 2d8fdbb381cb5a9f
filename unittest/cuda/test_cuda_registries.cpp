// The CUDA QEq solver's parts that come from the registry (common/registry.h) by a
// key the host rules choose: the matrix stores (qeq_matrix_store.h; each QEqStore
// has one, holding what qeq_store_traits says it is chosen for), the homes of
// CG's scalars (qeq_cg_scalars.h; each QEqScalarsHome has one) and the halo's
// transports (halo_transport.h). The first two need the CUDA build, not a GPU
// (making these parts allocates nothing).
// Each kind is then proved open by a test-only part in this file, registered
// by one line (Registry::Scoped, since these kinds' keys are a closed set): a
// store and a home that count what the solver asks of them and hand it to
// the library's own part of their key, and a transport that carries a halo
// message to a rank back to this one. Those need a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/charges/qeq_matrix_choice.h"
#include "common/charges/qeq_scalars_home.h"
#include "cuda_qeq_compare.h"
#include "qeq_test_system.h"
#include "require_gpu.h"
#include "two_rank_stand_in.h"

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>

#include "cuda/charges/halo_exchange.h"
#include "cuda/charges/qeq_cg_scalars.h"
#include "cuda/charges/qeq_matrix_store.h"
#endif

using namespace puremd;
using namespace qeq_test;

TEST(CudaMatrixStores, EveryStoreIsRegisteredAndHoldsWhatTheRuleChoosesItFor) {
#if !defined(PUREMD_WITH_CUDA)
  GTEST_SKIP() << "the library was built without CUDA";
#else
  cuda::MemoryTracker mem;
  cuda::QEqMatrixPool pool(mem);
  for (int k = 0; k < kNumQEqStores; ++k) {
    const auto key = static_cast<QEqStore>(k);
    const auto *entry = cuda::QEqMatrixStores::find(key);
    ASSERT_NE(entry, nullptr) << "no store registered for QEqStore " << k;
    const auto store = entry->make(pool);
    const QEqStoreTraits t = qeq_store_traits(key);
    EXPECT_EQ(store->format(), t.format) << "QEqStore " << k;
    EXPECT_EQ(store->once(), t.once) << "QEqStore " << k;
  }
  EXPECT_EQ(cuda::QEqMatrixStores::entries().size(), static_cast<std::size_t>(kNumQEqStores));
#endif
}

namespace {
struct OneRank final : QEqComm {
  double sum(double local) override { return local; }
  const HaloPattern *halo() const override { return nullptr; }
};
}  // namespace

TEST(CudaReductions, EveryHomeOfCgScalarsIsRegistered) {
#if !defined(PUREMD_WITH_CUDA)
  GTEST_SKIP() << "the library was built without CUDA";
#else
  for (QEqScalarsHome h : {QEqScalarsHome::Gpu, QEqScalarsHome::PeerGpus, QEqScalarsHome::Host})
    EXPECT_NE(cuda::CgReductions::find(h), nullptr) << static_cast<int>(h);
  OneRank comm;
  EXPECT_TRUE(cuda::make_cg_scalars(QEqScalarsHome::Gpu, nullptr, comm)->on_device());
  EXPECT_FALSE(cuda::make_cg_scalars(QEqScalarsHome::Host, nullptr, comm)->on_device());
#endif
}

#if defined(PUREMD_WITH_CUDA)
namespace {

// --- A test-only matrix store: the library's Full store (the entry it
// hides), counted.
struct StoreCounts {
  cuda::QEqMatrixStores::Entry full{};
  int made = 0, builds = 0, products = 0;
} g_store;

class CountingStore final : public cuda::QEqMatrixStore {
 public:
  explicit CountingStore(cuda::QEqMatrixPool &pool) : inner_(g_store.full.make(pool)) {
    ++g_store.made;
  }
  QEqMatrix format() const override { return inner_->format(); }
  bool once() const override { return inner_->once(); }
  bool build(const cuda::QEqMatrixSolve &s) override {
    ++g_store.builds;
    return inner_->build(s);
  }
  void multiply(const cuda::QEqMatrixSolve &s, const double2 *v, double2 *y,
                const int *running) override {
    ++g_store.products;
    inner_->multiply(s, v, y, running);
  }
  void release() override { inner_->release(); }

 private:
  std::unique_ptr<cuda::QEqMatrixStore> inner_;
};

// --- A test-only home of CG's scalars: at home, each sum counted.
struct HomeCounts {
  int made = 0, sums = 0;
} g_home;

class CountingHome final : public cuda::CgScalars {
 public:
  CountingHome(cuda::CudaHalo *, QEqComm &comm) : comm_(comm) { ++g_home.made; }
  bool on_device() const override { return false; }
  void sum(double *v, int n) override {
    ++g_home.sums;
    comm_.sum(v, n);
  }

 private:
  QEqComm &comm_;
};

// --- A test-only transport: it takes every peer, and what this rank sends
// to a peer in a round comes back as what that peer sends (a rank whose
// peer mirrors it).
int g_loopback_rounds = 0;

class Loopback final : public cuda::HaloTransport {
 public:
  explicit Loopback(cuda::MemoryTracker &) {}
  void connect(const cuda::HaloShared &, QEqComm &, bool, const std::vector<int> &peers,
               std::vector<char> &taken) override {
    peers_ = 0;
    for (std::size_t k = 0; k < peers.size(); ++k)
      if (!taken[k]) {
        taken[k] = 1;
        ++peers_;
      }
  }
  void send(const cuda::HaloShared &, QEqComm &, const cuda::HaloRoundIo &) override {}
  void complete(const cuda::HaloShared &h, QEqComm &, const cuda::HaloRoundIo &io) override {
    ++g_loopback_rounds;
    const HaloRound &r = h.plan->rounds[io.round];
    for (const HaloRound::Peer &from : r.from)
      for (const HaloRound::Peer &to : r.to)
        if (to.peer == from.peer)
          PMD_CUDA_CHECK(cudaMemcpyAsync(
              io.recv_dev + from.offset * io.elem, io.send_dev + to.offset * io.elem,
              std::min(from.count, to.count) * io.elem, cudaMemcpyDeviceToDevice, h.stream));
  }
  int peers() const override { return peers_; }

 private:
  int peers_ = 0;
};

// One solve by a solver made now, so with the parts the registry holds now.
QEqResult solve_once(const QEqSettings &set, const System &sys, QEqComm &comm,
                     std::vector<double> &q) {
  CudaQEq solver(set);
  q.assign(sys.n_total(), 0.0);
  return solver.solve(make_input(sys), comm, q.data());
}

// A solve through a test-only part gives the library's part's iterations
// and charges, bit for bit.
void expect_same_solve_bits(const QEqResult &r, const std::vector<double> &q, const QEqResult &ref,
                            const std::vector<double> &q_ref) {
  EXPECT_EQ(r.iter_s, ref.iter_s);
  EXPECT_EQ(r.iter_t, ref.iter_t);
  ASSERT_EQ(q.size(), q_ref.size());
  for (std::size_t i = 0; i < q.size(); ++i) ASSERT_EQ(q[i], q_ref[i]) << "atom " << i;
}

// Rank 0 of two; rank 1 silent (what it would send arrives as zeros).
struct RankZeroOfTwo final : QEqComm {
  double sum(double local) override { return local; }
  const HaloPattern *halo() const override { return nullptr; }
  int size() const override { return 2; }
  bool peer_copies() const override { return false; }
  void exchange(const Message *, int, const Message *recv, int n_recv) override {
    ++exchanges;
    for (int k = 0; k < n_recv; ++k) std::memset(recv[k].data, 0, recv[k].bytes);
  }
  int exchanges = 0;
};

}  // namespace
#endif

TEST(CudaMatrixStores, ATestOnlyStoreIsTheOneTheSolverTakes) {
  REQUIRE_GPU();
#if defined(PUREMD_WITH_CUDA)
  const System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  QEqSettings set = settings(0.0, 6.0, 1e-12, 1000);
  set.matrix = QEqMatrix::Full;
  set.preconditioner = kQEqJacobi;  // (the products only: no preconditioner's build)
  std::vector<double> q_plain, q_counted;
  SingleRankComm c_plain = make_comm(sys), c_counted = make_comm(sys);
  const QEqResult r_plain = solve_once(set, sys, c_plain, q_plain);

  g_store = StoreCounts{};
  const cuda::QEqMatrixStores::Scoped<CountingStore> counting(QEqStore::Full);
  g_store.full = counting.hidden();
  ASSERT_NE(g_store.full.make, nullptr) << "the library registers no Full store";
  const QEqResult r = solve_once(set, sys, c_counted, q_counted);
  EXPECT_EQ(g_store.made, 1);
  EXPECT_EQ(g_store.builds, 1);
  // one product a CG iteration at least (s and t together), and the start's
  EXPECT_GT(g_store.products, std::max(r.iter_s, r.iter_t));
  expect_same_solve_bits(r, q_counted, r_plain, q_plain);
#endif
}

TEST(CudaReductions, ATestOnlyHomeSumsCgsScalars) {
  REQUIRE_GPU();
#if defined(PUREMD_WITH_CUDA)
  const System sys = make_periodic_system(64, 10.0, 6.0, 77u);
  QEqSettings set = settings(0.0, 6.0, 1e-12, 1000);
  set.matrix = QEqMatrix::Full;
  set.preconditioner = kQEqJacobi;
  std::vector<double> q_plain, q_counted;
  TwoRankStandIn c_plain = stand_in(sys), c_counted = stand_in(sys);  // scalars at home
  const QEqResult r_plain = solve_once(set, sys, c_plain, q_plain);

  g_home = HomeCounts{};
  const cuda::CgReductions::Scoped<CountingHome> counting(QEqScalarsHome::Host);
  ASSERT_NE(counting.hidden().make, nullptr) << "the library registers no home on the host";
  const QEqResult r = solve_once(set, sys, c_counted, q_counted);
  EXPECT_EQ(g_home.made, 1);
  // the start's sums and at least one a CG iteration
  EXPECT_GT(g_home.sums, std::max(r.iter_s, r.iter_t));
  expect_same_solve_bits(r, q_counted, r_plain, q_plain);
#endif
}

TEST(CudaHaloTransports, ATestOnlyTransportCarriesTheHalo) {
  REQUIRE_GPU();
#if defined(PUREMD_WITH_CUDA)
  g_loopback_rounds = 0;
  const cuda::HaloTransports::Scoped<Loopback> loopback("loopback (test)", 0);
  // 6 owned atoms; rank 1 gets atoms 4, 1, 3 in round 0 and sends back into
  // ghosts 6..8; ghost 9 is an image of atom 2 (a copy within the rank)
  constexpr int nl = 6, n = 10;
  HaloPattern pat;
  pat.version = new_halo_version();
  pat.rounds = 1;
  pat.sends.push_back({1, 0, {4, 1, 3}});
  pat.sends.push_back({0, 0, {2}});
  pat.recvs.push_back({1, 0, nl, 3});
  pat.recvs.push_back({0, 0, nl + 3, 1});
  cudaStream_t stream = nullptr;
  PMD_CUDA_CHECK(cudaStreamCreate(&stream));
  {
    cuda::MemoryTracker mem;
    cuda::CudaHalo halo(stream, mem);
    RankZeroOfTwo comm;
    halo.update(pat, comm, nl, n, comm.peer_copies());
    EXPECT_EQ(halo.peers_by_mpi(), 0);
    EXPECT_EQ(halo.peers_by_copy(), 0);
    comm.exchanges = 0;  // (the transports' connect may exchange: only the halo's values count)
    std::vector<double> v(n, -1.0);
    for (int i = 0; i < nl; ++i) v[i] = 10.0 + i;
    double *dev = nullptr;
    PMD_CUDA_CHECK(cudaMalloc(&dev, n * sizeof(double)));
    PMD_CUDA_CHECK(cudaMemcpy(dev, v.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    halo.forward(dev, comm);
    PMD_CUDA_CHECK(cudaStreamSynchronize(stream));
    PMD_CUDA_CHECK(cudaMemcpy(v.data(), dev, n * sizeof(double), cudaMemcpyDeviceToHost));
    PMD_CUDA_CHECK(cudaFree(dev));
    EXPECT_EQ(g_loopback_rounds, 1);
    EXPECT_EQ(comm.exchanges, 0) << "a peer went to MPI";
    EXPECT_EQ(v[6], 14.0);
    EXPECT_EQ(v[7], 11.0);
    EXPECT_EQ(v[8], 13.0);
    EXPECT_EQ(v[9], 12.0);
  }
  PMD_CUDA_CHECK(cudaStreamDestroy(stream));
#endif
}
