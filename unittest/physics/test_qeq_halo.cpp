// The charge solvers' halo (common/charges/halo_plan.h): a pattern as LAMMPS's
// forward comm makes it, grouped and replayed on two ranks (threads with an
// in-memory mailbox standing for MPI), gives every ghost its atom's value,
// ghosts forwarded in a later round included; patterns that do not fit the
// atoms are refused; image_halo makes one rank's periodic images a pattern;
// the host solver (QEq and ACKS2) sends no message but the halo's: nothing
// travels back from a ghost to its owner. The LAMMPS-level tests on 2 and 4 ranks replay the
// patterns FixQEqReaxFFGPU records (host solver in CI, the CUDA solver's
// GPU replay on the device).
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "common/charges/halo_plan.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/acks2.h"
#include "qeq_test_system.h"

using namespace puremd;

namespace {

// Messages between threads: (from, to) -> the payloads in order.
struct Mailbox {
  std::mutex m;
  std::condition_variable cv;
  std::map<std::pair<int, int>, std::vector<std::vector<char>>> queue;
};

struct ThreadComm : QEqComm {
  ThreadComm(Mailbox &b, int r) : box(b), me(r) {}
  const HaloPattern *halo() const override { return nullptr; }
  double sum(double local) override { return local; }
  int rank() const override { return me; }
  void exchange(const Message *send, int n_send, const Message *recv, int n_recv) override {
    {
      std::lock_guard<std::mutex> lock(box.m);
      for (int k = 0; k < n_send; ++k) {
        const char *p = static_cast<const char *>(send[k].data);
        box.queue[{me, send[k].peer}].emplace_back(p, p + send[k].bytes);
      }
    }
    box.cv.notify_all();
    for (int k = 0; k < n_recv; ++k) {
      std::unique_lock<std::mutex> lock(box.m);
      auto &q = box.queue[{recv[k].peer, me}];
      box.cv.wait(lock, [&] { return !q.empty(); });
      ASSERT_EQ(q.front().size(), recv[k].bytes) << "rank " << me << " from " << recv[k].peer;
      std::memcpy(recv[k].data, q.front().data(), recv[k].bytes);
      q.erase(q.begin());
    }
  }
  Mailbox &box;
  int me;
};

// Rank r owns atoms 0..3 (ids 4r..4r+3). Round 0: two messages to the other
// rank (atoms {0, 1} and {3}) received into ghosts 4..5 and 6; round 1: a
// message to itself of a ghost received in round 0 and an owned atom, into
// ghosts 7..8 (a periodic image of a ghost, as LAMMPS's later swaps make).
HaloPattern two_rank_pattern(int r) {
  const int peer = 1 - r;
  HaloPattern p;
  p.version = 1;
  p.rounds = 2;
  p.sends = {{peer, 0, {0, 1}}, {peer, 0, {3}}, {r, 1, {4, 0}}};
  p.recvs = {{peer, 0, 4, 2}, {peer, 0, 6, 1}, {r, 1, 7, 2}};
  return p;
}

}  // namespace

TEST(QEqHalo, TwoRanksGetEveryGhostFromItsAtom) {
  Mailbox box;
  std::vector<double> v[2];
  std::thread t[2];
  for (int r = 0; r < 2; ++r)
    t[r] = std::thread([&, r] {
      ThreadComm comm(box, r);
      const HaloPlan plan = make_halo_plan(two_rank_pattern(r), r, 4, 9);
      ASSERT_EQ(plan.rounds.size(), 2u);
      ASSERT_EQ(plan.rounds[0].to.size(), 1u) << "one message per peer and round";
      v[r].assign(9, -1.0);
      for (int i = 0; i < 4; ++i) v[r][i] = 4 * r + i;
      std::vector<double> send, recv;
      halo_forward_host(plan, v[r].data(), comm, send, recv);
    });
  for (auto &th : t) th.join();
  for (int r = 0; r < 2; ++r) {
    const double p = 4 * (1 - r);
    const std::vector<double> want = {4.0 * r, 4.0 * r + 1, 4.0 * r + 2, 4.0 * r + 3, p,
                                      p + 1,   p + 3,       p,           4.0 * r};
    EXPECT_EQ(v[r], want) << "rank " << r;
  }
}

TEST(QEqHalo, RefusesPatternsThatDoNotFitTheAtoms) {
  HaloPattern p = two_rank_pattern(0);
  EXPECT_THROW(make_halo_plan(p, 0, 4, 8), RuntimeError);  // a receive past the atoms
  EXPECT_THROW(make_halo_plan(p, 0, 5, 9), RuntimeError);  // a receive into an owned atom
  p = two_rank_pattern(0);
  p.sends[0].index[1] = 9;
  EXPECT_THROW(make_halo_plan(p, 0, 4, 9), RuntimeError);  // an atom that is not there
  p = two_rank_pattern(0);
  p.recvs.pop_back();
  EXPECT_THROW(make_halo_plan(p, 0, 4, 9), RuntimeError);  // a message to itself unreceived
  p = two_rank_pattern(0);
  p.sends[1].round = 2;
  EXPECT_THROW(make_halo_plan(p, 0, 4, 9), RuntimeError);  // a round past the count
}

TEST(QEqHalo, ImageHaloCopiesEachGhostsOwner) {
  const int owner[3] = {2, 0, 2};
  const HaloPattern a = image_halo(owner, 3, 6), b = image_halo(owner, 3, 6);
  EXPECT_NE(a.version, b.version) << "a new version at every call";
  const HaloPlan plan = make_halo_plan(a, 0, 3, 6);
  std::vector<double> v = {10, 11, 12, -1, -1, -1}, send, recv;
  struct NoExchange : QEqComm {  // copies within the rank: exchange() stays unused
    const HaloPattern *halo() const override { return nullptr; }
    double sum(double x) override { return x; }
  } comm;
  halo_forward_host(plan, v.data(), comm, send, recv);
  EXPECT_EQ(v, (std::vector<double>{10, 11, 12, 12, 10, 12}));
  EXPECT_NO_THROW(image_halo(nullptr, 3, 3));  // no ghosts
  const int ghost_as_owner[3] = {2, 3, 0}, negative[3] = {2, -1, 0};
  EXPECT_THROW(image_halo(ghost_as_owner, 3, 6), RuntimeError);
  EXPECT_THROW(image_halo(negative, 3, 6), RuntimeError);
}

namespace {

// One rank whose ghosts come in a message from "rank 1", a copy of this
// rank (the same atoms, the same values), so that every halo message goes
// through exchange(): it records what is sent and loops it back.
struct LoopbackComm : QEqComm {
  explicit LoopbackComm(const qeq_test::System &sys) {
    const int n_ghost = sys.n_total() - sys.n_local;
    pattern.version = 7;
    pattern.rounds = 1;
    pattern.sends = {{1, 0, sys.owner}};
    pattern.recvs = {{1, 0, sys.n_local, n_ghost}};
  }
  const HaloPattern *halo() const override { return &pattern; }
  double sum(double local) override { return local; }
  int size() const override { return 2; }
  void exchange(const Message *send, int n_send, const Message *recv, int n_recv) override {
    ASSERT_EQ(n_send, n_recv);
    for (int k = 0; k < n_send; ++k) {
      sent.push_back({send[k].peer, send[k].bytes});
      ASSERT_EQ(recv[k].bytes, send[k].bytes);
      std::memcpy(recv[k].data, send[k].data, send[k].bytes);
    }
  }
  HaloPattern pattern;
  std::vector<std::pair<int, std::size_t>> sent;  // (peer, bytes) of each message
};

void expect_only_halo_messages(const LoopbackComm &comm, const qeq_test::System &sys) {
  const std::size_t halo_bytes = sys.owner.size() * sizeof(double);
  ASSERT_FALSE(comm.sent.empty());
  for (const auto &m : comm.sent) {
    EXPECT_EQ(m.first, 1);
    EXPECT_EQ(m.second, halo_bytes) << "a message that is not the halo's";
  }
}

}  // namespace

TEST(QEqHalo, HostSolverSendsOnlyTheHalo) {
  using namespace qeq_test;
  const System sys = make_periodic_system(27, 9.0, 6.0, 5u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-12;
  set.max_iter = 1000;
  HostQEq images(set), looped(set);
  SingleRankComm one = make_comm(sys);
  LoopbackComm loop(sys);
  std::vector<double> q1(sys.n_total()), q2(sys.n_total());
  const QEqResult r1 = images.solve(make_input(sys), one, q1.data());
  const QEqResult r2 = looped.solve(make_input(sys), loop, q2.data());
  expect_only_halo_messages(loop, sys);
  // one message per replay: the guesses (2), each CG iteration, q
  EXPECT_EQ(loop.sent.size(), static_cast<std::size_t>(r2.iter_s - 1 + r2.iter_t - 1 + 3));
  // (one rank folds its images locally, in LAMMPS's order; the loop keeps
  // every ghost pair in full: the same charges to round-off)
  EXPECT_EQ(r1.iter_s, r2.iter_s);
  EXPECT_EQ(r1.iter_t, r2.iter_t);
  for (int i = 0; i < sys.n_total(); ++i) EXPECT_NEAR(q1[i], q2[i], 1e-13) << "atom " << i;
  for (std::size_t g = 0; g < sys.owner.size(); ++g)
    EXPECT_EQ(q2[sys.n_local + g], q2[sys.owner[g]]) << "ghost " << g;
}

TEST(QEqHalo, HostAcks2SendsOnlyTheHalo) {
  using namespace qeq_test;
  const System sys = make_periodic_system(27, 6.0, 6.0, 12345u);
  QEqSettings set;
  set.cut_hi = 6.0;
  set.tolerance = 1e-20;
  set.max_iter = 200;
  const std::vector<double> bcut = {3.4, 2.6, 3.0};
  std::vector<double> u(sys.n_total()), q(sys.n_total());
  Acks2Input ak;
  ak.bcut = bcut.data();
  ak.softness = 548.6451;
  ak.u = u.data();
  QEqInput in = make_input(sys);
  in.model = &ak;
  HostQEq solver(set);
  LoopbackComm loop(sys);
  const QEqResult res = solver.solve(in, loop, q.data());
  EXPECT_GT(res.iter_s, 1);
  expect_only_halo_messages(loop, sys);
  for (std::size_t g = 0; g < sys.owner.size(); ++g) {
    EXPECT_EQ(q[sys.n_local + g], q[sys.owner[g]]) << "ghost " << g;
    EXPECT_EQ(u[sys.n_local + g], u[sys.owner[g]]) << "ghost " << g;
  }
}
