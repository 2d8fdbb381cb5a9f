// The host's half neighbour list (both the host driver's far list and the host
// QEq solver's pairs): the same pairs whatever space the atoms span, with an
// index that follows the atoms (issue 42: one atom 2500 A away made the old
// grid 500^3 cells, 11 s and 1.3 GB for RDX's 105 atoms).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>
#include <vector>

#include "puremd_gpu/neighbor_list.h"

namespace {

using Pairs = std::set<std::pair<int, int>>;

Pairs pairs_of(const puremd::HalfNeighborList &l, int n) {
  Pairs out;
  for (int i = 0; i < n; ++i)
    for (puremd::ListPos p = l.start[i]; p < l.end[i]; ++p) out.insert({i, l.nbr[p]});
  return out;
}

// Every pair within the row's cut-off, by brute force.
Pairs brute_force(const std::vector<puremd::vec3> &x, int n_local, double cut_local,
                  double cut_ghost) {
  Pairs out;
  const int n = static_cast<int>(x.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const double rc = i < n_local ? cut_local : cut_ghost;
      const puremd::vec3 d = x[j] - x[i];
      if (d.x * d.x + d.y * d.y + d.z * d.z <= rc * rc) out.insert({i, j});
    }
  return out;
}

TEST(NeighborList, FarAtomKeepsPairsAndIndexFollowsAtoms) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 18.0);
  std::vector<puremd::vec3> x(300);
  for (auto &p : x) p = {u(rng), u(rng), u(rng)};
  const int n_local = 200;  // the rest play ghosts (shorter cut-off)
  puremd::HalfNeighborList compact, spread;
  build_half_neighbor_list(x.data(), n_local, 300, 10.0, 4.5, nullptr, compact);
  EXPECT_EQ(pairs_of(compact, 300), brute_force(x, n_local, 10.0, 4.5));

  for (double d : {1000.0, 2500.0, 1e7}) {
    std::vector<puremd::vec3> far = x;
    far.push_back({d, d, d});  // a ghost far from the rest
    build_half_neighbor_list(far.data(), n_local, 301, 10.0, 4.5, nullptr, spread);
    EXPECT_EQ(pairs_of(spread, 301), pairs_of(compact, 300)) << "atom at " << d;
    EXPECT_LE(spread.cell_slots, 4 * 301u)
        << "cell index grew with the space (atom at " << d << ")";
  }
}

}  // namespace

// Atoms in one plane, or on one line (no extent in some directions: two
// atoms of a molecule in a box with no periodic image near them): every pair
// within the cut-off is found. The reach in cells of a flat direction was
// the cut-off times a scale of 1e300, which overflowed when cast to an
// integer: the pair was lost.
TEST(NeighborList, AtomsInAPlaneOrOnALine) {
  for (const std::vector<puremd::vec3> &x :
       {std::vector<puremd::vec3>{{10.0, 10.0, 13.0}, {11.3, 10.0, 13.0}},
        std::vector<puremd::vec3>{
            {1.0, 2.0, 3.0}, {1.0, 2.5, 3.0}, {1.0, 9.0, 3.0}, {1.0, 14.0, 3.0}},
        std::vector<puremd::vec3>{{0.0, 0.0, 5.0}, {3.0, 4.0, 5.0}, {6.0, 0.0, 5.0}}}) {
    puremd::HalfNeighborList list;
    const int n = static_cast<int>(x.size());
    puremd::build_half_neighbor_list(x.data(), n, n, 10.0, 10.0, nullptr, list);
    int found = 0, want = 0;
    for (int i = 0; i < n; ++i) {
      found += static_cast<int>(list.end[i] - list.start[i]);
      for (int j = i + 1; j < n; ++j) {
        const double dx = x[j].x - x[i].x, dy = x[j].y - x[i].y, dz = x[j].z - x[i].z;
        want += dx * dx + dy * dy + dz * dz <= 100.0;
      }
    }
    EXPECT_EQ(found, want) << n << " atoms";
  }
}
