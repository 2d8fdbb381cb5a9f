// The two ceilings behind bench/README's floors, measured on the GPU at hand:
// device memory bandwidth (a large device-to-device copy, bytes read plus
// bytes written) and the FP64 rate (independent fused multiply-adds, 2 flops
// each). Median of 5 timed repeats after a warm-up, CUDA events.
// Build: nvcc -O3 -arch=sm_90 bench/floor_probe.cu -o floor_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

constexpr int kChains = 8;  // independent FMA chains per thread
constexpr int kIters = 4096;

__global__ void k_fma(double *out, double a, double b) {
  double v[kChains];
  for (int c = 0; c < kChains; ++c) v[c] = threadIdx.x * 1e-9 + c;
  for (int it = 0; it < kIters; ++it)
#pragma unroll
    for (int c = 0; c < kChains; ++c) v[c] = fma(v[c], a, b);
  double s = 0;
  for (int c = 0; c < kChains; ++c) s += v[c];
  if (s == 12345.678) out[0] = s;  // keeps the work, never true
}

template <class F>
float median_ms(F &&f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();  // warm-up
  std::vector<float> t;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

int main() {
  const size_t bytes = size_t(4) << 30;
  void *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, bytes));
  CHECK(cudaMalloc(&dst, bytes));
  CHECK(cudaMemset(src, 1, bytes));
  const float copy_ms = median_ms([&] { cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice); });
  CHECK(cudaGetLastError());
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = p.multiProcessorCount * 16, threads = 256;
  double *out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(double)));
  const float fma_ms = median_ms([&] { k_fma<<<blocks, threads>>>(out, 0.999999, 1e-7); });
  CHECK(cudaGetLastError());
  const double flops = 2.0 * kChains * kIters * double(blocks) * threads;
  std::printf("floor probe on %s: copy %.2f TB/s (read + write), FP64 FMA %.1f TFLOP/s\n", p.name,
              2.0 * bytes / (copy_ms * 1e-3) / 1e12, flops / (fma_ms * 1e-3) / 1e12);
  return 0;
}
