#include "common/non_finite.h"

#include <cmath>
#include <cstdio>

namespace puremd {

bool step_scalars_finite(const Energies &e, const double virial[6]) {
  bool ok = std::isfinite(e.total());
  for (int k = 0; k < 6; ++k) ok = ok && std::isfinite(virial[k]);
  return ok;
}

NonFiniteAtom first_non_finite(int n, const double *x, const double *q, const double *f) {
  NonFiniteAtom bad;
  auto three = [&](const double *v, int i, const char *what) {
    const double *p = v + 3 * static_cast<long long>(i);
    if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])) return false;
    bad = NonFiniteAtom{i, what, {p[0], p[1], p[2]}};
    return true;
  };
  for (int i = 0; i < n; ++i) {
    if (x && three(x, i, "position")) return bad;
    if (q && !std::isfinite(q[i])) return NonFiniteAtom{i, "charge", {q[i], 0.0, 0.0}};
    if (f && three(f, i, "force")) return bad;
  }
  return bad;
}

std::string non_finite_message(const char *driver, const NonFiniteAtom &bad, long long id,
                               int n_local) {
  char value[160];
  if (std::string(bad.what) == "charge")
    std::snprintf(value, sizeof value, "%g", bad.value[0]);
  else
    std::snprintf(value, sizeof value, "(%g, %g, %g)", bad.value[0], bad.value[1], bad.value[2]);
  std::string who = id >= 0 ? "atom ID " + std::to_string(id) : "atom";
  who += " (" + std::string(bad.atom < n_local ? "owned" : "ghost") + ", index " +
         std::to_string(bad.atom) + ")";
  return std::string(driver) + ": the " + bad.what + " of " + who + " is not finite: " + value +
         "; the simulation has become unstable (a time step too long for the temperature, "
         "atoms placed too close, a force added elsewhere that diverged), or the input set it";
}

}  // namespace puremd
