// The loop every CUDA Krylov solver runs where its scalars stay on the GPU
// (QEq's CG, ACKS2's BiCGStab): iterations are queued without waiting, and
// the host asks "stopped?" once a batch. An iteration queued after the
// solver stopped does nothing (its kernels read the stop first), so a batch
// too long costs launches, one too short a round trip.
//
// The batch rule: the first batch as long as the last solve took, less one
// (consecutive solves take about as many iterations, and a solve rarely
// needs fewer), then two at a time, so that few iterations are queued for
// nothing and few probes wait on the GPU.
#pragma once

#include <algorithm>

namespace puremd {

// The first batch after a solve that took `last_iterations` (0: none yet).
inline int first_iteration_batch(int last_iterations) { return std::max(1, last_iterations - 1); }
// Each batch after a probe that found the solver running.
constexpr int kNextIterationBatch = 2;

// queue(k) queues iteration k (from 0); stopped() waits for what is queued
// and says whether the solver stopped. Returns the iterations queued.
template <class Queue, class Stopped>
int run_iterations_in_batches(int last_iterations, Queue &&queue, Stopped &&stopped) {
  int queued = 0;
  for (int batch = first_iteration_batch(last_iterations);; batch = kNextIterationBatch) {
    for (int k = 0; k < batch; ++k) queue(queued++);
    if (stopped()) return queued;
  }
}

}  // namespace puremd
