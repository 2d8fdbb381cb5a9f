// Storage behind the host reference driver: std::vectors that the StepView's
// plain pointers point into. Lists grow by resizing; refresh_view() re-points.
#pragma once

#include <vector>

#include "puremd_gpu/engine.h"
#include "puremd_gpu/lists.h"
#include "puremd_gpu/neighbor_list.h"

namespace puremd::host {

template <class T>
void ensure_size(std::vector<T> &v, size_t n) {
  if (v.size() < n) v.resize(n);
}

struct CsrStore {  // row bounds shared by all lists
  std::vector<int> start, end;
};

struct HostContext {
  const ForceField *ff = nullptr;
  Control control;

  // atoms
  std::vector<vec3> x;
  std::vector<int> type;
  std::vector<long long> tag;
  std::vector<double> q;
  std::vector<double> u;  // ACKS2 effective potentials; empty without ACKS2

  // far neighbours
  HalfNeighborList far;

  // long-range spline tables (control.tabulate > 0), see long_range_table.h
  std::vector<LongRangeTable> lr_tables;
  std::vector<CubicCoef> lr_coefs;

  // bonds
  CsrStore bond_rows;
  std::vector<int> bond_nbr, bond_sym;
  std::vector<double> bond_d;
  std::vector<vec3> bond_dvec;
  std::vector<BondOrder> bond_bo;

  // hydrogen bonds
  CsrStore hb_rows;
  std::vector<int> hb_nbr;

  // three-body (rows = bond entries)
  CsrStore thb_rows;
  std::vector<int> thb_k, thb_pthb;
  std::vector<double> thb_theta, thb_cos;

  // per-atom workspace (lists.h)
#define PUREMD_WORKSPACE_VECTOR(T, name) std::vector<T> name;
  PUREMD_WORKSPACE(PUREMD_WORKSPACE_VECTOR)
#undef PUREMD_WORKSPACE_VECTOR

  // outputs
  Energies energy;
  std::vector<vec3> grad;
  std::vector<double> eatom, vatom;

  StepView view;

  // Point `view` at the current vectors (call after any resize).
  void refresh_view();
};

// Pipeline stages of the host driver, in step order. Each takes the context,
// loops over atoms serially and calls the shared physics in physics/*.h.
void build_far_neighbors(HostContext &c);         // cell binning over owned + ghost atoms
void build_bond_and_hbond_lists(HostContext &c);  // uncorrected BO, bonds, hbond partners
void compute_bond_orders(HostContext &c);         // corrections f1-f5, Delta's
void build_three_body_list(HostContext &c);       // all atoms: count, prefix sum, fill
void compute_bonded(HostContext &c);              // owned: the stages of physics/stages.h
void compute_hydrogen_bonds(HostContext &c);
void compute_nonbonded(HostContext &c);            // vdW, Coulomb, polarization
void apply_bond_order_chain_rule(HostContext &c);  // dE/dBO * dBO/dr, once

}  // namespace puremd::host
