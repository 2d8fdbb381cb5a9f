// Hydrogen bonds X-H...Z: an owned hydrogen H (p_hbond = 1), a donor X bonded
// to H (p_hbond = 2, bond order >= 0.01) and an acceptor Z (p_hbond = 2) from
// H's hydrogen-bond partner row (within hbond_cut):
//
//   E = p_hb1 (1 - exp(-p_hb2 BO_XH)) exp(-p_hb3 (r0/r_HZ + r_HZ/r0 - 2)) sin^4(theta/2)
//
// theta = angle X-H-Z. As in LAMMPS's pair_style reaxff: a triple is skipped
// when X and Z are the same atom (same tag, images included) or when the
// (X, H, Z) parameter set has r0_hb <= 0; the energy goes one third to each
// of X, H, Z's per-atom energy; hbond_cut <= 0 switches the term off.
#pragma once

#include "puremd_gpu/energies.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

constexpr double kHbondMinBondOrder = 0.01;  // donor X-H bonds below this are ignored

// Energy and its partial derivatives for one X-H...Z triple.
struct HbondTerm {
  double e;
  double de_dbo;   // dE / dBO_XH
  double de_dcos;  // dE / dcos(theta)
  double de_dr;    // dE / dr_HZ
};

PMD_HD PMD_INLINE HbondTerm hbond_energy(const HbondParams &p, double bo, double cos_theta,
                                         double r_hz) {
  const double theta = acos(cos_theta);
  const double s = sin(theta / 2.0);
  double s4 = s * s;
  s4 *= s4;
  const double exp_bo = exp(-p.p_hb2 * bo);
  const double exp_r = exp(-p.p_hb3 * (p.r0_hb / r_hz + r_hz / p.r0_hb - 2.0));
  HbondTerm t;
  t.e = p.p_hb1 * (1.0 - exp_bo) * exp_r * s4;
  t.de_dbo = p.p_hb1 * p.p_hb2 * exp_bo * exp_r * s4;
  // sin^4(theta/2) = ((1 - cos)/2)^2, so d/dcos = -(1 - cos)/2
  t.de_dcos = -p.p_hb1 / 2.0 * (1.0 - exp_bo) * exp_r * (1.0 - cos_theta);
  t.de_dr = -p.p_hb3 * (-p.r0_hb / (r_hz * r_hz) + 1.0 / p.r0_hb) * t.e;
  return t;
}

// cos of the angle between u = x_X - x_H and w = x_Z - x_H (lengths lu, lw),
// clamped to [-1, 1], and its gradients with respect to x_X, x_H, x_Z.
PMD_HD PMD_INLINE double hbond_cos_angle(vec3 u, double lu, vec3 w, double lw, vec3 &dc_dx,
                                         vec3 &dc_dh, vec3 &dc_dz) {
  const double inv = 1.0 / (lu * lw);
  const double uw = dot(u, w);
  double c = uw / (lu * lw);
  if (c > 1.0) c = 1.0;
  if (c < -1.0) c = -1.0;
  const double k = uw * (inv * inv * inv);
  const double lu2 = lu * lu, lw2 = lw * lw;
  dc_dx = w * inv - (k * lw2) * u;
  dc_dz = u * inv - (k * lu2) * w;
  dc_dh = -(u + w) * inv + k * (lw2 * u + lu2 * w);
  return c;
}

// All hydrogen bonds centred on owned hydrogen h, in three parts so that a
// driver may split h's partner row over several threads: hbond_row, one
// acceptor entry (all donors bonded to h; acceptor- and donor-side tallies
// go straight out) and hbond_row_finish (h's sums). Gradients of every
// triple use h as reference atom; dE/dBO goes to the X-H bond entry in h's row.
struct HbondRow {
  bool active = false;  // false: h is not an owned hydrogen with the term on
  int h = 0, th = 0;
  int first = 0, last = 0;  // hbond partner entries [first, last)
};

struct HbondSums {
  double e;
  vec3 grad_h;
};

PMD_HD PMD_INLINE HbondRow hbond_row(int h, const StepView &v) {
  HbondRow r;
  if (!v.tally.on(kTermHbond) || v.control.hbond_cut <= 0.0) return r;
  const AtomsView &a = v.atoms;
  if (h >= a.n_local) return r;
  r.th = a.type[h];
  if (r.th < 0 || v.ff.sbp[r.th].p_hbond != 1) return r;
  r.active = true;
  r.h = h;
  r.first = v.hbonds.start[h];
  r.last = v.hbonds.end[h];
  return r;
}

PMD_HD PMD_INLINE void hbond_acceptor(const HbondRow &r, int pz, const StepView &v, HbondSums &s) {
  const AtomsView &a = v.atoms;
  const int h = r.h;
  const int z = v.hbonds.nbr[pz];
  const int tz = a.type[z];
  if (tz < 0) return;
  const PairGeometry hz = pair_geometry(a.x[h], a.x[z]);
  const double r_hz = hz.d;
  const vec3 w = hz.dvec;  // x_Z - x_H
  const long long tag_z = a.tag[z];

  for (int pb = v.bonds.start[h]; pb < v.bonds.end[h]; ++pb) {
    const int x = v.bonds.nbr[pb];
    const int tx = a.type[x];
    if (tx < 0 || v.ff.sbp[tx].p_hbond != 2) continue;
    BondOrder &bo = v.bonds.bo[pb];
    if (bo.BO < kHbondMinBondOrder) continue;
    if (a.tag[x] == tag_z) continue;
    const HbondParams &hp = v.ff.hbond(tx, r.th, tz);
    if (hp.r0_hb <= 0.0) continue;

    const vec3 u = v.bonds.dvec[pb];  // x_X - x_H
    vec3 dc_dx, dc_dh, dc_dz;
    const double c = hbond_cos_angle(u, v.bonds.d[pb], w, r_hz, dc_dx, dc_dh, dc_dz);
    const HbondTerm t = hbond_energy(hp, bo.BO, c, r_hz);

    s.e += t.e;
    const double third = (1.0 / 3.0) * t.e;
    v.tally.add_eatom(x, third);
    v.tally.add_eatom(h, third);
    v.tally.add_eatom(z, third);

    atomic_add(&bo.Cdbo, t.de_dbo);
    const vec3 gr = (t.de_dr / r_hz) * w;  // d(r_HZ)-part of dE/dx_Z
    v.tally.add_grad(x, t.de_dcos * dc_dx, h);
    v.tally.add_grad(z, t.de_dcos * dc_dz + gr, h);
    s.grad_h += t.de_dcos * dc_dh - gr;
  }
}

PMD_HD PMD_INLINE void hbond_row_finish(const HbondRow &r, const HbondSums &s, const StepView &v) {
  if (!r.active) return;
  v.tally.add_grad(r.h, s.grad_h, r.h);
  v.tally.add_energy(&v.tally.energy->e_hb, s.e);
}

PMD_HD PMD_INLINE void hydrogen_bonds_atom(int h, const StepView &v) {
  const HbondRow r = hbond_row(h, v);
  if (!r.active) return;
  HbondSums s{0.0, make_vec3(0.0, 0.0, 0.0)};
  for (int pz = r.first; pz < r.last; ++pz) hbond_acceptor(r, pz, v, s);
  hbond_row_finish(r, s, v);
}

}  // namespace puremd
