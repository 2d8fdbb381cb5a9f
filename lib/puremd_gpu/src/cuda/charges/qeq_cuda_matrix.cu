// The CUDA QEq solver's matrix for a solve (see qeq_cuda_solver.h): which
// way of holding it (decided on the host, common/charges/qeq_matrix_choice.h; the
// ways in qeq_matrix_store.h), the memory it may take, and the owner ->
// images map that folds ghost rows into their owners.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <type_traits>

#include "common/charges/qeq_matrix_choice.h"
#include "common/charges/qeq_rows.h"
#include "common/memory_estimate.h"
#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_solver.h"
#include "cuda/charges/qeq_matrix_store.h"
#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

// Segment bounds of sorted keys: [start[k], end[k]) holds key k (k < nseg);
// start and end must be zero on entry.
__global__ void k_segment_bounds(const int *key, int n, int nseg, int *start, int *end) {
  const int p = blockIdx.x * kQEqBlock + threadIdx.x;
  if (p >= n) return;
  const int k = key[p];
  if (k < 0 || k >= nseg) return;
  if (p == 0 || key[p - 1] != k) start[k] = p;
  if (p == n - 1 || key[p + 1] != k) end[k] = p + 1;
}

// Owner -> images map key per ghost: the owner if the ghost row has entries,
// else n_local (sorted past every owner).
template <class Count>
__global__ void k_image_keys(const int *owner, const Count *row_count, int n_local, int n_ghost,
                             int *key, int *idx) {
  const int k = blockIdx.x * kQEqBlock + threadIdx.x;
  if (k >= n_ghost) return;
  key[k] = row_count[n_local + k] > 0 ? owner[k] : n_local;
  idx[k] = n_local + k;
}

int bits_for(int max_value) {
  int b = 1;
  while (b < 31 && (1ll << b) <= max_value) ++b;
  return b;
}

}  // namespace

// This solve's H (qeq_matrix_store.h): the format chosen on the host
// (common/charges/qeq_matrix_choice.h), its store built from the far list, which
// reaches cut_hi (CudaEngine::solve_charges widens it when the QEq cut-off
// is larger); ACKS2's X beside it; the fold of ghost rows.
void CudaQEqSolver::build_matrix(const QEqInput &in) {
  const int n = in.n_total, nl = in.n_local;
  const EngineAtoms &f = atoms_;
  nnz_ = 0;
  nonempty_rows_ = 0;
  if (n == 0) return;
  if (!(settings_.cut_hi <= f.cut_local))
    throw RuntimeError("QEq (CUDA): the engine's far list (" + std::to_string(f.cut_local) +
                       " A) does not reach the QEq cut-off (" + std::to_string(settings_.cut_hi) +
                       " A)");
  const QEqMatrix asked = qeq_matrix_format(format_query(f));
  slots_.clear(stream_, kQEqEntries, kNumQEqSlots - kQEqEntries);
  QEqRowArgs &a = row_args_;
  a = QEqRowArgs{};
  a.far = f;
  a.active = flags_ ? active_dev_.data() : nullptr;
  a.type = in.type ? f.type_given : nullptr;
  a.num_types = in.num_types;
  a.shield = in.type ? shield_dev_.data() : nullptr;
  a.gamma = gamma_dev_.data();
  a.owner = n > nl ? owner_dev_.data() : nullptr;
  a.cut2 = settings_.cut_hi * settings_.cut_hi;
  a.taper = taper_;
  a.bad_type = slots_.at(kQEqBadTypeFlag);
  if (model_now_) model_now_->row_args(a);
  QEqMatrixSolve &ms = *ms_;
  ms.stream = stream_;
  ms.rows = &row_args_;
  ms.diag = diag_.data();
  ms.n_local = nl;
  ms.n_total = n;
  ms.slots = &slots_;
  ms.read_sizes = [this, &in] { read_matrix_size(in); };
  ms.nnz = &nnz_;
  ms.x_count = nullptr;
  take_store(qeq_store_for(asked, false, own_product()));
  // Half in tiles (qeq_matrix_half_tiles.cu), or, when a tile's partners
  // overflow its table (atoms far from LAMMPS's spatial sort), as Auto
  // chooses without tiles (Full where it fits), else Half in rows.
  if (store_kind_ == QEqStore::HalfTiles) {
    if (store_->build(ms)) {
      ms.threads_per_row = pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row);
      if (model_now_) model_now_->beside_matrix(*this, true);
      return;
    }
    tiles_overflowed_ = true;
    take_store(QEqStore::HalfRows);  // (no tiles held: Half fits as in rows)
    // (ACKS2's product has no Half in rows: Full where it fits, else Free;
    // an explicit `half` tries the tiles again at the next list build)
    QEqFormatQuery q = format_query(f);
    if (own_product()) q.full_fits = f.rev_start && store_fits(f.row_room + f.rev_total);
    take_store(qeq_store_for(qeq_format_after_tile_overflow(q), true, own_product()));
  }
  for (auto &other : stores_)  // (the memory of another format to this one)
    if (other && other->format() != store_->format()) other->release();
  // a model's own entries counted beside H's rows
  if (model_now_)
    ms.x_count = model_now_->count_beside_rows(*this, store_->format() != QEqMatrix::Free);
  store_->build(ms);
  ms.threads_per_row = pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row);
  if (model_now_) model_now_->beside_matrix(*this, false);
  if (!store_->once()) build_image_map(nullptr);
}

bool CudaQEqSolver::own_product() const { return model_now_ && model_now_->own_product(); }

// This solve's store (qeq_matrix_store.h), made when a solve first takes it.
void CudaQEqSolver::take_store(QEqStore k) {
  auto &made = stores_[static_cast<int>(k)];
  if (!made) {
    const auto *entry = QEqMatrixStores::find(k);
    if (!entry) throw RuntimeError("QEq (CUDA): no matrix store registered for this format");
    made = entry->make(pool_);
  }
  store_kind_ = k;
  store_ = made.get();
}

// What this solve's format is chosen from (common/charges/qeq_matrix_choice.h): the
// fits are measured for Auto only. The matrix is built anew at every solve,
// so a later solve may store it where the first did not.
QEqFormatQuery CudaQEqSolver::format_query(const EngineAtoms &f) const {
  QEqFormatQuery q;
  q.asked = settings_.matrix;
  q.n_local = f.n_local;
  q.half_from_atoms = settings_.half_from_atoms;
  q.own_product = own_product();
  q.tiles_overflowed = tiles_overflowed_;
  if (q.asked == QEqMatrix::Auto) {
    q.full_fits = f.rev_start && store_fits(f.row_room + f.rev_total);
    q.half_fits = half_fits(f.row_room, f.n_local, f.n_total, settings_.preconditioner == kQEqFsai);
  }
  return q;
}

// Whether a solve of `p` may read the reverse far index (engine_atoms.h),
// which costs a list-sized array: a matrix with both triangles
// (qeq_reads_reverse_index), a model's that says so (ACKS2's, QTPIE's sums).
// Where Auto takes Half first and a tile overflows, that solve stores Half
// in rows (no index lent) and the later ones Full.
bool CudaQEqSolver::reads_reverse_index(const QEqProblem &p, int n_local, int n_total,
                                        long long row_room) {
  if (p.model && model_.of(p.model, "CUDA", mem_)->reads_reverse_index()) return true;
  QEqFormatQuery q;
  q.asked = p.settings.matrix;
  q.n_local = n_local;
  q.half_from_atoms = p.settings.half_from_atoms;
  q.tiles_overflowed = tiles_overflowed_;
  if (q.asked != QEqMatrix::Auto) return qeq_reads_reverse_index(q, false);
  q.half_fits =
      half_fits(row_room, n_local, n_total, qeq_preconditioner(p.settings, p.model) == kQEqFsai);
  // (Full's entries: the rows' and about as many from the index)
  return qeq_reads_reverse_index(q, store_fits(2 * row_room));
}

// Whether storing `room` entries (values and columns, beyond those held)
// keeps the memory in use within the share (qeq_stored_fits). (ACKS2's X, a
// few per cent of H within its short cut-off, is left to the share's margin.)
bool CudaQEqSolver::store_fits(long long room) const {
  return adding_fits(room, std::min(pool_.val.capacity(), pool_.col.capacity()),
                     sizeof(double) + sizeof(int));
}

// Whether Half fits: once a solve stored it in tiles, the next needs about
// the values those tiles hold (their partners and entries stay, counted in
// the memory in use); before that, the step as the memory model sees it
// with the tiles (and FSAI's G where the solve runs FSAI, `fsai`;
// qeq_model_fits), or in rows (tiles_failed_: no model of them) the far
// list's room of entries. (Judged by the room, the tiles of
// HNS 28^3 "did not fit" at the second solve, which then went matrix-free
// with a reverse index: 4x slower.)
bool CudaQEqSolver::half_fits(long long row_room, int n_local, int n_total, bool fsai) const {
  if (store_kind_ == QEqStore::HalfTiles)
    return adding_fits(nnz_, pool_.val.capacity(), sizeof(double));
  if (tiles_overflowed_) return store_fits(row_room);
  const MemoryEstimate step =
      estimate_device_memory(MemoryEstimateInput{n_local, n_total, row_room, true, fsai});
  std::size_t free_b = 0, total_b = 0;
  PMD_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return qeq_model_fits(step.bytes, static_cast<double>(mem_.current),
                        static_cast<double>(total_b - free_b), static_cast<double>(total_b));
}

// Whether adding room x kMatrixHeadroom entries of `bytes` each, beyond the
// `held` ones, keeps the memory in use within the share (the GPU's memory
// is asked only when something is to be added).
bool CudaQEqSolver::adding_fits(long long room, std::size_t held, std::size_t bytes) const {
  const double add = qeq_matrix_bytes_to_add(room, held, bytes);
  if (add == 0.0) return true;
  std::size_t free_b = 0, total_b = 0;
  PMD_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return qeq_stored_fits(add, static_cast<double>(total_b - free_b), static_cast<double>(total_b),
                         solves_ == 0);
}

// The matrix's sizes (H's and X's entries, or the tiles' values and entries),
// its non-empty rows, the type checks and the number of rows come home
// together, after the rows are counted; a bad row or type throws here.
void CudaQEqSolver::read_matrix_size(const QEqInput &in) {
  slots_.read(stream_, kQEqRows, kNumQEqSlots);
  // the first bad owned atom, as the host solver's row selection reports it
  if (slots_[kQEqBadRow] != kNoIndex) qeq_reject_row(in, static_cast<int>(slots_[kQEqBadRow]));
  if (slots_[kQEqBadTypeFlag])
    throw InputError("QEq: atom type " + std::to_string(slots_.value(kQEqBadType)) +
                     " has no QEq parameters");
  nnz_ = slots_.value(kQEqEntries);
  nonempty_rows_ = slots_.value(kQEqNonEmptyRows);
  n_rows_ = static_cast<int>(slots_[kQEqRows]);
}

// The fold of ghost rows: for each owner, its images whose rows have entries,
// by ascending ghost index (a deterministic sum). A matrix with each pair
// once has no ghost rows: its product scatters to the owners' columns.
void CudaQEqSolver::build_image_map(const int *row_counts) {
  {
    const int n = n_total_, nl = n_local_, n_ghost = n - nl;
    img_start_.reserve_discarding(nl, kGrowHeadroom);
    img_end_.reserve_discarding(nl, kGrowHeadroom);
    img_idx_.reserve_discarding(n_ghost, kGrowHeadroom);
    key_.reserve_discarding(n_ghost, kGrowHeadroom);
    key_sorted_.reserve_discarding(n_ghost, kGrowHeadroom);
    idx_.reserve_discarding(n_ghost, kGrowHeadroom);
    if (nl > 0) {
      PMD_CUDA_CHECK(cudaMemsetAsync(img_start_.data(), 0, nl * sizeof(int), stream_));
      PMD_CUDA_CHECK(cudaMemsetAsync(img_end_.data(), 0, nl * sizeof(int), stream_));
    }
    if (n_ghost > 0) {
      if (row_counts)
        k_image_keys<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
            owner_dev_.data(), row_counts, nl, n_ghost, key_.data(), idx_.data());
      else
        k_image_keys<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
            owner_dev_.data(), pool_.row_count.data(), nl, n_ghost, key_.data(), idx_.data());
      PMD_CUDA_CHECK_LAUNCH("k_image_keys", stream_);
      sort_pairs(cub_tmp_, key_.data(), key_sorted_.data(), idx_.data(), img_idx_.data(), n_ghost,
                 bits_for(nl), stream_);
      k_segment_bounds<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
          key_sorted_.data(), n_ghost, nl, img_start_.data(), img_end_.data());
      PMD_CUDA_CHECK_LAUNCH("k_segment_bounds(images)", stream_);
    }
  }
}

ImageMap CudaQEqSolver::image_map() const {
  if (store_->once() && !own_product()) return ImageMap{};  // (ACKS2: X's ghost rows)
  return ImageMap{img_start_.data(), img_end_.data(), img_idx_.data()};
}

}  // namespace puremd::cuda
