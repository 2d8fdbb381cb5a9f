// The one way the CUDA driver builds a list in rows (CSR): the far, skin,
// near and reverse lists, the bond and hydrogen-bond lists, the three-body
// list (cuda_neighbors.cu, cuda_near_list.cu, cuda_reverse_far_index.cu,
// cuda_lists.cu). The steps, in order:
//   count  the caller's kernels write each row's count (rows 0 .. n-1) and
//          add the list's entries to its total (a TotalSlot, 64-bit);
//   size   row starts by an exclusive sum of n + 1 counts (the extra one is
//          0: start[n] is the total); the totals come back in one copy, one
//          wait however many lists one count made, each of 32-bit rows
//          checked against that index (checked_list_total);
//   grow   the caller reserves the entry arrays for the totals;
//   fill   the caller's kernels write the entries from the row starts.
// A step never overflows a list and is never repeated: everything is sized
// before anything is written. (The QEq solver's lists, on its own stream
// and scratch, are built in charges/qeq_matrix_*.cu.)
//
// A new list: its count and start arrays (and entry arrays) in CudaContext,
// a TotalSlot, a count kernel that adds to the slot, a fill kernel, and one
// build_lists call between them.
#pragma once

#include <array>
#include <cstddef>

#include "cuda/cuda_context.h"

namespace puremd::cuda {

// One list's row index: its rows' counts, starts and, where the fill writes
// them, ends (n + 1 each; end may be null), and its name in messages. Pos:
// ListPos for the pair lists (far, skin, near, reverse), which pass 2^31
// entries on large systems; int for the short ones.
template <class Pos>
struct ListRowsOf {
  DeviceArray<int> *count;
  DeviceArray<Pos> *start, *end;
  const char *what;
};
using ListRows = ListRowsOf<int>;
using PairListRows = ListRowsOf<ListPos>;

// count(), size, grow(totals), fill(totals) for K lists counted together,
// whose totals are the adjacent slots first .. first + K - 1 (cleared here
// before count()). read_extra further slots after them come back in the
// same copy, uncleared (a flag an earlier kernel set); c.totals holds them
// after. Returns the K totals.
template <std::size_t K, class Pos = int, class Count, class Grow, class Fill>
std::array<std::size_t, K> build_lists(CudaContext &c, int n_rows, TotalSlot first,
                                       const std::array<ListRowsOf<Pos>, K> &lists, Count &&count,
                                       Grow &&grow, Fill &&fill, int read_extra = 0) {
  const std::size_t rows = static_cast<std::size_t>(n_rows);
  for (const ListRowsOf<Pos> &l : lists) {
    l.count->reserve_discarding(rows + 1, kGrowHeadroom);
    l.start->reserve_discarding(rows + 1, kGrowHeadroom);
    if (l.end) l.end->reserve_discarding(rows + 1, kGrowHeadroom);
    PMD_CUDA_CHECK(cudaMemsetAsync(l.count->data() + rows, 0, sizeof(int), c.stream));
  }
  c.totals.clear(c.stream, first, static_cast<int>(K));
  count();
  for (const ListRowsOf<Pos> &l : lists)
    c.exclusive_scan(l.count->data(), l.start->data(), rows + 1);
  c.totals.read(c.stream, first, static_cast<int>(K) + read_extra);
  std::array<std::size_t, K> totals{};
  for (std::size_t k = 0; k < K; ++k)
    totals[k] = checked_list_total(c.totals[static_cast<TotalSlot>(first + k)], lists[k].what,
                                   c.n_total, sizeof(Pos) > sizeof(int));
  grow(totals);
  fill(totals);
  return totals;
}

// Entry arrays grown to a list's total (at least one entry: a valid pointer).
template <class... Arrays>
void grow_entries(std::size_t total, Arrays &...arrays) {
  const std::size_t n = total > 0 ? total : 1;
  (arrays.reserve_discarding(n, kGrowHeadroom), ...);
}

}  // namespace puremd::cuda
