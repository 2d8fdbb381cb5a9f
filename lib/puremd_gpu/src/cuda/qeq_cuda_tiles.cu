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
// Built at every solve by two kernels: a warp per tile walks the tile's rows
// into a hash table in shared memory (the union), takes room for its entries
// and values from two global counters (so tiles lie in the order they finish:
// the product does not care) and writes its entries (k_tile_build); then the
// values, a lane each (k_tile_values). Values always fit (room for the far
// list's entries); entries get the last solve's count with headroom, and a
// solve that finds more builds again with room for all. A tile whose
// partners do not fit its table makes the solve fall back: to Full under
// QEqMatrix::Auto where it fits, else to rows (k_list_rows, k_spmv_once).
// Measured: bench/README, "Issue 25".
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/qeq_cuda_rows.cuh"
#include "cuda/qeq_cuda_solver.h"
#include "cuda/qeq_cuda_sums.cuh"
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
  int4 *entry;  // (column, mask, first value's place in the tile, partner j)
  long long entry_room;
  unsigned long long *counters;
  int *overflow;  // a tile's partners did not fit its table
};

// Adds row r's partner j to the table; false when the table is full.
__device__ __forceinline__ bool tile_insert(int *key, unsigned *mask, int j, int r) {
  unsigned h = (static_cast<unsigned>(j) * 2654435761u) & (kTileSlots - 1);
  for (int probe = 0; probe < kTileSlots; ++probe) {
    const int k = atomicCAS(&key[h], kTileEmpty, j);
    if (k == kTileEmpty || k == j) {
      atomicOr(&mask[h], 1u << r);
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
  // the warp walks the tile's rows one after the other (coalesced, and the
  // lanes insert distinct partners)
  bool fits = true;
  const LaneGroup<32> g;
  const int rows = min(kTileRows, a.n_local - t * kTileRows);
  for (int r = 0; r < rows; ++r)
    qeq_row_chunks<true>(g, a, t * kTileRows + r, [&](const QEqCandidate &c) {
      if (!c.take) return;
      qeq_row_shield(a, c);  // the type check
      fits = tile_insert(key, mask, c.column, r) && fits;
    });
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
  // The table's entries in slot order, 32 slots at a time, each with its
  // first value's place in the tile (the values of the entries before it).
  const unsigned below = (1u << lane) - 1u;
  int written = 0, offset = 0;
  for (int s0 = 0; s0 < kTileSlots; s0 += 32) {
    const int j = key[s0 + lane];
    const unsigned m = mask[s0 + lane];
    const bool has = j != kTileEmpty;
    const unsigned present = __ballot_sync(0xffffffffu, has);
    if (!present) continue;
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
          make_int4(tile_column(a, j), static_cast<int>(m), pre, j);
    written += __popc(present);
    offset += total;
  }
}

// The values of the tiles' entries (after k_tile_build; the entry's .w is
// its partner j): a warp per tile takes 32 entries at a time and spreads
// their values over its lanes, value q of the chunk to lane q % 32 (the
// entry it belongs to, and the row, from the chunk's offsets and masks), so
// that every lane computes values (a lane per row would leave the rows
// outside an entry's mask idle: half of them).
__global__ void __launch_bounds__(kQEqBlock)
    k_tile_values(QEqRowArgs a, int n_tiles, const long long *__restrict__ entry_start,
                  const int *__restrict__ entry_count, const long long *__restrict__ value_start,
                  const int4 *__restrict__ entry, double *__restrict__ val) {
  __shared__ int first[kQEqBlock / 32][33];  // the chunk's entries' first values, then its end
  __shared__ int partner[kQEqBlock / 32][32];
  __shared__ unsigned rows[kQEqBlock / 32][32];
  const int w = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int t = blockIdx.x * (kQEqBlock / 32) + w;
  if (t >= n_tiles) return;  // whole warp
  const long long e0 = entry_start[t];
  const int ne = entry_count[t];
  double *tv = val + value_start[t];
  for (int base = 0; base < ne; base += 32) {
    const int k = base + lane;
    int4 en = make_int4(0, 0, 0, -1);
    if (k < ne) en = entry[e0 + k];
    const int last = min(ne - base, 32) - 1;
    // the chunk's values: [first of entry 0, end of the last)
    const int end = __shfl_sync(0xffffffffu, en.z + __popc(static_cast<unsigned>(en.y)), last);
    const int begin = __shfl_sync(0xffffffffu, en.z, 0);
    first[w][lane] = k < ne ? en.z : end;
    if (lane == 0) first[w][32] = end;
    partner[w][lane] = en.w;
    rows[w][lane] = static_cast<unsigned>(en.y);
    __syncwarp();
    int e = 0;  // the entry of value q: advances with q
    for (int q = begin + lane; q < end; q += 32) {
      while (first[w][e + 1] <= q) ++e;
      const unsigned m = rows[w][e];
      const int r = __fns(m, 0, q - first[w][e] + 1);  // the row: that set bit of the mask
      const int i = t * kTileRows + r, j = partner[w][e];
      QEqCandidate c;  // as the row's part 2 makes it (qeq_row_chunks)
      c.take = true;
      c.row = i;
      c.column = j;
      c.d2 = norm2_host_rounding(a.far.x[j] - a.far.x[i]);
      tv[q] = qeq_row_value(a, c);
    }
    __syncwarp();
  }
}

constexpr int kTileProductWarps = 4;  // warps sharing a tile's entries (one block a tile)

// y += H v, y zeroed before. Block t takes tile t; its warps take the tile's
// entries 32 at a time (warp w chunks w, w + 4, ...), lane k entry k of the
// chunk, and read each value twice (the second time from cache):
//   rows:    lane l is row 32t + l and gathers H_ij v_j over the chunk's
//            entries whose mask holds it (the entry broadcast from shared
//            memory), adding its sum to y_i at the end;
//   columns: lane k is entry k and sums the transpose's shares H_ij v_i over
//            the rows of its mask (v of the tile's rows in shared memory),
//            adding them to y_j with one atomic per system.
// The adds come in a run-dependent order.
__global__ void __launch_bounds__(kTileProductWarps * 32)
    k_spmv_tiles(int n_local, const long long *__restrict__ entry_start,
                 const int *__restrict__ entry_count, const long long *__restrict__ value_start,
                 const int4 *__restrict__ entry, const double *__restrict__ val,
                 const double *__restrict__ diag, const double2 *__restrict__ v,
                 double2 *__restrict__ y, const int *running) {
  __shared__ double2 v_rows[kTileRows];
  __shared__ int4 stage[kTileProductWarps][32];
  __shared__ double2 v_cols[kTileProductWarps][32];
  if (running && !*running) return;
  const int t = blockIdx.x;
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  const unsigned below = (1u << lane) - 1u;
  const int i = t * kTileRows + lane;
  const double2 vi = i < n_local ? v[i] : make_double2(0.0, 0.0);
  if (w == 0) v_rows[lane] = vi;
  __syncthreads();
  const double *tv = val + value_start[t];
  double as = 0.0, at = 0.0;
  const long long e0 = entry_start[t];
  const int ne = entry_count[t];
  for (int base = 32 * w; base < ne; base += 32 * kTileProductWarps) {
    const int k = base + lane;
    int4 en = make_int4(0, 0, 0, 0);
    double2 vj = make_double2(0.0, 0.0);
    if (k < ne) {
      en = entry[e0 + k];
      vj = v[en.x];
    }
    stage[w][lane] = en;
    v_cols[w][lane] = vj;
    __syncwarp();
    // rows
    const int n = min(ne - base, 32);
    for (int q = 0; q < n; ++q) {
      const unsigned m = static_cast<unsigned>(stage[w][q].y);
      if (m >> lane & 1u) {
        const double h = tv[stage[w][q].z + __popc(m & below)];
        as += h * v_cols[w][q].x;
        at += h * v_cols[w][q].y;
      }
    }
    // columns
    if (k < ne) {
      double ts = 0.0, tt = 0.0;
      const double *hv = tv + en.z;
      for (unsigned m = static_cast<unsigned>(en.y); m; m &= m - 1u) {
        const double h = *hv++;
        const double2 vr = v_rows[__ffs(m) - 1];
        ts += h * vr.x;
        tt += h * vr.y;
      }
      qeq_atomic_add(y, en.x, ts, tt);
    }
    __syncwarp();
  }
  if (i < n_local) {
    if (w == 0) {
      const double dg = diag[i];
      as += dg * vi.x;
      at += dg * vi.y;
    }
    if (as != 0.0 || at != 0.0 || w == 0) qeq_atomic_add(y, i, as, at);
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
    const long long entries = rb.nnz[1];  // (the count's slot beside H's values)
    x_nnz_ = 0;
    if (entries <= static_cast<long long>(tile_entry_.capacity())) {
      if (n_tiles_ > 0) {
        k_tile_values<<<blocks_for(n_tiles_, kQEqBlock / 32), kQEqBlock, 0, stream_>>>(
            row_args_, n_tiles_, tile_entry_start_.data(), tile_entry_count_.data(),
            tile_value_start_.data(), tile_entry_.data(), val_.data());
        PMD_CUDA_CHECK_LAUNCH("k_tile_values", stream_);
      }
      return true;
    }
    tile_entry_.reserve_discarding(static_cast<std::size_t>(entries), kGrowHeadroom);
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
