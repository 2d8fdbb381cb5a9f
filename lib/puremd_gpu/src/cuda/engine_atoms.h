// What the CUDA driver lends its QEq solver for one step (CudaEngine::
// solve_charges): the atoms as they are on the GPU and the step's
// far-neighbour list, so that the QEq matrix is assembled from the same
// pairs as the forces and nothing goes up twice.
//
// Half list: row i holds partners j > i in [start[i], end[i]) (partners
// only; x_j - x_i and the distance from pair_geometry). Owned rows (i <
// n_local) hold every partner of a ReaxFF type within cut_local, and with a
// skin more (the skin list is the far list: a reader tests the distance);
// ghost rows are shorter and not for QEq.
//
// The QEq matrix stores both (i, j) and (j, i), so it also needs, for each
// atom j, the owned rows that hold j: the reverse index rev_row[rev_start[j]
// .. rev_start[j + 1]), in cell order. It is built when the list it indexes is
// (the Verlet list behind the far list, so with cut_local + skin: a reader
// checks the distance at the current positions x). Row i of the far list
// and the reverse index together fit in [start[i] + rev_start[i], ...):
// rows of both lie in index order within row_room and rev_total entries.
//
// The far list is that Verlet list itself (the skin list; without a skin,
// the list built at this step), which lasts for several steps: list_build
// names its build, so that what a reader derives from it (the QEq tiles'
// partners) can last as long.
#pragma once

#include "puremd_gpu/hd.h"
#include "puremd_gpu/lists.h"

namespace puremd::cuda {

struct EngineAtoms {
  int n_local = 0, n_total = 0;
  const vec3 *x = nullptr;          // positions of the step
  const long long *tag = nullptr;   // ids, widened to 64 bits
  const int *type_given = nullptr;  // the caller's atom types, as given (StepInput::type)
  // the far list
  double cut_local = 0.0;
  const ListPos *start = nullptr, *end = nullptr;
  const int *nbr = nullptr;
  long long row_room = 0;  // start[i] + (room of row i) <= start[i + 1]; the last ends here
  const ListPos *rev_start = nullptr;
  const int *rev_row = nullptr;
  long long rev_total = 0;
  long list_build = -1;  // the build of the far list's rows
};

}  // namespace puremd::cuda
