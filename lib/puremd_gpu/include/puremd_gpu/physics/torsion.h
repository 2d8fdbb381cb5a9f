// Torsion family: the torsion-angle energy and the four-body conjugation
// energy of every chain i-j-k-l of bonds (van Duin et al. 2001). The chains are
// read from the three-body list (valence_angle.h): for the central bond j-k,
// row pk (k's entry in j's bond row) lists the atoms i bonded to j, and row pj
// (j's entry in k's bond row) lists the atoms l bonded to k, with the angles
// k-j-i and j-k-l (the gradients of their cosines formed here, angle_dcos).
#pragma once

#include "puremd_gpu/force_field.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"
#include "puremd_gpu/physics/angle_items.h"
#include "puremd_gpu/physics/torsion_arm.h"
#include "puremd_gpu/physics/valence_angle.h"

namespace puremd {

// |sin| of a bond angle is held at least this large wherever it divides.
constexpr double kTorsionMinSin = 1.0e-10;

// sin(theta) kept away from zero, keeping its sign (+ at exactly zero).
PMD_HD PMD_INLINE double torsion_safe_sin(double s) {
  if (s >= 0.0 && s <= kTorsionMinSin) return kTorsionMinSin;
  if (s <= 0.0 && s >= -kTorsionMinSin) return -kTorsionMinSin;
  return s;
}

// The energies need cos(omega) only (cos, cos 2omega, cos 3omega are even in
// omega), so the dihedral's sign is never formed. The gradients of cos(omega)
// as scalars along six vectors (dihedral_terms):
//   d/dx_i =  ij r_ij                   - li r_li + A dcosA_first
//   d/dx_j = -ij r_ij - jk r_jk                   + A dcosA_centre + B dcosB_first
//   d/dx_k =            jk r_jk - kl r_kl         + A dcosA_last   + B dcosB_centre
//   d/dx_l =                      kl r_kl + li r_li                + B dcosB_last
// so that a caller summing over many chains adds scalars, not vectors.
struct DihedralTerms {
  double cos_omega;
  double ij, jk, kl, li, A, B;
};

// cos(omega) from the two triple products that give omega = atan2(s, c):
// c / |(c, s)| (1 where both vanish, as cos(atan2(0, 0)) is).
PMD_HD PMD_INLINE double cos_of_atan2(double s, double c) {
  const double h = sqrt(c * c + s * s);
  return h > 0.0 ? c / h : 1.0;
}

// Dihedral i-j-k-l from r_ij = x_i - x_j, r_jk = x_k - x_j, r_kl = x_l - x_k,
// r_li = x_i - x_l and their lengths; ijk is the angle i-j-k (first = i) and
// jkl the angle j-k-l (first = j).
//
// cos(omega) comes from two triple products (cos_of_atan2). Its gradient is
// taken from the law-of-cosines form
//   cos(omega) = (r_ij^2 + r_jk^2 + r_kl^2 - r_li^2
//                 - 2 (r_ij r_jk cA - r_ij r_kl cA cB + r_jk r_kl cB))
//                / (2 r_ij r_kl sA sB),
// cA, sA / cB, sB = cos, sin of the two bond angles: the chain rule through
// the four distances and the two angles, as ReaxFF does (sines held away from 0).
// (cA, sA) and (cB, sB): cosine and sine of the angles i-j-k and j-k-l.
PMD_HD PMD_INLINE DihedralTerms dihedral_terms(vec3 r_ij, double d_ij, vec3 r_jk, double d_jk,
                                               vec3 r_kl, double d_kl, double d_li, double cA,
                                               double sin_A, double cB, double sin_B) {
  const double sA = torsion_safe_sin(sin_A), sB = torsion_safe_sin(sin_B);

  DihedralTerms out;
  const double c_un = -dot(r_ij, r_jk) * dot(r_jk, r_kl) + d_jk * d_jk * dot(r_ij, r_kl);
  const double s_un = -d_jk * dot(r_ij, cross(r_jk, r_kl));
  out.cos_omega = cos_of_atan2(s_un, c_un);

  // numerator and denominator of the law-of-cosines form
  const double num = d_ij * d_ij + d_jk * d_jk + d_kl * d_kl - d_li * d_li -
                     2.0 * (d_ij * d_jk * cA - d_ij * d_kl * cA * cB + d_jk * d_kl * cB);
  const double den = 2.0 * d_ij * d_kl * sA * sB;
  double c = num / den;
  if (c > 1.0) c = 1.0;
  if (c < -1.0) c = -1.0;

  // Half the partial derivatives of num and den (so the common factor is 2/den):
  // with respect to d_ij, d_jk, d_kl and the angles theta_ijk, theta_jkl.
  const double num_ij = d_ij + cA * (d_kl * cB - d_jk);
  const double num_jk = d_jk - d_ij * cA - d_kl * cB;
  const double num_kl = d_kl + cB * (d_ij * cA - d_jk);
  const double num_A = d_ij * sA * (d_jk - d_kl * cB);
  const double num_B = d_kl * sB * (d_jk - d_ij * cA);
  const double den_ij = d_kl * sA * sB;
  const double den_kl = d_ij * sA * sB;
  const double den_A = d_ij * d_kl * cA * sB;
  const double den_B = d_ij * d_kl * sA * cB;

  // cos(omega) partials (times den/2); a theta partial becomes a cos(theta)
  // partial through dtheta = -dcos / sin.
  const double by_dij = (num_ij - c * den_ij) / d_ij;  // along r_ij / d_ij
  const double by_djk = num_jk / d_jk;
  const double by_dkl = (num_kl - c * den_kl) / d_kl;
  const double by_cA = -(num_A - c * den_A) / sA;
  const double by_cB = -(num_B - c * den_B) / sB;
  const double scale = 2.0 / den;

  // d_li enters num as -d_li^2: its gradient is -r_li on i and +r_li on l.
  out.ij = scale * by_dij;
  out.jk = scale * by_djk;
  out.kl = scale * by_dkl;
  out.li = scale;
  out.A = scale * by_cA;
  out.B = scale * by_cB;
  return out;
}

// ---------------------------------------------------------------------------
// Evaluators. BOA_xy = BO_xy - thb_cut.

// Per central bond j-k.
struct TorsionBond {
  double BOA_jk, BOpi_jk;
  double exp_tor2;  // exp(-p_tor2 BOA_jk)
  double exp_cot2;  // exp(-p_cot2 (BOA_jk - 1.5)^2)
  double f11;       // over/under-coordination of j and k
  double df11;      // df11 / dDelta_j (= df11 / dDelta_k)
};

// jk: the central bond's stored factors (torsion_arm.h, where the arms'
// struct TorsionArm is); Delta_j, Delta_k: Delta_boc of the two central atoms.
PMD_HD PMD_INLINE TorsionBond torsion_bond(const double *gp, const TorsionArm &jk, double BOpi_jk,
                                           double Delta_j, double Delta_k) {
  const double p_tor3 = gp[24], p_tor4 = gp[25];
  TorsionBond b;
  b.BOA_jk = jk.BOA;
  b.BOpi_jk = BOpi_jk;
  b.exp_tor2 = jk.exp_tor2;
  b.exp_cot2 = jk.exp_cot2;
  const double e3 = exp(-p_tor3 * (Delta_j + Delta_k));
  const double e4 = exp(p_tor4 * (Delta_j + Delta_k));
  const double inv = 1.0 / (1.0 + e3 + e4);
  b.f11 = (2.0 + e3) * inv;
  b.df11 = (-p_tor3 * e3 + (p_tor3 * e3 - p_tor4 * e4) * (2.0 + e3) * inv) * inv;
  return b;
}

// Geometry of one chain as the energies see it.
struct TorsionShape {
  double sA, sB;      // sines of the two bond angles (not floored)
  double cotA, cotB;  // cos/sin with the sine floored (torsion_safe_sin)
  double cos_omega, cos2omega, cos3omega;
};

struct FourBodyTerm {
  double e;
  double dE_dBOij, dE_dBOjk, dE_dBOkl;
  double dE_dBOpi_jk;  // torsion only
  double dE_dDelta;    // torsion only; applies to Delta_j and to Delta_k
  double dE_dcosA, dE_dcosB, dE_dcos_omega;
};

PMD_HD PMD_INLINE FourBodyTerm torsion_energy(const FourBodyParams &p, const double *gp,
                                              const TorsionBond &jk, const TorsionArm &ij,
                                              const TorsionArm &kl, const TorsionShape &g) {
  const double p_tor2 = gp[23];
  const double fij = 1.0 - ij.exp_tor2, fjk = 1.0 - jk.exp_tor2, fkl = 1.0 - kl.exp_tor2;
  const double fn10 = fij * fjk * fkl;
  const double pi_dev = 2.0 - jk.BOpi_jk - jk.f11;  // departure from a full pi bond
  const double exp1 = exp(p.p_tor1 * sqr(pi_dev));
  const double CV = 0.5 * (p.V1 * (1.0 + g.cos_omega) + p.V2 * exp1 * (1.0 - g.cos2omega) +
                           p.V3 * (1.0 + g.cos3omega));
  const double ss = g.sA * g.sB;

  FourBodyTerm r;
  r.e = fn10 * ss * CV;
  const double ssCV = ss * CV;
  r.dE_dBOpi_jk = -fn10 * 2.0 * p.p_tor1 * p.V2 * exp1 * pi_dev * (1.0 - sqr(g.cos_omega)) * ss;
  r.dE_dDelta = r.dE_dBOpi_jk * jk.df11;
  r.dE_dBOij = ssCV * p_tor2 * ij.exp_tor2 * fjk * fkl;
  r.dE_dBOjk = ssCV * p_tor2 * fij * jk.exp_tor2 * fkl;
  r.dE_dBOkl = ssCV * p_tor2 * fij * fjk * kl.exp_tor2;
  const double m = -fn10 * CV;
  r.dE_dcosA = m * g.sB * g.cotA;
  r.dE_dcosB = m * g.sA * g.cotB;
  r.dE_dcos_omega = fn10 * ss *
                    (0.5 * p.V1 - 2.0 * p.V2 * exp1 * g.cos_omega +
                     1.5 * p.V3 * (g.cos2omega + 2.0 * sqr(g.cos_omega)));
  return r;
}

PMD_HD PMD_INLINE FourBodyTerm conjugation_energy(const FourBodyParams &p, const double *gp,
                                                  const TorsionBond &jk, const TorsionArm &ij,
                                                  const TorsionArm &kl, const TorsionShape &g) {
  const double p_cot2 = gp[27];
  const double fn12 = ij.exp_cot2 * jk.exp_cot2 * kl.exp_cot2;
  const double c2m1 = sqr(g.cos_omega) - 1.0;
  const double shape = 1.0 + c2m1 * g.sA * g.sB;
  FourBodyTerm r;
  r.e = p.p_cot1 * fn12 * shape;
  const double dfn12 = -2.0 * fn12 * p.p_cot1 * p_cot2 * shape;
  r.dE_dBOij = dfn12 * (ij.BOA - 1.5);
  r.dE_dBOjk = dfn12 * (jk.BOA_jk - 1.5);
  r.dE_dBOkl = dfn12 * (kl.BOA - 1.5);
  r.dE_dBOpi_jk = 0.0;
  r.dE_dDelta = 0.0;
  r.dE_dcosA = -p.p_cot1 * fn12 * c2m1 * g.sB * g.cotA;
  r.dE_dcosB = -p.p_cot1 * fn12 * c2m1 * g.sA * g.cotB;
  r.dE_dcos_omega = 2.0 * p.p_cot1 * fn12 * g.cos_omega * g.sA * g.sB;
  return r;
}

// Which rank counts the torsions about bond j-k (j owned): the one where j has
// the smaller tag; for two images of one atom, the one where k lies above j
// (compared by z, then y, then x).
PMD_HD PMD_INLINE bool torsion_owns_bond(int j, int k, const AtomsView &a) {
  if (a.tag[j] != a.tag[k]) return a.tag[j] < a.tag[k];
  const vec3 xj = a.x[j], xk = a.x[k];
  if (xk.z != xj.z) return xk.z > xj.z;
  if (xk.y != xj.y) return xk.y > xj.y;
  return !(xk.x < xj.x);
}

// ---------------------------------------------------------------------------
// The torsions of a step as work items (angle_items.h): centre j owned, row pk
// a central bond j-k this rank counts (torsion_owns_bond, BO above thb_cut,
// both angle rows non-empty), entry s of row pk the first bond i-j; the item
// is every chain i-j-k-l over the l of row pj (j's entry in k's bond row).
// Uses the first parameter set of each type quadruple; energy goes half to j,
// half to k.

PMD_HD PMD_INLINE bool torsion_centre_on(int j, const StepView &v) {
  const Tally &T = v.tally;
  return j < v.atoms.n_local && (T.on(kTermTorsion) || T.on(kTermConjugation)) &&
         v.atoms.type[j] >= 0;
}

PMD_HD PMD_INLINE bool torsion_central_bond(int j, int pk, const StepView &v) {
  const BondList &B = v.bonds;
  const ThreeBodyList &L = v.thb;
  if (!torsion_owns_bond(j, B.nbr[pk], v.atoms)) return false;
  if (!(B.bo[pk].BO > v.control.thb_cut) || L.end[pk] == L.start[pk]) return false;
  const int pj = B.sym[pk];  // j in k's bond row
  return L.end[pj] != L.start[pj];
}

PMD_HD PMD_INLINE void torsions_of_angle(int j, int pk, int s, const StepView &v) {
  const Tally &T = v.tally;
  const bool on_tor = T.on(kTermTorsion), on_con = T.on(kTermConjugation);
  const BondList &B = v.bonds;
  const ThreeBodyList &L = v.thb;
  const Workspace &W = v.ws;
  const double *gp = v.ff.gp;
  const double thb_cut = v.control.thb_cut;

  const int pij = L.pthb[s];  // i in j's bond row
  const double BO_ij = B.bo[pij].BO;
  if (!(BO_ij > thb_cut)) return;
  const int i = L.thb[s];
  const int k = B.nbr[pk];
  const int pj = B.sym[pk];  // j in k's bond row
  const int type_i = v.atoms.type[i], type_j = v.atoms.type[j], type_k = v.atoms.type[k];
  const double BO_jk = B.bo[pk].BO;
  const double d_jk = B.d[pk];
  const vec3 r_jk = B.dvec[pk];
  const TorsionBond bjk = torsion_bond(gp, stored_torsion_arm(B.bo[pk], thb_cut), B.bo[pk].BO_pi,
                                       W.Delta_boc[j], W.Delta_boc[k]);
  const double d_ij = B.d[pij];
  const vec3 r_ij = B.dvec[pij];
  const TorsionArm aij = stored_torsion_arm(B.bo[pij], thb_cut);
  // row pk holds the angle k-j-i: its "first" atom is k, its "last" is i
  const double cA = L.cos_theta[s], sA = angle_sin(cA);
  const double cotA = cA / torsion_safe_sin(sA);

  // The chains' gradients summed as scalars along the vectors they share
  // (DihedralTerms), the angle i-j-k's own cosine gradients added once after
  // the loop: fewer values live across it (the kernel is held by registers).
  double e_tor = 0.0, e_con = 0.0;
  double dE_dBOij = 0.0, dE_dBOjk = 0.0, dE_dBOpi_jk = 0.0, dE_dDelta = 0.0;
  double s_A = 0.0, s_ij = 0.0, s_jk = 0.0;  // along dcos(ijk)/dx, r_ij, r_jk
  vec3 g_i{0.0, 0.0, 0.0}, g_j{0.0, 0.0, 0.0}, g_k{0.0, 0.0, 0.0};
  bool any = false;

  for (int t = L.start[pj]; t < L.end[pj]; ++t) {
    const int l = L.thb[t];
    const int plk = L.pthb[t];  // l in k's bond row
    const double BO_kl = B.bo[plk].BO;
    const FourBodySets &sets = v.ff.four(type_i, type_j, type_k, v.atoms.type[l]);
    if (!(i != l && sets.cnt > 0 && BO_kl > thb_cut && BO_ij * BO_jk * BO_kl > thb_cut)) continue;
    const FourBodyParams &prm = sets.prm[0];
    const TorsionArm akl = stored_torsion_arm(B.bo[plk], thb_cut);
    // row pj holds the angle j-k-l: first = j, last = l
    const double cB = L.cos_theta[t], sB = angle_sin(cB);

    const vec3 r_kl = B.dvec[plk];
    const double d_kl = B.d[plk];
    const vec3 r_li = r_ij - r_jk - r_kl;  // x_i - x_l along the chain's bonds
    const double d_li = sqrt(dot(r_li, r_li));
    const DihedralTerms dh =
        dihedral_terms(r_ij, d_ij, r_jk, d_jk, r_kl, d_kl, d_li, cA, sA, cB, sB);

    TorsionShape g;
    g.sA = sA;
    g.sB = sB;
    g.cotA = cotA;
    g.cotB = cB / torsion_safe_sin(sB);
    // multiple angles from cos(omega): no further transcendental calls
    const double cw = dh.cos_omega;
    g.cos_omega = cw;
    g.cos2omega = 2.0 * cw * cw - 1.0;
    g.cos3omega = cw * (4.0 * cw * cw - 3.0);

    double dBOkl = 0.0, dcosA = 0.0, dcosB = 0.0, dcosw = 0.0;
    // (the conjugation term's pi-bond and Delta derivatives are zero)
    auto take = [&](const FourBodyTerm &f, double &e) {
      e += f.e;
      dE_dBOij += f.dE_dBOij;
      dE_dBOjk += f.dE_dBOjk;
      dBOkl += f.dE_dBOkl;
      dE_dBOpi_jk += f.dE_dBOpi_jk;
      dE_dDelta += f.dE_dDelta;
      dcosA += f.dE_dcosA;
      dcosB += f.dE_dcosB;
      dcosw += f.dE_dcos_omega;
    };
    if (on_tor) take(torsion_energy(prm, gp, bjk, aij, akl, g), e_tor);
    if (on_con) take(conjugation_energy(prm, gp, bjk, aij, akl, g), e_con);
    any = true;

    atomic_add(&B.bo[plk].Cdbo, dBOkl);
    // dihedral_terms' gradients, times dcosw, with the angles' own terms
    const double along_B = dcosB + dcosw * dh.B;
    s_A += dcosA + dcosw * dh.A;
    s_ij += dcosw * dh.ij;
    s_jk += dcosw * dh.jk;
    g_i -= (dcosw * dh.li) * r_li;
    // row pj's angle j-k-l (k's dvec to j is -r_jk): gradients on j, k, l
    vec3 dB_j, dB_k, dB_l;
    angle_dcos(-r_jk, d_jk, r_kl, d_kl, &dB_j, &dB_k, &dB_l);
    g_j += along_B * dB_j;
    g_k += along_B * dB_k - (dcosw * dh.kl) * r_kl;
    T.add_grad(l, along_B * dB_l + (dcosw * dh.kl) * r_kl + (dcosw * dh.li) * r_li, j);
  }
  if (!any) return;
  // row pk's angle k-j-i: gradients on k, j, i
  vec3 dA_k, dA_j, dA_i;
  angle_dcos(r_jk, d_jk, r_ij, d_ij, &dA_k, &dA_j, &dA_i);
  g_i += s_A * dA_i + s_ij * r_ij;
  g_j += s_A * dA_j - s_ij * r_ij - s_jk * r_jk;
  g_k += s_A * dA_k + s_jk * r_jk;
  atomic_add(&B.bo[pij].Cdbo, dE_dBOij);
  atomic_add(&B.bo[pk].Cdbo, dE_dBOjk);
  if (on_tor) {
    atomic_add(&B.bo[pk].Cdbopi, dE_dBOpi_jk);
    atomic_add(&W.CdDelta[j], dE_dDelta);
    atomic_add(&W.CdDelta[k], dE_dDelta);
    T.add_energy(&T.energy->e_tor, e_tor);
  }
  if (on_con) T.add_energy(&T.energy->e_con, e_con);
  T.add_grad(i, g_i, j);
  T.add_grad(j, g_j, j);
  T.add_grad(k, g_k, j);
  const double half = 0.5 * (e_tor + e_con);  // LAMMPS: ev_tally(j, k, ...), half to each
  T.add_eatom(j, half);
  T.add_eatom(k, half);
}

struct TorsionsItems {
  static constexpr bool kBefore = false;
  PMD_HD static bool centre_on(int j, const StepView &v) { return torsion_centre_on(j, v); }
  PMD_HD static void range(int j, int pk, const StepView &v, int &first, int &last) {
    first = last = 0;
    if (!torsion_central_bond(j, pk, v)) return;
    first = v.thb.start[pk];
    last = v.thb.end[pk];
  }
  PMD_HD static void before(int, const StepView &) {}
  PMD_HD static void item(int j, int pk, int s, const StepView &v) {
    torsions_of_angle(j, pk, s, v);
  }
};

// All torsions counted from owned atom j (other atoms return at once).
PMD_HD PMD_INLINE void torsions_atom(int j, const StepView &v) {
  angle_items_atom<TorsionsItems>(j, v);
}

}  // namespace puremd
