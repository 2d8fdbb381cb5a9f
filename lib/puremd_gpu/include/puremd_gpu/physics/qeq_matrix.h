// Elements of the charge-equilibration (QEq) matrix H of ReaxFF.
//
//   H_ii = eta_i
//   H_ij = k_C * Tap(r_ij) / (r_ij^3 + shield_ij)^(1/3),  shield_ij = (gamma_i gamma_j)^(-3/2)
//
// with k_C = 14.4 eV A / e^2 (Coulomb's constant in the units of the QEq
// parameters chi and eta, eV) and Tap the 7th-order taper (physics/taper.h)
// between the QEq inner and outer radii. The same functions run
// on the host (reference solver) and on the device (CUDA solver). A solver
// that keeps a pair with a ghost in one sub-domain only keeps it where
// ghost_pair_is_mine says (physics/pair_ownership.h); the host solver keeps
// it in the owned row of both.
#pragma once

#include "puremd_gpu/atom_input.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/physics/pair_ownership.h"
#include "puremd_gpu/physics/taper.h"

namespace puremd {

// Coulomb constant as fix qeq/reaxff uses it: e^2 / (4 pi eps0) in eV * A.
constexpr double kQEqCoulomb = 14.4;

// Value of the taper (physics/taper.h) at r; QEq needs no derivative.
PMD_HD PMD_INLINE double qeq_taper_value(const Taper &tap, double r) {
  double v = tap.c[7];
  for (int k = 6; k >= 0; --k) v = v * r + tap.c[k];
  return v;
}

// Shielding constant of an atom pair from the QEq gamma of each atom.
PMD_HD PMD_INLINE double qeq_shielding(double gamma_i, double gamma_j) {
  return pow(gamma_i * gamma_j, -1.5);
}

// Off-diagonal element for a pair at distance r with shielding constant shield
// (see qeq_shielding) and the taper of the QEq cut-offs (make_taper(cut_lo,
// cut_hi)), in eV per e^2. Pairs beyond the outer radius are not part of the
// matrix; the caller filters them out.
PMD_HD PMD_INLINE double qeq_offdiag(double r, double shield, const Taper &tap) {
  return kQEqCoulomb * qeq_taper_value(tap, r) / cbrt(r * r * r + shield);
}

// Atom i takes part in QEq: it is in the group (active[i] & bits nonzero,
// LAMMPS's mask and group bit; every atom without flags) and, given the pair
// style's type map, of a type mapped to an element. Atoms of a type mapped to
// NULL in pair_coeff (pair_style hybrid) are neither rows nor partners, as
// with fix qeq/reaxff, whose neighbour list (the pair style's) leaves them out.
PMD_HD PMD_INLINE bool qeq_takes_part(const int *active, int bits, const int *type,
                                      const int *type_map, int num_mapped, int i) {
  if (active && (active[i] & bits) == 0) return false;
  return !type_map || !type || mapped_element(type_map, num_mapped, type[i]) >= 0;
}

// An owned atom of the group can be a row of H: it has parameters (its type
// p = type[i] below num_types, or its own index i for per-atom parameters)
// and a positive hardness eta[p], the diagonal.
PMD_HD PMD_INLINE bool qeq_row_parameters_ok(const int *type, int num_types, const double *eta,
                                             int i) {
  const int p = type ? type[i] : i;
  if (type && (p < 0 || p >= num_types)) return false;
  return eta[p] > 0.0;
}

}  // namespace puremd
