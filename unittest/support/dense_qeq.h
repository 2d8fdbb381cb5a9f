// Dense references for the charge solvers' tests: a direct solve, the QEq
// matrix element written out in closed form (taper and shielding), the
// walk over a pair's periodic images, and the dense QEq matrix of a
// periodic system from them.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace qeq_test {

// Dense solve with partial pivoting.
inline std::vector<double> gauss_solve(std::vector<std::vector<double>> A, std::vector<double> b) {
  const int n = static_cast<int>(b.size());
  for (int k = 0; k < n; ++k) {
    int piv = k;
    for (int i = k + 1; i < n; ++i)
      if (std::fabs(A[i][k]) > std::fabs(A[piv][k])) piv = i;
    std::swap(A[k], A[piv]);
    std::swap(b[k], b[piv]);
    for (int i = k + 1; i < n; ++i) {
      const double f = A[i][k] / A[k][k];
      for (int j = k; j < n; ++j) A[i][j] -= f * A[k][j];
      b[i] -= f * b[k];
    }
  }
  std::vector<double> x(n);
  for (int i = n - 1; i >= 0; --i) {
    double v = b[i];
    for (int j = i + 1; j < n; ++j) v -= A[i][j] * x[j];
    x[i] = v / A[i][i];
  }
  return x;
}

inline double closed_form_taper(double r, double lo, double hi) {
  const double x = (r - lo) / (hi - lo);
  return 1.0 - 35.0 * std::pow(x, 4) + 84.0 * std::pow(x, 5) - 70.0 * std::pow(x, 6) +
         20.0 * std::pow(x, 7);
}

inline double closed_form_element(double r, double gi, double gj, double lo, double hi) {
  return 14.4 * closed_form_taper(r, lo, hi) / std::cbrt(r * r * r + 1.0 / std::pow(gi * gj, 1.5));
}

// f(r) for every periodic image of owned atom j (shifts of -1, 0, 1 box
// lengths along each axis) seen from owned atom i, i's own position left
// out: what a dense reference sums over for the pair (i, j).
template <class System, class F>
void for_each_image_distance(const System &sys, int i, int j, F &&f) {
  for (int sx = -1; sx <= 1; ++sx)
    for (int sy = -1; sy <= 1; ++sy)
      for (int sz = -1; sz <= 1; ++sz) {
        if (i == j && sx == 0 && sy == 0 && sz == 0) continue;
        const double dx = sys.x[3 * j] + sx * sys.L - sys.x[3 * i];
        const double dy = sys.x[3 * j + 1] + sy * sys.L - sys.x[3 * i + 1];
        const double dz = sys.x[3 * j + 2] + sz * sys.L - sys.x[3 * i + 2];
        f(std::sqrt(dx * dx + dy * dy + dz * dz));
      }
}

// H over the owned atoms `idx` of a periodic system (per-type eta and gamma),
// each pair summed over its images within hi (an atom's own images add to
// its diagonal).
template <class System>
std::vector<std::vector<double>> dense_qeq_matrix(const System &sys, const std::vector<int> &idx,
                                                  const std::vector<double> &eta,
                                                  const std::vector<double> &gamma, double lo,
                                                  double hi) {
  const int m = static_cast<int>(idx.size());
  std::vector<std::vector<double>> H(m, std::vector<double>(m, 0.0));
  for (int a = 0; a < m; ++a) {
    const int i = idx[a];
    H[a][a] = eta[sys.type[i]];
    for (int b = 0; b < m; ++b) {
      const int j = idx[b];
      for_each_image_distance(sys, i, j, [&](double r) {
        if (r <= hi)
          H[a][b] += closed_form_element(r, gamma[sys.type[i]], gamma[sys.type[j]], lo, hi);
      });
    }
  }
  return H;
}

}  // namespace qeq_test
