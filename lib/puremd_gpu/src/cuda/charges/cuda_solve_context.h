// What a charge model's CUDA implementation (cuda_charge_model.h) sees of the
// solve in progress: the solver (qeq_cuda_solver.h) lends itself through this
// interface only, so that a model neither includes the solver nor reaches
// its arrays except as the views CudaSolveParts gives.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/device_buffer.h"
#include "cuda/engine_atoms.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

class CudaSolveContext {
 public:
  virtual ~CudaSolveContext() = default;

  // --- What every model may read: the solver's stream, the engine's atoms
  // and far list, the QEq parameters on the GPU (after the solver's setup)
  virtual cudaStream_t stream() const = 0;
  virtual const EngineAtoms &atoms() const = 0;
  virtual const ParamArgs &params() const = 0;
  // the caller's array up, into a model's own device array (on the stream)
  template <class T>
  void upload(DeviceArray<T> &dst, const T *src, std::size_t n) {
    dst.reserve_discarding(n, kGrowHeadroom);
    if (n > 0)
      PMD_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, n * sizeof(T), kCallerCopy, stream()));
  }

  // --- What a model that solves a system of its own uses (ACKS2): the
  // solve's parts, and the steps it shares with QEq's CG
  virtual CudaSolveParts parts() = 0;
  // blocks of a row kernel with partial sums
  virtual unsigned reduce_blocks() const = 0;
  // finishes the block partial sums of the last row kernel, nc sums home
  virtual void finish_sums(unsigned nblocks, int nc, double *out) = 0;
  // the owner -> images map of ghost rows to fold (none: nothing to fold)
  virtual ImageMap image_map() const = 0;
  // that map from per-row counts (a model's own rows), for the ghost rows
  // that have entries
  virtual void build_image_map(const int *row_counts) = 0;
  // several ranks: ghost values of v from the atoms they are images of,
  // through the halo (one rank: nothing, the product gathers)
  virtual void forward_halo(double2 *v, QEqComm &comm) = 0;
  // which peers the halo reached by copy and by MPI
  virtual void note_halo(QEqResult &res) const = 0;
  // A per-atom result: the caller's array (n_total) and its GPU copy.
  struct ResultHome {
    double *host;
    DeviceArray<double> *dev;
  };
  // the results into the caller's arrays; set_rows writes the rows' values
  // on the GPU
  virtual void results_home(const ResultHome *out, int count, QEqComm &comm,
                            const std::function<void()> &set_rows) = 0;
};

}  // namespace puremd::cuda
