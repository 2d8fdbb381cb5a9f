#include "qeq_lammps_comm.h"

#include <algorithm>
#include <string>

#include "atom.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "kokkos_atoms.h"
#include "lammps.h"
#include "neighbor.h"

#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

using namespace LAMMPS_NS;

namespace {

// A recorded message's header, exact in a double: sender + P (seq + S round).
constexpr long long kSeqLimit = 1 << 20;
constexpr int kRoundLimit = 1 << 10;
constexpr int kHaloTag = 7431;  // MPI tag of the solvers' halo messages

bool mpi_takes_gpu_memory() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

}  // namespace

QEqLammpsComm::QEqLammpsComm(LAMMPS *l, Fix *f, CudaAware cuda_aware, bool peer_copies)
    : lmp(l), fix(f), copies(peer_copies) {
  gpu_buffers =
      cuda_aware == CudaAware::Yes || (cuda_aware == CudaAware::Auto && mpi_takes_gpu_memory());
}

double QEqLammpsComm::sum(double local) {
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, lmp->world);
  return global;
}

void QEqLammpsComm::sum(double *v, int n) {
  if (n > 0) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, lmp->world);
}

const puremd::HaloPattern *QEqLammpsComm::halo() const {
  return pattern.version >= 0 ? &pattern : nullptr;
}

int QEqLammpsComm::rank() const { return lmp->comm->me; }

int QEqLammpsComm::size() const { return lmp->comm->nprocs; }

void QEqLammpsComm::exchange(const Message *send, int n_send, const Message *recv, int n_recv) {
  requests.resize(static_cast<std::size_t>(n_send) + n_recv);
  MPI_Request *r = requests.data();
  for (int k = 0; k < n_recv; ++k)
    MPI_Irecv(recv[k].data, static_cast<int>(recv[k].bytes), MPI_BYTE, recv[k].peer, kHaloTag,
              lmp->world, r++);
  for (int k = 0; k < n_send; ++k)
    MPI_Isend(send[k].data, static_cast<int>(send[k].bytes), MPI_BYTE, send[k].peer, kHaloTag,
              lmp->world, r++);
  MPI_Waitall(n_send + n_recv, requests.data(), MPI_STATUSES_IGNORE);
}

bool QEqLammpsComm::update_halo() {
  int stale = lmp->neighbor->ncalls != recorded_at || lmp->atom->nlocal != recorded_nlocal ||
              lmp->atom->nghost != recorded_nghost;
  // (every rank re-neighbours together; the counts are per rank)
  int any = 0;
  MPI_Allreduce(&stale, &any, 1, MPI_INT, MPI_MAX, lmp->world);
  if (!any) return false;
  record_halo();
  recorded_at = lmp->neighbor->ncalls;
  recorded_nlocal = lmp->atom->nlocal;
  recorded_nghost = lmp->atom->nghost;
  return true;
}

// One forward comm in record mode (see the header), then the senders learn
// their messages' receivers.
void QEqLammpsComm::record_halo() {
  pattern.sends.clear();
  received.clear();
  ghost_round.assign(lmp->atom->nghost, -1);
  record_ok = true;
  reaxff_gpu::host_arrays_current(lmp, TAG_MASK);  // (KOKKOS: the pack reads ids)
  lmp->comm->forward_comm(fix, kForwardSize);
  int ok = record_ok ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, lmp->world);
  if (!all_ok)
    lmp->error->all(FLERR,
                    "Fix {}: recording LAMMPS's forward communication for the charge solver's halo "
                    "found a ghost whose id or sender does not match (please report)",
                    fix->style);
  match_senders();
  int rounds = 0;
  for (const auto &s : pattern.sends) rounds = std::max(rounds, s.round + 1);
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT, MPI_MAX, lmp->world);
  pattern.rounds = rounds;
  // each peer's messages in the order it sent them (its message numbers)
  std::stable_sort(received.begin(), received.end(), [](const Received &a, const Received &b) {
    return a.recv.peer != b.recv.peer ? a.recv.peer < b.recv.peer : a.seq < b.seq;
  });
  pattern.recvs.clear();
  for (const auto &r : received) pattern.recvs.push_back(r.recv);
  // unique in the process: a solver outlives this fix (unfix, a new fix) and
  // keeps a plan by its version
  pattern.version = puremd::new_halo_version();
  ghost_round.clear();
  ghost_round.shrink_to_fit();
}

// Every receiver tells each sender which of its messages it got; a message
// to this rank itself is known already.
void QEqLammpsComm::match_senders() {
  const int np = lmp->comm->nprocs, me = lmp->comm->me;
  std::vector<int> count(np, 0), count_in(np, 0);
  for (const auto &r : received)
    if (r.recv.peer != me) ++count[r.recv.peer];
  MPI_Alltoall(count.data(), 1, MPI_INT, count_in.data(), 1, MPI_INT, lmp->world);
  std::vector<int> disp(np, 0), disp_in(np, 0);
  for (int p = 1; p < np; ++p) {
    disp[p] = disp[p - 1] + count[p - 1];
    disp_in[p] = disp_in[p - 1] + count_in[p - 1];
  }
  std::vector<int> out(disp[np - 1] + count[np - 1]), in(disp_in[np - 1] + count_in[np - 1]);
  std::vector<int> fill = disp;
  for (const auto &r : received)
    if (r.recv.peer != me) out[fill[r.recv.peer]++] = r.seq;
  MPI_Alltoallv(out.data(), count.data(), disp.data(), MPI_INT, in.data(), count_in.data(),
                disp_in.data(), MPI_INT, lmp->world);
  const int ns = static_cast<int>(pattern.sends.size());
  int bad = 0;
  for (int p = 0; p < np; ++p)
    for (int k = 0; k < count_in[p]; ++k) {
      const int seq = in[disp_in[p] + k];
      if (seq < 0 || seq >= ns || pattern.sends[seq].peer != -1)
        bad = 1;
      else
        pattern.sends[seq].peer = p;
    }
  for (const auto &s : pattern.sends)
    if (s.peer < 0) bad = 1;
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, lmp->world);
  if (any)
    lmp->error->all(FLERR,
                    "Fix {}: recording LAMMPS's forward communication for the charge solver's halo "
                    "left a message without its receiver (please report)",
                    fix->style);
}

int QEqLammpsComm::pack_forward(int n, int *list, double *buf) {
  if (n == 0) return 0;  // an empty message: nothing to replay
  const int nlocal = lmp->atom->nlocal;
  int round = 0;
  for (int m = 0; m < n; ++m)
    if (list[m] >= nlocal) round = std::max(round, ghost_round[list[m] - nlocal] + 1);
  const int seq = static_cast<int>(pattern.sends.size());
  if (seq >= kSeqLimit || round >= kRoundLimit) {
    record_ok = false;
    round = 0;
  }
  puremd::HaloPattern::Send s;
  s.peer = -1;
  s.round = round;
  s.index.assign(list, list + n);
  pattern.sends.push_back(std::move(s));
  const double header = static_cast<double>(
      lmp->comm->me + static_cast<long long>(lmp->comm->nprocs) * (seq + kSeqLimit * round));
  const tagint *tag = lmp->atom->tag;
  for (int m = 0; m < n; ++m) {
    buf[2 * m] = header;
    buf[2 * m + 1] = static_cast<double>(tag[list[m]]);
  }
  return 2 * n;
}

void QEqLammpsComm::unpack_forward(int n, int first, double *buf) {
  if (n == 0) return;
  const int nlocal = lmp->atom->nlocal;
  const long long np = lmp->comm->nprocs;
  const double header = buf[0];
  const long long h = static_cast<long long>(header), rest = h / np;
  const int sender = static_cast<int>(h % np);
  const int round = static_cast<int>(rest / kSeqLimit);
  const int seq = static_cast<int>(rest % kSeqLimit);
  const tagint *tag = lmp->atom->tag;
  for (int m = 0; m < n; ++m)
    if (buf[2 * m] != header || buf[2 * m + 1] != static_cast<double>(tag[first + m]) ||
        first + m < nlocal)
      record_ok = false;
  if (sender == lmp->comm->me) {
    if (seq < 0 || seq >= static_cast<int>(pattern.sends.size()))
      record_ok = false;
    else
      pattern.sends[seq].peer = sender;
  }
  received.push_back({{sender, round, first, n}, seq});
  for (int m = 0; m < n; ++m)
    if (first + m >= nlocal) ghost_round[first + m - nlocal] = round;
}
