// Sums over the rows of the CUDA QEq solver in two steps, each in a fixed
// order (the same result on every run): block partial sums written by a row
// kernel, then finished by one block.
#pragma once

#include <cub/block/block_reduce.cuh>

#include "cuda/qeq_cuda_solver.h"

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

}  // namespace puremd::cuda
