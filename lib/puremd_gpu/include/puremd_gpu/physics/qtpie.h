// Electronegativities from Gaussian-orbital overlaps, as LAMMPS's fix
// qtpie/reaxff and fix qeq/rel/reaxff take them before the QEq solve. Each
// atom's electronegativity is replaced by chi_eff, from weights w_ij summed
// over every atom j within the overlap cut-off (i itself, owned atoms and
// ghosts alike, inside or outside the charge group), S_ij the overlap of two
// normalised 1s Gaussian orbitals with the exponents of i's and j's types, phi
// an external potential (fix efield; 0 without one) and s the fixes' `scale`
// (1 by default):
//  - QTPIE (charge transfer with polarization current equalization, Chen and
//    Martinez 2007): chi_eff_i = sum_j w_ij S_ij / sum_j S_ij with
//    w_ij = chi_i - chi_j + s (phi_i - phi_j);
//  - QEqR (Lalli et al.): the potential relative to its overlap-weighted mean,
//    chi_eff_i = chi_i + s (phi_i - sum_j phi_j S_ij / sum_j S_ij), so only
//    differences of the potential enter and a field may point along a
//    periodic direction (w_ij = phi_j).
#pragma once

#include <cmath>

#include "puremd_gpu/charge_model.h"
#include "puremd_gpu/errors.h"
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

// Which chi_eff the overlaps give (see the top of this file).
enum class OverlapModel { Qtpie, Relative };

// What an atom brings to the sums: its electronegativity and the potential at it.
struct OverlapSite {
  double chi = 0.0, phi = 0.0;
};

// The two sums of chi_eff for one atom i, partner by partner.
struct QtpieSums {
  double num = 0.0, den = 0.0;
};

// w_ij of partner j of atom i (j == i for the self term), written as the
// LAMMPS fixes write it.
PMD_HD PMD_INLINE double overlap_weight(OverlapModel model, double scale, const OverlapSite &i,
                                        const OverlapSite &j) {
  if (model == OverlapModel::Relative) return j.phi;
  return i.chi - j.chi + scale * (i.phi - j.phi);
}

// Partner j at distance r_A (A) of i: counted when within cut_bohr (i itself
// at r = 0 too, with S = 1), with weight w_ij.
PMD_HD PMD_INLINE void qtpie_add(QtpieSums &s, double a, double b, double r_A, double cut_bohr,
                                 double weight) {
  const double r = r_A * kBohrPerAngstrom;
  if (!(r < cut_bohr)) return;
  const double overlap = qtpie_overlap(a, b, r);
  s.num += weight * overlap;
  s.den += overlap;
}

PMD_HD PMD_INLINE double qtpie_chi_eff(OverlapModel model, double scale, const QtpieSums &s,
                                       const OverlapSite &i) {
  if (model == OverlapModel::Relative) return i.chi + scale * (i.phi - s.num / s.den);
  return s.num / s.den;
}

// QTPIE's or QEqR's electronegativities instead of QEq's (QEqProblem::model):
// the owned atoms' chi become chi_eff from the Gaussian-orbital overlaps with
// every atom within `cutoff`, ghosts included (so the ghosts must reach that far).
struct QtpieInput final : ChargeModelInput {
  OverlapModel model = OverlapModel::Qtpie;
  // Orbital exponent (1/Bohr^2) per type (QEqInput::type given) or per atom.
  const double *exponent = nullptr;
  // Optional, n_total entries: an external potential (eV) at every atom,
  // owned and ghost (fix efield's field at the atom's coordinates).
  const double *phi = nullptr;
  double phi_scale = 1.0;    // s of physics/qtpie.h (the fixes' `scale`)
  double cutoff_bohr = 0.0;  // qtpie_cutoff_bohr of the smallest exponent in use

  const char *name() const override { return "QTPIE/QEqR"; }
  double reach() const override { return cutoff_bohr / kBohrPerAngstrom; }
  // What both drivers refuse (InputError), given the problem's chi_shift.
  void check(const double *chi_shift) const {
    if (!exponent || !(cutoff_bohr > 0.0))
      throw InputError("QTPIE: orbital exponents and a positive overlap cut-off are required");
    if (chi_shift)
      throw InputError("QTPIE: an external potential goes through QtpieInput::phi, not chi_shift");
  }
};

}  // namespace puremd
