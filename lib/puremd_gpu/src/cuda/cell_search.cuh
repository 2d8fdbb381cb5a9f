// Lists by cell search, on the cells of the last list build (CellSearch in
// cuda_context.h: the grid, the row cut-offs, the skin): a group of L lanes
// per row scans the 27 cells around the row's atom (lane k takes slots k,
// k + L, ... of each cell) and visits the kept candidates as visit(w, j),
// w = 0, 1, 2, ... in cell order, then slot order: the order of a serial
// scan, whatever L. Two searches use it:
//   UpperPartners  the far list (or skin list): row i holds the partners
//                  j > i within row i's cut-off (owned: cut_local, ghost:
//                  cut_ghost, plus the skin);
//   LowerOwners    its reverse index: row j holds the owned rows k < j that
//                  hold j (the same test, from the other end).
// Rows are counted, laid out by a prefix sum, then filled, by the two kernels
// below.
#pragma once

#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"

namespace puremd::cuda {

__device__ __forceinline__ void cell_coords(const CellGrid &g, vec3 p, int &cx, int &cy, int &cz) {
  cx = min(g.nx - 1, static_cast<int>((p.x - g.lo.x) * g.sx));
  cy = min(g.ny - 1, static_cast<int>((p.y - g.lo.y) * g.sy));
  cz = min(g.nz - 1, static_cast<int>((p.z - g.lo.z) * g.sz));
}

// The cell arrays of the build, by slot (atoms sorted by cell).
struct CellArrays {
  const int *start, *end, *atoms, *type;
  const vec3 *x;
};

// Scans the cells around p: keep(s, j) says whether slot s is kept and sets
// its atom j; visit(w, j) for the kept ones. Returns the count (the same in
// every lane of the group).
template <int L, class Keep, class Visit>
__device__ __forceinline__ int scan_cells(const LaneGroup<L> &g, const CellGrid &G,
                                          const CellArrays &C, vec3 p, Keep &&keep, Visit &&visit) {
  int cx, cy, cz;
  cell_coords(G, p, cx, cy, cz);
  int w = 0;
  for (int z = max(cz - 1, 0); z <= min(cz + 1, G.nz - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, G.ny - 1); ++y)
      for (int xx = max(cx - 1, 0); xx <= min(cx + 1, G.nx - 1); ++xx) {
        const int c = (z * G.ny + y) * G.nx + xx;
        const int e = C.end[c];
        for (int base = C.start[c]; base < e; base += L) {
          const int s = base + g.lane;
          int j = -1;
          const bool kept_here = s < e && keep(s, j);
          int kept;
          const int r = g.rank(kept_here, kept);
          if (kept_here) visit(w + r, j);
          w += kept;
        }
      }
  return w;
}

// Row i of the far (or skin) list: partners j > i of a ReaxFF type within
// (i < n_local ? cut_local : cut_ghost) + skin of x_i, tested as
// |x_j - x_i|^2 <= rc^2 with the host's rounding.
struct UpperPartners {
  CellSearch P;
  CellArrays C;
  const vec3 *x;
  const int *type;
  template <int L, class Visit>
  __device__ int operator()(const LaneGroup<L> &g, int i, Visit &&visit) const {
    if (type[i] < 0) return 0;
    const double rc0 = i < P.n_local ? P.cut_local : P.cut_ghost;
    if (rc0 <= 0) return 0;
    const double rc = rc0 + P.skin;
    const double rc2 = rc * rc;
    const vec3 xi = x[i];
    return scan_cells(
        g, P.grid, C, xi,
        [&](int s, int &j) {
          j = C.atoms[s];
          return j > i && C.type[s] >= 0 && norm2_host_rounding(C.x[s] - xi) <= rc2;
        },
        visit);
  }
};

// Row j of the reverse index: the owned k < j whose UpperPartners row holds
// j, by the same test on the same numbers (x_j - x_k, rc of an owned row);
// x holds the positions of the build.
struct LowerOwners {
  CellSearch P;
  CellArrays C;
  const vec3 *x;
  const int *type;
  template <int L, class Visit>
  __device__ int operator()(const LaneGroup<L> &g, int j, Visit &&visit) const {
    if (type[j] < 0 || P.cut_local <= 0) return 0;
    const double rc = P.cut_local + P.skin;
    const double rc2 = rc * rc;
    const vec3 xj = x[j];
    return scan_cells(
        g, P.grid, C, xj,
        [&](int s, int &k) {
          k = C.atoms[s];
          return k < j && k < P.n_local && C.type[s] >= 0 &&
                 norm2_host_rounding(xj - C.x[s]) <= rc2;
        },
        visit);
  }
};

// Pass 1: count[i] for rows [0, n) and their total.
template <int L, class Search>
__global__ void __launch_bounds__(kAtomBlock)
    k_cell_rows_count(int n, Search S, int *count, unsigned long long *total) {
  const LaneGroup<L> g;
  const long long i = g.row();
  int c = 0;
  if (i < n) {
    c = S(g, static_cast<int>(i), [](int, int) {});
    if (g.lane == 0) count[i] = c;
  }
  warp_add_total(total, static_cast<unsigned long long>(g.lane == 0 ? c : 0));
}

// Pass 2: row i written from start[i]; end[i] set.
template <int L, class Search>
__global__ void __launch_bounds__(kAtomBlock)
    k_cell_rows_fill(int n, Search S, const ListPos *start, ListPos *end, int *nbr) {
  const LaneGroup<L> g;
  const long long row = g.row();
  if (row >= n) return;  // whole groups leave together
  const int i = static_cast<int>(row);
  const ListPos w0 = start[i];
  const int c = S(g, i, [&](int w, int j) { nbr[w0 + w] = j; });
  if (g.lane == 0 && end) end[i] = w0 + c;
}

}  // namespace puremd::cuda
