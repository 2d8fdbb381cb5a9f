// Reverse index of the list behind the far list (the skin list, or the far
// list itself when there is no skin): for each atom j, the owned rows k < j
// whose row holds j. The CUDA QEq solver reads it to give row j its entries
// (j, k) without searching (engine_atoms.h).
//
// Built once per build of that list (every ~skin / 2 of motion), not per
// step, by the same cell search as the list (cell_search.cuh, LowerOwners):
// count -> prefix sum -> fill, each row in cell order. No atomics and no
// sort, so the order, and with it the QEq sums, is the same on every run.
// (It was a scatter by atomics and a segmented sort of every row: 16 ms per
// build at HNS 8^3, a third of the neighbour phase at 16^3, and a second
// index-sized buffer.)
#include <string>

#include "cuda/cell_search.cuh"
#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/list_build.h"

namespace puremd::cuda {

void update_reverse_far_index(CudaContext &c) {
  if (c.rev_built_for == c.list_builds) return;
  const int n = c.n_total;
  cudaStream_t st = c.stream;
  // the cells and positions of the list's build (see update_far_neighbors)
  const LowerOwners search{c.cells,
                           CellArrays{c.cell_start.data(), c.cell_end.data(), c.cell_atoms.data(),
                                      c.cell_type.data(), c.cell_x.data()},
                           c.skin_valid ? c.skin_x.data() : c.x.data(), c.type.data()};

  const int lanes = c.lanes.neighbors;  // the same search as the list's
  const unsigned blocks = blocks_for(static_cast<long long>(n) * lanes, kAtomBlock);
  const auto count = [&] {
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      k_cell_rows_count<L><<<blocks, kAtomBlock, 0, st>>>(n, search, c.rev_count.data(),
                                                          c.totals.at(kTotalReverse));
    });
    PMD_CUDA_CHECK_LAUNCH("k_cell_rows_count(reverse)", st);
  };
  const auto grow = [&](const auto &total) { grow_entries(total[0], c.rev_row); };
  const auto fill = [&](const auto &total) {
    if (total[0] == 0) return;
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      k_cell_rows_fill<L>
          <<<blocks, kAtomBlock, 0, st>>>(n, search, c.rev_start.data(), nullptr, c.rev_row.data());
    });
    PMD_CUDA_CHECK_LAUNCH("k_cell_rows_fill(reverse)", st);
  };
  c.rev_total = build_lists<1, ListPos>(
      c, n, kTotalReverse, {PairListRows{&c.rev_count, &c.rev_start, nullptr, "reverse far-index"}},
      count, grow, fill)[0];
  c.rev_built_for = c.list_builds;
}

}  // namespace puremd::cuda
