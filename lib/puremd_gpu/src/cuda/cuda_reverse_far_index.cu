// Reverse index of the list behind the far list (the skin list, or the far
// list itself when there is no skin): for each atom j, the owned rows k < j
// whose row holds j, in ascending k. The CUDA QEq solver reads it to give
// row j its entries (j, k) without searching (DeviceFarList).
//
// Built once per build of that list (every ~skin / 2 of motion), not per
// step: count per target (atomics) -> prefix sum -> fill (atomics, so in
// no particular order) -> each row sorted (CUB segmented sort), which makes
// the order, and so the QEq sums, the same on every run.
#include <cub/device/device_segmented_sort.cuh>
#include <string>

#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"

namespace puremd::cuda {
namespace {

// Entries per target atom over rows [0, n_rows); the grand total too.
template <int L>
__global__ void __launch_bounds__(kAtomBlock)
    reverse_count_kernel(int n_rows, const int *start, const int *end, const int *nbr, int *count,
                         unsigned long long *total) {
  const LaneGroup<L> g;
  const long long k = g.row();
  unsigned long long mine = 0;
  if (k < n_rows) {
    const int e = end[k];
    for (int p = start[k] + g.lane; p < e; p += L) {
      atomicAdd(&count[nbr[p]], 1);
      ++mine;
    }
  }
  warp_add_total(total, mine);
}

template <int L>
__global__ void __launch_bounds__(kAtomBlock)
    reverse_fill_kernel(int n_rows, const int *start, const int *end, const int *nbr, int *cursor,
                        int *out) {
  const LaneGroup<L> g;
  const long long k = g.row();
  if (k >= n_rows) return;
  const int e = end[k];
  for (int p = start[k] + g.lane; p < e; p += L)
    out[atomicAdd(&cursor[nbr[p]], 1)] = static_cast<int>(k);
}

}  // namespace

void update_reverse_far_index(CudaContext &c) {
  if (c.rev_built_for == c.list_builds) return;
  const int n = c.n_total, rows = c.n_local;
  cudaStream_t st = c.stream;
  // the list behind the far list (see update_far_neighbors)
  const bool skin = c.skin_valid;
  const int *start = skin ? c.skin_start.data() : c.far_start.data();
  const int *end = skin ? c.skin_end.data() : c.far_end.data();
  const int *nbr = skin ? c.skin_nbr.data() : c.far_nbr.data();

  c.rev_count.reserve(static_cast<size_t>(n) + 1, kListHeadroom);
  c.rev_start.reserve(static_cast<size_t>(n) + 1, kListHeadroom);
  PMD_CUDA_CHECK(cudaMemsetAsync(c.rev_count.data(), 0, (n + 1) * sizeof(int), st));
  c.clear_totals(kTotalReverse, 1);
  const int lanes = c.lanes.compaction;  // rows as long as the compaction's
  const unsigned blocks = blocks_for(static_cast<long long>(rows) * lanes, kAtomBlock);
  if (rows > 0)
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      reverse_count_kernel<L><<<blocks, kAtomBlock, 0, st>>>(
          rows, start, end, nbr, c.rev_count.data(), c.totals.data() + kTotalReverse);
    });
  PMD_CUDA_CHECK_LAUNCH("reverse_count_kernel", st);
  c.exclusive_scan(c.rev_count.data(), c.rev_start.data(), static_cast<size_t>(n) + 1);
  c.read_totals(kTotalReverse, 1);
  const size_t total = checked_list_total(c.h_totals[kTotalReverse], "reverse far-index", n);
  c.rev_total = total;
  c.rev_row.reserve(total, kListHeadroom);
  c.rev_unsorted.reserve(total, kListHeadroom);

  if (total > 0) {
    PMD_CUDA_CHECK(cudaMemcpyAsync(c.rev_count.data(), c.rev_start.data(), n * sizeof(int),
                                   cudaMemcpyDeviceToDevice, st));  // the fill cursors
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      reverse_fill_kernel<L><<<blocks, kAtomBlock, 0, st>>>(
          rows, start, end, nbr, c.rev_count.data(), c.rev_unsorted.data());
    });
    PMD_CUDA_CHECK_LAUNCH("reverse_fill_kernel", st);
    // Rows sorted between the two buffers: CUB's double-buffer form needs
    // almost no temporary storage, where the copying form needed a third
    // buffer of the index's size (1.5 GB at HNS 16^3, bench/README).
    size_t bytes = 0;
    const int items = static_cast<int>(total);
    cub::DoubleBuffer<int> keys(c.rev_unsorted.data(), c.rev_row.data());
    PMD_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(
        nullptr, bytes, keys, items, n, c.rev_start.data(), c.rev_start.data() + 1, st));
    c.cub_temp.reserve(bytes, kListHeadroom);
    PMD_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(
        c.cub_temp.data(), bytes, keys, items, n, c.rev_start.data(), c.rev_start.data() + 1, st));
    if (keys.Current() != c.rev_row.data())  // once per list build: a copy costs little
      PMD_CUDA_CHECK(cudaMemcpyAsync(c.rev_row.data(), keys.Current(), total * sizeof(int),
                                     cudaMemcpyDeviceToDevice, st));
  }
  c.rev_built_for = c.list_builds;
}

}  // namespace puremd::cuda
