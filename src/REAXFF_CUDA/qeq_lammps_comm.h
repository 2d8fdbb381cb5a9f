/* The charge solvers' communication (puremd::QEqComm) over LAMMPS, for the
   ReaxFF charge fixes: sums through MPI_Allreduce, and the halo that the
   solvers replay on every exchange of a vector, the one way their ghosts
   get values (one rank too: its periodic images are messages to itself).
   Nothing travels back from a ghost to its owner.

   The halo (puremd::HaloPattern) is LAMMPS's own forward communication,
   recorded at each re-neighbouring (record_halo): one forward comm in which
   each message carries its sender's rank, its number and its round (a
   message sends only owned atoms or ghosts received in earlier rounds), and
   each atom's id, so the receiver learns where its ghosts come from and
   checks them; the receivers then tell the senders where their messages
   went (MPI_Alltoall). Any comm style, processor grid or balance, and ghosts
   forwarded through later swaps, come out as LAMMPS made them. The
   solvers' messages go point to point on LAMMPS's world communicator, with
   GPU buffers when MPI takes them (MPIX_Query_cuda_support, or the fix's
   `cuda_aware` keyword); the CUDA solver copies its values straight into
   the GPUs of peer ranks on the same node where it can (the fix's `halo`
   keyword), and flags written GPU to GPU say when they have arrived. */
#ifndef LMP_QEQ_LAMMPS_COMM_H
#define LMP_QEQ_LAMMPS_COMM_H

#include <vector>

#include "pointers.h"
#include "puremd_gpu/qeq.h"

namespace LAMMPS_NS {

class QEqLammpsComm : public puremd::QEqComm {
 public:
  // Values per atom a forward message of `fix` holds at most (comm_forward).
  static constexpr int kForwardSize = 2;
  enum class CudaAware { Auto, Yes, No };
  // cuda_aware: whether MPI takes GPU buffers (Auto: as MPI says);
  // peer_copies: whether the CUDA solver copies halo values straight into
  // the GPU of a peer rank on this node where it can (keyword `halo`).
  QEqLammpsComm(LAMMPS *lmp, class Fix *fix, CudaAware cuda_aware, bool peer_copies);

  double sum(double local) override;
  void sum(double *v, int n) override;
  const puremd::HaloPattern *halo() const override;
  int rank() const override;
  int size() const override;
  void exchange(const Message *send, int n_send, const Message *recv, int n_recv) override;
  bool device_memory() const override { return gpu_buffers; }
  bool peer_copies() const override { return copies; }

  // The halo of the current ghosts, recorded again when
  // LAMMPS has re-neighboured (or the atom counts changed) since the last
  // recording. Collective. Errors (a recording that does not check out) are
  // LAMMPS errors on every rank.
  // True if it recorded.
  bool update_halo();
  // The recording is stale from here on: every run, minimization and rerun
  // set-up re-neighbours and then restarts LAMMPS's build counter
  // (neighbor->ncalls) at 0, so the counter alone cannot tell (the fix calls
  // this at setup_pre_force).
  void halo_is_stale() { recorded_at = -1; }
  bool gpu_buffers_used() const { return gpu_buffers; }

  // The fix's forward comm callbacks: the halo's recording (the fix's only
  // forward comm).
  int pack_forward(int n, int *list, double *buf);
  void unpack_forward(int n, int first, double *buf);

 private:
  void record_halo();
  void match_senders();
  LAMMPS *lmp;
  class Fix *fix;
  bool gpu_buffers = false, copies = true;
  bool record_ok = true;
  // the recording: the ghosts' rounds, what was sent (peers filled by
  // match_senders) and received, with the sender's message number
  std::vector<int> ghost_round;
  struct Received {
    puremd::HaloPattern::Recv recv;
    int seq;
  };
  std::vector<Received> received;
  puremd::HaloPattern pattern;
  bigint recorded_at = -1;  // neighbor->ncalls of the recording
  int recorded_nlocal = -1, recorded_nghost = -1;
  std::vector<MPI_Request> requests;
};

}  // namespace LAMMPS_NS

#endif
