// QTPIE (charge transfer with polarization current equalization, Chen and
// Martinez 2007), as LAMMPS's fix qtpie/reaxff takes it: before the QEq
// solve, each atom's electronegativity is replaced by an overlap-weighted
// mean of its differences to its neighbours',
//   chi_eff_i = sum_j (chi_i - chi_j + phi_i - phi_j) S_ij / sum_j S_ij,
// over every atom j within the overlap cut-off (i itself, owned atoms and
// ghosts alike, inside or outside the charge group), S_ij the overlap of two
// normalised 1s Gaussian orbitals with the exponents of i's and j's types and
// phi an external potential (fix efield), 0 without one.
#pragma once

#include <cmath>

#include "puremd_gpu/hd.h"

namespace puremd {

// Angstrom -> Bohr, as fix qtpie/reaxff converts distances.
constexpr double kBohrPerAngstrom = 1.8897261259;
// Overlaps below 10^-kQtpieOverlapDigits are neglected (fix qtpie/reaxff's olap_cut).
constexpr int kQtpieOverlapDigits = 10;

// Overlap of normalised 1s Gaussians exp(-a r^2), exp(-b r^2) (a, b in
// 1/Bohr^2) whose centres are r_bohr apart.
PMD_HD PMD_INLINE double qtpie_overlap(double a, double b, double r_bohr) {
  const double p = a + b;
  const double m = a * b / p;
  return pow(4.0 * m / p, 0.75) * exp(-m * r_bohr * r_bohr);
}

// Distance (Bohr) beyond which overlaps of the most diffuse orbital (the
// smallest exponent) fall below 10^-kQtpieOverlapDigits.
inline double qtpie_cutoff_bohr(double smallest_exponent) {
  return std::sqrt(2.0 * kQtpieOverlapDigits / smallest_exponent * std::log(10.0));
}

// The two sums of chi_eff for one atom i, partner by partner.
struct QtpieSums {
  double num = 0.0, den = 0.0;
};

// Partner j at distance r_A (A) of i: counted when within cut_bohr (i itself
// at r = 0 too, with S = 1). chi_diff = chi_i - chi_j + phi_i - phi_j.
PMD_HD PMD_INLINE void qtpie_add(QtpieSums &s, double a, double b, double r_A, double cut_bohr,
                                 double chi_diff) {
  const double r = r_A * kBohrPerAngstrom;
  if (!(r < cut_bohr)) return;
  const double overlap = qtpie_overlap(a, b, r);
  s.num += chi_diff * overlap;
  s.den += overlap;
}

PMD_HD PMD_INLINE double qtpie_chi_eff(const QtpieSums &s) { return s.num / s.den; }

}  // namespace puremd
