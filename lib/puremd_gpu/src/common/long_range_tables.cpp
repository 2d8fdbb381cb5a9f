// Cubic-spline tables of the tapered vdW and Coulomb pair terms.
//
// Grid and spline construction follow LAMMPS's pair_style reaxff so that a run
// with tabulate_long_range N gives the same numbers there and here:
//  - samples at r_m = m dx, m = 1 .. N (dx = nonb_cut / N), plus one extra knot
//    at (N+1) dx repeating the value at nonb_cut;
//  - the two derivative tables (CEvd, CEclmb) are natural splines;
//  - the two energy tables (vdW, ele) are "complete" splines whose end
//    conditions are those of LAMMPS, including its quirks: the slope given at
//    the first knot is the (dE/dr)/r sample there (vdW) or the Coulomb
//    (dE/dr)/r sample (ele); the slope at the last knot is the CEvd sample
//    (vdW) or the energy sample (ele); and the last right-hand side reads
//    f[n-1] - f[n-2]/h instead of (f[n-1] - f[n-2])/h. All those values are
//    ~0 at nonb_cut, where the taper vanishes, and the boundary effect decays
//    within a few intervals, but they are kept for bit-level agreement.
#include "puremd_gpu/long_range_tables.h"

#include <string>

#include "puremd_gpu/errors.h"
#include "puremd_gpu/physics/nonbonded.h"
#include "puremd_gpu/physics/taper.h"

namespace puremd {
namespace {

// Solve the tridiagonal system sub[i] x[i-1] + diag[i] x[i] + sup[i] x[i+1] =
// rhs[i], i = 0 .. n-1 (sub[0], sup[n-1] unused), by forward elimination and
// back substitution. sup and rhs are overwritten.
void solve_tridiagonal(const double *sub, const double *diag, double *sup, double *rhs, double *x,
                       int n) {
  sup[0] /= diag[0];
  rhs[0] /= diag[0];
  for (int i = 1; i < n; ++i) {
    const double pivot = diag[i] - sup[i - 1] * sub[i];
    sup[i] /= pivot;
    rhs[i] = (rhs[i] - rhs[i - 1] * sub[i]) / pivot;
  }
  x[n - 1] = rhs[n - 1];
  for (int i = n - 2; i >= 0; --i) x[i] = rhs[i] - sup[i] * x[i + 1];
}

// Interval coefficients from knot values f and second derivatives m2 (spacing
// h[k] between knots k and k+1): out[k] = cubic on [k, k+1] about knot k+1.
void spline_coefficients(const double *h, const double *f, const double *m2, int n,
                         CubicCoef *out) {
  for (int k = 1; k < n; ++k) {
    out[k - 1].d = (m2[k] - m2[k - 1]) / (6 * h[k - 1]);
    out[k - 1].c = m2[k] / 2;
    out[k - 1].b = (f[k] - f[k - 1]) / h[k - 1] + h[k - 1] * (2 * m2[k] + m2[k - 1]) / 6;
    out[k - 1].a = f[k];
  }
}

// Second-difference right-hand side of the spline equations at knot i.
double curvature_rhs(const double *h, const double *f, int i) {
  return 6 * ((f[i + 1] - f[i]) / h[i] - (f[i] - f[i - 1]) / h[i - 1]);
}

// Natural spline (zero second derivative at both ends) through n knots.
void natural_spline(const double *h, const double *f, int n, CubicCoef *out) {
  std::vector<double> sub(n, 0.0), diag(n, 0.0), sup(n, 0.0), rhs(n, 0.0), m2(n, 0.0);
  for (int i = 2; i < n - 1; ++i) sub[i] = h[i - 1];
  for (int i = 1; i < n - 1; ++i) diag[i] = 2 * (h[i - 1] + h[i]);
  for (int i = 1; i < n - 2; ++i) sup[i] = h[i];
  for (int i = 1; i < n - 1; ++i) rhs[i] = curvature_rhs(h, f, i);
  solve_tridiagonal(&sub[1], &diag[1], &sup[1], &rhs[1], &m2[1], n - 2);
  spline_coefficients(h, f, m2.data(), n, out);
}

// "Complete" spline with end conditions as LAMMPS sets them (see top of file).
// h must have n entries (the last one enters the final diagonal element).
void complete_spline(const double *h, const double *f, double slope0, double slope_last, int n,
                     CubicCoef *out) {
  std::vector<double> sub(n, 0.0), diag(n, 0.0), sup(n, 0.0), rhs(n, 0.0), m2(n, 0.0);
  for (int i = 1; i < n; ++i) sub[i] = h[i - 1];
  diag[0] = 2 * h[0];
  for (int i = 1; i < n; ++i) diag[i] = 2 * (h[i - 1] + h[i]);
  for (int i = 0; i < n - 1; ++i) sup[i] = h[i];
  rhs[0] = 6 * (f[1] - f[0]) / h[0] - 6 * slope0;
  rhs[n - 1] = 6 * slope_last - 6 * (f[n - 1] - f[n - 2] / h[n - 2]);
  for (int i = 1; i < n - 1; ++i) rhs[i] = curvature_rhs(h, f, i);
  solve_tridiagonal(sub.data(), diag.data(), sup.data(), rhs.data(), m2.data(), n);
  spline_coefficients(h, f, m2.data(), n, out);
}

}  // namespace

void build_long_range_tables(const ForceField &ff, const Control &control,
                             std::vector<LongRangeTable> &tables, std::vector<CubicCoef> &coefs,
                             const std::vector<bool> &used) {
  const int N = control.tabulate;
  if (N <= 0)
    throw InputError("tabulate_long_range must be positive to build tables (got " +
                     std::to_string(N) + ")");
  if (!(control.nonb_cut > control.nonb_low))
    throw InputError("taper radii: nonb_cut (" + std::to_string(control.nonb_cut) +
                     ") must exceed nonb_low (" + std::to_string(control.nonb_low) + ")");
  const int nt = ff.num_types;
  if (!used.empty() && static_cast<int>(used.size()) != nt)
    throw RuntimeError("build_long_range_tables: `used` needs one entry per element");
  auto in_use = [&](int t) { return used.empty() || used[t]; };

  const ForceFieldView view = ff.view();
  const Taper taper = make_taper(control.nonb_low, control.nonb_cut);
  const int kind = ff.vdw_type;
  const double dx = control.nonb_cut / N;
  const int n = N + 2;  // entries per coefficient array (0 and n-1 unused)
  const int knots = N + 1;

  int npairs = 0;
  for (int i = 0; i < nt; ++i)
    for (int j = i; j < nt; ++j)
      if (in_use(i) && in_use(j)) ++npairs;
  coefs.assign(static_cast<size_t>(npairs) * 4 * n, CubicCoef{0.0, 0.0, 0.0, 0.0});
  tables.assign(static_cast<size_t>(nt) * nt, LongRangeTable{});

  // Knot samples; index k <-> r = (k+1) dx, with k = N repeating k = N-1.
  std::vector<double> h(knots, dx), f_vdw(knots), f_cevd(knots), f_ele(knots), f_ceclmb(knots);
  size_t block = 0;
  for (int i = 0; i < nt; ++i) {
    for (int j = i; j < nt; ++j) {
      if (!(in_use(i) && in_use(j))) continue;
      const TwoBodyParams &tb = view.two(i, j);
      for (int m = 1; m <= N; ++m) {
        const double r = m * dx;
        double tap, dtap;
        const double inv_r = 1.0 / r;
        taper_eval(taper, r, inv_r, tap, dtap);
        const PairTerm vdw = vdw_pair(tb, kind, control.lgvdw, r, inv_r, tap, dtap);
        const PairTerm ele = coulomb_pair(tb.gamma, 1.0, 1.0, r, tap, dtap);
        f_vdw[m - 1] = vdw.e;
        f_cevd[m - 1] = vdw.ce;
        f_ele[m - 1] = ele.e;
        f_ceclmb[m - 1] = ele.ce;
      }
      f_vdw[N] = f_vdw[N - 1];
      f_cevd[N] = f_cevd[N - 1];
      f_ele[N] = f_ele[N - 1];
      f_ceclmb[N] = f_ceclmb[N - 1];

      CubicCoef *vdw_c = coefs.data() + block;
      CubicCoef *cevd_c = vdw_c + n;
      CubicCoef *ele_c = cevd_c + n;
      CubicCoef *ceclmb_c = ele_c + n;
      block += 4 * static_cast<size_t>(n);

      complete_spline(h.data(), f_vdw.data(), f_cevd[0], f_cevd[N - 1], knots, vdw_c + 1);
      natural_spline(h.data(), f_cevd.data(), knots, cevd_c + 1);
      complete_spline(h.data(), f_ele.data(), f_ceclmb[0], f_ele[N - 1], knots, ele_c + 1);
      natural_spline(h.data(), f_ceclmb.data(), knots, ceclmb_c + 1);

      LongRangeTable t;
      t.n = n;
      t.dx = dx;
      t.inv_dx = N / control.nonb_cut;
      t.vdW = vdw_c;
      t.CEvd = cevd_c;
      t.ele = ele_c;
      t.CEclmb = ceclmb_c;
      tables[static_cast<size_t>(i) * nt + j] = t;
      tables[static_cast<size_t>(j) * nt + i] = t;
    }
  }
}

}  // namespace puremd
