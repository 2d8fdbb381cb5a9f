// The factors of the torsion and conjugation energies (van Duin et al. 2001)
// that depend on one bond's corrected order alone, BOA = BO - thb_cut:
// exp(-p_tor2 BOA) and exp(-p_cot2 (BOA - 1.5)^2). Every chain i-j-k-l
// through a bond uses them, as its central bond or as an arm: they are
// evaluated once a bond, where its order is corrected (bond_order.h), and
// kept in its record for the torsions (torsion.h), which otherwise evaluated
// them for each chain.
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

struct TorsionArm {
  double BOA, exp_tor2, exp_cot2;
};

// p_tor2 = gp[23], p_cot2 = gp[27].
PMD_HD PMD_INLINE TorsionArm torsion_arm(const double *gp, double BOA) {
  TorsionArm a;
  a.BOA = BOA;
  a.exp_tor2 = exp(-gp[23] * BOA);
  a.exp_cot2 = exp(-gp[27] * sqr(BOA - 1.5));
  return a;
}

// Record b, its orders corrected: its factors into it.
PMD_HD PMD_INLINE void store_torsion_arm(BondOrder &b, const double *gp, double thb_cut) {
  const TorsionArm a = torsion_arm(gp, b.BO - thb_cut);
  b.arm_exp_tor2 = a.exp_tor2;
  b.arm_exp_cot2 = a.exp_cot2;
}

PMD_HD PMD_INLINE TorsionArm stored_torsion_arm(const BondOrder &b, double thb_cut) {
  return TorsionArm{b.BO - thb_cut, b.arm_exp_tor2, b.arm_exp_cot2};
}

}  // namespace puremd
