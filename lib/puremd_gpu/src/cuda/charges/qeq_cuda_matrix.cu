// The CUDA QEq solver's matrix for a solve (see qeq_cuda_solver.h): which
// way of holding it (decided on the host, common/charges/qeq_matrix_choice.h; the
// ways in qeq_matrix_store.h) and the memory it may take.
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
  const QEqFormatQuery query = format_query(f, tiles_held());
  slots_.clear(stream_, kQEqEntries, kNumQEqSlots - kQEqEntries);
  QEqRowArgs &a = row_args_;
  a = QEqRowArgs{};
  a.far = f;
  a.active = flags_ ? active_dev_.data() : nullptr;
  a.type = in.type ? f.type_given : nullptr;
  a.num_types = in.num_types;
  a.shield = in.type ? shield_dev_.data() : nullptr;
  a.gamma = gamma_dev_.data();
  a.owner = ghosts_.owners(nl, n);
  a.cut2 = settings_.cut_hi * settings_.cut_hi;
  a.taper = taper_;
  a.bad_type = slots_.at(kQEqBadTypeFlag);
  model_->row_args(a);
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
  take_store(qeq_store_for(qeq_matrix_format(query), false, query.own_product));
  // Tiles are the one store whose build may fail (a tile's partners
  // overflow its table: atoms far from LAMMPS's spatial sort); the store
  // after that is the host rule's (no tiles held then).
  if (tiles_held()) {
    if (store_->build(ms)) {
      ms.threads_per_row = pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row);
      model_->beside_matrix(*this, true);
      return;
    }
    tiles_overflowed_ = true;
    take_store(qeq_store_after_tile_overflow(format_query(f, false)));
  }
  for (auto &other : stores_)  // (the memory of another format to this one)
    if (other && other->format() != store_->format()) other->release();
  // a model's own entries counted beside H's rows
  ms.x_count = model_->count_beside_rows(*this, store_->format() != QEqMatrix::Free);
  store_->build(ms);
  ms.threads_per_row = pick_threads_per_row(nnz_, nonempty_rows_, settings_.threads_per_row);
  model_->beside_matrix(*this, false);
  if (!store_->once()) ghosts_.build_image_map(pool_.row_count.data(), nl, n);
}

bool CudaQEqSolver::own_product() const { return model_->own_product(); }

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
// Full's fit counts for Auto, and for a model with its own product once
// tiles overflowed (qeq_format_after_tile_overflow).
QEqFormatQuery CudaQEqSolver::format_query(const EngineAtoms &f, bool tiles_held) const {
  QEqFormatQuery q;
  q.asked = settings_.matrix;
  q.n_local = f.n_local;
  q.half_from_atoms = settings_.half_from_atoms;
  q.own_product = own_product();
  q.tiles_overflowed = tiles_overflowed_;
  if (q.asked == QEqMatrix::Auto || (q.own_product && q.tiles_overflowed))
    q.full_fits = f.rev_start && store_fits(f.row_room + f.rev_total);
  if (q.asked == QEqMatrix::Auto)
    q.half_fits = half_fits(f.row_room, f.n_local, f.n_total, tiles_held,
                            settings_.preconditioner == kQEqFsai);
  return q;
}

// Whether a solve of `p` may read the reverse far index (engine_atoms.h),
// which costs a list-sized array: a matrix with both triangles
// (qeq_reads_reverse_index), a model's that says so (ACKS2's, QTPIE's sums).
// Where Auto takes Half first and a tile overflows, that solve stores Half
// in rows (no index lent) and the later ones Full.
bool CudaQEqSolver::reads_reverse_index(const QEqProblem &p, int n_local, int n_total,
                                        long long row_room) {
  if (p.model && models_.of(p.model, "CUDA", mem_)->reads_reverse_index()) return true;
  QEqFormatQuery q;
  q.asked = p.settings.matrix;
  q.n_local = n_local;
  q.half_from_atoms = p.settings.half_from_atoms;
  q.tiles_overflowed = tiles_overflowed_;
  if (q.asked != QEqMatrix::Auto) return qeq_reads_reverse_index(q, false);
  q.half_fits = half_fits(row_room, n_local, n_total, tiles_held(),
                          qeq_preconditioner(p.settings, p.model) == kQEqFsai);
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

// Whether Half fits: where the last solve stored it in tiles (tiles_held), the next needs about
// the values those tiles hold (their partners and entries stay, counted in
// the memory in use); before that, the step as the memory model sees it
// with the tiles (and FSAI's G where the solve runs FSAI, `fsai`;
// qeq_model_fits), or in rows (tiles_overflowed_: no model of them) the far
// list's room of entries. (Judged by the room, the tiles of
// HNS 28^3 "did not fit" at the second solve, which then went matrix-free
// with a reverse index: 4x slower.)
bool CudaQEqSolver::half_fits(long long row_room, int n_local, int n_total, bool tiles_held,
                              bool fsai) const {
  if (tiles_held) return adding_fits(nnz_, pool_.val.capacity(), sizeof(double));
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

// The fold of this solve's ghost rows: none where H holds each pair once
// (ACKS2's X still has ghost rows).
ImageMap CudaQEqSolver::image_map() const {
  if (store_->once() && !own_product()) return ImageMap{};
  return ghosts_.image_map();
}

}  // namespace puremd::cuda
