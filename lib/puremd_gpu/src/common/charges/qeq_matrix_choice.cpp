#include "common/charges/qeq_matrix_choice.h"

#include <algorithm>

namespace puremd {

double qeq_matrix_bytes_to_add(long long room, std::size_t held, std::size_t bytes) {
  const double want = kMatrixHeadroom * static_cast<double>(room);
  return std::max(0.0, want - static_cast<double>(held)) * static_cast<double>(bytes);
}

bool qeq_model_fits(double step_bytes, double held, double in_use, double total) {
  return in_use + std::max(0.0, step_bytes - held) <= kQEqStoredShare * total;
}

bool qeq_stored_fits(double add, double in_use, double total, bool first_solve) {
  if (add == 0.0) return true;
  const double share = first_solve ? kQEqStoredShareFirst : kQEqStoredShare;
  return in_use + add <= share * total;
}

bool qeq_auto_half_first(int n_local, int half_from_atoms, bool tiles_overflowed) {
  return n_local >= half_from_atoms && !tiles_overflowed;
}

QEqMatrix qeq_matrix_format(const QEqFormatQuery &q) {
  if (q.asked != QEqMatrix::Auto) return q.asked;
  const bool half = q.half_fits && !(q.own_product && q.tiles_overflowed);
  if (half && qeq_auto_half_first(q.n_local, q.half_from_atoms, q.tiles_overflowed))
    return QEqMatrix::Half;
  if (q.full_fits) return QEqMatrix::Full;
  return half ? QEqMatrix::Half : QEqMatrix::Free;
}

QEqMatrix qeq_format_after_tile_overflow(const QEqFormatQuery &q) {
  if (q.own_product) return q.full_fits ? QEqMatrix::Full : QEqMatrix::Free;
  return qeq_matrix_format(q);
}

bool qeq_reads_reverse_index(const QEqFormatQuery &q, bool both_fit) {
  switch (q.asked) {
    case QEqMatrix::Full:
      return true;
    case QEqMatrix::Auto:
      if (qeq_auto_half_first(q.n_local, q.half_from_atoms, q.tiles_overflowed) && q.half_fits)
        return false;
      return both_fit;
    default:
      return false;
  }
}

QEqStoreTraits qeq_store_traits(QEqStore s) {
  switch (s) {
    case QEqStore::HalfTiles:
      return {QEqMatrix::Half, true, true};
    case QEqStore::HalfRows:
      return {QEqMatrix::Half, true, false};
    case QEqStore::FreeOnce:
      return {QEqMatrix::Free, true, false};
    case QEqStore::FreeRows:
      return {QEqMatrix::Free, false, false};
    default:
      return {QEqMatrix::Full, false, false};
  }
}

QEqStore qeq_store_for(QEqMatrix m, bool tiles_failed, bool own_product) {
  switch (m) {
    case QEqMatrix::Half:
      return tiles_failed ? QEqStore::HalfRows : QEqStore::HalfTiles;
    case QEqMatrix::Free:
      return own_product ? QEqStore::FreeRows : QEqStore::FreeOnce;
    default:
      return QEqStore::Full;
  }
}

QEqStore qeq_store_after_tile_overflow(const QEqFormatQuery &q) {
  return qeq_store_for(qeq_format_after_tile_overflow(q), true, q.own_product);
}

int pick_threads_per_row(long long nnz, long long nonempty_rows, int forced) {
  if (forced) return forced;
  const double mean = nonempty_rows > 0 ? static_cast<double>(nnz) / nonempty_rows : 0.0;
  if (mean >= 96.0) return 32;
  if (mean >= 32.0) return 16;
  if (mean >= 12.0) return 8;
  return 4;
}

}  // namespace puremd
