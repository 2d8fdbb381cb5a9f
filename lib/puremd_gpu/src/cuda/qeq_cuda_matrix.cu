// The rows of the CUDA QEq solver's matrix (see qeq_cuda_solver.h), from the
// engine's far list of the step (EngineAtoms, k_list_rows): one warp per row,
// one pass, no count, no sort; then, for the device ghost refresh, the
// owner -> images map that folds ghost rows into their owners.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/cub_calls.cuh"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/qeq_cuda_solver.h"
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

// Every matrix pair has an owned atom, its lower index k, so it is in the
// far list's row k (pairs within cut_local at this step's positions). Row i
// of the matrix takes
//   1. its partners k < i: the owned rows that hold i, from the reverse
//      index (built with the list behind the far list, so within cut_local +
//      skin: the distance is checked here, at the current positions, with
//      the same rounding as the far list's own filter), ascending k;
//   2. for an owned row, its far row: partners j > i, in the far list's order.
// One warp per row writes straight into room reserved by the two lists
// (row i at far.start[i] + far.rev_start[i]): no count pass, no sort, and the
// same order on every run.
struct ListArgs {
  int n_local, n_total;
  EngineAtoms far;
  const long long *tag;
  const int *active;  // null: all active
  const int *type;    // null: per-atom parameters
  int num_types;
  const double *shield, *gamma;
  const int *owner;  // per ghost, device path only (null: keep ghost columns)
  double cut2;
  Taper taper;
  long long *row_start, *row_end, *row_count;
  int *col;
  double *val;
  unsigned long long *nnz;
  int *nonempty_rows;
  int *bad_type;  // [0] flag, [1] type
};

// Shielding of the pair (row, column) in the cell-search rows' order (owned
// atom first for a ghost row); a type without parameters is flagged and
// gives 0 (the solve is abandoned).
__device__ __forceinline__ double qeq_list_shield(const ListArgs &a, int row, int column) {
  if (!a.type) return qeq_shielding(a.gamma[row], a.gamma[column]);
  const int tr = a.type[row], tc = a.type[column];
  if (tr < 0 || tr >= a.num_types || tc < 0 || tc >= a.num_types) {
    if (atomicCAS(a.bad_type, 0, 1) == 0) a.bad_type[1] = (tr < 0 || tr >= a.num_types) ? tr : tc;
    return 0.0;
  }
  return a.shield[tr * a.num_types + tc];
}

__global__ void __launch_bounds__(kQEqBlock) k_list_rows(ListArgs a) {
  const LaneGroup<32> g;  // one warp per row
  const long long warp = g.row();
  if (warp >= a.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  const EngineAtoms &f = a.far;
  const long long base = static_cast<long long>(f.start[i]) + f.rev_start[i];
  int count = 0;
  // Appends the kept entries p of [begin, end) in order; keep(p, col, d2, row,
  // column) says whether p is kept, its column, its squared distance and the
  // (row, column) atoms of its shielding.
  auto append = [&](int begin, int end, auto &&keep) {
    for (int p0 = begin; p0 < end; p0 += 32) {
      const int p = p0 + g.lane;
      int col = -1, row = 0, column = 0;
      double d2 = 0.0;
      const bool take = p < end && keep(p, col, d2, row, column);
      int kept = 0;
      const int before = g.rank(take, kept);
      if (take) {
        const long long pos = base + count + before;
        a.col[pos] = col;
        a.val[pos] = qeq_offdiag(sqrt(d2), qeq_list_shield(a, row, column), a.taper);
      }
      count += kept;
    }
  };
  if (!a.active || a.active[i]) {
    const bool ghost_row = i >= a.n_local;
    const vec3 xi = f.x[i];
    const long long tag_i = a.tag[i];
    append(f.rev_start[i], f.rev_start[i + 1],
           [&](int q, int &col, double &d2, int &row, int &column) {
             const int k = f.rev_row[q];  // owned, k < i
             if (a.active && !a.active[k]) return false;
             const vec3 d = xi - f.x[k];  // x_i - x_k, as in far row k
             d2 = norm2_host_rounding(d);
             if (!(d2 <= a.cut2) || (ghost_row && !ghost_pair_is_mine(a.tag[k], tag_i, d)))
               return false;
             col = k;
             row = ghost_row ? k : i;  // a ghost row takes its owned partner first
             column = ghost_row ? i : k;
             return true;
           });
    if (!ghost_row)
      append(f.start[i], f.end[i], [&](int p, int &col, double &d2, int &row, int &column) {
        const int j = f.nbr[p];
        if (a.active && !a.active[j]) return false;
        const vec3 d = f.dvec[p];
        d2 = norm2_host_rounding(d);
        if (!(d2 <= a.cut2) || (j >= a.n_local && !ghost_pair_is_mine(tag_i, a.tag[j], d)))
          return false;
        col = a.owner && j >= a.n_local ? a.owner[j - a.n_local] : j;
        row = i;
        column = j;
        return true;
      });
  }
  if (g.lane == 0) {
    a.row_start[i] = base;
    a.row_end[i] = base + count;
    a.row_count[i] = count;
    if (count > 0) {
      atomicAdd(a.nonempty_rows, 1);
      atomicAdd(a.nnz, static_cast<unsigned long long>(count));
    }
  }
}

// Owner -> images map key per ghost: the owner if the ghost row has entries,
// else n_local (sorted past every owner).
__global__ void k_image_keys(const int *owner, const long long *row_count, int n_local, int n_ghost,
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

// The matrix rows (see k_list_rows); the far list reaches cut_hi
// (CudaEngine::solve_charges widens it when the QEq cut-off is larger).
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
  const long long room = f.row_room + f.rev_total;
  row_count_.reserve(static_cast<std::size_t>(n) + 1, kQEqHeadroom);
  row_start_.reserve(static_cast<std::size_t>(n) + 1, kQEqHeadroom);
  counters_.reserve(4);
  PMD_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, 4 * sizeof(int), stream_));
  row_end_.reserve(static_cast<std::size_t>(n) + 1, kQEqHeadroom);
  col_.reserve(room, 1.25);
  val_.reserve(room, 1.25);
  nnz_total_.reserve(1);
  PMD_CUDA_CHECK(cudaMemsetAsync(nnz_total_.data(), 0, sizeof(long long), stream_));
  ListArgs a{};
  a.n_local = nl;
  a.n_total = n;
  a.far = f;
  a.tag = f.tag;
  a.active = flags_ ? active_dev_.data() : nullptr;
  a.type = in.type ? f.type_given : nullptr;
  a.num_types = in.num_types;
  a.shield = in.type ? shield_dev_.data() : nullptr;
  a.gamma = gamma_dev_.data();
  a.owner = device_comm_ && n > nl ? owner_dev_.data() : nullptr;
  a.cut2 = settings_.cut_hi * settings_.cut_hi;
  a.taper = taper_;
  a.row_start = row_start_.data();
  a.row_end = row_end_.data();
  a.row_count = row_count_.data();
  a.col = col_.data();
  a.val = val_.data();
  a.nnz = reinterpret_cast<unsigned long long *>(nnz_total_.data());
  a.nonempty_rows = counters_.data();
  a.bad_type = counters_.data() + 2;
  k_list_rows<<<blocks_for(static_cast<long long>(n) * 32, kQEqBlock), kQEqBlock, 0, stream_>>>(a);
  PMD_CUDA_CHECK_LAUNCH("k_list_rows", stream_);
  read_matrix_size(in, nnz_total_.data());
  build_image_map(n, nl);
}

// nnz (at nnz_dev), non-empty rows, the type checks and the number of rows
// come home together (after the rows are counted).
void CudaQEqSolver::read_matrix_size(const QEqInput &in, const long long *nnz_dev) {
  PMD_CUDA_CHECK(cudaMemcpyAsync(grid_host_.data(), nnz_dev, sizeof(long long),
                                 cudaMemcpyDeviceToHost, stream_));
  PMD_CUDA_CHECK(cudaMemcpyAsync(reinterpret_cast<char *>(grid_host_.data()) + 8, counters_.data(),
                                 4 * sizeof(int), cudaMemcpyDeviceToHost, stream_));
  int checks[kNumChecks];
  read_checks(checks);  // waits for both
  long long nnz = 0;
  int counters[4];
  std::memcpy(&nnz, grid_host_.data(), sizeof nnz);
  std::memcpy(counters, reinterpret_cast<const char *>(grid_host_.data()) + 8, sizeof counters);
  // the first bad owned atom, as the host solver's row selection reports it
  if (checks[kCheckBadRow] != kNoAtom) reject_row(in, checks[kCheckBadRow]);
  if (counters[2])
    throw InputError("QEq: atom type " + std::to_string(counters[3]) + " has no QEq parameters");
  nnz_ = nnz;
  nonempty_rows_ = counters[0];
  n_rows_ = checks[kCheckRows];
}

// Device reverse comm: for each owner, its images whose rows have entries,
// by ascending ghost index (a deterministic sum).
void CudaQEqSolver::build_image_map(int n, int nl) {
  if (device_comm_) {
    const int n_ghost = n - nl;
    img_start_.reserve(nl, kQEqHeadroom);
    img_end_.reserve(nl, kQEqHeadroom);
    img_idx_.reserve(n_ghost, kQEqHeadroom);
    key_.reserve(n_ghost, kQEqHeadroom);
    key_sorted_.reserve(n_ghost, kQEqHeadroom);
    idx_.reserve(n_ghost, kQEqHeadroom);
    if (nl > 0) {
      PMD_CUDA_CHECK(cudaMemsetAsync(img_start_.data(), 0, nl * sizeof(int), stream_));
      PMD_CUDA_CHECK(cudaMemsetAsync(img_end_.data(), 0, nl * sizeof(int), stream_));
    }
    if (n_ghost > 0) {
      k_image_keys<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
          owner_dev_.data(), row_count_.data(), nl, n_ghost, key_.data(), idx_.data());
      PMD_CUDA_CHECK_LAUNCH("k_image_keys", stream_);
      sort_pairs(cub_tmp_, key_.data(), key_sorted_.data(), idx_.data(), img_idx_.data(), n_ghost,
                 bits_for(nl), stream_);
      k_segment_bounds<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
          key_sorted_.data(), n_ghost, nl, img_start_.data(), img_end_.data());
      PMD_CUDA_CHECK_LAUNCH("k_segment_bounds(images)", stream_);
    }
  }
}

}  // namespace puremd::cuda
