// CUB's device-wide calls in their two-call form (size the temporary
// storage, then run), with the temporary storage in one growing array of
// the caller's, on the caller's stream. Every CUDA stage sorts through here.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "cuda/device_buffer.h"

namespace puremd::cuda {

// (keys, values) sorted by the low end_bit bits of the keys, stably.
template <class K, class V>
void sort_pairs(DeviceArray<unsigned char> &temp, const K *keys_in, K *keys_out, const V *vals_in,
                V *vals_out, int n, int end_bit, cudaStream_t stream) {
  size_t bytes = 0;
  PMD_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in,
                                                 vals_out, n, 0, end_bit, stream));
  temp.reserve_discarding(bytes, kGrowHeadroom);
  PMD_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, keys_in, keys_out, vals_in,
                                                 vals_out, n, 0, end_bit, stream));
}

// out[i] = in[0] + ... + in[i-1] over n entries (out[0] = 0), summed in
// Out (int counts into 64-bit row starts: ListPos).
template <class In, class Out>
void exclusive_sum(DeviceArray<unsigned char> &temp, const In *in, Out *out, int n,
                   cudaStream_t stream) {
  size_t bytes = 0;
  const Out zero{};
  PMD_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, bytes, in, out, ::cuda::std::plus<>{},
                                                zero, n, stream));
  temp.reserve_discarding(bytes, kGrowHeadroom);
  PMD_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(temp.data(), bytes, in, out, ::cuda::std::plus<>{},
                                                zero, n, stream));
}

}  // namespace puremd::cuda
