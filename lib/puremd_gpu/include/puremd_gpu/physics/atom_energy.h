// Single-atom energies (van Duin et al. 2001, eqs. 8-12; Chenoweth et al.
// 2008): lone-pair energy with the C2 correction (kTermLonePair), and over-
// and under-coordination (kTermOverUnder). Bodies run over owned atoms only;
// they add dE/dDelta to CdDelta and dE/dBO to the bonds of row i.
// An atom with no bonds gets lone-pair and under-coordination energy only
// when control.enobonds is set (pair_style keyword enobonds).
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

// The C2 correction applies to elements named exactly "C".
PMD_HD PMD_INLINE bool element_is_carbon(const SingleBodyParams &s) {
  return s.name[0] == 'C' && s.name[1] == '\0';
}

// Lone-pair energy of owned atom i, and the C2 correction for its bonds to
// other carbons. Per-atom energy: the lone-pair part to i, the C2 part half
// to each atom of the bond.
PMD_HD PMD_INLINE void lone_pair_atom(int i, const StepView &v) {
  if (!v.tally.on(kTermLonePair)) return;
  const int ti = v.atoms.type[i];
  if (ti < 0) return;
  const SingleBodyParams &si = v.ff.sbp[ti];
  const Workspace &w = v.ws;
  const bool counted = v.bonds.end[i] > v.bonds.start[i] || v.control.enobonds;

  // E_lp = p_lp2 Delta_lp / (1 + exp(-75 Delta_lp))
  const double p_lp2 = si.p_lp2;
  const double dlp = w.Delta_lp[i];
  const double ex = exp(-75 * dlp);
  const double inv = 1. / (1. + ex);
  double e_lp = 0.0;
  if (counted) {
    e_lp = p_lp2 * dlp * inv;
    const double de_ddlp = p_lp2 * inv + 75 * p_lp2 * dlp * ex * sqr(inv);
    atomic_add(&w.CdDelta[i], de_ddlp * w.dDelta_lp[i]);
  }
  v.tally.add_eatom(i, e_lp);
  double e_sum = e_lp;

  // C2 correction: penalise a C-C bond order above Delta_i + 0.04 Delta_i^4 + 3.
  const double p_lp3 = v.ff.gp[5];
  if (p_lp3 > 0.001 && element_is_carbon(si)) {
    for (int p = v.bonds.start[i]; p < v.bonds.end[i]; ++p) {
      const int j = v.bonds.nbr[p];
      const int tj = v.atoms.type[j];
      if (tj < 0 || !element_is_carbon(v.ff.sbp[tj])) continue;
      BondOrder &b = v.bonds.bo[p];
      const double di = w.Delta[i];
      const double vov3 = b.BO - di - 0.040 * pow(di, 4.);
      if (vov3 > 3.) {
        const double e_c2 = p_lp3 * sqr(vov3 - 3.0);
        e_sum += e_c2;
        v.tally.add_eatom(i, 0.5 * e_c2);
        v.tally.add_eatom(j, 0.5 * e_c2);
        const double de_dbo = 2. * p_lp3 * (vov3 - 3.);
        const double de_ddelta = 2. * p_lp3 * (vov3 - 3.) * (-1. - 0.16 * pow(di, 3.));
        atomic_add(&b.Cdbo, de_dbo);
        atomic_add(&w.CdDelta[i], de_ddelta);
      }
    }
  }
  v.tally.add_energy(&v.tally.energy->e_lp, e_sum);
}

// Over- and under-coordination energy of owned atom i. Per-atom energy: all
// to i. Contributes dE/dDelta to i and to its bonded neighbours and dE/dBO,
// dE/dBO_pi, dE/dBO_pi2 to the bonds of row i.
PMD_HD PMD_INLINE void over_under_coordination_atom(int i, const StepView &v) {
  if (!v.tally.on(kTermOverUnder)) return;
  const int ti = v.atoms.type[i];
  if (ti < 0) return;
  const SingleBodyParams &si = v.ff.sbp[ti];
  const Workspace &w = v.ws;
  const double p_ovun3 = v.ff.gp[32], p_ovun4 = v.ff.gp[31], p_ovun6 = v.ff.gp[6],
               p_ovun7 = v.ff.gp[8], p_ovun8 = v.ff.gp[9];
  const double p_ovun2 = si.p_ovun2, p_ovun5 = si.p_ovun5;
  // Lone pairs correct Delta for first-row elements only.
  const double dfvl = si.mass > 21.0 ? 0.0 : 1.0;
  const bool counted = v.bonds.end[i] > v.bonds.start[i] || v.control.enobonds;

  // sum_ovun1: sum of p_ovun1 De_s BO; sum_ovun2: neighbours' Delta (less
  // their lone-pair deviation) weighted by the pi bond orders.
  double sum_ovun1 = 0.0, sum_ovun2 = 0.0;
  for (int p = v.bonds.start[i]; p < v.bonds.end[i]; ++p) {
    const int j = v.bonds.nbr[p];
    const int tj = v.atoms.type[j];
    if (tj < 0) continue;
    const BondOrder &b = v.bonds.bo[p];
    const TwoBodyParams &t = v.ff.two(ti, tj);
    sum_ovun1 += t.p_ovun1 * t.De_s * b.BO;
    sum_ovun2 += (w.Delta[j] - dfvl * w.Delta_lp_temp[j]) * (b.BO_pi + b.BO_pi2);
  }

  // Over-coordination.
  const double exp_ovun1 = p_ovun3 * exp(p_ovun4 * sum_ovun2);
  const double inv_exp_ovun1 = 1.0 / (1 + exp_ovun1);
  const double dlpcorr = w.Delta[i] - (dfvl * w.Delta_lp_temp[i]) * inv_exp_ovun1;
  const double exp_ovun2 = exp(p_ovun2 * dlpcorr);
  const double inv_exp_ovun2 = 1.0 / (1.0 + exp_ovun2);
  const double dlp_vi = 1.0 / (dlpcorr + si.valency + 1e-8);
  const double ce_over1 = dlpcorr * dlp_vi * inv_exp_ovun2;
  const double e_ov = sum_ovun1 * ce_over1;
  const double ce_over2 = sum_ovun1 * dlp_vi * inv_exp_ovun2 *
                          (1.0 - dlpcorr * (dlp_vi + p_ovun2 * exp_ovun2 * inv_exp_ovun2));
  const double ce_over3 = ce_over2 * (1.0 - dfvl * w.dDelta_lp[i] * inv_exp_ovun1);
  const double ce_over4 =
      ce_over2 * (dfvl * w.Delta_lp_temp[i]) * p_ovun4 * exp_ovun1 * sqr(inv_exp_ovun1);

  // Under-coordination.
  const double exp_ovun2n = 1.0 / exp_ovun2;
  const double exp_ovun6 = exp(p_ovun6 * dlpcorr);
  const double exp_ovun8 = p_ovun7 * exp(p_ovun8 * sum_ovun2);
  const double inv_exp_ovun2n = 1.0 / (1.0 + exp_ovun2n);
  const double inv_exp_ovun8 = 1.0 / (1.0 + exp_ovun8);
  double e_un = 0.0;
  if (counted) e_un = -p_ovun5 * (1.0 - exp_ovun6) * inv_exp_ovun2n * inv_exp_ovun8;
  const double ce_under1 = inv_exp_ovun2n * (p_ovun5 * p_ovun6 * exp_ovun6 * inv_exp_ovun8 +
                                             p_ovun2 * e_un * exp_ovun2n);
  const double ce_under2 = -e_un * p_ovun8 * exp_ovun8 * inv_exp_ovun8;
  const double ce_under3 = ce_under1 * (1.0 - dfvl * w.dDelta_lp[i] * inv_exp_ovun1);
  const double ce_under4 =
      ce_under1 * (dfvl * w.Delta_lp_temp[i]) * p_ovun4 * exp_ovun1 * sqr(inv_exp_ovun1) +
      ce_under2;

  v.tally.add_energy(&v.tally.energy->e_ov, e_ov);
  v.tally.add_energy(&v.tally.energy->e_un, e_un);
  v.tally.add_eatom(i, e_ov + e_un);

  atomic_add(&w.CdDelta[i], counted ? ce_over3 + ce_under3 : ce_over3);

  // Both terms reach the neighbours through sum_ovun2 alike: one addition
  // each for their sum (half the atomics of one for each term).
  const double ce4 = ce_over4 + ce_under4;
  for (int p = v.bonds.start[i]; p < v.bonds.end[i]; ++p) {
    const int j = v.bonds.nbr[p];
    const int tj = v.atoms.type[j];
    if (tj < 0) continue;
    BondOrder &b = v.bonds.bo[p];
    const TwoBodyParams &t = v.ff.two(ti, tj);
    const double pi_sum = b.BO_pi + b.BO_pi2;
    const double dj = w.Delta[j] - dfvl * w.Delta_lp_temp[j];
    const double ddj = 1.0 - dfvl * w.dDelta_lp[j];

    atomic_add(&b.Cdbo, ce_over1 * t.p_ovun1 * t.De_s);
    atomic_add(&w.CdDelta[j], ce4 * ddj * pi_sum);
    atomic_add(&b.Cdbopi, ce4 * dj);
    atomic_add(&b.Cdbopi2, ce4 * dj);
  }
}

}  // namespace puremd
