// Sums over the rows of the CUDA QEq solver in two steps, each in a fixed
// order (the same result on every run): block partial sums written by a row
// kernel, then finished by one block; and the fold of ghost rows into their
// owners, also in a fixed order.
#pragma once

#include <cub/block/block_reduce.cuh>

#include "cuda/charges/qeq_cuda_types.h"

namespace puremd::cuda {

// Block sum of NC values per thread into partial[c * gridDim.x + blockIdx.x].
template <int NC>
__device__ __forceinline__ void qeq_block_partials(const double (&v)[NC], double *partial) {
  using Reduce = cub::BlockReduce<double, kQEqBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < NC; ++c) {
    const double s = Reduce(tmp).Sum(v[c]);
    if (threadIdx.x == 0) partial[c * gridDim.x + blockIdx.x] = s;
    __syncthreads();
  }
}

// out[c] = sum over b of partial[c * nblocks + b]; valid in thread 0 of the
// one block that runs it.
template <int NC>
__device__ __forceinline__ void qeq_finish_partials(const double *partial, int nblocks,
                                                    double (&out)[NC]) {
  using Reduce = cub::BlockReduce<double, kQEqBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (int c = 0; c < NC; ++c) {
    double s = 0.0;
    for (int b = threadIdx.x; b < nblocks; b += kQEqBlock) s += partial[c * nblocks + b];
    out[c] = Reduce(tmp).Sum(s);
    __syncthreads();
  }
}

// w[i] plus what its images' rows got (a local fold, no communication),
// stored back: ghost rows folded into their owner, in the map's fixed order.
__device__ __forceinline__ double2 qeq_fold(int i, double2 *w, const ImageMap &m) {
  double2 wi = w[i];
  if (m.start) {
    const int e = m.end[i];
    for (int p = m.start[i]; p < e; ++p) {
      const double2 wg = w[m.idx[p]];
      wi.x += wg.x;
      wi.y += wg.y;
    }
    w[i] = wi;
  }
  return wi;
}

// y_j += (s, t) by atomic adds: the products that add a transpose (each
// pair stored or evaluated once: QEqMatrix::Half, Free), whose adds come in a
// run-dependent order.
__device__ __forceinline__ void qeq_atomic_add(double2 *y, int j, double s, double t) {
  atomicAdd(&y[j].x, s);
  atomicAdd(&y[j].y, t);
}

}  // namespace puremd::cuda
