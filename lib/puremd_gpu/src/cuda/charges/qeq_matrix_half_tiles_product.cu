// The product of the CUDA QEq solver's matrix stored in tiles
// (QEqMatrix::Half; qeq_matrix_half_tiles.cu builds them and says why tiles).
#include <cuda_runtime.h>

#include <type_traits>

#include "cuda/charges/qeq_cuda_sums.cuh"
#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/charges/qeq_matrix_half_tiles.h"
#include "cuda/kernel_utils.cuh"

namespace puremd::cuda {
namespace {

constexpr int kTileProductWarps = 4;  // warps sharing a tile's entries (one block a tile)

// The 32 x 32 bit matrix held one row a lane (lane k's bit r) transposed:
// lane r gets bit r of every lane's word (bit k from lane k). Five exchanges
// of half-blocks.
__device__ __forceinline__ unsigned transpose_bits(unsigned x, int lane) {
  unsigned m = 0x0000ffffu;
  for (int j = 16; j > 0; j >>= 1, m ^= m << j) {
    const unsigned y = __shfl_xor_sync(0xffffffffu, x, j);
    x = (lane & j) ? (x & ~m) | ((y >> j) & m) : (x & m) | ((y & m) << j);
  }
  return x;
}

// What a product reads of v and adds to y: both systems (QEq's s and t) or
// the first only (ACKS2's q part: half the gathers and shared reads).
template <bool kBoth>
struct TileVec {
  using T = double2;
  __device__ static T load(const double2 *v, int i) { return v[i]; }
  __device__ static T zero() { return make_double2(0.0, 0.0); }
  __device__ static void fma(double h, const T &a, double2 &acc) {
    acc.x += h * a.x;
    acc.y += h * a.y;
  }
  __device__ static void add(double2 *y, int j, const double2 &a) {
    qeq_atomic_add(y, j, a.x, a.y);
  }
};
template <>
struct TileVec<false> {
  using T = double;
  __device__ static T load(const double2 *v, int i) { return v[i].x; }
  __device__ static T zero() { return 0.0; }
  __device__ static void fma(double h, const T &a, double2 &acc) { acc.x += h * a; }
  __device__ static void add(double2 *y, int j, const double2 &a) { atomicAdd(&y[j].x, a.x); }
};

// y += H v, y zeroed before. Block t takes tile t; its warps take the tile's
// entries 32 at a time (warp w chunks w, w + 4, ...), lane k entry k of the
// chunk:
//   columns: lane k is entry k and sums the transpose's shares H_ij v_i over
//            the rows of its mask (v of the tile's rows in shared memory),
//            reading its entry's values in a run, and adds them to y_j with
//            one atomic per system;
//   rows:    lane l is row 32t + l and gathers H_ij v_j over the chunk's
//            entries whose mask holds it (the masks transposed: each lane
//            visits its own entries only), adding its sum to y_i at the end.
// The values come through L1, which still holds the chunk's lines from the
// columns pass when the rows pass reads them again; staging them in shared
// memory first (28 KB a block) held the SM to 8 blocks of 63 registers and
// was 5 % slower on ACKS2 (bench/README, issue 41). The next chunk's entries
// are loaded, and its v_j gathered, while this one is multiplied.
// (A rows pass over all 32 entries of a chunk, each lane testing its bit,
// made the product issue-bound: 1,100 instructions a chunk, bench/README.)
// The adds come in a run-dependent order.
template <bool kBoth>
__global__ void __launch_bounds__(kTileProductWarps * 32, 8)
    k_spmv_tiles(int n_local, const long long *__restrict__ entry_start,
                 const int *__restrict__ entry_count, const long long *__restrict__ value_start,
                 const int4 *__restrict__ entry, const double *__restrict__ val,
                 const double *__restrict__ diag, const double2 *__restrict__ v,
                 double2 *__restrict__ y, const int *running, bool run_at_zero) {
  using V = TileVec<kBoth>;
  using T = typename V::T;
  __shared__ T v_rows[kTileRows];
  __shared__ int2 stage[kTileProductWarps][32];
  __shared__ T v_cols[kTileProductWarps][32];
  if (running && (*running == 0) != run_at_zero) return;
  const int t = blockIdx.x;
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  const int i = t * kTileRows + lane;
  const double2 vi = i < n_local ? v[i] : make_double2(0.0, 0.0);
  if (w == 0) {
    if constexpr (kBoth)
      v_rows[lane] = vi;
    else
      v_rows[lane] = vi.x;
  }
  __syncthreads();
  const double *tv = val + value_start[t];
  double2 acc = make_double2(0.0, 0.0);
  const long long e0 = entry_start[t];
  const int ne = entry_count[t];
  constexpr int kStride = 32 * kTileProductWarps;
  auto entry_at = [&](int base) {
    return base + lane < ne ? entry[e0 + base + lane] : make_int4(0, 0, 0, 0);
  };
  const unsigned below = (1u << lane) - 1u;
  int base = 32 * w;
  int4 en = entry_at(base);
  T vj = base + lane < ne ? V::load(v, en.x) : V::zero();
  for (; base < ne; base += kStride) {
    const int k = base + lane;
    const int4 en_next = entry_at(base + kStride);  // on its way during this chunk
    stage[w][lane] = make_int2(en.y, en.z);
    v_cols[w][lane] = vj;
    unsigned held = transpose_bits(static_cast<unsigned>(en.y), lane);
    __syncwarp();
    // columns first: lane k reads its entry's values in a run (through L1,
    // which keeps the chunk's lines for the rows pass)
    if (k < ne) {
      double2 col = make_double2(0.0, 0.0);
      int q = en.z;
      for (unsigned m = static_cast<unsigned>(en.y); m; m &= m - 1u)
        V::fma(__ldg(tv + q++), v_rows[__ffs(m) - 1], col);
      V::add(y, en.x, col);
    }
    // rows: the entries that hold this lane's row
    for (; held; held &= held - 1u) {
      const int q = __ffs(held) - 1;
      const int2 e = stage[w][q];  // (mask, first value)
      V::fma(__ldg(tv + e.y + __popc(static_cast<unsigned>(e.x) & below)), v_cols[w][q], acc);
    }
    vj = k + kStride < ne ? V::load(v, en_next.x) : V::zero();
    en = en_next;
    __syncwarp();
  }
  if (i < n_local) {
    if (w == 0 && diag) {
      const double dg = diag[i];
      acc.x += dg * vi.x;
      acc.y += dg * vi.y;
    }
    if (!kBoth)
      atomicAdd(&y[i].x, acc.x);
    else if (acc.x != 0.0 || acc.y != 0.0 || w == 0)
      qeq_atomic_add(y, i, acc.x, acc.y);
  }
}

}  // namespace

template <bool kBoth>
void CudaHalfTiles::launch(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                           const int *running) {
  if (p_.n_tiles == 0) return;
  k_spmv_tiles<kBoth><<<p_.n_tiles, kTileProductWarps * 32, 0, s.stream>>>(
      s.n_local, p_.tile_entry_start.data(), p_.tile_entry_count.data(), p_.tile_value_start.data(),
      p_.tile_entry.data(), p_.val.data(), kBoth ? s.diag : nullptr, v, y, running, !kBoth);
  PMD_CUDA_CHECK_LAUNCH("k_spmv_tiles", s.stream);
}

// y = H v: the products add into y, zeroed here (after the last iteration
// an extra queued product may zero it for nothing, as nothing reads y once
// CG has stopped).
void CudaHalfTiles::multiply(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                             const int *running) {
  PMD_CUDA_CHECK(cudaMemsetAsync(y, 0, s.n_total * sizeof(double2), s.stream));
  launch<true>(s, v, y, running);
}

void CudaHalfTiles::multiply_first(const QEqMatrixSolve &s, const double2 *v, double2 *y,
                                   const int *phase) {
  launch<false>(s, v, y, phase);
}

}  // namespace puremd::cuda
