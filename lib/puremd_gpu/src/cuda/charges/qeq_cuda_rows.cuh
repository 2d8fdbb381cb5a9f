// Which entries make up row i of the CUDA QEq solver's matrix H, read from
// the engine's far list of the step: the one statement of the row rules,
// used by the stored matrix's builder (qeq_cuda_matrix.cu) and by the
// matrix-free product (qeq_cuda_solve.cu).
//
// Every matrix pair has an owned atom, its lower index k, so it is in the
// far list's row k (pairs within cut_local at this step's positions). Row i
// of the matrix takes
//   1. its partners k < i: the owned rows that hold i, from the reverse
//      index (built with the list behind the far list, so within cut_local +
//      skin: the distance is checked here, at the current positions, with
//      the same rounding as the far list's own filter), in the index's
//      (cell) order;
//   2. for an owned row, its far row: partners j > i, in the far list's order.
// A ghost row takes only part 1 (its owned partners); its entries are folded
// into its owner's row after the product. In halo mode (several ranks) a
// ghost of another rank's atom has no row: its pairs are kept in full in
// the owned rows, and its value comes through the halo exchange.
//
// A matrix stored once (QEqMatrix::Half, and the matrix-free product) takes
// part 2 alone: each pair once, in the row of its owned lower-index atom;
// ghost rows are empty. Its product adds the transpose by scatter.
#pragma once

#include "cuda/charges/qeq_cuda_types.h"
#include "cuda/engine_atoms.h"
#include "cuda/lane_group.cuh"
#include "puremd_gpu/physics/acks2.h"
#include "puremd_gpu/physics/qeq_matrix.h"

namespace puremd::cuda {

// One candidate entry of a row: kept or not, its column, its squared
// distance and the (row, column) atoms whose shielding it takes (the owned
// atom first for a ghost row).
struct QEqCandidate {
  bool take = false;
  int col = -1, row = 0, column = 0;
  double d2 = 0.0;
};

// Shielding of the candidate's pair; a type without parameters is flagged
// and gives 0 (the solve is abandoned).
__device__ __forceinline__ double qeq_row_shield(const QEqRowArgs &a, const QEqCandidate &c) {
  if (!a.type) return qeq_shielding(a.gamma[c.row], a.gamma[c.column]);
  const int tr = a.type[c.row], tc = a.type[c.column];
  if (tr < 0 || tr >= a.num_types || tc < 0 || tc >= a.num_types) {
    if (atomicCAS(a.bad_type, 0ull, 1ull) == 0ull)
      a.bad_type[1] = static_cast<unsigned long long>((tr < 0 || tr >= a.num_types) ? tr : tc);
    return 0.0;
  }
  return a.shield[tr * a.num_types + tc];
}

// The candidate's matrix element (flags a bad type, see qeq_row_shield).
__device__ __forceinline__ double qeq_row_value(const QEqRowArgs &a, const QEqCandidate &c) {
  return qeq_offdiag(sqrt(c.d2), qeq_row_shield(a, c), a.taper);
}

// ACKS2's X element of the candidate's pair (0 beyond its bcut, or for a
// type without parameters, which qeq_row_shield flags).
__device__ __forceinline__ double acks2_row_value(const QEqRowArgs &a, const QEqCandidate &c) {
  double bi, bj;
  if (a.type) {
    const int tr = a.type[c.row], tc = a.type[c.column];
    if (tr < 0 || tr >= a.num_types || tc < 0 || tc >= a.num_types) return 0.0;
    bi = a.bcut[tr];
    bj = a.bcut[tc];
  } else {
    bi = a.bcut[c.row];
    bj = a.bcut[c.column];
  }
  const double bcut = acks2_pair_cutoff(bi, bj);
  const double r = sqrt(c.d2);
  return r > bcut ? 0.0 : acks2_bond_softness(r, bcut, a.softness).x;
}

// ACKS2's X entry of a candidate: its bond softness when the candidate is
// kept, else 0; X stores the non-zero ones (counted by k_list_rows, written
// by k_acks2_x_rows: the same rule in both).
__device__ __forceinline__ double acks2_x_entry(const QEqRowArgs &a, const QEqCandidate &c) {
  return c.take ? acks2_row_value(a, c) : 0.0;
}

// Halo mode: ghost j is another rank's atom (QEqRowArgs::owner).
__device__ __forceinline__ bool qeq_remote_ghost(const QEqRowArgs &a, int j) {
  return a.owner && j >= a.far.n_local && a.owner[j - a.far.n_local] < 0;
}

// Part 2's rule for owned row i (id tag_i) and its far partner j at
// d = x_j - x_i, |d|^2 = d2: within the cut-off, and a pair with a ghost
// only if it is this rank's. The tiles' masks (qeq_matrix_half_tiles.cu) keep
// their pairs by it too.
// In halo mode a pair with another rank's atom is kept whatever the rule
// (both ranks keep it, each in its own atom's row).
__device__ __forceinline__ bool qeq_keeps_far_pair(const QEqRowArgs &a, long long tag_i, int j,
                                                   vec3 d, double d2) {
  return d2 <= a.cut2 && (j < a.far.n_local || qeq_remote_ghost(a, j) ||
                          ghost_pair_is_mine(tag_i, a.far.tag[j], d));
}

// The product's column of partner j: its owner for a ghost of this rank's
// atoms, the ghost itself for another rank's.
__device__ __forceinline__ int qeq_column(const QEqRowArgs &a, int j) {
  if (!a.owner || j < a.far.n_local) return j;
  const int o = a.owner[j - a.far.n_local];
  return o >= 0 ? o : j;
}

// Visits the candidates of row i in chunks of L (one per lane, in row
// order): visit(c) is called by every lane of the group for every chunk,
// with c.take false on lanes past the end or for entries the rules drop.
// kOnce: the row of a matrix that stores each pair once (part 2 only).
template <bool kOnce = false, int L, class Visit>
__device__ __forceinline__ void qeq_row_chunks(const LaneGroup<L> &g, const QEqRowArgs &a, int i,
                                               Visit &&visit) {
  if (a.active && !a.active[i]) return;
  const EngineAtoms &f = a.far;
  const bool ghost_row = i >= a.far.n_local;
  if (ghost_row && (kOnce || qeq_remote_ghost(a, i))) return;
  const vec3 xi = f.x[i];
  const long long tag_i = a.far.tag[i];
  // 1. partners k < i (owned rows that hold i)
  const ListPos r_end = kOnce ? 0 : f.rev_start[i + 1];
  for (ListPos q0 = kOnce ? 0 : f.rev_start[i]; q0 < r_end; q0 += L) {
    const ListPos q = q0 + g.lane;
    QEqCandidate c;
    if (q < r_end) {
      const int k = f.rev_row[q];  // owned, k < i
      if (!a.active || a.active[k]) {
        const vec3 d = xi - f.x[k];  // x_i - x_k, as in far row k
        c.d2 = norm2_host_rounding(d);
        c.take = c.d2 <= a.cut2 && (!ghost_row || ghost_pair_is_mine(a.far.tag[k], tag_i, d));
        c.col = k;
        c.row = ghost_row ? k : i;
        c.column = ghost_row ? i : k;
      }
    }
    visit(c);
  }
  if (ghost_row) return;
  // 2. the far row: partners j > i
  const ListPos f_end = f.end[i];
  for (ListPos p0 = f.start[i]; p0 < f_end; p0 += L) {
    const ListPos p = p0 + g.lane;
    QEqCandidate c;
    if (p < f_end) {
      const int j = f.nbr[p];
      if (!a.active || a.active[j]) {
        const vec3 d = f.x[j] - xi;
        c.d2 = norm2_host_rounding(d);
        c.take = qeq_keeps_far_pair(a, tag_i, j, d, c.d2);
        c.col = qeq_column(a, j);
        c.row = i;
        c.column = j;
      }
    }
    visit(c);
  }
}

}  // namespace puremd::cuda
