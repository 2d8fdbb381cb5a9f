// The ReaxFF energy terms, in the order LAMMPS reports them, and a bit mask to
// switch terms on or off (the finite-difference tests check one term at a time).
#pragma once

namespace puremd {

struct Energies {
  double e_bond = 0, e_ov = 0, e_un = 0, e_lp = 0;
  double e_ang = 0, e_pen = 0, e_coa = 0, e_hb = 0;
  double e_tor = 0, e_con = 0, e_vdW = 0, e_ele = 0, e_pol = 0;

  double total() const {
    return e_bond + e_ov + e_un + e_lp + e_ang + e_pen + e_coa + e_hb + e_tor + e_con + e_vdW +
           e_ele + e_pol;
  }
  // `compute pair reaxff` vector: 14 entries, the same order and grouping as
  // LAMMPS's pair_style reaxff (entries 3 and 12 are kept as 0 there too).
  void to_pair_vector(double v[14]) const {
    v[0] = e_bond;
    v[1] = e_ov + e_un;
    v[2] = e_lp;
    v[3] = 0.0;
    v[4] = e_ang;
    v[5] = e_pen;
    v[6] = e_coa;
    v[7] = e_hb;
    v[8] = e_tor;
    v[9] = e_con;
    v[10] = e_vdW;
    v[11] = e_ele;
    v[12] = 0.0;
    v[13] = e_pol;
  }
};

// One bit per energy term. A disabled term contributes neither energy nor any
// derivative (direct force, dE/dBO or dE/dDelta), so with one bit set the
// forces are minus the gradient of that term alone.
enum Term : unsigned {
  kTermBond = 1u << 0,
  kTermOverUnder = 1u << 1,
  kTermLonePair = 1u << 2,
  kTermAngle = 1u << 3,
  kTermPenalty = 1u << 4,
  kTermCoalition = 1u << 5,
  kTermHbond = 1u << 6,
  kTermTorsion = 1u << 7,
  kTermConjugation = 1u << 8,
  kTermVdw = 1u << 9,
  kTermCoulomb = 1u << 10,
  kTermPolarization = 1u << 11,
  kTermAll = (1u << 12) - 1,
};

}  // namespace puremd
