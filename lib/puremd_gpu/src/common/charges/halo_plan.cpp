#include "common/charges/halo_plan.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "puremd_gpu/errors.h"

namespace puremd {

void QEqComm::exchange(const Message *, int n_send, const Message *, int n_recv) {
  if (n_send > 0 || n_recv > 0)
    throw RuntimeError("QEq: this communicator replays no halo (QEqComm::exchange)");
}

namespace {

[[noreturn]] void bad_pattern(const std::string &what) {
  throw RuntimeError("QEq halo pattern: " + what +
                     " (the ghosts changed since it was recorded, or it was recorded wrongly)");
}

// The other ranks that messages of round r (with values) go to or come from, ascending.
template <class Messages, class HasValues>
std::vector<int> peers_in_round(const Messages &msgs, int r, int me, HasValues has_values) {
  std::vector<int> peers;
  for (const auto &m : msgs)
    if (m.round == r && m.peer != me && has_values(m)) peers.push_back(m.peer);
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  return peers;
}

}  // namespace

long long new_halo_version() {
  static std::atomic<long long> next_version{0};
  return next_version++;
}

HaloPattern image_halo(const int *owner, int n_local, int n_total) {
  if (n_local < 0 || n_total < n_local)
    throw RuntimeError("image_halo: invalid atom counts " + std::to_string(n_local) + ", " +
                       std::to_string(n_total));
  const int n_ghost = n_total - n_local;
  HaloPattern h;
  h.version = new_halo_version();
  h.rounds = 1;
  HaloPattern::Send send;
  send.index.assign(owner, owner + n_ghost);
  for (int g = 0; g < n_ghost; ++g)
    if (owner[g] < 0 || owner[g] >= n_local)
      throw RuntimeError("image_halo: ghost " + std::to_string(n_local + g) + "'s owner " +
                         std::to_string(owner[g]) + " is not an owned atom (0.." +
                         std::to_string(n_local - 1) + ")");
  h.sends.push_back(std::move(send));
  h.recvs.push_back(HaloPattern::Recv{0, 0, n_local, n_ghost});
  return h;
}

HaloPlan make_halo_plan(const HaloPattern &pattern, int me, int n_local, int n_total) {
  HaloPlan plan;
  plan.version = pattern.version;
  const int nr = pattern.rounds;
  if (nr < 0) bad_pattern("a negative round count");
  plan.rounds.resize(nr);
  auto check_round = [&](int r) {
    if (r < 0 || r >= nr)
      bad_pattern("a message in round " + std::to_string(r) + " of " + std::to_string(nr));
  };
  for (const auto &s : pattern.sends) {
    check_round(s.round);
    for (int i : s.index)
      if (i < 0 || i >= n_total)
        bad_pattern("atom " + std::to_string(i) + " sent, of " + std::to_string(n_total));
  }
  for (const auto &r : pattern.recvs) {
    check_round(r.round);
    if (r.count < 0 || r.first < n_local || r.first + r.count > n_total)
      bad_pattern("a receive into atoms " + std::to_string(r.first) + ".." +
                  std::to_string(r.first + r.count) + " outside the ghosts " +
                  std::to_string(n_local) + ".." + std::to_string(n_total));
  }
  // Messages to itself pair up in order: the k-th sent is the k-th received.
  std::vector<const HaloPattern::Send *> self_sends;
  std::vector<const HaloPattern::Recv *> self_recvs;
  for (const auto &s : pattern.sends)
    if (s.peer == me) self_sends.push_back(&s);
  for (const auto &r : pattern.recvs)
    if (r.peer == me) self_recvs.push_back(&r);
  if (self_sends.size() != self_recvs.size())
    bad_pattern(std::to_string(self_sends.size()) + " messages to itself, " +
                std::to_string(self_recvs.size()) + " received");
  for (std::size_t k = 0; k < self_sends.size(); ++k)
    if (static_cast<int>(self_sends[k]->index.size()) != self_recvs[k]->count ||
        self_sends[k]->round != self_recvs[k]->round)
      bad_pattern("a message to itself that does not match its receive");

  for (int r = 0; r < nr; ++r) {
    HaloRound &hr = plan.rounds[r];
    // messages to other ranks: grouped by peer (ascending), in pattern order
    std::vector<int> peers =
        peers_in_round(pattern.sends, r, me, [](const auto &m) { return !m.index.empty(); });
    hr.pack_begin = static_cast<int>(plan.pack_index.size());
    for (int p : peers) {
      const int offset = static_cast<int>(plan.pack_index.size()) - hr.pack_begin;
      for (const auto &s : pattern.sends)
        if (s.round == r && s.peer == p)
          plan.pack_index.insert(plan.pack_index.end(), s.index.begin(), s.index.end());
      hr.to.push_back(
          {p, offset, static_cast<int>(plan.pack_index.size()) - hr.pack_begin - offset});
    }
    hr.pack_end = static_cast<int>(plan.pack_index.size());
    // copies within this rank
    hr.self_begin = static_cast<int>(plan.self_src.size());
    for (std::size_t k = 0; k < self_sends.size(); ++k) {
      if (self_sends[k]->round != r) continue;
      const auto &idx = self_sends[k]->index;
      for (std::size_t m = 0; m < idx.size(); ++m) {
        plan.self_src.push_back(idx[m]);
        plan.self_dst.push_back(self_recvs[k]->first + static_cast<int>(m));
      }
    }
    hr.self_end = static_cast<int>(plan.self_src.size());
    // what comes from other ranks
    peers = peers_in_round(pattern.recvs, r, me, [](const auto &m) { return m.count > 0; });
    hr.recv_begin = static_cast<int>(plan.recv_index.size());
    for (int p : peers) {
      const int offset = static_cast<int>(plan.recv_index.size()) - hr.recv_begin;
      for (const auto &rv : pattern.recvs)
        if (rv.round == r && rv.peer == p)
          for (int m = 0; m < rv.count; ++m) plan.recv_index.push_back(rv.first + m);
      hr.from.push_back(
          {p, offset, static_cast<int>(plan.recv_index.size()) - hr.recv_begin - offset});
    }
    hr.recv_end = static_cast<int>(plan.recv_index.size());
    plan.max_pack = std::max(plan.max_pack, hr.pack_end - hr.pack_begin);
    plan.max_recv = std::max(plan.max_recv, hr.recv_end - hr.recv_begin);
  }
  return plan;
}

void forward_through_halo(QEqComm &comm, double *v, int n_local, int n_total) {
  if (n_total == n_local) return;
  const HaloPattern *h = comm.halo();
  if (!h) throw RuntimeError("forward_through_halo: ghosts without a halo (QEqComm::halo)");
  std::vector<double> send, recv;
  halo_forward_host(make_halo_plan(*h, comm.rank(), n_local, n_total), v, comm, send, recv);
}

}  // namespace puremd
