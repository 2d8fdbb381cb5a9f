// The near list: the pairs of the skin list that may become bonds or
// hydrogen-bond partners before the skin list's next build
// (physics/pair_lists.h pair_list_near, margin = skin), in the skin rows'
// order, made at each build of the skin list (cuda_neighbors.cu). The bond
// and hbond-partner lists are looked for among them at every step
// (cuda_lists.cu, CudaContext::near_rows).
#include <algorithm>

#include "cuda/cuda_context.h"
#include "cuda/kernel_utils.cuh"
#include "cuda/lane_group.cuh"
#include "cuda/list_build.h"
#include "puremd_gpu/physics/pair_lists.h"

namespace puremd::cuda {
namespace {

// The near list from the skin list at its build (positions of the build):
// row i keeps the partners pair_list_near accepts with margin = skin, in the
// skin row's order. Fill = false counts (count[i], total), Fill = true writes
// from start[i] and sets end[i]. A group of L lanes per row.
template <int L, bool Fill>
__global__ void __launch_bounds__(kAtomBlock)
    k_near_rows(const StepView v, const ListPos *s_start, const ListPos *s_end, const int *s_nbr,
                double margin, int *count, unsigned long long *total, const ListPos *start,
                ListPos *end, int *nbr) {
  const LaneGroup<L> g;
  const long long row = g.row();
  int w = 0;
  if (row < v.atoms.n_total) {
    const int i = static_cast<int>(row);
    const ListPos w0 = Fill ? start[i] : 0;
    const PairListRow r = pair_list_row(i, v);
    if (r.ti >= 0) {
      const ListPos e = s_end[i];
      for (ListPos base = s_start[i]; base < e; base += L) {
        const ListPos k = base + g.lane;
        int j = -1;
        bool keep = false;
        if (k < e) {
          j = s_nbr[k];
          keep = pair_list_near(r, j, norm2_host_rounding(v.atoms.x[j] - r.xi), margin, v);
        }
        int kept;
        const int rank = g.rank(keep, kept);
        if (Fill && keep) nbr[w0 + w + rank] = j;
        w += kept;
      }
    }
    if (g.lane == 0) {
      if (Fill)
        end[i] = w0 + w;
      else
        count[i] = w;
    }
  }
  if (!Fill) warp_add_total(total, static_cast<unsigned long long>(g.lane == 0 ? w : 0));
}

}  // namespace

// The near list of the skin list just built (list_build.h), once per build
// of the skin list.
void build_near_list(CudaContext &c) {
  const int n = c.n_total;
  cudaStream_t st = c.stream;
  const int lanes = c.lanes.compaction;  // a pass over the skin rows, as the compaction's
  const unsigned blocks = blocks_for(static_cast<long long>(n) * lanes, kAtomBlock);
  const auto count = [&] {
    const StepView v = c.view();
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      k_near_rows<L, false><<<blocks, kAtomBlock, 0, st>>>(
          v, c.skin_start.data(), c.skin_end.data(), c.skin_nbr.data(), c.skin, c.near_count.data(),
          c.totals.at(kTotalNear), nullptr, nullptr, nullptr);
    });
    PMD_CUDA_CHECK_LAUNCH("k_near_rows(count)", st);
  };
  const auto grow = [&](const auto &total) { grow_entries(total[0], c.near_nbr); };
  const auto fill = [&](const auto &) {
    const StepView v = c.view();
    dispatch_lanes(lanes, [&](auto l) {
      constexpr int L = decltype(l)::value;
      k_near_rows<L, true><<<blocks, kAtomBlock, 0, st>>>(
          v, c.skin_start.data(), c.skin_end.data(), c.skin_nbr.data(), c.skin, nullptr, nullptr,
          c.near_start.data(), c.near_end.data(), c.near_nbr.data());
    });
    PMD_CUDA_CHECK_LAUNCH("k_near_rows(fill)", st);
  };
  c.near_total = build_lists<1, ListPos>(
      c, n, kTotalNear, {PairListRows{&c.near_count, &c.near_start, &c.near_end, "near-list"}},
      count, grow, fill)[0];
}

}  // namespace puremd::cuda
