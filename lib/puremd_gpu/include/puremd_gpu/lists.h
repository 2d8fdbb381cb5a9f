// Views of the per-step data the library owns: atoms, the variable-length
// interaction lists and the per-atom workspace. Plain pointers, so the same
// structs describe host memory (reference driver) and device memory (CUDA).
//
// Lists are compressed rows: the entries of row r are [start[r], end[r]).
// Rows are laid out by a prefix sum over counts (with headroom), then filled;
// `end` lets a row be filled in place without another pass.
#pragma once

#include "puremd_gpu/control.h"
#include "puremd_gpu/energies.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/hd.h"
#include "puremd_gpu/physics/taper.h"

namespace puremd {

// Atoms 0..n_local-1 are owned by this rank; n_local..n_total-1 are ghosts
// (periodic images and neighbours' atoms), supplied with explicit positions.
struct AtomsView {
  int n_local = 0;
  int n_total = 0;
  const vec3 *x = nullptr;
  const int *type = nullptr;       // force-field element, -1 = not a ReaxFF atom
  const long long *tag = nullptr;  // global atom id (ties across sub-domains)
  const double *q = nullptr;       // charges (from QEq)
  const double *u = nullptr;       // ACKS2 effective potentials (eV), null without ACKS2
};

// A position in a list's entry arrays. The pair lists (far, skin, near,
// reverse) pass 2^31 entries at about 10 million atoms a GPU, so their row
// bounds are 64-bit; what an entry holds (an atom index) stays 32-bit, and
// so do the short lists (bonds, hydrogen bonds, three-body).
using ListPos = long long;

// Half list of pairs within range: a pair is stored once, in the row of its
// lower index. Rows of owned atoms hold pairs up to nonb_cut, rows of ghosts up
// to bond_cut (as pair_style reaxff does). Partners only: readers get
// x[nbr] - x[row] and the distance from pair_geometry (hd.h). Rows may hold
// more (the CUDA driver's skin list, within cut-off + skin at its build):
// every reader keeps to its own cut-off at the current positions.
struct FarNeighborList {
  const ListPos *start = nullptr, *end = nullptr;
  const int *nbr = nullptr;
};

// Bond order of one bond and the coefficients of its derivative. Cdbo, Cdbopi
// and Cdbopi2 collect dE/dBO, dE/dBO_pi, dE/dBO_pi2 during the energy terms;
// the chain rule dBO/dr is applied once at the end of the step.
//
// The derivatives of the uncorrected orders are along the bond, so a record
// keeps their scalars: dBO'/dx_i = dBOp * dvec (dvec of the record's row;
// likewise the pi channels). 21 doubles in 32-byte sectors, padded to 192
// bytes and aligned to 64 (the unit in which the GPU's L2 fetches memory),
// so that no record shares a sector or a 64-byte block with another. The
// first block holds what the Deltap sums read (the orders, dBOp) and what the
// energy terms add into (the dE/dBO sums); the correction's coefficients
// follow. Records that straddled sectors made the corrected bond orders 1.7x
// slower at HNS 16^3 (bench/README, issue 26, third pass).
struct alignas(64) BondOrder {
  double BO, BO_s, BO_pi, BO_pi2;               // sector 0
  double Cdbo, Cdbopi, Cdbopi2, dBOp;           // sector 1
  double C1dbo, C2dbo, C3dbo, C1dbopi;          // sector 2
  double C2dbopi, C3dbopi, C4dbopi, C1dbopi2;   // sector 3
  double C2dbopi2, C3dbopi2, C4dbopi2;          // sector 4
  double dBOp_pi;                               // dBO'_pi/dx_i over dvec, likewise pi-pi
  double dBOp_pi2, arm_exp_tor2, arm_exp_cot2;  // sector 5: ... and physics/torsion_arm.h
  double unused;
};
static_assert(sizeof(BondOrder) == 192, "BondOrder: three 64-byte blocks");

// Full bond list: each bond appears in the rows of both atoms; sym[p] is the
// index of the same bond in the other atom's row. dvec = x[nbr] - x[row].
struct BondList {
  int *start = nullptr, *end = nullptr;
  int *nbr = nullptr;
  int *sym = nullptr;
  double *d = nullptr;
  vec3 *dvec = nullptr;
  BondOrder *bo = nullptr;
};

// Hydrogen-bond partners: row = owned hydrogen atom, entries = acceptor atoms
// within hbond_cut. Partners only, as the far list: readers get x[nbr] -
// x[row] and the distance from pair_geometry (hd.h), the numbers the list's
// build tested (stored, they were a third of a KiB an atom for one read).
struct HbondList {
  int *start = nullptr, *end = nullptr;
  int *nbr = nullptr;
};

// Valence angles: row = bond entry p (i-j bond in the row of centre j),
// entries = third atoms k bonded to j, with pthb = k's bond entry in j's row.
// The gradients of cos(theta) are not stored: the angles and torsions form
// them from the two bonds' dvecs (angle_dcos), which they hold anyway.
struct ThreeBodyList {
  int *start = nullptr, *end = nullptr;
  int *thb = nullptr;
  int *pthb = nullptr;
  double *theta = nullptr, *cos_theta = nullptr;
};

// Per-atom intermediates of the bond-order and multi-body terms (rows 0..n_total-1).
// The per-atom workspace arrays, listed once as X(element type, name): the
// host driver's vectors (host/host_context.h), the CUDA driver's one block
// (cuda/cuda_context.cu) and the StepView below all derive from this list.
// A new array is one line here.
// clang-format off
#define PUREMD_WORKSPACE(X)                                               \
  X(double, total_bond_order)                                             \
  X(double, bo_prime_total)  /* sum of BO' over the row (Deltap's source) */ \
  X(double, Delta)                                                        \
  X(double, Delta_lp)                                                     \
  X(double, Delta_lp_temp)                                                \
  X(double, Delta_e)                                                      \
  X(double, Delta_boc)                                                    \
  X(double, Delta_val)                                                    \
  X(double, dDelta_lp)                                                    \
  X(double, dDelta_lp_temp)                                               \
  X(double, nlp)                                                          \
  X(double, nlp_temp)                                                     \
  X(double, Clp)                                                          \
  X(double, vlpex)                                                        \
  X(double, CdDelta)         /* dE/dDelta, folded into the chain rule */  \
  X(double, CdDeltap)        /* dE/dDeltap, from the chain rule's bonds */ \
  /* valence angles: what a centre's angles share, and dE/dSBO of them */ \
  X(double, val_SBO2)                                                     \
  X(double, val_dSBO2)                                                    \
  X(double, val_dSBO_dBO7)                                                \
  X(double, val_dSBO_dDelta)                                              \
  X(double, val_exp6)                                                     \
  X(double, val_dE_dSBO)
// clang-format on

struct Workspace {
#define PUREMD_WORKSPACE_POINTER(T, name) T *name = nullptr;
  PUREMD_WORKSPACE(PUREMD_WORKSPACE_POINTER)
#undef PUREMD_WORKSPACE_POINTER
};

// Doubles per atom of all workspace arrays together (a vec3 counts 3).
#define PUREMD_WORKSPACE_DOUBLES(T, name) +static_cast<int>(sizeof(T) / sizeof(double))
constexpr int kWorkspaceBlockDoubles = 0 PUREMD_WORKSPACE(PUREMD_WORKSPACE_DOUBLES);
#undef PUREMD_WORKSPACE_DOUBLES

// Where the energy terms put their results. grad holds dE/dx (the force is
// -grad); eatom / vatom are optional per-atom energy and virial (xx yy zz xy
// xz yz, LAMMPS order), both including ghost rows.
struct Tally {
  Energies *energy = nullptr;
  vec3 *grad = nullptr;
  double *eatom = nullptr;
  double *vatom = nullptr;
  const vec3 *x = nullptr;
  unsigned terms = kTermAll;

  PMD_HD bool on(unsigned term) const { return (terms & term) != 0; }

  PMD_HD void add_energy(double *total, double e) const { atomic_add(total, e); }

  // Per-atom energy share; callers split an interaction's energy among atoms.
  PMD_HD void add_eatom(int a, double e) const {
    if (eatom) atomic_add(&eatom[a], e);
  }

  // Add dE/dx_a = g. Every gradient of one interaction names the same
  // reference atom `ref`; since an interaction's gradients sum to zero, the
  // per-atom virial -(x_a - x_ref) (x) g_a sums to the global virial.
  PMD_HD void add_grad(int a, vec3 g, int ref) const {
    atomic_add(&grad[a], g);
    if (vatom) {
      double w[6];
      virial_of(x[a] - x[ref], g, w);
      for (int k = 0; k < 6; ++k) atomic_add(&vatom[6 * a + k], w[k]);
    }
  }
};

// Cubic-spline tables of the tapered vdW and Coulomb terms (control file's
// tabulate_long_range > 0), one per element pair, on r = [0, nonb_cut].
struct CubicCoef {
  double a, b, c, d;  // f(r) = a + b u + c u^2 + d u^3, u = r - r_k
};
struct LongRangeTable {
  int n = 0;  // number of grid points
  double dx = 0, inv_dx = 0;
  const CubicCoef *vdW = nullptr, *CEvd = nullptr;    // energy, dE/dr / r
  const CubicCoef *ele = nullptr, *CEclmb = nullptr;  // per unit charge product
};

// Everything a per-atom physics function may read or write in one step.
struct StepView {
  AtomsView atoms;
  ForceFieldView ff;
  Control control;
  FarNeighborList far;
  BondList bonds;
  HbondList hbonds;
  ThreeBodyList thb;
  Workspace ws;
  Tally tally;
  const LongRangeTable *lr = nullptr;  // [type_i * num_types + type_j], null = analytic
  // make_taper(control.nonb_low, control.nonb_cut), set with control by
  // set_view_control: on the GPU a kernel argument, so the nonbonded pairs read
  // its coefficients as constants instead of holding 16 registers for them.
  Taper nonb_taper{};
};

PMD_HD PMD_INLINE void set_view_control(StepView &v, const Control &c) {
  v.control = c;
  v.nonb_taper = make_taper(c.nonb_low, c.nonb_cut);
}

}  // namespace puremd
