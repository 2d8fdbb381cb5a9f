// What the analysis styles read of the last step (fix reaxff/bonds, fix
// reaxff/species, compute reaxff/atom), made on the GPU when the adapter asks
// for it, and only then: the whole bond table, the per-atom table, and the
// compact rows fix reaxff/species and fix reaxff/bonds read
// (common/analysis_rows.h).
#include <algorithm>
#include <string>
#include <vector>

#include "common/analysis_rows.h"
#include "cuda/cuda_engine.h"
#include "cuda/kernel_utils.cuh"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {
namespace {

__global__ void __launch_bounds__(kReduceBlock)
    k_extract_bond_orders(const BondOrder *bo, int n, double *out) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) out[e] = bo[e].BO;
}

// Fill = false: count[i] (count[n] = 0, for the scan); Fill = true: the rows
// from start[i].
template <bool Fill>
__global__ void __launch_bounds__(kAtomBlock)
    k_bond_rows(BondRowRule rule, const BondList b, int n, double cut, int *count, const int *start,
                int *nbr, double *bo) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  if (!Fill) {
    count[i] = i < n ? bond_row(rule, b, i, cut, 0, nullptr, nullptr) : 0;
  } else if (i < n) {
    const int s = start[i];
    bond_row(rule, b, i, cut, start[i + 1] - s, nbr + s, bo + s);
  }
}

}  // namespace

void CudaEngine::require_complete_step(const char *what) const {
  if (!last_step_complete_)
    throw RuntimeError(std::string("CUDA driver: ") + what +
                       "() needs a completed compute(); the last one failed");
}

void CudaEngine::bond_table(std::vector<int> &row_start, std::vector<BondRecord> &bonds) {
  require_complete_step("bond_table");
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  CudaContext &c = c_;
  const size_t n = static_cast<size_t>(c.n_total), nb = c.bond_total;
  row_start.assign(n + 1, 0);
  bonds.clear();
  if (n == 0) return;
  std::vector<int> nbr(nb);
  std::vector<double> bo(nb);
  c.extract_d.reserve_discarding(nb, kGrowHeadroom);
  if (nb) {
    k_extract_bond_orders<<<blocks_for(static_cast<long long>(nb), kReduceBlock), kReduceBlock, 0,
                            c.stream>>>(c.bond_bo.data(), static_cast<int>(nb), c.extract_d.data());
    PMD_CUDA_CHECK_LAUNCH("k_extract_bond_orders", c.stream);
  }
  PMD_CUDA_CHECK(cudaMemcpyAsync(row_start.data(), c.bond_start.data(), (n + 1) * sizeof(int),
                                 cudaMemcpyDeviceToHost, c.stream));
  if (nb) {
    PMD_CUDA_CHECK(cudaMemcpyAsync(nbr.data(), c.bond_nbr.data(), nb * sizeof(int),
                                   cudaMemcpyDeviceToHost, c.stream));
    PMD_CUDA_CHECK(cudaMemcpyAsync(bo.data(), c.extract_d.data(), nb * sizeof(double),
                                   cudaMemcpyDeviceToHost, c.stream));
  }
  PMD_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  bonds.resize(nb);
  for (size_t e = 0; e < nb; ++e) bonds[e] = BondRecord{nbr[e], bo[e]};
}

void CudaEngine::atom_table(std::vector<double> &total_bo, std::vector<double> &nlp) {
  require_complete_step("atom_table");
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  CudaContext &c = c_;
  const size_t n = static_cast<size_t>(c.n_total);
  total_bo.assign(n, 0.0);
  nlp.assign(n, 0.0);
  if (n == 0) return;
  const StepView v = c.view();
  PMD_CUDA_CHECK(cudaMemcpyAsync(total_bo.data(), v.ws.total_bond_order, n * sizeof(double),
                                 cudaMemcpyDeviceToHost, c.stream));
  PMD_CUDA_CHECK(
      cudaMemcpyAsync(nlp.data(), v.ws.nlp, n * sizeof(double), cudaMemcpyDeviceToHost, c.stream));
  PMD_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

// Count, scan, fill on the GPU; the host gets the row starts and the rows.
void CudaEngine::bond_rows(BondRowRule rule, double cut, BondRows &out) {
  require_complete_step("bond_rows");
  PMD_CUDA_CHECK(cudaSetDevice(device_));
  CudaContext &c = c_;
  const int n = c.n_local;
  out.start.assign(static_cast<size_t>(n) + 1, 0);
  out.widest = 0;
  out.partner.clear();
  out.bo.clear();
  if (n == 0) return;
  const StepView v = c.view();
  c.rows_count.reserve_discarding(n + 1, kGrowHeadroom);
  c.rows_start.reserve_discarding(n + 1, kGrowHeadroom);
  const unsigned grid = blocks_for(static_cast<long long>(n) + 1, kAtomBlock);
  k_bond_rows<false><<<grid, kAtomBlock, 0, c.stream>>>(rule, v.bonds, n, cut, c.rows_count.data(),
                                                        nullptr, nullptr, nullptr);
  PMD_CUDA_CHECK_LAUNCH("k_bond_rows<count>", c.stream);
  c.exclusive_scan(c.rows_count.data(), c.rows_start.data(), static_cast<size_t>(n) + 1);
  PMD_CUDA_CHECK(cudaMemcpyAsync(out.start.data(), c.rows_start.data(),
                                 (static_cast<size_t>(n) + 1) * sizeof(int), cudaMemcpyDeviceToHost,
                                 c.stream));
  PMD_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  const size_t total = static_cast<size_t>(out.start[n]);
  for (int i = 0; i < n; ++i) out.widest = std::max(out.widest, out.start[i + 1] - out.start[i]);
  out.partner.resize(total);
  out.bo.resize(total);
  if (total == 0) return;
  c.rows_nbr.reserve_discarding(total, kGrowHeadroom);
  c.rows_bo.reserve_discarding(total, kGrowHeadroom);
  k_bond_rows<true><<<grid, kAtomBlock, 0, c.stream>>>(
      rule, v.bonds, n, cut, nullptr, c.rows_start.data(), c.rows_nbr.data(), c.rows_bo.data());
  PMD_CUDA_CHECK_LAUNCH("k_bond_rows<fill>", c.stream);
  PMD_CUDA_CHECK(cudaMemcpyAsync(out.partner.data(), c.rows_nbr.data(), total * sizeof(int),
                                 cudaMemcpyDeviceToHost, c.stream));
  PMD_CUDA_CHECK(cudaMemcpyAsync(out.bo.data(), c.rows_bo.data(), total * sizeof(double),
                                 cudaMemcpyDeviceToHost, c.stream));
  PMD_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

}  // namespace puremd::cuda
