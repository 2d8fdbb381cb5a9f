// ACKS2 (atom-condensed Kohn-Sham DFT approximated to second order, Verstraelen
// et al. 2013), as LAMMPS's fix acks2/reaxff and pair_style reaxff take it: the
// pieces both the charge solve and the pair style need. A pair (i, j) closer
// than bcut_ij = (bcut_acks2_i + bcut_acks2_j) / 2 has the bond softness
//   X_ij = s d^3 (1 - d)^6,  d = r / bcut_ij,  s = general parameter 34,
// an off-diagonal element of the solve's X block (whose diagonal is minus
// each row's sum), and, once the solve has given the atoms' effective
// potentials u, the energy -0.5 * 23.02 X_ij (u_i - u_j)^2 (kcal/mol; ReaxFF
// converts eV with 23.02) that the pair style adds to the Coulomb term.
#pragma once

#include "puremd_gpu/charge_model.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/physics/pair_term.h"

namespace puremd {

// General parameter (0-based) that holds the bond softness s.
constexpr int kAcks2SoftnessParam = 34;

// X_ij at distance r (0 at and beyond bcut) and dX/dr.
struct BondSoftness {
  double x, dx_dr;
};

PMD_HD PMD_INLINE BondSoftness acks2_bond_softness(double r, double bcut, double softness) {
  BondSoftness b{0.0, 0.0};
  if (!(r < bcut)) return b;
  const double d = r / bcut;
  const double omd = 1.0 - d;
  const double omd2 = omd * omd;
  const double omd5 = omd2 * omd2 * omd;
  b.x = softness * d * d * d * omd5 * omd;
  b.dx_dr = softness * 3.0 / bcut * d * d * omd5 * (1.0 - 3.0 * d);
  return b;
}

// The pair's energy from the effective potentials' difference du = u_i - u_j,
// and (dE/dr) / r, as PairTerm. Zero unless X_ij > 0: pair_style reaxff adds
// only pairs of positive softness.
PMD_HD PMD_INLINE PairTerm acks2_pair(double r, double bcut, double softness, double du) {
  const BondSoftness b = acks2_bond_softness(r, bcut, softness);
  if (!(b.x > 0.0)) return PairTerm{0.0, 0.0};
  const double c = -0.5 * kPolarizationEvToKcal * du * du;
  return PairTerm{c * b.x, c * b.dx_dr / r};
}

// A pair's cut-off from its atoms' bcut_acks2.
PMD_HD PMD_INLINE double acks2_pair_cutoff(double bcut_i, double bcut_j) {
  return 0.5 * (bcut_i + bcut_j);
}

// The polarization energy's ACKS2 part, q u (kcal/mol), which pair_style
// reaxff adds to each atom's 23.02 (chi q + eta/2 q^2).
PMD_HD PMD_INLINE double acks2_polarization(double q, double u) {
  return kPolarizationEvToKcal * q * u;
}

// ACKS2 instead of QEq (QEqProblem::model): one linear system of 2N + 2
// unknowns, the charges q and the effective potentials u of the N group
// atoms and two multipliers, [H I 0 1; I X 1 0; 0 1^T 0 0; 1^T 0 0 0]
// (q, u, l_u, l_q) = (-chi, 0, 0, 0), solved by BiCGStab with the diagonal
// preconditioner 1/eta, 1/X_ii (1 where X_ii = 0) as fix acks2/reaxff
// solves it. X_ij is the bond softness of pairs within bcut_ij, X_ii minus
// its row's sum. The history keeps q where QEq keeps s and u where it keeps
// t (both extrapolated cubically by default, as QEqSettings::predictor says);
// the solver keeps the multipliers'.
struct Acks2Input final : ChargeModelInput {
  // bcut_acks2 (A) per type (QEqInput::type given) or per atom; a pair's
  // cut-off is the mean of its atoms'.
  const double *bcut = nullptr;
  double softness = 0.0;  // the bond softness s (force-field general parameter 34)
  // Out, n_total entries: u of every group atom, owned and ghost (forwarded
  // like q); other entries are left alone.
  double *u = nullptr;

  const char *name() const override { return "ACKS2"; }
  bool own_preconditioner() const override { return true; }
  // What both drivers refuse (InputError).
  void check() const {
    if (!bcut || !u) throw InputError("ACKS2: bcut_acks2 values and a u array are required");
  }
};

}  // namespace puremd
