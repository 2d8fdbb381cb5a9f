// Seventh-order taper polynomial Tap(r) that switches the long-range terms
// (van der Waals, Coulomb, the QEq matrix) smoothly off between an inner radius
// `low` and the outer radius `high` (the force field's nonb_low / nonb_cut):
// Tap(low) = 1, Tap(high) = 0, and its first three derivatives vanish at both
// ends. Tap(r) = sum_k c[k] r^k.
#pragma once

#include "puremd_gpu/hd.h"

namespace puremd {

struct Taper {
  double c[8];
};

// Coefficients of the taper for the window [low, high] (high > low).
PMD_HD PMD_INLINE Taper make_taper(double low, double high) {
  const double w7 = pow(high - low, 7.0);
  const double a = low, a2 = a * a, a3 = a * a * a;
  const double b = high, b2 = b * b, b3 = b * b * b;
  Taper t;
  t.c[7] = 20.0 / w7;
  t.c[6] = -70.0 * (a + b) / w7;
  t.c[5] = 84.0 * (a2 + 3.0 * a * b + b2) / w7;
  t.c[4] = -35.0 * (a3 + 9.0 * a2 * b + 9.0 * a * b2 + b3) / w7;
  t.c[3] = 140.0 * (a3 * b + 3.0 * a2 * b2 + a * b3) / w7;
  t.c[2] = -210.0 * (a3 * b2 + a2 * b3) / w7;
  t.c[1] = 140.0 * a3 * b3 / w7;
  t.c[0] = (-35.0 * a3 * b2 * b2 + 21.0 * a2 * b3 * b2 - 7.0 * a * b3 * b3 + b3 * b3 * b) / w7;
  return t;
}

// Tap(r) and (dTap/dr) / r, both by Horner's rule (r > 0, inv_r = 1 / r:
// callers that have it pay no division here).
PMD_HD PMD_INLINE void taper_eval(const Taper &t, double r, double inv_r, double &tap,
                                  double &dtap_over_r) {
  double p = t.c[7];
  for (int k = 6; k >= 0; --k) p = p * r + t.c[k];
  tap = p;
  // dTap/dr / r = sum_{k>=2} k c[k] r^(k-2) + c[1] / r
  double q = 7.0 * t.c[7] * r + 6.0 * t.c[6];
  q = q * r + 5.0 * t.c[5];
  q = q * r + 4.0 * t.c[4];
  q = q * r + 3.0 * t.c[3];
  q = q * r + 2.0 * t.c[2];
  dtap_over_r = q + t.c[1] * inv_r;
}
PMD_HD PMD_INLINE void taper_eval(const Taper &t, double r, double &tap, double &dtap_over_r) {
  taper_eval(t, r, 1.0 / r, tap, dtap_over_r);
}

}  // namespace puremd
