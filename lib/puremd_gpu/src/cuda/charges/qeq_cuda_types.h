// The values the CUDA QEq solver's parts share (the solver, qeq_cuda_solver.h,
// composes them): launch shapes, the row rules' inputs, the parameters, CG's
// device state, the read-back slots and what a model's own solve is lent.
// Value types and raw views only: no part includes the solver to read them.
#pragma once

#include <cuda_runtime.h>

#include "common/charges/qeq_cg_loop.h"
#include "cuda/device_buffer.h"
#include "cuda/engine_atoms.h"
#include "cuda/readback.h"
#include "puremd_gpu/qeq.h"

namespace puremd::cuda {

constexpr int kQEqBlock = 256;             // threads per block of every QEq kernel
constexpr int kQEqMaxReduceBlocks = 1024;  // blocks of the row kernels with partial sums
constexpr int kTileRows = 32;              // rows per tile of QEqMatrix::Half: the lanes of a warp

// Owner -> images map for folding ghost rows into owners on the device.
struct ImageMap {
  const int *start = nullptr, *end = nullptr, *idx = nullptr;  // null: no device fold
};

// What a kernel needs to know which entries a matrix row has (qeq_cuda_rows.cuh).
struct QEqRowArgs {
  EngineAtoms far;    // the atoms (counts, positions, ids, types as given) and the far list
  const int *active;  // null: all active
  const int *type;    // null: per-atom parameters
  int num_types;
  const double *shield, *gamma;
  // per ghost (null without ghosts): the owned atom it is an image of, or
  // -1 (several ranks) for another rank's atom, whose
  // value the halo exchange brings: its pairs are kept in full in the owned
  // rows (never summed back to its owner) and its own row is empty
  const int *owner;
  double cut2;
  Taper taper;
  unsigned long long *bad_type;  // slots kQEqBadTypeFlag, kQEqBadType
  // ACKS2 (null without): bcut_acks2 per type (type given) or per atom, and the softness
  const double *bcut;
  double softness;
};

// Per-type (type != null) or per-atom QEq parameters, on the device;
// chi_eff (n_local, QTPIE) replaces chi where given.
struct ParamArgs {
  const int *type;
  const double *chi, *eta, *chi_shift, *chi_eff;
};

// CG's state on the GPU (one rank, or peer sums): the scalars of iterations by
// parity (an iteration reads its own while it sets which systems run the
// next), rho = r . M^-1 r, |b| and the iteration counts.
struct CgState {
  CgStep step[2];
  double rho[2], b_norm[2];
  double stop[2];  // r . diag(H)^-1 r, the stopping rule's measure (physics/qeq_cg.h)
  int it[2];
  double tol;
  int max_iter;
  unsigned ticket;  // blocks done with their partial sums (qeq_last_block); 0 between kernels
};

// The QEq solver's read-back slots (slots_, readback.h): the input's checks
// and the matrix's sizes, which come home together where the matrix is sized.
enum QEqSlot : int {
  kQEqRows = 0,      // rows selected (cub::DeviceSelect's count)
  kQEqBadRow,        // lowest owned atom of the group qeq_row_parameters_ok rejects (kNoIndex)
  kQEqNoOwner,       // ghosts whose owner is not known (-1)
  kQEqEntries,       // H's entries (rows), the tiles' values
  kQEqEntries2,      // beside them: X's entries (rows), the tiles' entries or partners
  kQEqNonEmptyRows,  // rows of H with entries
  kQEqTileOverflow,  // a tile's partners did not fit its table
  kQEqBadTypeFlag,   // an atom type without QEq parameters was met (set once),
  kQEqBadType,       // and that type
  kNumQEqSlots
};

class QEqMatrixStore;
struct QEqMatrixSolve;
struct QEqMatrixPool;

// What a model that solves a system of its own (CudaChargeModel::solve)
// uses of the solve in progress, lent by the solver (CudaQEqSolver::parts).
struct CudaSolveParts {
  cudaStream_t stream = nullptr;
  MemoryTracker *mem = nullptr;
  DeviceArray<unsigned char> *cub = nullptr;         // the engine's CUB scratch
  Readback<QEqSlot, kNumQEqSlots> *slots = nullptr;  // (read by the matrix's build)
  const QEqSettings *settings = nullptr;             // CG's limits as the solve has them
  const ParamArgs *params = nullptr;
  const QEqRowArgs *row_args = nullptr;  // the row rules' inputs
  int n_local = 0, n_total = 0, n_rows = 0;
  const int *rows = nullptr;  // H's rows (the group's owned atoms), n_rows
  // CG's vectors, a double2 per atom (two quantities), sized for the solve
  double2 *x = nullptr, *b = nullptr, *r = nullptr, *d = nullptr, *p = nullptr, *w = nullptr;
  double *diag = nullptr, *diag_inv = nullptr;  // for H's diagonal and its inverse
  double *partial = nullptr;                    // row kernels' partial sums (reduce_blocks)
  DeviceArray<double> *q = nullptr;             // the charges on the GPU (n_total)
  // the history's mirror (per atom, depth) and its global block (host)
  double *hist = nullptr, *global_hist = nullptr;
  int hist_depth = 0;
  // H: the pool's arrays, this solve's way of holding it, what that reads
  const QEqMatrixPool *pool = nullptr;
  QEqMatrixStore *store = nullptr;
  const QEqMatrixSolve *matrix = nullptr;
  bool tiles = false;  // the store is Half in tiles (CudaHalfTiles)
};

}  // namespace puremd::cuda
