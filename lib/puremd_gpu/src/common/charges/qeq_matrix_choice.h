// How the CUDA QEq solver takes H for a solve, decided on the host once per
// solve (the CUDA side only measures: the GPU's memory, the far list's room),
// so that the rules of QEqMatrix (puremd_gpu/qeq.h) are tested without a GPU.
#pragma once

#include <cstddef>

#include "puremd_gpu/qeq.h"

namespace puremd {

// The matrix is written into room that both lists reserve (room = far-list
// entries + reverse-index entries, skin pairs included), an upper bound of
// its size already: a little headroom only keeps the room from being
// reallocated at each list build (1.25 cost 1.5 GB at HNS 16^3).
constexpr double kMatrixHeadroom = 1.05;

// The bytes that storing room x kMatrixHeadroom entries of `bytes` each
// needs beyond the `held` entries already allocated (0 when they suffice).
double qeq_matrix_bytes_to_add(long long room, std::size_t held, std::size_t bytes);

// Whether adding `add` bytes keeps the GPU's memory in use within
// kQEqStoredShareFirst of its `total` at a solver's first solve, within
// kQEqStoredShare at later ones.
bool qeq_stored_fits(double add, double in_use, double total, bool first_solve);

// Whether the whole step's arrays with the matrix stored, as the memory
// model predicts them (`step_bytes`, common/memory_estimate.h: FSAI's G
// included where the solve runs FSAI), fit: what
// they add beyond the `held` bytes this solver's engine holds, on top of the
// GPU's memory `in_use` (other processes' too), within kQEqStoredShare of
// `total`. For Half before its tiles exist: the far list's room (pairs
// within the cut-off + skin, ghost rows' too) at 12 bytes an entry is twice
// what the tiles take at HNS 40^3 (bench/README, issue 57).
bool qeq_model_fits(double step_bytes, double held, double in_use, double total);

// What the format of a solve is chosen from. The fits matter for Auto only.
struct QEqFormatQuery {
  QEqMatrix asked = QEqMatrix::Auto;  // QEqSettings::matrix
  int n_local = 0;
  int half_from_atoms = kQEqHalfFromAtoms;  // QEqSettings::half_from_atoms
  bool full_fits = false;                   // the reverse index is lent and both triangles fit
  bool half_fits = false;                   // each pair once fits
  // a charge model whose products read H themselves (ACKS2): no Half in rows
  bool own_product = false;
  // a tile's partners overflowed its table at an earlier solve
  bool tiles_overflowed = false;
};

// Auto's order: Half before Full from half_from_atoms owned atoms on, but
// not after a tile overflowed (Half in rows is slower than Full).
bool qeq_auto_half_first(int n_local, int half_from_atoms, bool tiles_overflowed);

// The solve's format: as asked, or for Auto the fastest that fits: Half
// first where qeq_auto_half_first, else Full; then the other; Free last.
// A model with its own product (ACKS2) after a tile overflow does not take Half.
QEqMatrix qeq_matrix_format(const QEqFormatQuery &q);

// The format once this solve's tiles overflowed (q.tiles_overflowed set):
// own_product: Full where it fits, else Free; QEq as qeq_matrix_format (an
// explicit Half then stores each pair once in rows).
QEqMatrix qeq_format_after_tile_overflow(const QEqFormatQuery &q);

// Whether a solve may read the engine's reverse far index (a list-sized
// array): Full asked; Auto unless it takes Half first and Half fits, or Full
// would not fit (`both_fit`: both triangles, about twice the far list's room).
bool qeq_reads_reverse_index(const QEqFormatQuery &q, bool both_fit);

// The ways of holding H, one store each in the CUDA solver
// (cuda/charges/qeq_matrix_*.cu, registered by this key: qeq_matrix_store.h).
enum class QEqStore { Full, HalfTiles, HalfRows, FreeOnce, FreeRows };
constexpr int kNumQEqStores = 5;

// What a store is, as the rule below and the solver read it: the format it
// holds, whether it holds each pair once (no ghost rows to fold: the product
// scatters the transpose), whether it holds H in tiles.
struct QEqStoreTraits {
  QEqMatrix format;
  bool once;
  bool tiles;
};
QEqStoreTraits qeq_store_traits(QEqStore s);

// The store that holds format m (Full, Half or Free) for a solve: Half in
// tiles unless this solve's tiles overflowed (then in rows); Free each pair
// once, but both triangles for a model whose products read H's rows beside
// its own (own_product: ACKS2).
QEqStore qeq_store_for(QEqMatrix m, bool tiles_failed, bool own_product);

// The store of a solve whose tiles overflowed (q.tiles_overflowed set, no
// tiles held): the store of qeq_format_after_tile_overflow's format, in rows.
QEqStore qeq_store_after_tile_overflow(const QEqFormatQuery &q);

// Threads per matrix row in the SpMV: `forced` (QEqSettings::threads_per_row)
// or, for 0, from the mean length of the non-empty rows, about three entries
// a lane at most: 32 from 96 entries, 16 from 32, 8 from 12, else 4.
int pick_threads_per_row(long long nnz, long long nonempty_rows, int forced);

}  // namespace puremd
