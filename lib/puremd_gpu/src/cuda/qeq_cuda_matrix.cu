// The rows of the CUDA QEq solver's matrix (see qeq_cuda_solver.h).
// With pair_style reaxff/gpu the pairs come from the force engine's far list
// of the step (QEqInput::far, k_list_rows): one warp per row, one pass.
// Without it (the solver on its own, or a QEq cut-off beyond the force
// engine's), they are found by cell binning on the GPU (cells of cut_hi /
// kCellsPerCut, atoms sorted by cell with a radix sort), one warp per row;
// that CSR is built count -> CUB scan -> fill.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <string>
#include <vector>

#include "cuda/kernel_utils.cuh"
#include "cuda/qeq_cuda_solver.h"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

constexpr int kCellsPerCut = 2;  // binning cells are >= cut_hi / kCellsPerCut wide

// Bounding box of the positions: partial[c * G + b], c = 0..2 min, 3..5 max.
__global__ void k_bbox_partial(const double *x, int n, double *partial) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = blockIdx.x * kQEqBlock + threadIdx.x; i < n; i += gridDim.x * kQEqBlock)
    for (int k = 0; k < 3; ++k) {
      const double v = x[3 * i + k];
      lo[k] = fmin(lo[k], v);
      hi[k] = fmax(hi[k], v);
    }
  using Reduce = cub::BlockReduce<double, kQEqBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < 6; ++c) {
    const double v = c < 3 ? lo[c] : hi[c - 3];
    const double r = c < 3 ? Reduce(tmp).Reduce(v, [](double a, double b) { return fmin(a, b); })
                           : Reduce(tmp).Reduce(v, [](double a, double b) { return fmax(a, b); });
    if (threadIdx.x == 0) partial[c * gridDim.x + blockIdx.x] = r;
    __syncthreads();
  }
}

__global__ void k_bbox_finish(const double *partial, int nblocks, double *out) {
  using Reduce = cub::BlockReduce<double, kQEqBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < 6; ++c) {
    double v = c < 3 ? INFINITY : -INFINITY;
    for (int b = threadIdx.x; b < nblocks; b += kQEqBlock)
      v = c < 3 ? fmin(v, partial[c * nblocks + b]) : fmax(v, partial[c * nblocks + b]);
    const double r = c < 3 ? Reduce(tmp).Reduce(v, [](double a, double b) { return fmin(a, b); })
                           : Reduce(tmp).Reduce(v, [](double a, double b) { return fmax(a, b); });
    if (threadIdx.x == 0) out[c] = r;
    __syncthreads();
  }
}

struct CellGrid {
  int nx = 1, ny = 1, nz = 1;
  double lo[3] = {0, 0, 0};
  double scale[3] = {0, 0, 0};  // cells per unit length
  __host__ __device__ int ncells() const { return nx * ny * nz; }
};

__device__ __forceinline__ int qeq_cell_coord(double p, double lo, double scale, int n) {
  const double f = (p - lo) * scale;
  if (!(f >= 0.0)) return 0;  // also NaN
  return f >= static_cast<double>(n - 1) ? n - 1 : static_cast<int>(f);
}

// Cell key per atom (inactive atoms get key ncells: sorted past every cell).
__global__ void k_cell_keys(const double *x, const int *active, int n, CellGrid g, int *key,
                            int *idx) {
  const int i = blockIdx.x * kQEqBlock + threadIdx.x;
  if (i >= n) return;
  int k = g.ncells();
  if (!active || active[i]) {
    const int cx = qeq_cell_coord(x[3 * i], g.lo[0], g.scale[0], g.nx);
    const int cy = qeq_cell_coord(x[3 * i + 1], g.lo[1], g.scale[1], g.ny);
    const int cz = qeq_cell_coord(x[3 * i + 2], g.lo[2], g.scale[2], g.nz);
    k = (cz * g.ny + cy) * g.nx + cx;
  }
  key[i] = k;
  idx[i] = i;
}

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

__global__ void k_gather_cell_atoms(const int *idx_sorted, int n, const double *x, const int *type,
                                    CellAtom *out) {
  const int p = blockIdx.x * kQEqBlock + threadIdx.x;
  if (p >= n) return;
  const int j = idx_sorted[p];
  out[p] = CellAtom{x[3 * j], x[3 * j + 1], x[3 * j + 2], j, type ? type[j] : 0};
}

struct BuildArgs {
  int n_local, n_total;
  const double *x;
  const long long *tag;
  const int *active;  // null: all active
  const int *type;    // null: per-atom parameters
  int num_types;
  const double *shield;  // num_types^2 table (type mode)
  const double *gamma;   // per atom (no types)
  const int *owner;      // per ghost, device path only (null: keep ghost columns)
  const CellAtom *cell_atoms;
  const int *cell_start, *cell_end;
  CellGrid grid;
  double cut2;
  Taper taper;
  long long *row_count;        // count pass
  int *nonempty_rows;          // count pass
  int *bad_type;               // count pass: [0] flag, [1] type
  const long long *row_start;  // fill pass
  int *col;                    // fill pass
  double *val;                 // fill pass
};

// One warp per matrix row: count (kFill false) or write (kFill true) the row's
// entries. Partners are visited in cell order, within a cell by atom index
// (owned atoms first), so both passes see them in the same order.
template <bool kFill>
__global__ void __launch_bounds__(kQEqBlock) k_build_rows(BuildArgs a) {
  const long long warp = (static_cast<long long>(blockIdx.x) * kQEqBlock + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (warp >= a.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  if (a.active && !a.active[i]) {
    if (!kFill && lane == 0) a.row_count[i] = 0;
    return;
  }
  const bool ghost_row = i >= a.n_local;
  const double xi = a.x[3 * i], yi = a.x[3 * i + 1], zi = a.x[3 * i + 2];
  const long long tag_i = a.tag[i];
  const int type_i = a.type ? a.type[i] : 0;
  const CellGrid &g = a.grid;
  const int cx = qeq_cell_coord(xi, g.lo[0], g.scale[0], g.nx);
  const int cy = qeq_cell_coord(yi, g.lo[1], g.scale[1], g.ny);
  const int cz = qeq_cell_coord(zi, g.lo[2], g.scale[2], g.nz);
  const long long base = kFill ? a.row_start[i] : 0;
  const unsigned lanes_below = (1u << lane) - 1u;
  int count = 0;

  for (int z = max(cz - kCellsPerCut, 0); z <= min(cz + kCellsPerCut, g.nz - 1); ++z)
    for (int y = max(cy - kCellsPerCut, 0); y <= min(cy + kCellsPerCut, g.ny - 1); ++y)
      for (int xx = max(cx - kCellsPerCut, 0); xx <= min(cx + kCellsPerCut, g.nx - 1); ++xx) {
        const int c = (z * g.ny + y) * g.nx + xx;
        const int cs = a.cell_start[c], ce = a.cell_end[c];
        for (int p0 = cs; p0 < ce; p0 += 32) {
          const int p = p0 + lane;
          bool take = false, past_owned = false;
          CellAtom b{0, 0, 0, -1, 0};
          double dx = 0, dy = 0, dz = 0, d2 = 0;
          if (p < ce) {
            b = a.cell_atoms[p];
            if (ghost_row && b.j >= a.n_local) {
              past_owned = true;  // a ghost row only pairs with owned atoms
            } else if (b.j != i) {
              dx = b.x - xi;
              dy = b.y - yi;
              dz = b.z - zi;
              d2 = norm2_host_rounding(make_vec3(dx, dy, dz));
              if (d2 <= a.cut2) {
                if (ghost_row)  // pair (owned b.j, ghost i): d = x_i - x_b
                  take = ghost_pair_is_mine(a.tag[b.j], tag_i, make_vec3(-dx, -dy, -dz));
                else if (b.j < a.n_local)
                  take = true;
                else  // pair (owned i, ghost b.j): d = x_b - x_i
                  take = ghost_pair_is_mine(tag_i, a.tag[b.j], make_vec3(dx, dy, dz));
              }
            }
          }
          const unsigned mask = __ballot_sync(kQEqFullMask, take);
          if (take) {
            if (!kFill) {
              if (a.type) {  // owned types were checked on the host
                const int t = ghost_row ? type_i : b.type;
                if ((ghost_row || b.j >= a.n_local) && (t < 0 || t >= a.num_types)) {
                  if (atomicCAS(a.bad_type, 0, 1) == 0) a.bad_type[1] = t;
                }
              }
            } else {
              double shield;
              if (a.type) {
                // (owned, other) order as the host solver indexes its table
                shield = ghost_row ? a.shield[b.type * a.num_types + type_i]
                                   : a.shield[type_i * a.num_types + b.type];
              } else {
                shield = ghost_row ? qeq_shielding(a.gamma[b.j], a.gamma[i])
                                   : qeq_shielding(a.gamma[i], a.gamma[b.j]);
              }
              const long long pos = base + count + __popc(mask & lanes_below);
              int col = b.j;
              if (a.owner && col >= a.n_local) col = a.owner[col - a.n_local];
              a.col[pos] = col;
              a.val[pos] = qeq_offdiag(sqrt(d2), shield, a.taper);
            }
          }
          count += __popc(mask);
          if (__any_sync(kQEqFullMask, past_owned)) break;
        }
      }
  if (!kFill && lane == 0) {
    a.row_count[i] = count;
    if (count > 0) atomicAdd(a.nonempty_rows, 1);
  }
}

// --- Rows from the force engine's far list (QEqInput::far) ---
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
  DeviceFarList far;
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
  const long long warp = (static_cast<long long>(blockIdx.x) * kQEqBlock + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (warp >= a.n_total) return;  // whole warp
  const int i = static_cast<int>(warp);
  const DeviceFarList &f = a.far;
  const long long base = static_cast<long long>(f.start[i]) + f.rev_start[i];
  const unsigned lanes_below = (1u << lane) - 1u;
  int count = 0;
  // Appends the kept entries p of [begin, end) in order; keep(p, col, d2, row,
  // column) says whether p is kept, its column, its squared distance and the
  // (row, column) atoms of its shielding.
  auto append = [&](int begin, int end, auto &&keep) {
    for (int p0 = begin; p0 < end; p0 += 32) {
      const int p = p0 + lane;
      int col = -1, row = 0, column = 0;
      double d2 = 0.0;
      const bool take = p < end && keep(p, col, d2, row, column);
      const unsigned mask = __ballot_sync(kQEqFullMask, take);
      if (take) {
        const long long pos = base + count + __popc(mask & lanes_below);
        a.col[pos] = col;
        a.val[pos] = qeq_offdiag(sqrt(d2), qeq_list_shield(a, row, column), a.taper);
      }
      count += __popc(mask);
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
  if (lane == 0) {
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

// Cells of at least cut_hi / kCellsPerCut, no more of them than about two per atom.
CellGrid make_grid(const double *box, int n, double cut_hi) {
  CellGrid g;
  const double edge = cut_hi / kCellsPerCut;
  double ncell[3];
  for (int k = 0; k < 3; ++k) {
    g.lo[k] = box[k];
    const double extent = box[3 + k] - box[k];
    double c = std::isfinite(extent) && extent > 0.0 ? std::floor(extent / edge) : 1.0;
    ncell[k] = std::min(std::max(c, 1.0), 1048576.0);
  }
  const double max_cells = 2.0 * n + 64.0;
  while (ncell[0] * ncell[1] * ncell[2] > max_cells) {
    const int k = ncell[0] >= ncell[1] && ncell[0] >= ncell[2] ? 0 : (ncell[1] >= ncell[2] ? 1 : 2);
    ncell[k] = std::max(1.0, std::ceil(ncell[k] / 2.0));
  }
  g.nx = static_cast<int>(ncell[0]);
  g.ny = static_cast<int>(ncell[1]);
  g.nz = static_cast<int>(ncell[2]);
  const int nk[3] = {g.nx, g.ny, g.nz};
  for (int k = 0; k < 3; ++k) {
    const double extent = box[3 + k] - box[k];
    g.scale[k] = std::isfinite(extent) && extent > 0.0 ? nk[k] / extent : 0.0;
  }
  return g;
}

int bits_for(int max_value) {
  int b = 1;
  while (b < 31 && (1ll << b) <= max_value) ++b;
  return b;
}

}  // namespace

// Cell binning, then the rows (count -> scan -> fill), then for the device
// path the owner -> images map.
void CudaQEqSolver::build_matrix(const QEqInput &in) {
  const int n = in.n_total, nl = in.n_local;
  const int *active = flags_ ? active_dev_.data() : nullptr;
  const int *type = in.type ? type_dev_.data() : nullptr;
  row_count_.reserve(static_cast<std::size_t>(n) + 1, kQEqHeadroom);
  row_start_.reserve(static_cast<std::size_t>(n) + 1, kQEqHeadroom);
  PMD_CUDA_CHECK(cudaMemsetAsync(row_count_.data(), 0, (n + 1) * sizeof(long long), stream_));
  counters_.reserve(4);
  PMD_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, 4 * sizeof(int), stream_));
  nnz_ = 0;
  nonempty_rows_ = 0;
  if (n == 0) {
    PMD_CUDA_CHECK(cudaMemsetAsync(row_start_.data(), 0, sizeof(long long), stream_));
    row_end_ptr_ = row_start_.data() + 1;
    return;
  }

  if (use_far_list(in)) {
    build_matrix_from_far(in);
    return;
  }

  // Bounding box -> cell grid.
  const unsigned gb =
      static_cast<unsigned>(std::min<long long>(kQEqMaxReduceBlocks, blocks_for(n, kQEqBlock)));
  k_bbox_partial<<<gb, kQEqBlock, 0, stream_>>>(x_dev_.data(), n, partial_.data());
  PMD_CUDA_CHECK_LAUNCH("k_bbox_partial", stream_);
  k_bbox_finish<<<1, kQEqBlock, 0, stream_>>>(partial_.data(), static_cast<int>(gb),
                                              sums_dev_.data());
  PMD_CUDA_CHECK_LAUNCH("k_bbox_finish", stream_);
  PMD_CUDA_CHECK(cudaMemcpyAsync(grid_host_.data(), sums_dev_.data(), 6 * sizeof(double),
                                 cudaMemcpyDeviceToHost, stream_));
  PMD_CUDA_CHECK(cudaStreamSynchronize(stream_));
  const CellGrid grid = make_grid(grid_host_.data(), n, settings_.cut_hi);
  const int ncells = grid.ncells();

  key_.reserve(n, kQEqHeadroom);
  key_sorted_.reserve(n, kQEqHeadroom);
  idx_.reserve(n, kQEqHeadroom);
  idx_sorted_.reserve(n, kQEqHeadroom);
  cell_start_.reserve(ncells, kQEqHeadroom);
  cell_end_.reserve(ncells, kQEqHeadroom);
  cell_atoms_.reserve(n, kQEqHeadroom);
  k_cell_keys<<<blocks_for(n, kQEqBlock), kQEqBlock, 0, stream_>>>(x_dev_.data(), active, n, grid,
                                                                   key_.data(), idx_.data());
  PMD_CUDA_CHECK_LAUNCH("k_cell_keys", stream_);
  sort_pairs(key_.data(), key_sorted_.data(), idx_.data(), idx_sorted_.data(), n, bits_for(ncells));
  PMD_CUDA_CHECK(cudaMemsetAsync(cell_start_.data(), 0, ncells * sizeof(int), stream_));
  PMD_CUDA_CHECK(cudaMemsetAsync(cell_end_.data(), 0, ncells * sizeof(int), stream_));
  k_segment_bounds<<<blocks_for(n, kQEqBlock), kQEqBlock, 0, stream_>>>(
      key_sorted_.data(), n, ncells, cell_start_.data(), cell_end_.data());
  PMD_CUDA_CHECK_LAUNCH("k_segment_bounds", stream_);
  k_gather_cell_atoms<<<blocks_for(n, kQEqBlock), kQEqBlock, 0, stream_>>>(
      idx_sorted_.data(), n, x_dev_.data(), type, cell_atoms_.data());
  PMD_CUDA_CHECK_LAUNCH("k_gather_cell_atoms", stream_);

  BuildArgs a{};
  a.n_local = nl;
  a.n_total = n;
  a.x = x_dev_.data();
  a.tag = tag_dev_.data();
  a.active = active;
  a.type = type;
  a.num_types = in.num_types;
  a.shield = in.type ? shield_dev_.data() : nullptr;
  a.gamma = gamma_dev_.data();
  a.owner = device_comm_ && n > nl ? owner_dev_.data() : nullptr;
  a.cell_atoms = cell_atoms_.data();
  a.cell_start = cell_start_.data();
  a.cell_end = cell_end_.data();
  a.grid = grid;
  a.cut2 = settings_.cut_hi * settings_.cut_hi;
  a.taper = taper_;
  a.row_count = row_count_.data();
  a.nonempty_rows = counters_.data();
  a.bad_type = counters_.data() + 2;
  const unsigned gw = blocks_for(static_cast<long long>(n) * 32, kQEqBlock);
  k_build_rows<false><<<gw, kQEqBlock, 0, stream_>>>(a);
  PMD_CUDA_CHECK_LAUNCH("k_build_rows<count>", stream_);
  scan_rows(n);

  long long *row_start = row_start_.data();
  read_matrix_size(in, row_start + n);
  row_end_ptr_ = row_start + 1;  // CSR
  const long long nnz = nnz_;

  col_.reserve(nnz, 1.25);
  val_.reserve(nnz, 1.25);
  a.row_start = row_start;
  a.col = col_.data();
  a.val = val_.data();
  k_build_rows<true><<<gw, kQEqBlock, 0, stream_>>>(a);
  PMD_CUDA_CHECK_LAUNCH("k_build_rows<fill>", stream_);

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
    // sort scratch (the cell search, when it runs, has sized these already)
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
      sort_pairs(key_.data(), key_sorted_.data(), idx_.data(), img_idx_.data(), n_ghost,
                 bits_for(nl));
      k_segment_bounds<<<blocks_for(n_ghost, kQEqBlock), kQEqBlock, 0, stream_>>>(
          key_sorted_.data(), n_ghost, nl, img_start_.data(), img_end_.data());
      PMD_CUDA_CHECK_LAUNCH("k_segment_bounds(images)", stream_);
    }
  }
}

// The engine's far list serves when it is of these atoms and reaches cut_hi.
bool CudaQEqSolver::use_far_list(const QEqInput &in) const {
  const DeviceFarList *f = in.far;
  return f && f->n_local == in.n_local && f->n_total == in.n_total &&
         settings_.cut_hi <= f->cut_local && f->start && f->end && f->nbr && f->dvec && f->x &&
         f->rev_start && (f->rev_row || f->rev_total == 0);
}

// The matrix rows from the force engine's far list (see k_list_rows).
void CudaQEqSolver::build_matrix_from_far(const QEqInput &in) {
  const int n = in.n_total, nl = in.n_local;
  const DeviceFarList &f = *in.far;
  const long long room = f.row_room + f.rev_total;
  row_end_.reserve(static_cast<std::size_t>(n) + 1, kQEqHeadroom);
  col_.reserve(room, 1.25);
  val_.reserve(room, 1.25);
  nnz_total_.reserve(1);
  PMD_CUDA_CHECK(cudaMemsetAsync(nnz_total_.data(), 0, sizeof(long long), stream_));
  ListArgs a{};
  a.n_local = nl;
  a.n_total = n;
  a.far = f;
  a.tag = tag_dev_.data();
  a.active = flags_ ? active_dev_.data() : nullptr;
  a.type = in.type ? type_dev_.data() : nullptr;
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
  row_end_ptr_ = row_end_.data();
  read_matrix_size(in, nnz_total_.data());
  build_image_map(n, nl);
}

void CudaQEqSolver::sort_pairs(const int *keys_in, int *keys_out, const int *vals_in, int *vals_out,
                               int n, int end_bit) {
  std::size_t bytes = 0;
  PMD_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in,
                                                 vals_out, n, 0, end_bit, stream_));
  cub_tmp_.reserve(bytes, kQEqHeadroom);
  PMD_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_tmp_.data(), bytes, keys_in, keys_out, vals_in,
                                                 vals_out, n, 0, end_bit, stream_));
}

// row_start = exclusive scan of row_count over n + 1 entries (the last count is 0).
void CudaQEqSolver::scan_rows(int n) {
  std::size_t bytes = 0;
  PMD_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, row_count_.data(), row_start_.data(),
                                               n + 1, stream_));
  cub_tmp_.reserve(bytes, kQEqHeadroom);
  PMD_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp_.data(), bytes, row_count_.data(),
                                               row_start_.data(), n + 1, stream_));
}

}  // namespace puremd::cuda
