// Where the CUDA solvers keep CG's (and BiCGStab's) scalars, decided on the
// host once per solve so that the rule is tested without a GPU:
//   Gpu:      one rank (QEqComm::size() == 1) with rows: the sums are local,
//             finished and used on the GPU (no host round trip an iteration);
//   PeerGpus: several ranks of one node whose GPUs reach each other
//             (CudaHalo::peer_reduce_ready) and every rank with rows: summed
//             GPU to GPU (peer_reduce.cuh), used there;
//   Host:     otherwise: each sum home, through QEqComm::sum.
// PeerGpus needs every rank's rows, known only after the first sum over the
// ranks: qeq_peer_sums_possible says whether to ask, qeq_scalars_home decides.
#pragma once

namespace puremd {

enum class QEqScalarsHome { Gpu, PeerGpus, Host };

// Whether the first sum over the ranks also asks whether every rank has rows
// (for PeerGpus): several ranks whose GPUs sum among themselves.
bool qeq_peer_sums_possible(int ranks, bool peer_sums_ready);

// ranks: QEqComm::size(); has_rows: this rank's group has rows of H;
// peer_sums_ready: CudaHalo::peer_reduce_ready; ranks_without_rows: how many
// ranks have none (the first sum's answer; 0 where not asked).
QEqScalarsHome qeq_scalars_home(int ranks, bool has_rows, bool peer_sums_ready,
                                int ranks_without_rows);

}  // namespace puremd
