// Bond energy (van Duin et al. 2001, eq. 6): sigma, pi and pi-pi bond
// energies of each bond, plus the stabilisation of terminal triple bonds
// (general parameters 3, 4, 7, 10; applied to C-O pairs, or to every bond
// when general parameter 37 is 2). Term bit kTermBond.
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

// The bond list holds each bond twice, and a bond with a ghost may also be
// seen by the rank that owns the ghost. Row i (owned) tallies bond i-j when
// tag_i < tag_j; a bond between two images of one atom (equal tags) is
// tallied from the row whose partner lies higher in z, then y, then x.
PMD_HD PMD_INLINE bool row_tallies_bond(int i, int j, const AtomsView &a) {
  const long long ti = a.tag[i], tj = a.tag[j];
  if (ti != tj) return ti < tj;
  const vec3 xi = a.x[i], xj = a.x[j];
  if (xj.z != xi.z) return xj.z > xi.z;
  if (xj.y != xi.y) return xj.y > xi.y;
  return !(xj.x < xi.x);
}

// Bond energies of the bonds of owned atom i that this row tallies. Adds
// dE/dBO_s (through BO), dE/dBO_pi, dE/dBO_pi2 to row i's copy of the bond
// and the triple-bond terms' dE/dDelta to both atoms. Per-atom energy: half
// to each atom of the bond.
PMD_HD PMD_INLINE void bond_energy_atom(int i, const StepView &v) {
  if (!v.tally.on(kTermBond)) return;
  const int ti = v.atoms.type[i];
  if (ti < 0) return;
  const SingleBodyParams &si = v.ff.sbp[ti];
  const Workspace &w = v.ws;
  const double gp3 = v.ff.gp[3], gp4 = v.ff.gp[4], gp7 = v.ff.gp[7], gp10 = v.ff.gp[10];
  const int gp37 = static_cast<int>(v.ff.gp[37]);

  double e_sum = 0.0;
  for (int p = v.bonds.start[i]; p < v.bonds.end[i]; ++p) {
    const int j = v.bonds.nbr[p];
    if (!row_tallies_bond(i, j, v.atoms)) continue;
    const int tj = v.atoms.type[j];
    if (tj < 0) continue;
    const SingleBodyParams &sj = v.ff.sbp[tj];
    const TwoBodyParams &t = v.ff.two(ti, tj);
    BondOrder &b = v.bonds.bo[p];

    // E = -De_s BO_s exp(p_be1 (1 - BO_s^p_be2)) - De_p BO_pi - De_pp BO_pi2
    const double bos_pow = b.BO_s == 0.0 ? 0.0 : pow(b.BO_s, t.p_be2);
    const double ex = exp(t.p_be1 * (1.0 - bos_pow));
    const double de_dbos = -t.De_s * ex * (1.0 - t.p_be1 * t.p_be2 * bos_pow);
    const double e = -t.De_s * b.BO_s * ex - t.De_p * b.BO_pi - t.De_pp * b.BO_pi2;
    e_sum += e;
    v.tally.add_eatom(i, 0.5 * e);
    v.tally.add_eatom(j, 0.5 * e);
    // BO_s = BO - BO_pi - BO_pi2, so dE/dBO_s lands on BO and with minus
    // sign on the two pi channels.
    atomic_add(&b.Cdbo, de_dbos);
    atomic_add(&b.Cdbopi, -(de_dbos + t.De_p));
    atomic_add(&b.Cdbopi2, -(de_dbos + t.De_pp));

    // Stabilisation of terminal triple bonds.
    if (b.BO >= 1.00) {
      const bool c_o =
          (si.mass == 12.0000 && sj.mass == 15.9990) || (sj.mass == 12.0000 && si.mass == 15.9990);
      if (gp37 == 2 || c_o) {
        const double exphu = exp(-gp7 * sqr(b.BO - 2.50));
        const double exphua1 = exp(-gp3 * (w.total_bond_order[i] - b.BO));
        const double exphub1 = exp(-gp3 * (w.total_bond_order[j] - b.BO));
        const double exphuov = exp(gp4 * (w.Delta[i] + w.Delta[j]));
        const double hulpov = 1.0 / (1.0 + 25.0 * exphuov);
        const double pre = gp10 * exphu * hulpov;
        const double e_tri = pre * (exphua1 + exphub1);
        e_sum += e_tri;
        v.tally.add_eatom(i, 0.5 * e_tri);
        v.tally.add_eatom(j, 0.5 * e_tri);

        const double de_dbo = pre * (exphua1 + exphub1) * (gp3 - 2.0 * gp7 * (b.BO - 2.50));
        const double ov = 25.0 * gp4 * exphuov * hulpov * (exphua1 + exphub1);
        const double de_ddelta_i = -gp10 * exphu * hulpov * (gp3 * exphua1 + ov);
        const double de_ddelta_j = -gp10 * exphu * hulpov * (gp3 * exphub1 + ov);
        atomic_add(&b.Cdbo, de_dbo);
        atomic_add(&w.CdDelta[i], de_ddelta_i);
        atomic_add(&w.CdDelta[j], de_ddelta_j);
      }
    }
  }
  if (v.bonds.end[i] > v.bonds.start[i]) v.tally.add_energy(&v.tally.energy->e_bond, e_sum);
}

}  // namespace puremd
