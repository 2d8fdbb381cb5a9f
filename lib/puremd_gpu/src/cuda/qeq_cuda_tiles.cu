// The CUDA QEq solver's matrix with each pair stored once, in tiles
// (QEqMatrix::Half): tile t holds the owned rows 32t .. 32t + 31, one per
// lane of a warp, and the union of their partners of higher index (the
// rows' part 2, qeq_cuda_rows.cuh): one entry per partner j with the mask of
// the tile's rows that hold (i, j), and the held values packed in mask order.
//
// Why tiles. A matrix stored in rows, each pair once, needs the transpose's
// share H_ij v_i scattered to y_j by two FP64 atomic adds per entry: on an
// H100 that doubled the product's time against the matrix stored twice
// (bench/README). Rows of neighbouring atoms share most partners (LAMMPS
// sorts atoms by space), so a tile's union has ~15x fewer entries than its
// rows have values: the lanes sum the transpose's shares of one partner and
// add them with one atomic per system, and the stored bytes per pair drop
// from 24 (two triangles, 8 + 4 each) to ~9 (the value, plus an entry's 16
// bytes shared by the rows that hold it).
//
// Built at every solve in one pass: a warp per tile finds the union with a
// hash table in shared memory, takes room for its entries and values from
// two global counters (so tiles lie in the order they finish: the product
// does not care), and writes them. Values always fit (room for the far
// list's entries); entries get the last solve's count with headroom, and a
// solve that finds more builds again with room for all. A tile whose
// partners do not fit its table makes the solve fall back to rows
// (k_list_rows, k_spmv_once).
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/qeq_cuda_rows.cuh"
#include "cuda/qeq_cuda_solver.h"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

constexpr int kTileRows = 32;     // rows per tile: the lanes of a warp
constexpr int kTileSlots = 2048;  // hash slots of a tile's partner table (16 KB of shared memory)
constexpr int kTileEmpty = -1;    // an empty slot's key

// What the build writes; counters: [0] values, [1] entries taken (may pass
// entry_room: then nothing of the tile is written and the solve builds again).
struct TileOut {
  long long *entry_start, *value_start;
  int *entry_count;
  int4 *entry;  // (column, mask, value offset in the tile, 0)
  double *val;
  long long entry_room;
  unsigned long long *counters;
  int *overflow;  // a tile's partners did not fit its table
};

// Adds row `lane`'s partner j to the table; false when the table is full.
__device__ __forceinline__ bool tile_insert(int *key, unsigned *mask, int j, int lane) {
  unsigned h = (static_cast<unsigned>(j) * 2654435761u) & (kTileSlots - 1);
  for (int probe = 0; probe < kTileSlots; ++probe) {
    const int k = atomicCAS(&key[h], kTileEmpty, j);
    if (k == kTileEmpty || k == j) {
      atomicOr(&mask[h], 1u << lane);
      return true;
    }
    h = (h + 1) & (kTileSlots - 1);
  }
  return false;
}

// The product's column of partner j: its owner for a ghost on the device path.
__device__ __forceinline__ int tile_column(const QEqRowArgs &a, int j) {
  return a.owner && j >= a.n_local ? a.owner[j - a.n_local] : j;
}

// One warp per tile (see the top of the file); also checks the types.
__global__ void __launch_bounds__(32) k_tile_build(QEqRowArgs a, TileOut out) {
  __shared__ int key[kTileSlots];
  __shared__ unsigned mask[kTileSlots];
  const int t = blockIdx.x, lane = threadIdx.x;
  for (int s = lane; s < kTileSlots; s += 32) {
    key[s] = kTileEmpty;
    mask[s] = 0u;
  }
  __syncwarp();
  const int i = t * kTileRows + lane;
  bool fits = true;
  if (i < a.n_local) {
    const LaneGroup<1> own;  // each lane walks its own row
    qeq_row_chunks<true>(own, a, i, [&](const QEqCandidate &c) {
      if (!c.take) return;
      qeq_row_shield(a, c);  // the type check
      fits = tile_insert(key, mask, c.column, lane) && fits;
    });
  }
  __syncwarp();
  if (!__all_sync(0xffffffffu, fits)) {
    if (lane == 0) atomicOr(out.overflow, 1);
    return;
  }
  // the tile's entries and values, and room for them
  int nu = 0, nv = 0;
  for (int s = lane; s < kTileSlots; s += 32)
    if (key[s] != kTileEmpty) {
      ++nu;
      nv += __popc(mask[s]);
    }
  for (int o = 16; o > 0; o >>= 1) {
    nu += __shfl_xor_sync(0xffffffffu, nu, o);
    nv += __shfl_xor_sync(0xffffffffu, nv, o);
  }
  long long e0 = 0, v0 = 0;
  if (lane == 0) {
    e0 = static_cast<long long>(atomicAdd(out.counters + 1, static_cast<unsigned long long>(nu)));
    v0 = static_cast<long long>(atomicAdd(out.counters, static_cast<unsigned long long>(nv)));
  }
  e0 = __shfl_sync(0xffffffffu, e0, 0);
  v0 = __shfl_sync(0xffffffffu, v0, 0);
  if (e0 + nu > out.entry_room) return;  // built again with more room
  if (lane == 0) {
    out.entry_start[t] = e0;
    out.entry_count[t] = nu;
    out.value_start[t] = v0;
  }
  // The table's entries in slot order, 32 slots at a time; then the values
  // of each entry, by the lanes whose rows hold it. (Measured against a
  // second walk of each lane's row writing its own values: 3.4 against 4.5
  // ms at HNS 8^3 on an H100, that walk reading its row and positions again.)
  const unsigned below = (1u << lane) - 1u;
  const vec3 xi = a.far.x[i < a.n_local ? i : 0];  // read only by rows in a mask
  double *tv = out.val + v0;
  int written = 0, offset = 0;
  for (int s0 = 0; s0 < kTileSlots; s0 += 32) {
    const int j = key[s0 + lane];
    const unsigned m = mask[s0 + lane];
    const bool has = j != kTileEmpty;
    const unsigned present = __ballot_sync(0xffffffffu, has);
    if (!present) continue;
    // this lane's entry's first value: the values of the entries before it
    const int own = has ? __popc(m) : 0;
    int pre = own;
    for (int o = 1; o < 32; o <<= 1) {
      const int up = __shfl_up_sync(0xffffffffu, pre, o);
      if (lane >= o) pre += up;
    }
    const int total = __shfl_sync(0xffffffffu, pre, 31);
    pre += offset - own;  // exclusive
    if (has)
      out.entry[e0 + written + __popc(present & below)] =
          make_int4(tile_column(a, j), static_cast<int>(m), pre, 0);
    for (unsigned left = present; left; left &= left - 1u) {
      const int src = __ffs(left) - 1;
      const int jj = __shfl_sync(0xffffffffu, j, src);
      const unsigned mm = __shfl_sync(0xffffffffu, m, src);
      const int first = __shfl_sync(0xffffffffu, pre, src);
      if (mm >> lane & 1u) {
        QEqCandidate c;  // as the row's part 2 makes it (qeq_row_chunks)
        c.take = true;
        c.row = i;
        c.column = jj;
        c.d2 = norm2_host_rounding(a.far.x[jj] - xi);
        tv[first + __popc(mm & below)] = qeq_row_value(a, c);
      }
    }
    written += __popc(present);
    offset += total;
  }
}

// An entry of a tile as the product's lanes read it from shared memory.
struct TileEntry {
  int col;
  unsigned mask;
  int off, valid;
  double vs, vt;  // v at the column
};
constexpr int kTileChunk = 16;        // entries a warp takes at once
constexpr int kTileProductWarps = 4;  // warps sharing a tile's entries (one block a tile)

// y += H v, y zeroed before. Block t takes tile t; lane l of each of its
// warps row 32t + l, warp w the entries' chunks w, w + 4, ... (entry and v
// at its column staged in shared memory). The rows in an entry's mask
// gather H_ij v_j, and write the transpose's shares H_ij v_i (s and t: 2
// kTileChunk numbers a lane) into a lane-by-share table in shared memory,
// whose columns lane k then sums and adds to y with one atomic (share k:
// entry k % kTileChunk, system k / kTileChunk). Each warp adds its rows'
// sums with atomics too: the adds come in a run-dependent order.
__global__ void __launch_bounds__(kTileProductWarps * 32)
    k_spmv_tiles(int n_local, const long long *__restrict__ entry_start,
                 const int *__restrict__ entry_count, const long long *__restrict__ value_start,
                 const int4 *__restrict__ entry, const double *__restrict__ val,
                 const double *__restrict__ diag, const double2 *__restrict__ v,
                 double2 *__restrict__ y, const int *running) {
  constexpr int kShares = 2 * kTileChunk;  // = 32, a share per lane
  __shared__ TileEntry stage[kTileProductWarps][kTileChunk];
  __shared__ double shares[kTileProductWarps][32][kShares + 1];  // +1: no bank conflicts
  if (running && !*running) return;
  const int t = blockIdx.x;
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  TileEntry *st = stage[w];
  double(*sh)[kShares + 1] = shares[w];
  const unsigned below = (1u << lane) - 1u;
  const int i = t * kTileRows + lane;
  const double2 vi = i < n_local ? v[i] : make_double2(0.0, 0.0);
  const double *tv = val + value_start[t];
  double as = 0.0, at = 0.0;
  const long long e0 = entry_start[t], e1 = e0 + entry_count[t];
  for (long long base = e0 + w * kTileChunk; base < e1; base += kTileProductWarps * kTileChunk) {
    if (lane < kTileChunk) {
      const long long e = base + lane;
      TileEntry te{0, 0u, 0, 0, 0.0, 0.0};
      if (e < e1) {
        const int4 en = entry[e];
        const double2 vj = v[en.x];
        te = TileEntry{en.x, static_cast<unsigned>(en.y), en.z, 1, vj.x, vj.y};
      }
      st[lane] = te;
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < kTileChunk; ++k) {
      const unsigned m = st[k].mask;
      const double h = (m >> lane & 1u) ? tv[st[k].off + __popc(m & below)] : 0.0;
      as += h * st[k].vs;
      at += h * st[k].vt;
      sh[lane][k] = h * vi.x;
      sh[lane][k + kTileChunk] = h * vi.y;
    }
    __syncwarp();
    const TileEntry &mine = st[lane & (kTileChunk - 1)];
    if (mine.valid) {
      double sum = 0.0;
#pragma unroll 8
      for (int r = 0; r < 32; ++r) sum += sh[r][lane];
      atomicAdd(lane < kTileChunk ? &y[mine.col].x : &y[mine.col].y, sum);
    }
    __syncwarp();
  }
  if (i < n_local) {
    if (w == 0) {
      const double dg = diag[i];
      as += dg * vi.x;
      at += dg * vi.y;
    }
    if (as != 0.0 || at != 0.0 || w == 0) {
      atomicAdd(&y[i].x, as);
      atomicAdd(&y[i].y, at);
    }
  }
}

}  // namespace

// The tiles of this solve (see the top of the file): false, with nothing
// kept, when a tile's partners overflow its table.
bool CudaQEqSolver::build_tiles(const QEqInput &in) {
  const int nl = in.n_local;
  n_tiles_ = (nl + kTileRows - 1) / kTileRows;
  const std::size_t nt = static_cast<std::size_t>(std::max(n_tiles_, 1));
  tile_entry_start_.reserve_discarding(nt, kGrowHeadroom);
  tile_value_start_.reserve_discarding(nt, kGrowHeadroom);
  tile_entry_count_.reserve_discarding(nt, kGrowHeadroom);
  // values: at most one per far-list entry; entries: the last count, with headroom
  val_.reserve_discarding(static_cast<std::size_t>(std::max<long long>(atoms_.row_room, 1)),
                          kMatrixHeadroom);
  col_.release();
  if (tile_entry_.capacity() == 0)
    tile_entry_.reserve_discarding(
        static_cast<std::size_t>(std::max<long long>(atoms_.row_room / 8, 1)));
  TileOut out{};
  out.entry_start = tile_entry_start_.data();
  out.value_start = tile_value_start_.data();
  out.entry_count = tile_entry_count_.data();
  out.val = val_.data();
  out.counters = reinterpret_cast<unsigned long long *>(nnz_total_.data());
  out.overflow = counters_.data() + 1;
  for (;;) {
    out.entry = tile_entry_.data();
    out.entry_room = static_cast<long long>(tile_entry_.capacity());
    if (n_tiles_ > 0) {
      k_tile_build<<<n_tiles_, 32, 0, stream_>>>(row_args_, out);
      PMD_CUDA_CHECK_LAUNCH("k_tile_build", stream_);
    }
    read_matrix_size(in, nnz_total_.data());  // the checks throw here
    const MatrixReadback &rb = matrix_readback_[0];
    if (rb.counters[1]) {  // a tile overflowed its table: rows instead
      PMD_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, 4 * sizeof(int), stream_));
      PMD_CUDA_CHECK(cudaMemsetAsync(nnz_total_.data(), 0, 2 * sizeof(long long), stream_));
      return false;
    }
    tile_values_ = rb.nnz[0];
    tile_entries_ = rb.nnz[1];
    x_nnz_ = 0;
    if (tile_entries_ <= static_cast<long long>(tile_entry_.capacity())) return true;
    tile_entry_.reserve_discarding(static_cast<std::size_t>(tile_entries_), kGrowHeadroom);
    PMD_CUDA_CHECK(cudaMemsetAsync(nnz_total_.data(), 0, 2 * sizeof(long long), stream_));
  }
}

void CudaQEqSolver::multiply_tiles(const double2 *v, double2 *y, const int *running) {
  if (n_tiles_ == 0) return;
  k_spmv_tiles<<<n_tiles_, kTileProductWarps * 32, 0, stream_>>>(
      n_local_, tile_entry_start_.data(), tile_entry_count_.data(), tile_value_start_.data(),
      tile_entry_.data(), val_.data(), diag_.data(), v, y, running);
  PMD_CUDA_CHECK_LAUNCH("k_spmv_tiles", stream_);
}

}  // namespace puremd::cuda
