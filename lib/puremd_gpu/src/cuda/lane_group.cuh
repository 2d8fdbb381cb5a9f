// A group of L consecutive lanes of a warp (L = 1, 2, 4, 8, 16 or 32) that
// share one row of a list: lane k takes entries k, k + L, k + 2L, ... The
// paper's "several threads per atom", for rows long enough to pay for it.
// Every lane of a group must make the same calls in the same order (the
// loops over a row are uniform within the group); groups of one warp may
// diverge from each other, since the masks name only the group's lanes.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

namespace puremd::cuda {

template <int L>
struct LaneGroup {
  static_assert(L >= 1 && L <= 32 && (L & (L - 1)) == 0, "lanes per group: a power of two <= 32");
  static constexpr int kSize = L;
  int lane;       // 0 .. L-1 within the group
  int warp_lane;  // 0 .. 31 within the warp
  unsigned mask;  // the group's lanes

  __device__ LaneGroup() {
    warp_lane = static_cast<int>(threadIdx.x & 31u);
    lane = warp_lane & (L - 1);
    mask = L == 32 ? 0xffffffffu : ((1u << L) - 1u) << (warp_lane & ~(L - 1));
  }

  // Which row this group takes: the launch's groups number the rows 0, 1, ...
  __device__ static long long row() {
    return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / L;
  }

  // Sum over the group (int or double); the total is valid in lane 0.
  template <class T>
  __device__ T sum(T x) const {
    for (int off = L / 2; off > 0; off >>= 1) x += __shfl_down_sync(mask, x, off, L);
    return x;
  }

  // Sum every double of a plain struct of doubles; valid in lane 0.
  template <class Sums>
  __device__ void sum_all(Sums &s) const {
    static_assert(std::is_trivially_copyable_v<Sums> && sizeof(Sums) % sizeof(double) == 0,
                  "row sums must be plain doubles");
    double *d = reinterpret_cast<double *>(&s);
    for (int k = 0; k < static_cast<int>(sizeof(Sums) / sizeof(double)); ++k) d[k] = sum(d[k]);
  }

  // Order-keeping compaction: among the group's lanes with `keep` set, how
  // many come before this lane; `kept` = how many in all.
  __device__ int rank(bool keep, int &kept) const {
    const unsigned b = __ballot_sync(mask, keep);
    kept = __popc(b);
    return __popc(b & ((1u << warp_lane) - 1u));
  }

  // Exclusive prefix sum over the group's lanes (int); `total` = the group's sum,
  // in every lane.
  __device__ int prefix(int x, int &total) const {
    int incl = x;
    for (int off = 1; off < L; off <<= 1) {
      const int y = __shfl_up_sync(mask, incl, off, L);
      if (lane >= off) incl += y;
    }
    total = __shfl_sync(mask, incl, L - 1, L);
    return incl - x;
  }

  // What the group's lanes wrote before this is visible to all of them after.
  __device__ void sync() const { __syncwarp(mask); }
};

}  // namespace puremd::cuda
namespace puremd::cuda {

// Calls f(std::integral_constant<int, L>{}) for lanes == L, so that a host
// function can launch the kernel instantiated for a lane count chosen at run
// time (ThreadMapping).
template <class F>
void dispatch_lanes(int lanes, F &&f) {
  switch (lanes) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 2:
      f(std::integral_constant<int, 2>{});
      break;
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    case 8:
      f(std::integral_constant<int, 8>{});
      break;
    case 16:
      f(std::integral_constant<int, 16>{});
      break;
    default:
      f(std::integral_constant<int, 32>{});
      break;  // ThreadMapping allows no other value
  }
}

}  // namespace puremd::cuda
