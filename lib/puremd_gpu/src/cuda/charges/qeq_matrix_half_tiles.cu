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
// Built in two parts, because finding a tile's union (a hash table) costs
// several times what its values do:
//   - the partners, once per build of the far list's rows (the skin list,
//     EngineAtoms::list_build): a warp per tile walks the list rows
//     of its rows into a hash table in shared memory and writes the union,
//     (j, mask of the rows whose list row holds j), taking room from a
//     global counter (k_tile_partners). Every pair within the cut-off at a
//     later step of the list's life is among them;
//   - at every solve, the entries of this step (k_tile_masks): the pairs of
//     each partner within the cut-off now (the far list's rule, at the
//     current positions), the partners left without one dropped, and room
//     for the values from a global counter; then the values, a lane each
//     (k_tile_values). Values get the last solve's count with headroom; a
//     solve that finds more builds its entries again with room for all.
// A tile whose partners do not fit its table makes the solve fall back: as
// QEqMatrix::Auto chooses without tiles, else to rows (k_list_rows,
// k_spmv_once, qeq_matrix_half_rows.cu). Measured: bench/README, "Issue 25".
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "cuda/charges/qeq_cuda_rows.cuh"
#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/charges/qeq_matrix_half_tiles.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

constexpr int kTileSlots = 4096;  // hash slots of a tile's partner table (32 KB of shared memory)
constexpr int kTileEmpty = -1;    // an empty slot's key
constexpr int kTileWarps = kQEqBlock / 32;  // tiles per block of the per-solve kernels

// What k_tile_partners writes; counters: [1] partners taken (may pass room:
// then nothing of the tile is written and the partners are found again).
struct TilePartnersOut {
  long long *start;
  int *count;
  int2 *partner;  // (j, mask of the tile's rows whose list row holds j)
  long long room;
  unsigned long long *counters;  // slots kQEqEntries, kQEqEntries2
  unsigned long long *overflow;  // a tile's partners did not fit its table
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

// One warp per tile: the union of its rows' list rows (see the top of the
// file), the partners held by most rows first: a chunk of 32 entries then
// holds masks of like size, and the product's columns pass, which runs as
// long as the chunk's largest mask, does little idle work.
__global__ void __launch_bounds__(32) k_tile_partners(EngineAtoms f, TilePartnersOut out) {
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
  const int rows = min(kTileRows, f.n_local - t * kTileRows);
  for (int r = 0; r < rows; ++r) {
    const int i = t * kTileRows + r;
    const ListPos end = f.end[i];
    for (ListPos p = f.start[i] + lane; p < end; p += 32)
      fits = fits && tile_insert(key, mask, f.nbr[p], r);
    if (!__all_sync(0xffffffffu, fits)) break;  // (a full table: no more probing)
  }
  __syncwarp();
  if (!__all_sync(0xffffffffu, fits)) {
    if (lane == 0) atomicOr(out.overflow, 1ull);
    return;
  }
  // the partners by rows held, most first (a counting sort: place[b] counts
  // those that 32 - b rows hold, then is where the next of them goes)
  __shared__ int place[kTileRows + 1];
  for (int b = lane; b <= kTileRows; b += 32) place[b] = 0;
  __syncwarp();
  int nu = 0;
  for (int s = lane; s < kTileSlots; s += 32)
    if (key[s] != kTileEmpty) {
      ++nu;
      atomicAdd(&place[kTileRows - __popc(mask[s])], 1);
    }
  for (int o = 16; o > 0; o >>= 1) nu += __shfl_xor_sync(0xffffffffu, nu, o);
  __syncwarp();
  if (lane == 0)
    for (int b = 0, sum = 0; b <= kTileRows; ++b) {
      const int c = place[b];
      place[b] = sum;
      sum += c;
    }
  __syncwarp();
  long long e0 = 0;
  if (lane == 0)
    e0 = static_cast<long long>(atomicAdd(out.counters + 1, static_cast<unsigned long long>(nu)));
  e0 = __shfl_sync(0xffffffffu, e0, 0);
  if (e0 + nu > out.room) return;  // found again with more room
  if (lane == 0) {
    out.start[t] = e0;
    out.count[t] = nu;
  }
  for (int s = lane; s < kTileSlots; s += 32)
    if (key[s] != kTileEmpty) {
      const int at = atomicAdd(&place[kTileRows - __popc(mask[s])], 1);
      out.partner[e0 + at] = make_int2(key[s], static_cast<int>(mask[s]));
    }
}

// What k_tile_masks reads (the partners) and writes (this solve's entries,
// at the partners' places; counters: [0] values, [1] entries).
struct TileMasksArgs {
  int n_tiles;
  const long long *partner_start;
  const int *partner_count;
  const int2 *partner;
  int *entry_count;
  long long *value_start;  // -1: no room this time (the solve builds again)
  int4 *entry;             // (column, mask, first value's place in the tile, partner j)
  long long value_room;
  unsigned long long *counters;
};

// This solve's entries (see the top of the file): a warp per tile, lane k
// partner k of a chunk of 32, which keeps the rows of its mask within the
// cut-off now, by the rows' rule (qeq_row_chunks, part 2: active row and
// partner, qeq_keeps_far_pair). The partners left with rows are packed, each
// with its first value's place.
__global__ void __launch_bounds__(kQEqBlock) k_tile_masks(QEqRowArgs a, TileMasksArgs m) {
  __shared__ vec3 xr[kTileWarps][kTileRows];
  __shared__ long long tag_r[kTileWarps][kTileRows];
  const int w = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int t = blockIdx.x * kTileWarps + w;
  if (t >= m.n_tiles) return;  // whole warp
  const int i = t * kTileRows + lane;
  const bool row_on = i < a.far.n_local && (!a.active || a.active[i]);
  if (row_on) {
    xr[w][lane] = a.far.x[i];
    tag_r[w][lane] = a.far.tag[i];
  }
  const unsigned rows_on = __ballot_sync(0xffffffffu, row_on);
  __syncwarp();
  const unsigned below = (1u << lane) - 1u;
  const long long e0 = m.partner_start[t];
  const int np = m.partner_count[t];
  int kept = 0, values = 0;
  for (int base = 0; base < np; base += 32) {
    const int k = base + lane;
    unsigned held = 0u;
    int j = 0;
    if (k < np) {
      const int2 p = m.partner[e0 + k];
      j = p.x;
      unsigned rows = static_cast<unsigned>(p.y) & rows_on;
      if (rows && (!a.active || a.active[j])) {
        const vec3 xj = a.far.x[j];
        for (; rows; rows &= rows - 1u) {
          const int r = __ffs(rows) - 1;
          const vec3 d = xj - xr[w][r];
          if (qeq_keeps_far_pair(a, tag_r[w][r], j, d, norm2_host_rounding(d))) held |= 1u << r;
        }
      }
    }
    const unsigned present = __ballot_sync(0xffffffffu, held != 0u);
    const int own = __popc(held);
    int pre = own;
    for (int o = 1; o < 32; o <<= 1) {
      const int up = __shfl_up_sync(0xffffffffu, pre, o);
      if (lane >= o) pre += up;
    }
    const int total = __shfl_sync(0xffffffffu, pre, 31);
    if (held)
      m.entry[e0 + kept + __popc(present & below)] =
          make_int4(qeq_column(a, j), static_cast<int>(held), values + pre - own, j);
    kept += __popc(present);
    values += total;
  }
  if (lane == 0) {
    const long long v0 =
        static_cast<long long>(atomicAdd(m.counters, static_cast<unsigned long long>(values)));
    atomicAdd(m.counters + 1, static_cast<unsigned long long>(kept));
    m.entry_count[t] = kept;
    m.value_start[t] = v0 + values <= m.value_room ? v0 : -1;
  }
}

// The values of this solve's entries (after k_tile_masks; the entry's .w is
// its partner j): a warp per tile with room for its values takes 32 entries
// at a time and spreads their values over its lanes, value q of the chunk to
// lane q % 32 (the entry it belongs to, and the row, from the chunk's offsets
// and masks), so that every lane computes values (a lane per row would leave
// the rows outside an entry's mask idle: half of them).
__global__ void __launch_bounds__(kQEqBlock)
    k_tile_values(QEqRowArgs a, int n_tiles, const long long *__restrict__ entry_start,
                  const int *__restrict__ entry_count, const long long *__restrict__ value_start,
                  const int4 *__restrict__ entry, double *__restrict__ val) {
  __shared__ int first[kTileWarps][33];  // the chunk's entries' first values, then its end
  __shared__ int partner[kTileWarps][32];
  __shared__ unsigned rows[kTileWarps][32];
  const int w = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int t = blockIdx.x * (kTileWarps) + w;
  if (t >= n_tiles || value_start[t] < 0) return;  // whole warp
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

}  // namespace

// The tiles of this solve (see the top of the file): false, with nothing
// kept, when a tile's partners overflow its table.
bool CudaHalfTiles::build(const QEqMatrixSolve &s) {
  p_.n_tiles = (s.n_local + kTileRows - 1) / kTileRows;
  const int nt = p_.n_tiles;
  if (!find_partners(s)) return false;
  p_.col.release();
  TileMasksArgs m{};
  m.n_tiles = nt;
  m.partner_start = p_.tile_entry_start.data();
  m.partner_count = p_.tile_partner_count.data();
  m.partner = p_.tile_partner.data();
  m.entry_count = p_.tile_entry_count.data();
  m.value_start = p_.tile_value_start.data();
  m.entry = p_.tile_entry.data();
  m.counters = s.slots->at(kQEqEntries);
  for (;;) {
    s.slots->clear(s.stream, kQEqEntries, 2);
    m.value_room = static_cast<long long>(p_.val.capacity());
    if (nt > 0) {
      k_tile_masks<<<blocks_for(nt, kTileWarps), kQEqBlock, 0, s.stream>>>(*s.rows, m);
      PMD_CUDA_CHECK_LAUNCH("k_tile_masks", s.stream);
      k_tile_values<<<blocks_for(nt, kTileWarps), kQEqBlock, 0, s.stream>>>(
          *s.rows, nt, p_.tile_entry_start.data(), p_.tile_entry_count.data(),
          p_.tile_value_start.data(), p_.tile_entry.data(), p_.val.data());
      PMD_CUDA_CHECK_LAUNCH("k_tile_values", s.stream);
    }
    s.read_sizes();  // values, entries; the checks throw here
    if (*s.nnz <= static_cast<long long>(p_.val.capacity())) return true;
    // (the first solve of a list finds its count this way: no values room held)
    p_.val.reserve_discarding(static_cast<std::size_t>(*s.nnz), kMatrixHeadroom);
  }
}

// The tiles' partners, from this step's far list (the skin list): found once
// per build of that list (k_tile_partners); false, with nothing kept, when
// a tile's partners do not fit its table.
bool CudaHalfTiles::find_partners(const QEqMatrixSolve &s) {
  const EngineAtoms &f = s.rows->far;
  const int nt = p_.n_tiles;
  Readback<QEqSlot, kNumQEqSlots> &slots = *s.slots;
  const bool same_list =
      f.list_build >= 0 && partners_n_local_ == s.n_local && partners_n_total_ == s.n_total;
  reused_ = same_list && partners_of_ == f.list_build;
  if (reused_) return true;
  if (same_list && overflowed_for_ == f.list_build) return false;  // (known: no second try)
  partners_of_ = -1;
  const std::size_t room = static_cast<std::size_t>(std::max(nt, 1));
  p_.tile_entry_start.reserve_discarding(room, kGrowHeadroom);
  p_.tile_value_start.reserve_discarding(room, kGrowHeadroom);
  p_.tile_entry_count.reserve_discarding(room, kGrowHeadroom);
  p_.tile_partner_count.reserve_discarding(room, kGrowHeadroom);
  if (p_.tile_partner.capacity() == 0)
    p_.tile_partner.reserve_discarding(
        static_cast<std::size_t>(std::max<long long>(f.row_room / 8, 1)));
  TilePartnersOut out{};
  out.start = p_.tile_entry_start.data();
  out.count = p_.tile_partner_count.data();
  out.counters = slots.at(kQEqEntries);
  out.overflow = slots.at(kQEqTileOverflow);
  for (;;) {
    out.partner = p_.tile_partner.data();
    out.room = static_cast<long long>(p_.tile_partner.capacity());
    slots.clear(s.stream, kQEqEntries, 2);
    if (nt > 0) {
      k_tile_partners<<<nt, 32, 0, s.stream>>>(f, out);
      PMD_CUDA_CHECK_LAUNCH("k_tile_partners", s.stream);
    }
    s.read_sizes();
    if (slots[kQEqTileOverflow]) {  // a tile overflowed its table
      overflowed_for_ = f.list_build;
      partners_n_local_ = s.n_local;
      partners_n_total_ = s.n_total;
      slots.clear(s.stream, kQEqEntries, kNumQEqSlots - kQEqEntries);
      return false;
    }
    const long long partners = slots.value(kQEqEntries2);
    if (partners <= static_cast<long long>(p_.tile_partner.capacity())) {
      // this solve's entries lie at their partners' places
      // (a list build changes the count by little: the matrix's headroom)
      p_.tile_entry.reserve_discarding(static_cast<std::size_t>(std::max<long long>(partners, 1)),
                                       kMatrixHeadroom);
      partners_of_ = f.list_build;
      partners_n_local_ = s.n_local;
      partners_n_total_ = s.n_total;
      return true;
    }
    p_.tile_partner.reserve_discarding(static_cast<std::size_t>(partners), kMatrixHeadroom);
  }
}

namespace {
const QEqMatrixStores::Add<CudaHalfTiles> kHalfTiles(QEqStore::HalfTiles);
}  // namespace

// The tiles' arrays given back (a solve that stores another format); found
// again if a later solve takes Half.
void CudaHalfTiles::release() {
  partners_of_ = -1;
  p_.tile_entry_start.release();
  p_.tile_value_start.release();
  p_.tile_partner_count.release();
  p_.tile_entry_count.release();
  p_.tile_partner.release();
  p_.tile_entry.release();
}

}  // namespace puremd::cuda
