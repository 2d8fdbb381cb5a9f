// When FSAI's G (physics/qeq_fsai.h) is built again, the same rule for both
// drivers. G's columns are owned atoms' indices and its values come from
// their positions at the build: it stays valid while the owned atoms keep
// their indices (the same ids in the same order: LAMMPS re-neighbouring
// without an exchange or a sort leaves them), and it preconditions as well
// for a while after, the atoms having moved little (bench/README, issue 54:
// as good rebuilt every 20th solve as at every one). So: built again when the
// owned atoms were reordered, when the counts or the radius change, or every
// kFsaiRefreshSolves solves; and, under extended-Lagrangian charges, at a
// run's first solve (QEqXl Hold, or a Start after a solve of another mode):
// there the fixed-iteration solves make G part of the trajectory, and a run
// read from a restart file, which carries no G, must go on as the run that
// wrote it (np 4: 3e-7 in the charges after 20 steps, with G kept from the
// run before). The minimizer's solves, each a Start, keep G as any
// converged solve does (a rebuild costs about a solve: bench/README).
#pragma once

#include "puremd_gpu/qeq.h"

namespace puremd {

constexpr int kFsaiRefreshSolves = 20;

struct FsaiBuild {
  int n_local = -1, rows = -1;  // what G was built for (-1: none)
  double radius = -1.0;
  int solves = 0;           // solves with this G so far
  QEqXl last = QEqXl::Off;  // the mode of the solve before

  // Keep G for a solve of these counts, radius and extended-Lagrangian mode,
  // the owned atoms being those of the build (same ids, same order) or not;
  // counts the solve.
  bool keep(int nl, int n_rows, double r, QEqXl xl, bool owned_same) {
    const bool run_starts = xl == QEqXl::Hold || (xl == QEqXl::Start && last != QEqXl::Start);
    last = xl;
    const bool same = owned_same && !run_starts && nl == n_local && n_rows == rows && r == radius &&
                      solves < kFsaiRefreshSolves;
    if (same) {
      ++solves;
      return true;
    }
    n_local = nl;
    rows = n_rows;
    radius = r;
    solves = 1;
    return false;
  }
};

}  // namespace puremd
