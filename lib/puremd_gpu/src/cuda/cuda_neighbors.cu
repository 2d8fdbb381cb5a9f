// Far-neighbour list on the GPU by cell binning: the same content as the
// host's build_half_neighbor_list (pair (i, j), i < j, in row i when
// |x_j - x_i| <= (i < n_local ? far_cut : bond_cut); atoms of type -1 get
// no pairs). far_cut is the nonbonded cut-off, or a larger QEq cut-off
// (CudaEngine::solve_charges); the stages keep to their own cut-offs. Distances are computed with
// the host's rounding (no fused multiply-add), so every inclusion decision and every d matches the
// host bit for bit.
//
//  1. validate types / positions and reduce the bounding box (read back);
//  2. cells no smaller than the cut-off: key = cell of each atom, CUB radix
//     sort of (key, index) -> atoms by cell, ascending index within a cell;
//  3. count pairs per row -> prefix sum -> (grow) -> fill, a group of
//     ThreadMapping::neighbors lanes per row.
// Rows are in cell order, then ascending index: deterministic, not sorted
// by partner (nothing downstream depends on the order of a far row).
//
// At each skin-list build the near list is made from it (cuda_near_list.cu).
//
// Skin list (update_far_neighbors, c.skin > 0): the same build with every
// row's cut-off enlarged by the skin, no distances stored, and the
// positions / types of the build kept. While no atom has moved more than
// skin / 2 (and LAMMPS has not re-neighboured), every pair within the
// cut-off now was within cut-off + skin then, so the skin list serves as the
// far list (CudaContext::far_rows): each reader (nonbonded, the QEq rows,
// QTPIE, FSAI) tests its own cut-off at the current positions, as it did on
// a list filtered for it, so nothing is copied per step. (A per-step
// compaction into a far list of its own took a list as large as the skin
// list's and a pass over it: bench/README, issue 57.)
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <string>

#include "common/non_finite.h"
#include "cuda/cell_search.cuh"
#include "cuda/cub_calls.cuh"
#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/list_build.h"

namespace puremd::cuda {
namespace {

constexpr int kBoxBlocks = 256;

struct BoxUnion {
  __device__ Box operator()(const Box &a, const Box &b) const {
    return Box{{fmin(a.lo.x, b.lo.x), fmin(a.lo.y, b.lo.y), fmin(a.lo.z, b.lo.z)},
               {fmax(a.hi.x, b.hi.x), fmax(a.hi.y, b.hi.y), fmax(a.hi.z, b.hi.z)}};
  }
};

__device__ __forceinline__ Box empty_box() {
  return Box{{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
}

// Bounding box partials per block; flags the lowest atom with a type
// outside [-1, num_types) or a non-finite coordinate.
__global__ void __launch_bounds__(kReduceBlock)
    k_box_partials(const vec3 *x, const int *type, int n, int num_types, Box *partials,
                   AtomProbe *probe) {
  Box b = empty_box();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const vec3 p = x[i];
    const int t = type[i];
    if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z)) || t < -1 || t >= num_types) {
      atomicMin(&probe->bad_atom, i);
      continue;
    }
    b.lo = {fmin(b.lo.x, p.x), fmin(b.lo.y, p.y), fmin(b.lo.z, p.z)};
    b.hi = {fmax(b.hi.x, p.x), fmax(b.hi.y, p.y), fmax(b.hi.z, p.z)};
  }
  using Reduce = cub::BlockReduce<Box, kReduceBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const Box r = Reduce(tmp).Reduce(b, BoxUnion{});
  if (threadIdx.x == 0) partials[blockIdx.x] = r;
}

__global__ void __launch_bounds__(kReduceBlock)
    k_box_final(const Box *partials, int n_partials, AtomProbe *probe) {
  Box b = empty_box();
  for (int k = threadIdx.x; k < n_partials; k += blockDim.x) b = BoxUnion{}(b, partials[k]);
  using Reduce = cub::BlockReduce<Box, kReduceBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const Box r = Reduce(tmp).Reduce(b, BoxUnion{});
  if (threadIdx.x == 0) probe->box = r;
}

__global__ void __launch_bounds__(kReduceBlock)
    k_cell_key(const vec3 *x, int n, CellGrid g, int *key, int *index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int cx, cy, cz;
  cell_coords(g, x[i], cx, cy, cz);
  key[i] = (cz * g.ny + cy) * g.nx + cx;
  index[i] = i;
}

// Cell bounds from the sorted keys, and positions / types in cell order.
__global__ void __launch_bounds__(kReduceBlock)
    k_cell_bounds(const int *key_sorted, const int *cell_atoms, const vec3 *x, const int *type,
                  int n, int *cell_start, int *cell_end, vec3 *cell_x, int *cell_type) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  const int c = key_sorted[s];
  if (s == 0 || key_sorted[s - 1] != c) cell_start[c] = s;
  if (s == n - 1 || key_sorted[s + 1] != c) cell_end[c] = s + 1;
  const int i = cell_atoms[s];
  cell_x[s] = x[i];
  cell_type[s] = type[i];
}

struct MaxOp {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

// max |x_i - x_build_i|^2 over the atoms, as the bits of a non-negative
// double (ordered like the value) in *out; a changed type or a non-finite
// position counts as an infinite displacement.
__global__ void __launch_bounds__(kReduceBlock)
    k_max_displacement(const vec3 *x, const vec3 *x_build, const int *type, const int *type_build,
                       int n, unsigned long long *out) {
  double m = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const vec3 dr = x[i] - x_build[i];
    double d2 = dr.x * dr.x + dr.y * dr.y + dr.z * dr.z;
    if (!(d2 <= DBL_MAX) || type[i] != type_build[i]) d2 = INFINITY;
    m = fmax(m, d2);
  }
  using Reduce = cub::BlockReduce<double, kReduceBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const double r = Reduce(tmp).Reduce(m, MaxOp{});
  if (threadIdx.x == 0) atomicMax(out, static_cast<unsigned long long>(__double_as_longlong(r)));
}

__global__ void __launch_bounds__(kReduceBlock)
    k_copy_build_atoms(const vec3 *x, const int *type, int n, vec3 *x_build, int *type_build) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x_build[i] = x[i];
  type_build[i] = type[i];
}

// Cell grid over the bounding box: cells at least `cut` wide (so neighbours
// lie in the 27 adjacent cells), made coarser when a sparse spread of atoms
// would ask for far more cells than atoms.
CellGrid make_cell_grid(const Box &b, double cut, int n_total) {
  if (!(cut > 0)) cut = 1.0;
  const double ext[3] = {b.hi.x - b.lo.x, b.hi.y - b.lo.y, b.hi.z - b.lo.z};
  const double max_cells = 4.0 * n_total + 64.0;
  double size = cut;
  int n[3];
  for (;;) {
    double total = 1.0;
    for (int k = 0; k < 3; ++k) {
      const double m = std::floor(ext[k] / size);
      n[k] = m < 1.0 ? 1 : (m > 1.0e6 ? 1000000 : static_cast<int>(m));
      total *= n[k];
    }
    if (total <= max_cells) break;
    size *= 1.25;  // coarser cells never lose a pair: they only hold more atoms
  }
  CellGrid g;
  g.lo = b.lo;
  g.nx = n[0];
  g.ny = n[1];
  g.nz = n[2];
  g.sx = n[0] / std::max(ext[0], 1e-300);
  g.sy = n[1] / std::max(ext[1], 1e-300);
  g.sz = n[2] / std::max(ext[2], 1e-300);
  return g;
}

int bits_for(long long values) {
  int b = 1;
  while (b < 31 && (1LL << b) < values) ++b;
  return b;
}

// Pairs by cell binning into the rows start/end/nbr with every positive row
// cut-off enlarged by `skin`; returns the number of pairs. `what` names the
// list in messages.
size_t build_cell_pairs(CudaContext &c, double skin, DeviceArray<ListPos> &start,
                        DeviceArray<ListPos> &end, DeviceArray<int> &nbr, const char *what) {
  const int n = c.n_total;
  cudaStream_t st = c.stream;

  // 1. validation + bounding box
  const int n_box = static_cast<int>(std::min<long long>(kBoxBlocks, blocks_for(n, kReduceBlock)));
  c.box_partials.reserve_discarding(kBoxBlocks);
  c.probe.reserve_discarding(1);
  {
    AtomProbe init{};
    init.bad_atom = INT_MAX;
    PMD_CUDA_CHECK(cudaMemcpyAsync(c.probe.data(), &init, sizeof init, cudaMemcpyHostToDevice, st));
  }
  k_box_partials<<<n_box, kReduceBlock, 0, st>>>(c.x.data(), c.type.data(), n, c.num_types,
                                                 c.box_partials.data(), c.probe.data());
  PMD_CUDA_CHECK_LAUNCH("k_box_partials", st);
  k_box_final<<<1, kReduceBlock, 0, st>>>(c.box_partials.data(), n_box, c.probe.data());
  PMD_CUDA_CHECK_LAUNCH("k_box_final", st);
  PMD_CUDA_CHECK(cudaMemcpyAsync(c.h_probe.data(), c.probe.data(), sizeof(AtomProbe),
                                 cudaMemcpyDeviceToHost, st));
  PMD_CUDA_CHECK(cudaStreamSynchronize(st));
  const AtomProbe probe = c.h_probe[0];
  if (probe.bad_atom != INT_MAX) {
    const int k = probe.bad_atom;
    vec3 xk;
    int tk;
    PMD_CUDA_CHECK(cudaMemcpy(&xk, c.x.data() + k, sizeof xk, cudaMemcpyDeviceToHost));
    PMD_CUDA_CHECK(cudaMemcpy(&tk, c.type.data() + k, sizeof tk, cudaMemcpyDeviceToHost));
    NonFiniteAtom bad = first_non_finite(1, &xk.x, nullptr, nullptr);
    if (bad.atom == 0) {
      bad.atom = k;
      long long id = -1;
      PMD_CUDA_CHECK(cudaMemcpy(&id, c.tag.data() + k, sizeof id, cudaMemcpyDeviceToHost));
      throw RuntimeError(non_finite_message("CUDA driver", bad, id, c.n_local));
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "CUDA driver: atom %d (of %d, %s) has type %d (valid: -1 .. %d) and position "
                  "(%g, %g, %g); a type must be a force-field element or -1 and a position finite",
                  k, n, k < c.n_local ? "owned" : "ghost", tk, c.num_types - 1, xk.x, xk.y, xk.z);
    throw RuntimeError(buf);
  }

  // 2. cells
  const double cut_local = c.far_cut, cut_ghost = c.control.bond_cut;
  const CellGrid g = make_cell_grid(probe.box, std::max(cut_local, cut_ghost) + skin, n);
  const long long n_cells = static_cast<long long>(g.nx) * g.ny * g.nz;
  c.cell_start.reserve_discarding(n_cells, kGrowHeadroom);
  c.cell_end.reserve_discarding(n_cells, kGrowHeadroom);
  PMD_CUDA_CHECK(cudaMemsetAsync(c.cell_start.data(), 0, n_cells * sizeof(int), st));
  PMD_CUDA_CHECK(cudaMemsetAsync(c.cell_end.data(), 0, n_cells * sizeof(int), st));

  k_cell_key<<<blocks_for(n, kReduceBlock), kReduceBlock, 0, st>>>(
      c.x.data(), n, g, c.cell_key.data(), c.atom_index.data());
  PMD_CUDA_CHECK_LAUNCH("k_cell_key", st);
  sort_pairs(c.cub_temp, c.cell_key.data(), c.cell_key_sorted.data(), c.atom_index.data(),
             c.cell_atoms.data(), n, bits_for(n_cells), st);
  k_cell_bounds<<<blocks_for(n, kReduceBlock), kReduceBlock, 0, st>>>(
      c.cell_key_sorted.data(), c.cell_atoms.data(), c.x.data(), c.type.data(), n,
      c.cell_start.data(), c.cell_end.data(), c.cell_x.data(), c.cell_type.data());
  PMD_CUDA_CHECK_LAUNCH("k_cell_bounds", st);

  // 3. the pairs (list_build.h)
  c.cells = CellSearch{g, c.n_local, n, cut_local, cut_ghost, skin};
  const UpperPartners search{c.cells,
                             CellArrays{c.cell_start.data(), c.cell_end.data(), c.cell_atoms.data(),
                                        c.cell_type.data(), c.cell_x.data()},
                             c.x.data(), c.type.data()};
  const int lanes = c.lanes.neighbors;
  const auto count = [&] {
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      k_cell_rows_count<L>
          <<<blocks_for(static_cast<long long>(n) * L, kAtomBlock), kAtomBlock, 0, st>>>(
              n, search, c.far_count.data(), c.totals.at(kTotalFar));
    });
    PMD_CUDA_CHECK_LAUNCH("k_cell_rows_count(far)", st);
  };
  const auto grow = [&](const auto &total) {
    // The first big count of a step: refuse a system this GPU cannot hold
    // before its largest arrays are allocated (memory_check.cu).
    check_memory_need(c.mem, MemoryEstimateInput{c.n_local, n, static_cast<long long>(total[0]),
                                                 c.mem.charges, c.mem.fsai});
    grow_entries(total[0], nbr);
  };
  const auto fill = [&](const auto &) {
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      k_cell_rows_fill<L>
          <<<blocks_for(static_cast<long long>(n) * L, kAtomBlock), kAtomBlock, 0, st>>>(
              n, search, start.data(), end.data(), nbr.data());
    });
    PMD_CUDA_CHECK_LAUNCH("k_cell_rows_fill(far)", st);
  };
  const size_t total = build_lists<1, ListPos>(
      c, n, kTotalFar, {PairListRows{&c.far_count, &start, &end, what}}, count, grow, fill)[0];
  if (debug_mode())
    std::fprintf(stderr, "[reaxff/gpu] %s: %d atoms (%d owned), %d cells, skin %g, %zu pairs\n",
                 what, n, c.n_local, static_cast<int>(n_cells), skin, total);
  return total;
}

// True if some atom moved more than skin / 2 since the skin-list build (or
// changed type, or has a non-finite position). One read-back.
bool skin_list_stale(CudaContext &c) {
  const int n = c.n_total;
  cudaStream_t st = c.stream;
  c.totals.clear(c.stream, kMaxDisp2);
  const int blocks = static_cast<int>(std::min<long long>(kBoxBlocks, blocks_for(n, kReduceBlock)));
  k_max_displacement<<<blocks, kReduceBlock, 0, st>>>(
      c.x.data(), c.skin_x.data(), c.type.data(), c.skin_type.data(), n, c.totals.at(kMaxDisp2));
  PMD_CUDA_CHECK_LAUNCH("k_max_displacement", st);
  c.totals.read(c.stream, kMaxDisp2);
  double max_d2;
  const unsigned long long bits = c.totals[kMaxDisp2];
  std::memcpy(&max_d2, &bits, sizeof max_d2);
  // A hair under skin / 2, so that rounding can never lose a pair.
  const double half = 0.5 * c.skin * (1.0 - 1e-9);
  return !(max_d2 <= half * half);
}

}  // namespace

void build_far_neighbors(CudaContext &c) {
  c.far_total = build_cell_pairs(c, 0.0, c.far_start, c.far_end, c.far_nbr, "far list");
  ++c.list_builds;
}

void update_far_neighbors(CudaContext &c, bool atoms_reordered) {
  if (!(c.skin > 0)) {
    c.skin_valid = false;
    build_far_neighbors(c);
    return;
  }
  const int n = c.n_total;
  bool rebuild =
      atoms_reordered || !c.skin_valid || c.skin_n_local != c.n_local || c.skin_n_total != n;
  if (!rebuild) rebuild = skin_list_stale(c);
  if (rebuild) {
    c.skin_valid = false;  // until the build below succeeds
    c.skin_total = build_cell_pairs(c, c.skin, c.skin_start, c.skin_end, c.skin_nbr, "skin list");
    c.skin_x.reserve_discarding(static_cast<size_t>(n), kGrowHeadroom);
    c.skin_type.reserve_discarding(static_cast<size_t>(n), kGrowHeadroom);
    k_copy_build_atoms<<<blocks_for(n, kReduceBlock), kReduceBlock, 0, c.stream>>>(
        c.x.data(), c.type.data(), n, c.skin_x.data(), c.skin_type.data());
    PMD_CUDA_CHECK_LAUNCH("k_copy_build_atoms", c.stream);
    build_near_list(c);  // (at the positions of the build, which x still holds)
    c.skin_n_local = c.n_local;
    c.skin_n_total = n;
    c.skin_valid = true;
    ++c.skin_builds;
    ++c.list_builds;
  }
  c.far_total = c.skin_total;  // the far list is the skin list (far_rows())
}

}  // namespace puremd::cuda
