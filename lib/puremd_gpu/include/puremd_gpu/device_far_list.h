// The CUDA driver's far-neighbour list of the current step, as device
// pointers, lent to the CUDA QEq solver so that the QEq matrix is assembled
// from the same pairs as the force computation (fix qeq/reaxff/gpu runs
// before pair_style reaxff/gpu in a step, so the engine builds the list
// early: Engine::prepare_far_list).
//
// Half list: row i holds partners j > i in [start[i], end[i]), with the
// distance d and x_j - x_i. Owned rows (i < n_local) hold every partner of
// a ReaxFF type within cut_local; ghost rows are shorter and not for QEq.
#pragma once

#include "puremd_gpu/hd.h"

namespace puremd {

struct DeviceFarList {
  int n_local = 0, n_total = 0;
  double cut_local = 0.0;
  const int *start = nullptr, *end = nullptr, *nbr = nullptr;
  const double *d = nullptr;
  const vec3 *dvec = nullptr;
};

}  // namespace puremd
