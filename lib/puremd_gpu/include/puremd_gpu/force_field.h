// ReaxFF force-field parameters in flat arrays, as read from an ffield file.
// Names follow the ReaxFF literature (van Duin et al. 2001; Chenoweth et al.
// 2008) so each field can be checked against the paper's equations.
#pragma once

#include <string>
#include <vector>

#include "puremd_gpu/hd.h"

namespace puremd {

constexpr int kNumGlobalParams = 39;  // general parameters l[0..38] in ffield order
constexpr int kMaxThreeBodySets = 5;  // angle parameter sets per (i,j,k) type triple
constexpr int kMaxFourBodySets = 5;

struct SingleBodyParams {
  char name[16];
  double r_s, valency, mass, r_vdw, epsilon, gamma, r_pi, valency_e;
  double nlp_opt, alpha, gamma_w, valency_boc, p_ovun5, chi, eta;
  int p_hbond;  // 1: hydrogen, 2: donor/acceptor (O, N, S, ...), 0: neither
  double r_pi_pi, p_lp2, b_o_131, b_o_132, b_o_133, bcut_acks2;
  double p_ovun2, p_val3, valency_val, p_val5;
  double rcore2, ecore2, acore2;
  double lgcij, lgre;  // low-gradient dispersion (lgvdw)
};

struct TwoBodyParams {
  double p_bo1, p_bo2, p_bo3, p_bo4, p_bo5, p_bo6;
  double r_s, r_p, r_pp;  // bond-order reference radii
  double p_boc3, p_boc4, p_boc5;
  double p_be1, p_be2;
  double De_s, De_p, De_pp;
  double p_ovun1;
  double D, alpha, r_vdW, gamma_w;  // van der Waals
  double rcore, ecore, acore;       // inner wall
  // Derived from the above and p_vdW1 (general parameter 28) by
  // derive_vdw_constants (physics/nonbonded.h) once the force field is read,
  // so that no evaluated pair divides by a parameter:
  double vdw_p, vdw_inv_p;  // p_vdW1 and 1 / p_vdW1
  double vdw_shield;        // (1 / gamma_w)^p_vdW1
  double alpha_over_r_vdW;  // alpha / r_vdW
  double acore_over_rcore;  // acore / rcore
  double lgcij, lgre;
  double gamma;  // Coulomb shielding, stored as (gamma_i gamma_j)^(-3/2)
  double v13cor, ovc;
  // > 0: no pair farther apart is a bond (its BO' stays below bo_cut),
  // set for the engine's bo_cut by set_bond_reach (physics/bond_order.h);
  // <= 0 (as read, or zeroed): no bound but bond_cut.
  double bond_reach;
  // Where BO' falls through bo_cut, bracketed (set with bond_reach): a pair
  // closer than bond_sure is a bond, one at bond_never or farther is not, and
  // between the two (1e-9 of r apart) BO' itself decides; 0: no bracket.
  double bond_sure, bond_never;
};

struct ThreeBodyParams {
  double theta_00, p_val1, p_val2, p_val4, p_val7, p_pen1, p_coa1;
};
struct ThreeBodySets {
  int cnt;
  ThreeBodyParams prm[kMaxThreeBodySets];
};

struct HbondParams {
  double r0_hb, p_hb1, p_hb2, p_hb3;
};

struct FourBodyParams {
  double V1, V2, V3, p_tor1, p_cot1;
};
struct FourBodySets {
  int cnt;
  FourBodyParams prm[kMaxFourBodySets];
};

// Read-only view handed to the physics functions (host or device pointers).
struct ForceFieldView {
  int num_types;
  const double *gp;  // kNumGlobalParams general parameters
  const SingleBodyParams *sbp;
  const TwoBodyParams *tbp;   // [i * n + j]
  const ThreeBodySets *thbp;  // [(i * n + j) * n + k]
  const HbondParams *hbp;     // [(i * n + j) * n + k]
  const FourBodySets *fbp;    // [((i * n + j) * n + k) * n + l]
  // Which van der Waals form the elements ask for: 1 shielded Morse, 2 inner
  // wall without shielding, 3 inner wall + shielding (LAMMPS gp.vdw_type).
  int vdw_type;

  PMD_HD const TwoBodyParams &two(int i, int j) const { return tbp[i * num_types + j]; }
  PMD_HD const ThreeBodySets &three(int i, int j, int k) const {
    return thbp[(i * num_types + j) * num_types + k];
  }
  PMD_HD const HbondParams &hbond(int i, int j, int k) const {
    return hbp[(i * num_types + j) * num_types + k];
  }
  PMD_HD const FourBodySets &four(int i, int j, int k, int l) const {
    return fbp[((i * num_types + j) * num_types + k) * num_types + l];
  }
};

// Host-side owner of the parameters.
struct ForceField {
  int num_types = 0;
  std::vector<double> gp;
  std::vector<SingleBodyParams> sbp;
  std::vector<TwoBodyParams> tbp;
  std::vector<ThreeBodySets> thbp;
  std::vector<HbondParams> hbp;
  std::vector<FourBodySets> fbp;
  int vdw_type = 0;  // see ForceFieldView::vdw_type
  // Non-fatal findings of the reader (adjusted values, missing blocks), each
  // naming file and line; the adapter prints them as LAMMPS warnings.
  std::vector<std::string> warnings;
  // Entries naming an element index beyond the file's elements, which LAMMPS
  // skips silently (LAMMPS's own ffield.reax.rdx has one): one line for the
  // log, empty if none.
  std::string ignored_entries;

  // Derived cut-offs carried by the ffield's general parameters.
  double nonb_low() const { return gp[11]; }  // taper inner radius (swa)
  double nonb_cut() const { return gp[12]; }  // taper outer radius (swb)
  double bo_cut() const { return 0.01 * gp[29]; }

  int find_element(const std::string &name) const;  // case-insensitive, -1 if absent

  ForceFieldView view() const {
    return ForceFieldView{num_types,   gp.data(),  sbp.data(), tbp.data(),
                          thbp.data(), hbp.data(), fbp.data(), vdw_type};
  }
};

// Parse an ffield file. Throws puremd::InputError with a message naming the
// file, line and what was expected when the file is missing or malformed.
// lgvdw: the file carries the low-gradient dispersion extension (a fifth line
// per element and a ninth off-diagonal column), as pair_style keyword lgvdw.
ForceField read_force_field(const std::string &path, bool lgvdw = false);

}  // namespace puremd
