// How the CUDA QEq solver takes H (common/charges/qeq_matrix_choice.h), decided on
// the host: the rules of QEqMatrix and its shares as puremd_gpu/qeq.h states
// them (Auto: Half from kQEqHalfFromAtoms owned atoms on, else Full; then
// the other; Free last; a matrix stored within kQEqStoredShareFirst of the
// GPU at the first solve, kQEqStoredShare later), and the SpMV's lanes per
// row. No GPU needed.
#include <gtest/gtest.h>

#include "common/charges/qeq_matrix_choice.h"

using namespace puremd;

namespace {

QEqFormatQuery auto_query(int n_local, bool full_fits, bool half_fits) {
  QEqFormatQuery q;
  q.asked = QEqMatrix::Auto;
  q.n_local = n_local;
  q.full_fits = full_fits;
  q.half_fits = half_fits;
  return q;
}

constexpr int kSmall = kQEqHalfFromAtoms - 1, kLarge = kQEqHalfFromAtoms;

}  // namespace

TEST(QEqMatrixChoice, AskedFormatIsTakenWhateverFits) {
  for (QEqMatrix m : {QEqMatrix::Full, QEqMatrix::Half, QEqMatrix::Free}) {
    QEqFormatQuery q = auto_query(kLarge, false, false);
    q.asked = m;
    EXPECT_EQ(qeq_matrix_format(q), m);
  }
}

TEST(QEqMatrixChoice, AutoBelowHalfFromAtomsPrefersFull) {
  EXPECT_EQ(qeq_matrix_format(auto_query(kSmall, true, true)), QEqMatrix::Full);
  EXPECT_EQ(qeq_matrix_format(auto_query(kSmall, false, true)), QEqMatrix::Half);
  EXPECT_EQ(qeq_matrix_format(auto_query(kSmall, false, false)), QEqMatrix::Free);
}

TEST(QEqMatrixChoice, AutoFromHalfFromAtomsPrefersHalf) {
  EXPECT_EQ(qeq_matrix_format(auto_query(kLarge, true, true)), QEqMatrix::Half);
  EXPECT_EQ(qeq_matrix_format(auto_query(kLarge, true, false)), QEqMatrix::Full);
  EXPECT_EQ(qeq_matrix_format(auto_query(kLarge, false, false)), QEqMatrix::Free);
  // the threshold is the setting's
  QEqFormatQuery q = auto_query(100, true, true);
  q.half_from_atoms = 100;
  EXPECT_EQ(qeq_matrix_format(q), QEqMatrix::Half);
  q.half_from_atoms = 101;
  EXPECT_EQ(qeq_matrix_format(q), QEqMatrix::Full);
}

TEST(QEqMatrixChoice, AfterATileOverflowAutoPrefersFull) {
  QEqFormatQuery q = auto_query(kLarge, true, true);
  q.tiles_overflowed = true;
  EXPECT_EQ(qeq_matrix_format(q), QEqMatrix::Full);
  EXPECT_FALSE(qeq_auto_half_first(kLarge, kQEqHalfFromAtoms, true));
  q.full_fits = false;  // QEq still takes Half (in rows) over Free
  EXPECT_EQ(qeq_matrix_format(q), QEqMatrix::Half);
  EXPECT_EQ(qeq_format_after_tile_overflow(q), QEqMatrix::Half);
}

TEST(QEqMatrixChoice, Acks2HasNoHalfInRows) {
  QEqFormatQuery q = auto_query(kLarge, false, true);
  q.own_product = true;                              // (ACKS2)
  EXPECT_EQ(qeq_matrix_format(q), QEqMatrix::Half);  // tiles not yet overflowed
  q.tiles_overflowed = true;
  EXPECT_EQ(qeq_matrix_format(q), QEqMatrix::Free);
  EXPECT_EQ(qeq_format_after_tile_overflow(q), QEqMatrix::Free);
  q.full_fits = true;
  EXPECT_EQ(qeq_format_after_tile_overflow(q), QEqMatrix::Full);
  q.asked = QEqMatrix::Half;  // even where Half was asked for
  EXPECT_EQ(qeq_format_after_tile_overflow(q), QEqMatrix::Full);
}

TEST(QEqMatrixChoice, ReverseIndexOnlyForBothTriangles) {
  QEqFormatQuery q = auto_query(kSmall, false, true);
  q.asked = QEqMatrix::Full;
  EXPECT_TRUE(qeq_reads_reverse_index(q, false));
  for (QEqMatrix m : {QEqMatrix::Half, QEqMatrix::Free}) {
    q.asked = m;
    EXPECT_FALSE(qeq_reads_reverse_index(q, true));
  }
  q.asked = QEqMatrix::Auto;
  EXPECT_TRUE(qeq_reads_reverse_index(q, true));    // small: Full first
  EXPECT_FALSE(qeq_reads_reverse_index(q, false));  // Full cannot fit
  q.n_local = kLarge;
  EXPECT_FALSE(qeq_reads_reverse_index(q, true));  // Half first, and it fits
  q.half_fits = false;
  EXPECT_TRUE(qeq_reads_reverse_index(q, true));
  q.half_fits = true;
  q.tiles_overflowed = true;
  EXPECT_TRUE(qeq_reads_reverse_index(q, true));
}

TEST(QEqMatrixChoice, StoredShareOfTheGpu) {
  const double total = 1000.0;
  // first solve: within kQEqStoredShareFirst of the GPU
  EXPECT_TRUE(qeq_stored_fits(kQEqStoredShareFirst * total - 300.0, 300.0, total, true));
  EXPECT_FALSE(qeq_stored_fits(kQEqStoredShareFirst * total - 299.0, 300.0, total, true));
  // later solves: within kQEqStoredShare
  EXPECT_TRUE(qeq_stored_fits(kQEqStoredShare * total - 300.0, 300.0, total, false));
  EXPECT_FALSE(qeq_stored_fits(kQEqStoredShare * total - 299.0, 300.0, total, false));
  // nothing to add always fits, even on a full GPU
  EXPECT_TRUE(qeq_stored_fits(0.0, total, total, true));
}

// Half before its tiles exist: the memory model's whole step with the
// matrix, beyond what the engine holds, on top of the GPU's memory in use.
TEST(QEqMatrixChoice, ModelOfTheStepWithinTheStoredShare) {
  const double total = 1000.0;
  // nothing held: the whole step is added to what is in use
  EXPECT_TRUE(qeq_model_fits(kQEqStoredShare * total - 100.0, 0.0, 100.0, total));
  EXPECT_FALSE(qeq_model_fits(kQEqStoredShare * total - 99.0, 0.0, 100.0, total));
  // what the engine holds is in use already and counts once
  EXPECT_TRUE(qeq_model_fits(kQEqStoredShare * total, 400.0, 400.0, total));
  EXPECT_FALSE(qeq_model_fits(kQEqStoredShare * total + 1.0, 400.0, 400.0, total));
  // an engine holding more than the model: only what is in use decides
  EXPECT_TRUE(qeq_model_fits(100.0, 500.0, kQEqStoredShare * total, total));
  EXPECT_FALSE(qeq_model_fits(100.0, 500.0, kQEqStoredShare * total + 1.0, total));
}

TEST(QEqMatrixChoice, BytesToAddCountTheHeadroomBeyondWhatIsHeld) {
  EXPECT_DOUBLE_EQ(qeq_matrix_bytes_to_add(1000, 0, 12), 1000 * kMatrixHeadroom * 12);
  EXPECT_NEAR(qeq_matrix_bytes_to_add(1000, 1000, 8), 1000 * (kMatrixHeadroom - 1.0) * 8, 1e-9);
  EXPECT_EQ(qeq_matrix_bytes_to_add(1000, 2000, 12), 0.0);
}

TEST(QEqMatrixChoice, ThreadsPerRowFromTheMeanRowLength) {
  for (int forced : {4, 8, 16, 32}) EXPECT_EQ(pick_threads_per_row(1000, 10, forced), forced);
  // mean entries per non-empty row: about three entries a lane at most
  EXPECT_EQ(pick_threads_per_row(96 * 10, 10, 0), 32);
  EXPECT_EQ(pick_threads_per_row(96 * 10 - 1, 10, 0), 16);
  EXPECT_EQ(pick_threads_per_row(32 * 10, 10, 0), 16);
  EXPECT_EQ(pick_threads_per_row(32 * 10 - 1, 10, 0), 8);
  EXPECT_EQ(pick_threads_per_row(12 * 10, 10, 0), 8);
  EXPECT_EQ(pick_threads_per_row(12 * 10 - 1, 10, 0), 4);
  EXPECT_EQ(pick_threads_per_row(0, 0, 0), 4);  // no rows
}

TEST(QEqMatrixChoice, StoreOfEachFormat) {
  EXPECT_EQ(qeq_store_for(QEqMatrix::Full, false, false), QEqStore::Full);
  EXPECT_EQ(qeq_store_for(QEqMatrix::Full, true, true), QEqStore::Full);
  // Half in tiles, in rows once this solve's tiles overflowed
  EXPECT_EQ(qeq_store_for(QEqMatrix::Half, false, false), QEqStore::HalfTiles);
  EXPECT_EQ(qeq_store_for(QEqMatrix::Half, true, false), QEqStore::HalfRows);
  // Free: each pair once for QEq, both triangles where a model reads H's rows
  EXPECT_EQ(qeq_store_for(QEqMatrix::Free, false, false), QEqStore::FreeOnce);
  EXPECT_EQ(qeq_store_for(QEqMatrix::Free, false, true), QEqStore::FreeRows);
}

TEST(QEqMatrixChoice, EveryStoreHoldsTheFormatItIsChosenFor) {
  for (QEqMatrix m : {QEqMatrix::Full, QEqMatrix::Half, QEqMatrix::Free})
    for (bool failed : {false, true})
      for (bool own : {false, true}) {
        const QEqStoreTraits t = qeq_store_traits(qeq_store_for(m, failed, own));
        EXPECT_EQ(t.format, m);
        // a model with its own product reads the rows: never each pair once in rows
        if (own && m != QEqMatrix::Half) EXPECT_FALSE(t.once);
        EXPECT_EQ(t.tiles, m == QEqMatrix::Half && !failed);
      }
  EXPECT_TRUE(qeq_store_traits(QEqStore::HalfRows).once);
  EXPECT_FALSE(qeq_store_traits(QEqStore::Full).once);
}

// After a tile overflow no store of tiles is taken: QEq's Half goes to rows,
// ACKS2 (own product) to Full where it fits, else to Free in both triangles.
TEST(QEqMatrixChoice, StoreAfterATileOverflowHoldsNoTiles) {
  QEqFormatQuery q = auto_query(kLarge, true, true);
  q.tiles_overflowed = true;
  EXPECT_EQ(qeq_store_after_tile_overflow(q), QEqStore::Full);  // Auto: Full first now
  q.full_fits = false;
  EXPECT_EQ(qeq_store_after_tile_overflow(q), QEqStore::HalfRows);
  q.asked = QEqMatrix::Half;
  q.full_fits = true;
  EXPECT_EQ(qeq_store_after_tile_overflow(q), QEqStore::HalfRows);  // as asked, in rows
  q.own_product = true;
  EXPECT_EQ(qeq_store_after_tile_overflow(q), QEqStore::Full);
  q.full_fits = false;
  EXPECT_EQ(qeq_store_after_tile_overflow(q), QEqStore::FreeRows);
  q.half_fits = false;
  q.own_product = false;
  q.asked = QEqMatrix::Auto;
  EXPECT_EQ(qeq_store_after_tile_overflow(q), QEqStore::FreeOnce);
}
