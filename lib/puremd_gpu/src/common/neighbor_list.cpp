#include "puremd_gpu/neighbor_list.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace puremd {

void build_half_neighbor_list(const vec3 *x, int n_local, int n_total, double cut_local,
                              double cut_ghost, const int *skip, HalfNeighborList &out) {
  out.cell_slots = 0;
  out.start.assign(n_total, 0);
  out.end.assign(n_total, 0);
  out.nbr.clear();
  if (n_total == 0) return;

  const double cut = std::max(cut_local, cut_ghost);
  vec3 lo = x[0], hi = x[0];
  for (int i = 1; i < n_total; ++i) {
    lo = {std::min(lo.x, x[i].x), std::min(lo.y, x[i].y), std::min(lo.z, x[i].z)};
    hi = {std::max(hi.x, x[i].x), std::max(hi.y, x[i].y), std::max(hi.z, x[i].z)};
  }
  // Cells of half the largest cut-off: a row searches only as many cells as
  // its own cut-off needs (ghost rows use the much shorter bond cut-off).
  // Ghost atoms come with explicit coordinates, so there is no periodic wrap.
  const double cell = 0.5 * cut;
  auto ncell = [&](double extent) {  // at most 2^20 a side: keys fit 64 bits
    return static_cast<long long>(std::min(1048576.0, std::max(1.0, std::floor(extent / cell))));
  };
  const long long nx = ncell(hi.x - lo.x), ny = ncell(hi.y - lo.y), nz = ncell(hi.z - lo.z);
  const double sx = nx / std::max(hi.x - lo.x, 1e-300), sy = ny / std::max(hi.y - lo.y, 1e-300),
               sz = nz / std::max(hi.z - lo.z, 1e-300);
  auto cell_of = [&](const vec3 &p, long long &cx, long long &cy, long long &cz) {
    cx = std::min(nx - 1, static_cast<long long>((p.x - lo.x) * sx));
    cy = std::min(ny - 1, static_cast<long long>((p.y - lo.y) * sy));
    cz = std::min(nz - 1, static_cast<long long>((p.z - lo.z) * sz));
  };
  auto key_of = [&](long long cx, long long cy, long long cz) { return (cz * ny + cy) * nx + cx; };

  // Atoms by cell, ascending index within a cell (a stable sort by key).
  // Where the grid has at most a few cells per atom, a cell's atoms are found
  // by its key directly; otherwise through the occupied cells only.
  std::vector<long long> atom_key(n_total);
  for (int i = 0; i < n_total; ++i) {
    long long cx, cy, cz;
    cell_of(x[i], cx, cy, cz);
    atom_key[i] = key_of(cx, cy, cz);
  }
  std::vector<int> cell_atoms(n_total);
  std::iota(cell_atoms.begin(), cell_atoms.end(), 0);
  std::stable_sort(cell_atoms.begin(), cell_atoms.end(),
                   [&](int a, int b) { return atom_key[a] < atom_key[b]; });
  const long long ncells = nx * ny * nz;
  const bool dense = ncells <= 8LL * n_total + 64;
  std::vector<int> cell_start;                                  // dense: ncells + 1
  std::unordered_map<long long, std::pair<int, int>> occupied;  // sparse: key -> range
  if (dense) {
    cell_start.assign(static_cast<size_t>(ncells) + 1, 0);
    for (int i = 0; i < n_total; ++i) ++cell_start[atom_key[i] + 1];
    for (long long c = 0; c < ncells; ++c) cell_start[c + 1] += cell_start[c];
    out.cell_slots = cell_start.size();
  } else {
    for (int p = 0; p < n_total;) {
      int q = p;
      while (q < n_total && atom_key[cell_atoms[q]] == atom_key[cell_atoms[p]]) ++q;
      occupied.emplace(atom_key[cell_atoms[p]], std::make_pair(p, q));
      p = q;
    }
    out.cell_slots = occupied.size();
  }
  auto cell_range = [&](long long c) -> std::pair<int, int> {
    if (dense) return {cell_start[c], cell_start[c + 1]};
    const auto it = occupied.find(c);
    return it == occupied.end() ? std::make_pair(0, 0) : it->second;
  };

  // Visit every partner j > i of atom i within its row's cut-off.
  auto for_each_partner = [&](int i, auto &&visit) {
    if (skip && skip[i]) return;
    const double rc = i < n_local ? cut_local : cut_ghost;
    if (rc <= 0) return;
    const double rc2 = rc * rc;
    long long cx, cy, cz;
    cell_of(x[i], cx, cy, cz);
    // Cells are at least `cell` wide, so rc/cell (rounded up) cells suffice,
    // and never more than the grid has: where the atoms' extent is 0 in a
    // direction (atoms in one plane), its scale is 1e300, and rc times it
    // cast to an integer overflowed (no partner was found).
    auto reach = [&](double scale, long long n) {
      return static_cast<long long>(std::min(std::ceil(rc * scale), static_cast<double>(n)));
    };
    const long long rx = reach(sx, nx), ry = reach(sy, ny), rz = reach(sz, nz);
    for (long long z = std::max(cz - rz, 0LL); z <= std::min(cz + rz, nz - 1); ++z)
      for (long long y = std::max(cy - ry, 0LL); y <= std::min(cy + ry, ny - 1); ++y)
        for (long long xx = std::max(cx - rx, 0LL); xx <= std::min(cx + rx, nx - 1); ++xx) {
          const auto [first, last] = cell_range(key_of(xx, y, z));
          for (int p = first; p < last; ++p) {
            const int j = cell_atoms[p];
            if (j <= i || (skip && skip[j])) continue;
            const vec3 dr = x[j] - x[i];
            if (norm2_host_rounding(dr) <= rc2) visit(j, dr);
          }
        }
  };

  // Count, prefix sum, fill: rows are written in place without reallocation.
  for (int i = 0; i < n_total; ++i) {
    int count = 0;
    for_each_partner(i, [&](int, const vec3 &) { ++count; });
    out.end[i] = count;
  }
  ListPos total = 0;
  for (int i = 0; i < n_total; ++i) {
    out.start[i] = total;
    total += out.end[i];
    out.end[i] = out.start[i];
  }
  out.nbr.resize(static_cast<size_t>(total));
  for (int i = 0; i < n_total; ++i)
    for_each_partner(i, [&](int j, const vec3 &) { out.nbr[out.end[i]++] = j; });
}

}  // namespace puremd
