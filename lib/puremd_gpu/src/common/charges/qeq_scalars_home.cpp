#include "common/charges/qeq_scalars_home.h"

namespace puremd {

bool qeq_peer_sums_possible(int ranks, bool peer_sums_ready) {
  return ranks > 1 && peer_sums_ready;
}

QEqScalarsHome qeq_scalars_home(int ranks, bool has_rows, bool peer_sums_ready,
                                int ranks_without_rows) {
  if (ranks == 1) return has_rows ? QEqScalarsHome::Gpu : QEqScalarsHome::Host;
  if (qeq_peer_sums_possible(ranks, peer_sums_ready) && ranks_without_rows == 0)
    return QEqScalarsHome::PeerGpus;
  return QEqScalarsHome::Host;
}

}  // namespace puremd
