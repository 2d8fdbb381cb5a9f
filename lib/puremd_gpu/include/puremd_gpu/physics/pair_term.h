// What every non-bonded pair term returns, and the unit constants of the
// charge terms (Coulomb, polarization, ACKS2), as pair_style reaxff has them.
#pragma once

namespace puremd {

constexpr double kCoulombCele = 332.06371;       // kcal/mol A / e^2
constexpr double kPolarizationEvToKcal = 23.02;  // kcal/mol per eV (ReaxFF's value)

// A pair term: energy and (dE/dr) / r.
struct PairTerm {
  double e;
  double ce;
};

}  // namespace puremd
