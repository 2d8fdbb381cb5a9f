// Bond list, hydrogen-bond partner list and three-body list on the GPU, with
// the content and row order of the host driver (host_bond_lists.cpp,
// host_three_body_list.cpp).
//
// Bonds and hbond partners come from the near list (the pairs of the skin
// list that can be either during its life, cuda_near_list.cu; the far list
// itself without a skin), a half list like the far list, where a pair sits
// in the row of its lower index but may belong to the row of the higher one
// (a bond is stored in both rows; an hbond in the row of its hydrogen):
//   count   a group of lanes per row (ThreadMapping::lists): the inclusion
//           rules of the far list (physics/pair_lists.h) at this step's
//           positions, the decision kept in one flag byte per entry;
//           per-row counts by atomics; list totals (64-bit) for the host;
//   scan    CUB exclusive sums -> row starts; the host reads the totals and
//           grows the entry arrays (x1.2) if needed -- before anything is
//           written, so a step never overflows;
//   fill    the same lanes per far row; entries placed by atomic cursors
//           (order within a row arbitrary), with each entry's row (bond_row);
//   sort    each row sorted by partner index: rows then list their partners
//           in ascending order, exactly as the host's rows do;
//   finish  distances, vectors, uncorrected bond orders (evaluated once a
//           bond, from the row of its lower index, for both entries, as the
//           host does), and the mirror entry `sym` of every bond by binary
//           search in the partner's row.
// The three-body list uses the per-atom bodies of physics/valence_angle.h:
// three_body_count_atom -> scan -> three_body_fill_atom.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>

#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/list_build.h"
#include "puremd_gpu/physics/bond_order.h"
#include "puremd_gpu/physics/pair_lists.h"
#include "puremd_gpu/physics/valence_angle.h"

namespace puremd::cuda {
namespace {

// A group of L lanes per row (ThreadMapping::lists), each lane an entry at a
// time: its distance and hbond bits, and for a bond candidate the bond
// decision, which the pair's bracket of the BO' crossing makes without the
// bond order for nearly all of them (pair_list_is_bond). (Before the bracket,
// the candidates were queued in shared memory and their bond orders
// evaluated L at a time, every lane busy; HNS 16^3: 2.16 ms.)
template <int L>
__global__ void __launch_bounds__(kAtomBlock)
    k_pair_lists_count(const StepView v, const CudaContext::PairRows rows, unsigned char *flags,
                       int *bond_count, int *hb_count, unsigned long long *totals) {
  const LaneGroup<L> g;
  const int i = static_cast<int>(g.row());
  unsigned long long n_bond = 0, n_hb = 0;
  if (i < v.atoms.n_total) {
    const PairListRow r = pair_list_row(i, v);
    int own_bond = 0, own_hb = 0;
    for (ListPos p = rows.start[i] + g.lane; p < rows.end[i]; p += L) {
      const int j = rows.nbr[p];
      const PairListEntry e = pair_list_entry(r, j, v);
      unsigned char f = e.flags;
      if (f & kPairHbondRow) ++own_hb;
      if (f & kPairHbondNbr) {
        atomicAdd(&hb_count[j], 1);
        ++n_hb;
      }
      if (e.bond_candidate && pair_list_is_bond(r, j, e.d, v)) {
        f |= kPairBond;
        ++own_bond;
        atomicAdd(&bond_count[j], 1);
      }
      flags[p] = f;
    }
    // whole groups take this branch together
    const int row_bond = g.sum(own_bond), row_hb = g.sum(own_hb);
    if (g.lane == 0 && row_bond) atomicAdd(&bond_count[i], row_bond);
    if (g.lane == 0 && row_hb) atomicAdd(&hb_count[i], row_hb);
    n_bond = 2ull * own_bond;
    n_hb += own_hb;
  }
  warp_add_total(&totals[kTotalBond], n_bond);  // every lane of the warp gets here
  warp_add_total(&totals[kTotalHbond], n_hb);
}

template <int L>
__global__ void __launch_bounds__(kAtomBlock)
    k_pair_lists_fill(const StepView v, const CudaContext::PairRows rows,
                      const unsigned char *flags, int *bond_row) {
  const LaneGroup<L> g;
  const int i = static_cast<int>(g.row());
  if (i >= v.atoms.n_total) return;
  for (ListPos p = rows.start[i] + g.lane; p < rows.end[i]; p += L) {
    const unsigned char f = flags[p];
    if (!f) continue;
    const int j = rows.nbr[p];
    if (f & kPairBond) {
      const int ei = atomicAdd(&v.bonds.end[i], 1), ej = atomicAdd(&v.bonds.end[j], 1);
      v.bonds.nbr[ei] = j;
      bond_row[ei] = i;
      v.bonds.nbr[ej] = i;
      bond_row[ej] = j;
    }
    if (f & kPairHbondRow) v.hbonds.nbr[atomicAdd(&v.hbonds.end[i], 1)] = j;
    if (f & kPairHbondNbr) v.hbonds.nbr[atomicAdd(&v.hbonds.end[j], 1)] = i;
  }
}

// Insertion sort of one short row by partner index (partners are unique).
__device__ __forceinline__ void sort_row(int *nbr, int begin, int end) {
  for (int a = begin + 1; a < end; ++a) {
    const int key = nbr[a];
    int b = a - 1;
    while (b >= begin && nbr[b] > key) {
      nbr[b + 1] = nbr[b];
      --b;
    }
    nbr[b + 1] = key;
  }
}

// A row sorted by a warp: staged in shared memory, each entry written at its
// rank (partners are unique). Rows longer than the stage (rare) are sorted by
// one lane. A thread per row left one long hydrogen-bond row (tens of
// acceptors, insertion-sorted) holding up the other 31 atoms of its warp.
constexpr int kSortStage = 128;

__device__ __forceinline__ void sort_row_warp(const LaneGroup<32> &g, int *stage, int *nbr,
                                              int begin, int end) {
  const int n = end - begin;
  if (n < 2) return;
  if (n > kSortStage) {
    if (g.lane == 0) sort_row(nbr, begin, end);
    g.sync();
    return;
  }
  for (int k = g.lane; k < n; k += 32) stage[k] = nbr[begin + k];
  g.sync();
  for (int k = g.lane; k < n; k += 32) {
    const int key = stage[k];
    int rank = 0;
    for (int m = 0; m < n; ++m) rank += stage[m] < key;
    nbr[begin + rank] = key;
  }
  g.sync();  // the stage is reused for the next row
}

__global__ void __launch_bounds__(kAtomBlock) k_pair_lists_sort(const StepView v) {
  __shared__ int stage[kAtomBlock / 32][kSortStage];
  const LaneGroup<32> g;
  const long long i = g.row();
  if (i >= v.atoms.n_total) return;  // whole warps
  int *buf = stage[threadIdx.x / 32];
  sort_row_warp(g, buf, v.bonds.nbr, v.bonds.start[i], v.bonds.end[i]);
  sort_row_warp(g, buf, v.hbonds.nbr, v.hbonds.start[i], v.hbonds.end[i]);
}

// Entry of partner `key` in the sorted row [begin, end), -1 if absent.
__device__ __forceinline__ int find_in_row(const int *nbr, int begin, int end, int key) {
  int lo = begin, hi = end;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (nbr[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < end && nbr[lo] == key ? lo : -1;
}

// Lanes per bond row in the finish and three-body kernels: rows hold a few
// to a dozen bonds, and a thread per atom left these kernels waiting on
// latency (HNS 8^3: 1.4 and 1.2 ms/step with one thread per atom).
constexpr int kBondRowLanes = 8;

// Each bond is finished once, from the row of its lower index, for both of
// its entries: one bond order prime, and the mirror's record from x_i - x_j
// (negation is exact), as the host driver writes them.
template <int L>
__global__ void __launch_bounds__(kAtomBlock)
    k_pair_lists_finish(const StepView v, unsigned long long *totals) {
  const LaneGroup<L> g;
  const long long row = g.row();
  if (row >= v.atoms.n_total) return;
  const int i = static_cast<int>(row);
  const AtomsView &a = v.atoms;
  const BondList &B = v.bonds;
  const double bo_cut = v.control.bo_cut;
  double own_total = 0.0;  // this lane's share of row i's BO' total
  for (int e = B.start[i] + g.lane; e < B.end[i]; e += L) {
    const int j = B.nbr[e];
    if (j < i) continue;  // finished from row j
    const int ti = a.type[i], tj = a.type[j];
    const PairGeometry geo = pair_geometry(a.x[i], a.x[j]);  // x_j - x_i
    const TwoBodyParams &t = v.ff.two(ti, tj);
    const BondOrderPrime prime = bond_order_prime(v.ff.sbp[ti], v.ff.sbp[tj], t, geo.d, bo_cut);
    BondOrder bo;  // the same record in both rows
    init_bond_order(prime, t, geo.d, bo_cut, bo);
    B.d[e] = geo.d;
    B.dvec[e] = geo.dvec;
    B.bo[e] = bo;
    // the bond order's pass 1 (bond_order_prime_atom): BO' into both totals
    own_total += bo.BO;
    atomicAdd(&v.ws.bo_prime_total[j], bo.BO);
    const int mirror = find_in_row(B.nbr, B.start[j], B.end[j], i);
    B.sym[e] = mirror;
    if (mirror < 0) {
      atomicOr(&totals[kListErrors], 1ull);
      continue;
    }
    B.sym[mirror] = e;
    B.d[mirror] = geo.d;
    B.dvec[mirror] = -geo.dvec;
    B.bo[mirror] = bo;
  }
  const double row_total = g.sum(own_total);  // whole groups take the loop above
  if (g.lane == 0 && row_total != 0.0) atomicAdd(&v.ws.bo_prime_total[i], row_total);
}

__global__ void __launch_bounds__(kAtomBlock)
    k_three_body_count(const StepView v, int *count, unsigned long long *totals) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 0;
  if (j < v.atoms.n_total) n = three_body_count_atom(j, v, count);
  warp_add_total(&totals[kTotalThb], static_cast<unsigned long long>(n));
}

// three_body_fill_atom with a group of L lanes per centre j.
template <int L>
__global__ void __launch_bounds__(kAtomBlock) k_three_body_fill(const StepView v) {
  const LaneGroup<L> g;
  const long long row = g.row();
  if (row < v.atoms.n_total) three_body_fill_atom(static_cast<int>(row), v, g);
}

}  // namespace

void build_bond_and_hbond_lists(CudaContext &c) {
  const int n = c.n_total;
  cudaStream_t st = c.stream;
  const CudaContext::PairRows rows = c.near_rows();
  const unsigned row_grid = blocks_for(static_cast<long long>(n) * c.lanes.lists, kAtomBlock);
  const auto count = [&] {  // counts by atomics: zeroed first
    PMD_CUDA_CHECK(cudaMemsetAsync(c.bond_count.data(), 0, (n + 1) * sizeof(int), st));
    PMD_CUDA_CHECK(cudaMemsetAsync(c.hb_count.data(), 0, (n + 1) * sizeof(int), st));
    c.totals.clear(c.stream, kListErrors);
    c.pair_flags.reserve_discarding(std::max<size_t>(rows.total, 1), kGrowHeadroom);
    dispatch_lanes(c.lanes.lists, [&](auto l) {
      k_pair_lists_count<decltype(l)::value>
          <<<row_grid, kAtomBlock, 0, st>>>(c.view(), rows, c.pair_flags.data(),
                                            c.bond_count.data(), c.hb_count.data(), c.totals.all());
    });
    PMD_CUDA_CHECK_LAUNCH("k_pair_lists_count", st);
  };
  const auto grow = [&](const auto &total) {
    grow_entries(total[0], c.bond_nbr, c.bond_row, c.bond_sym, c.bond_d, c.bond_dvec, c.bond_bo);
    grow_entries(total[1], c.hb_nbr);
  };
  // cursors start at the row starts; fill, sort rows, finish entries
  const auto fill = [&](const auto &) {
    PMD_CUDA_CHECK(cudaMemcpyAsync(c.bond_end.data(), c.bond_start.data(), n * sizeof(int),
                                   cudaMemcpyDeviceToDevice, st));
    PMD_CUDA_CHECK(cudaMemcpyAsync(c.hb_end.data(), c.hb_start.data(), n * sizeof(int),
                                   cudaMemcpyDeviceToDevice, st));
    const StepView v = c.view();
    dispatch_lanes(c.lanes.lists, [&](auto l) {
      k_pair_lists_fill<decltype(l)::value>
          <<<row_grid, kAtomBlock, 0, st>>>(v, rows, c.pair_flags.data(), c.bond_row.data());
    });
    PMD_CUDA_CHECK_LAUNCH("k_pair_lists_fill", st);
    k_pair_lists_sort<<<blocks_for(static_cast<long long>(n) * 32, kAtomBlock), kAtomBlock, 0,
                        st>>>(v);
    PMD_CUDA_CHECK_LAUNCH("k_pair_lists_sort", st);
    const unsigned bond_grid = blocks_for(static_cast<long long>(n) * kBondRowLanes, kAtomBlock);
    k_pair_lists_finish<kBondRowLanes><<<bond_grid, kAtomBlock, 0, st>>>(v, c.totals.all());
    PMD_CUDA_CHECK_LAUNCH("k_pair_lists_finish", st);
  };
  static_assert(kTotalHbond == kTotalBond + 1, "the two lists' totals are read back together");
  const auto totals =
      build_lists<2>(c, n, kTotalBond,
                     {ListRows{&c.bond_count, &c.bond_start, &c.bond_end, "bond-list"},
                      ListRows{&c.hb_count, &c.hb_start, &c.hb_end, "hydrogen-bond-list"}},
                     count, grow, fill);
  c.bond_total = totals[0];
  c.hb_total = totals[1];
}

// Rows are bond entries. The bond finish kernel's error flag (kListErrors,
// beside kTotalThb) comes back with the total.
void build_three_body_list(CudaContext &c) {
  const int n = c.n_total;
  const size_t nb = c.bond_total;
  cudaStream_t st = c.stream;
  const auto count = [&] {
    PMD_CUDA_CHECK(cudaMemsetAsync(c.thb_count.data(), 0, (nb + 1) * sizeof(int), st));
    k_three_body_count<<<blocks_for(n, kAtomBlock), kAtomBlock, 0, st>>>(
        c.view(), c.thb_count.data(), c.totals.all());
    PMD_CUDA_CHECK_LAUNCH("k_three_body_count", st);
  };
  const auto grow = [&](const auto &total) {
    if (c.totals[kListErrors])
      throw RuntimeError(
          "CUDA driver: internal error: a bond has no mirror entry in its partner's row (bond "
          "list inconsistent); rerun with REAXFF_GPU_DEBUG=1 and report it");
    grow_entries(total[0], c.thb_k, c.thb_pthb, c.thb_theta, c.thb_cos);
  };
  const auto fill = [&](const auto &) {
    k_three_body_fill<kBondRowLanes>
        <<<blocks_for(static_cast<long long>(n) * kBondRowLanes, kAtomBlock), kAtomBlock, 0, st>>>(
            c.view());
    PMD_CUDA_CHECK_LAUNCH("k_three_body_fill", st);
  };
  static_assert(kListErrors == kTotalThb + 1, "the error flag is read back with the total");
  c.thb_total =
      build_lists<1>(c, static_cast<int>(nb), kTotalThb,
                     {ListRows{&c.thb_count, &c.thb_start, &c.thb_end, "three-body-list"}}, count,
                     grow, fill, /*read_extra=*/1)[0];
  if (debug_mode())
    std::fprintf(stderr,
                 "[reaxff/gpu] lists: %zu bond entries, %zu hbond entries, %zu three-body\n",
                 c.bond_total, c.hb_total, c.thb_total);
}

}  // namespace puremd::cuda
