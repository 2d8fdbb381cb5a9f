// Which sub-domain counts a pair of an owned atom i with a ghost j. Each such
// pair is seen twice over all sub-domains (i with an image of j, j with an
// image of i); the copy in the row of the smaller tag counts. A pair of an
// atom with its own periodic image (equal tags) counts when the image lies
// "above": x_j - x_i points up in z, then y, then x, beyond kPairTieTolerance.
// This is the rule of LAMMPS's pair_style reaxff and fix qeq/reaxff; the
// nonbonded terms and the QEq matrix (host and CUDA solvers) all use it.
#pragma once

#include "puremd_gpu/hd.h"

namespace puremd {

constexpr double kPairTieTolerance = 1.0e-4;  // A

// d = x_j - x_i for owned i and ghost j.
PMD_HD PMD_INLINE bool ghost_pair_is_mine(long long tag_i, long long tag_j, vec3 d) {
  if (tag_i != tag_j) return tag_i < tag_j;
  const double eps = kPairTieTolerance;
  if (d.z > eps) return true;
  if (fabs(d.z) >= eps) return false;
  if (d.y > eps) return true;
  if (fabs(d.y) >= eps) return false;
  return d.x > eps;
}

}  // namespace puremd
