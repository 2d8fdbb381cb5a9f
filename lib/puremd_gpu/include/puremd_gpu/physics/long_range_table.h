// Look-up of the tabulated (cubic-spline) van der Waals and Coulomb terms; the
// tables themselves are built on the host by build_long_range_tables().
//
// Knots x_m = m dx, m = 1 .. n-1 (dx = nonb_cut / tabulate, n = tabulate + 2;
// the last knot repeats the value at nonb_cut). Entry m (1 <= m <= n-2) of each
// coefficient array holds the cubic on [x_m, x_m+1], expanded about its right
// end: f(r) = a + b u + c u^2 + d u^3, u = r - (m+1) dx. Distances below dx use
// the first interval (m = 1), extrapolated. Entries 0 and n-1 are unused.
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd {

PMD_HD PMD_INLINE double cubic_eval(const CubicCoef &k, double u) {
  return ((k.d * u + k.c) * u + k.b) * u + k.a;
}

// Tapered pair terms at distance r: vdW energy and (dE/dr)/r, and the Coulomb
// energy and (dE/dr)/r per unit charge product (multiply by q_i q_j).
struct LongRangeValues {
  double e_vdw, ce_vdw;
  double e_ele, ce_ele;
};

// Interval index and offset u for distance r (0 < r <= nonb_cut).
PMD_HD PMD_INLINE int long_range_interval(const LongRangeTable &t, double r, double &u) {
  int m = static_cast<int>(r * t.inv_dx);
  if (m == 0) m = 1;
  if (m > t.n - 2) m = t.n - 2;  // only r beyond nonb_cut could get here
  u = r - static_cast<double>(m + 1) * t.dx;
  return m;
}

PMD_HD PMD_INLINE LongRangeValues long_range_lookup(const LongRangeTable &t, double r) {
  double u;
  const int m = long_range_interval(t, r, u);
  LongRangeValues out;
  out.e_vdw = cubic_eval(t.vdW[m], u);
  out.ce_vdw = cubic_eval(t.CEvd[m], u);
  out.e_ele = cubic_eval(t.ele[m], u);
  out.ce_ele = cubic_eval(t.CEclmb[m], u);
  return out;
}

}  // namespace puremd
