// The charge solvers' halo (common/halo_plan.h): a pattern as LAMMPS's
// forward comm makes it, grouped and replayed on two ranks (threads with an
// in-memory mailbox standing for MPI), gives every ghost its atom's value,
// ghosts forwarded in a later round included; patterns that do not fit the
// atoms are refused. The LAMMPS-level tests on 2 and 4 ranks replay the
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

#include "common/halo_plan.h"
#include "puremd_gpu/errors.h"

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
  void forward(double *) override { FAIL() << "the halo replaces forward()"; }
  void reverse(double *) override {}
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
