// Host stage: bond list and hydrogen-bond partner list from the far-neighbour
// list, with the inclusion rules of pair_style reaxff; per-step workspace reset.
#include <algorithm>
#include <vector>

#include "host/host_context.h"
#include "puremd_gpu/physics/bond_order.h"
#include "puremd_gpu/physics/pair_lists.h"

namespace puremd::host {

namespace {

// Rows laid out by a prefix sum over the counts in `end`; on return start[r]
// is the first entry of row r, end[r] == start[r] (the fill cursor) and
// start[n] the total.
int layout_rows(CsrStore &rows, int n) {
  int total = 0;
  for (int r = 0; r < n; ++r) {
    const int count = rows.end[r];
    rows.start[r] = total;
    rows.end[r] = total;
    total += count;
  }
  rows.start[n] = total;
  return total;
}

void reset_rows(CsrStore &rows, int n) {
  ensure_size(rows.start, static_cast<size_t>(n) + 1);
  ensure_size(rows.end, static_cast<size_t>(n));
  std::fill_n(rows.start.begin(), n + 1, 0);
  std::fill_n(rows.end.begin(), n, 0);
}

void zero_workspace(HostContext &c, int n) {
#define PUREMD_WORKSPACE_ZERO(T, name)         \
  ensure_size(c.name, static_cast<size_t>(n)); \
  std::fill_n(c.name.begin(), n, T{});
  PUREMD_WORKSPACE(PUREMD_WORKSPACE_ZERO)
#undef PUREMD_WORKSPACE_ZERO
}

// The PairListFlag bits of every far entry (physics/pair_lists.h).
std::vector<unsigned char> far_pair_flags(const HostContext &c, int n) {
  const StepView &v = c.view;
  std::vector<unsigned char> flags(c.far.nbr.size(), 0);
  for (int i = 0; i < n; ++i) {
    const PairListRow r = pair_list_row(i, v);
    for (ListPos p = c.far.start[i]; p < c.far.end[i]; ++p)
      flags[p] = pair_list_flags(r, c.far.nbr[p], v);
  }
  return flags;
}

// Bonds (kPairBond), stored in the rows of both atoms. Rows are filled in
// far-list order, each pair appended to both rows as it is met, so a row
// lists first the partners of lower index, then its own far entries.
void build_bonds(HostContext &c, int n, const std::vector<unsigned char> &flags) {
  const HalfNeighborList &far = c.far;
  const ForceField &ff = *c.ff;
  const double bo_cut = c.control.bo_cut;

  CsrStore &rows = c.bond_rows;
  reset_rows(rows, n);
  for (int i = 0; i < n; ++i)
    for (ListPos p = far.start[i]; p < far.end[i]; ++p)
      if (flags[p] & kPairBond) {
        ++rows.end[i];
        ++rows.end[far.nbr[p]];
      }
  const size_t total = static_cast<size_t>(layout_rows(rows, n));
  ensure_size(c.bond_nbr, total);
  ensure_size(c.bond_sym, total);
  ensure_size(c.bond_d, total);
  ensure_size(c.bond_dvec, total);
  ensure_size(c.bond_bo, total);

  for (int i = 0; i < n; ++i) {
    for (ListPos p = far.start[i]; p < far.end[i]; ++p) {
      if (!(flags[p] & kPairBond)) continue;
      const int j = far.nbr[p];
      const int pi = rows.end[i]++, pj = rows.end[j]++;
      const TwoBodyParams &t = ff.tbp[c.type[i] * ff.num_types + c.type[j]];
      // One evaluation for both directions: the j row gets the same record
      // (its derivatives point along its own dvec, the negated one).
      const PairGeometry geo = pair_geometry(c.x[i], c.x[j]);
      const BondOrderPrime prime =
          bond_order_prime(ff.sbp[c.type[i]], ff.sbp[c.type[j]], t, geo.d, bo_cut);
      c.bond_nbr[pi] = j;
      c.bond_nbr[pj] = i;
      c.bond_sym[pi] = pj;
      c.bond_sym[pj] = pi;
      c.bond_d[pi] = c.bond_d[pj] = geo.d;
      c.bond_dvec[pi] = geo.dvec;
      c.bond_dvec[pj] = -geo.dvec;
      init_bond_order(prime, t, geo.d, bo_cut, c.bond_bo[pi]);
      c.bond_bo[pj] = c.bond_bo[pi];
    }
  }
}

// Hydrogen-bond partners (kPairHbondRow / kPairHbondNbr): the row of each
// owned hydrogen lists its acceptors, owned or ghost, in far-list order; only
// owned rows carry the flags.
void build_hbond_partners(HostContext &c, int n_local, int n,
                          const std::vector<unsigned char> &flags) {
  const HalfNeighborList &far = c.far;
  CsrStore &rows = c.hb_rows;
  reset_rows(rows, n);

  // visit(h, a): acceptor a goes into the row of hydrogen h.
  auto for_each_pair = [&](auto &&visit) {
    for (int i = 0; i < n_local; ++i)
      for (ListPos p = far.start[i]; p < far.end[i]; ++p) {
        if (flags[p] & kPairHbondRow)
          visit(i, far.nbr[p]);
        else if (flags[p] & kPairHbondNbr)
          visit(far.nbr[p], i);
      }
  };

  for_each_pair([&](int h, int) { ++rows.end[h]; });
  const size_t total = static_cast<size_t>(layout_rows(rows, n));
  ensure_size(c.hb_nbr, total);
  for_each_pair([&](int h, int a) { c.hb_nbr[rows.end[h]++] = a; });
}

}  // namespace

void build_bond_and_hbond_lists(HostContext &c) {
  const int n_local = c.view.atoms.n_local, n = c.view.atoms.n_total;
  zero_workspace(c, n);
  const std::vector<unsigned char> flags = far_pair_flags(c, n);
  build_bonds(c, n, flags);
  build_hbond_partners(c, n_local, n, flags);
  c.refresh_view();
}

}  // namespace puremd::host
