// Dense references for the charge solvers' tests: a direct solve and the
// QEq matrix element written out in closed form (taper and shielding).
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

}  // namespace qeq_test
