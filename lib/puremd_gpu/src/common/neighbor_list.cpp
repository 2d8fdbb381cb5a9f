#include "puremd_gpu/neighbor_list.h"

#include <algorithm>
#include <cmath>

namespace puremd {

void build_half_neighbor_list(const vec3 *x, int n_local, int n_total, double cut_local,
                              double cut_ghost, const int *skip, HalfNeighborList &out) {
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
  auto ncell = [&](double extent) {
    return static_cast<int>(std::min(1024.0, std::max(1.0, std::floor(extent / cell))));
  };
  const int nx = ncell(hi.x - lo.x), ny = ncell(hi.y - lo.y), nz = ncell(hi.z - lo.z);
  const double sx = nx / std::max(hi.x - lo.x, 1e-300), sy = ny / std::max(hi.y - lo.y, 1e-300),
               sz = nz / std::max(hi.z - lo.z, 1e-300);
  auto cell_of = [&](const vec3 &p, int &cx, int &cy, int &cz) {
    cx = std::min(nx - 1, static_cast<int>((p.x - lo.x) * sx));
    cy = std::min(ny - 1, static_cast<int>((p.y - lo.y) * sy));
    cz = std::min(nz - 1, static_cast<int>((p.z - lo.z) * sz));
  };

  // Bin atoms by cell with a counting sort (count -> prefix sum -> fill).
  const size_t ncells = static_cast<size_t>(nx) * ny * nz;
  std::vector<int> cell_start(ncells + 1, 0), cell_atoms(n_total), atom_cell(n_total);
  for (int i = 0; i < n_total; ++i) {
    int cx, cy, cz;
    cell_of(x[i], cx, cy, cz);
    atom_cell[i] = (cz * ny + cy) * nx + cx;
    ++cell_start[atom_cell[i] + 1];
  }
  for (size_t c = 0; c < ncells; ++c) cell_start[c + 1] += cell_start[c];
  {
    std::vector<int> fill(cell_start.begin(), cell_start.end() - 1);
    for (int i = 0; i < n_total; ++i) cell_atoms[fill[atom_cell[i]]++] = i;
  }

  // Visit every partner j > i of atom i within its row's cut-off.
  auto for_each_partner = [&](int i, auto &&visit) {
    if (skip && skip[i]) return;
    const double rc = i < n_local ? cut_local : cut_ghost;
    if (rc <= 0) return;
    const double rc2 = rc * rc;
    int cx, cy, cz;
    cell_of(x[i], cx, cy, cz);
    // Cells are at least `cell` wide, so rc/cell (rounded up) cells suffice.
    const int rx = static_cast<int>(std::ceil(rc * sx)), ry = static_cast<int>(std::ceil(rc * sy)),
              rz = static_cast<int>(std::ceil(rc * sz));
    for (int z = std::max(cz - rz, 0); z <= std::min(cz + rz, nz - 1); ++z)
      for (int y = std::max(cy - ry, 0); y <= std::min(cy + ry, ny - 1); ++y)
        for (int xx = std::max(cx - rx, 0); xx <= std::min(cx + rx, nx - 1); ++xx) {
          const int c = (z * ny + y) * nx + xx;
          for (int p = cell_start[c]; p < cell_start[c + 1]; ++p) {
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
  int total = 0;
  for (int i = 0; i < n_total; ++i) {
    out.start[i] = total;
    total += out.end[i];
    out.end[i] = out.start[i];
  }
  out.nbr.resize(total);
  for (int i = 0; i < n_total; ++i)
    for_each_partner(i, [&](int j, const vec3 &) { out.nbr[out.end[i]++] = j; });
}

}  // namespace puremd
