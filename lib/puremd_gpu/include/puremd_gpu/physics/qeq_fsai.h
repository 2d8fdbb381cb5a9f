// The factorized sparse approximate inverse (FSAI) preconditioner of QEq's
// CG, one row of its factor at a time, written once for both drivers
// (host/charges/host_fsai.cpp, cuda/charges/qeq_cuda_fsai.cu).
//
// M^-1 = G^T G with G lower triangular in id order: row i of G has entries
// at i and at the atoms of this sub-domain (owned, or periodic images of
// owned atoms) with a smaller id within the pattern radius of i, at most
// kFsaiPattern - 1 of them, the nearest (ties by id). Its values solve
// H(J,J) g = e_i over that pattern J, scaled so that g_i = 1 /
// sqrt(((H(J,J))^-1)_ii): M^-1 is symmetric positive definite whatever the
// pattern, so CG stays CG. H(J,J) is computed from the pattern's positions
// relative to i (all within twice the radius, inside the QEq cut-off), not
// read from the stored matrix, so it is the same on every driver and
// format. Columns of other ranks' atoms are left out: M^-1 r needs nothing
// from another rank (block Jacobi between sub-domains).
//
// A row whose atom has more than kFsaiCandidates partners within the
// radius, or whose H(J,J) is not positive definite in floating point, is
// Jacobi's (g_i = 1 / sqrt(H_ii) alone).
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/physics/qeq_matrix.h"
#include "puremd_gpu/physics/taper.h"

namespace puremd {

inline constexpr const char *kQEqFsai = "fsai";
constexpr int kFsaiPattern = 16;            // entries of a row of G, its own included
constexpr int kFsaiCandidates = 32;         // lower partners within the radius a row may have
constexpr double kFsaiDefaultRadius = 3.5;  // A (bench/README: iterations by radius)

// A partner of the row's atom within the pattern radius with a smaller id.
struct FsaiCandidate {
  long long tag;
  int col;    // its index in this sub-domain (owned: the atom, image: its owner)
  int param;  // its QEq parameter index (type, or atom for per-atom parameters)
  double d2;  // squared distance to the row's atom
  vec3 rel;   // its position relative to the row's atom
};

PMD_HD PMD_INLINE bool fsai_nearer(const FsaiCandidate &a, const FsaiCandidate &b) {
  return a.d2 < b.d2 || (a.d2 == b.d2 && a.tag < b.tag);
}

// The pattern among c[0, n) (any order): the nearest kFsaiPattern - 1, as
// indices into c in order[0, m), ordered by id (then distance); returns m.
// (Indices are sorted, not the candidates: a GPU thread keeps them in
// shared memory, where moving a byte is cheaper than moving a candidate.)
PMD_HD PMD_INLINE int fsai_select(const FsaiCandidate *c, int n, unsigned char *order) {
  for (int a = 0; a < n; ++a) order[a] = static_cast<unsigned char>(a);
  for (int a = 1; a < n; ++a) {  // insertion sort by distance: n <= kFsaiCandidates
    const unsigned char v = order[a];
    int b = a;
    for (; b > 0 && fsai_nearer(c[v], c[order[b - 1]]); --b) order[b] = order[b - 1];
    order[b] = v;
  }
  const int m = n < kFsaiPattern - 1 ? n : kFsaiPattern - 1;
  auto before = [&](const FsaiCandidate &x, const FsaiCandidate &y) {
    return x.tag < y.tag || (x.tag == y.tag && fsai_nearer(x, y));
  };
  for (int a = 1; a < m; ++a) {
    const unsigned char v = order[a];
    int b = a;
    for (; b > 0 && before(c[v], c[order[b - 1]]); --b) order[b] = order[b - 1];
    order[b] = v;
  }
  return m;
}

// Row i of G over the pattern c[order[0]], .., c[order[m - 1]] (fsai_select's)
// and i itself (its parameter index param_i): g[0, m) at those columns, g[m]
// at i. eta and gamma by parameter index; a: room for (m + 1)^2 values
// (H(J,J) and its factor). Returns false (g[m] = 1 / sqrt(eta_i), the rest
// 0) where H(J,J) is not positive definite in floating point.
PMD_HD PMD_INLINE bool fsai_row(const FsaiCandidate *c, const unsigned char *order, int m,
                                int param_i, const double *eta, const double *gamma,
                                const Taper &taper, double *a, double *g) {
  const int k = m + 1;
  auto rel = [&](int x) { return x < m ? c[order[x]].rel : vec3{0.0, 0.0, 0.0}; };
  auto par = [&](int x) { return x < m ? c[order[x]].param : param_i; };
  for (int x = 0; x < k; ++x) {
    a[x * k + x] = eta[par(x)];
    for (int y = 0; y < x; ++y) {
      const vec3 d = rel(x) - rel(y);
      const double r = sqrt(norm2_host_rounding(d));
      a[x * k + y] = qeq_offdiag(r, qeq_shielding(gamma[par(x)], gamma[par(y)]), taper);
    }
  }
  // Cholesky, lower triangle in place
  for (int j = 0; j < k; ++j) {
    double d = a[j * k + j];
    for (int q = 0; q < j; ++q) d -= a[j * k + q] * a[j * k + q];
    if (!(d > 0.0)) {
      for (int x = 0; x < m; ++x) g[x] = 0.0;
      g[m] = 1.0 / sqrt(eta[param_i]);
      return false;
    }
    d = sqrt(d);
    a[j * k + j] = d;
    for (int x = j + 1; x < k; ++x) {
      double v = a[x * k + j];
      for (int q = 0; q < j; ++q) v -= a[x * k + q] * a[j * k + q];
      a[x * k + j] = v / d;
    }
  }
  // H(J,J) g = e_m: L y = e_m leaves y = 0 but y_m = 1 / L_mm; then L^T g = y
  for (int x = 0; x < m; ++x) g[x] = 0.0;
  g[m] = 1.0 / a[m * k + m];
  for (int x = k - 1; x >= 0; --x) {
    double v = g[x];
    for (int q = x + 1; q < k; ++q) v -= a[q * k + x] * g[q];
    g[x] = v / a[x * k + x];
  }
  const double scale = 1.0 / sqrt(g[m]);
  for (int x = 0; x < k; ++x) g[x] *= scale;
  return true;
}

}  // namespace puremd
