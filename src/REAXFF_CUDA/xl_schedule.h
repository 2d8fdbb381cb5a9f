/* The extended-Lagrangian schedule of fix qeq/reaxff/gpu ... xlmd yes:
   which QEqXl mode each solve runs (puremd_gpu/qeq.h), from what the fix
   tells it (a run's set-up, the minimizer, atoms created, a solve done, a
   run ended) and what it carries in restart files. Pure values, no MPI and
   no LAMMPS state: the fix gathers the facts (atom counts, creations on any
   rank, the positions' fingerprint) and this decides, so the schedule is
   tested alone (unittest/lammps/test_xl_schedule.cpp).

   A run's set-up solves to the tolerance, leaving the auxiliary vectors
   (Hold) where the run continues the last one's trajectory (an MD run at
   the step where the last run ended, the positions the same), refilling
   them (Start) anywhere else; the minimizer's solves refill them; after a
   Start the next K solves of MD steps converge (Warm); then each MD step
   runs the fixed iterations (Step). Vectors that are missing, of another
   atom count or of atoms created since force a Start. */
#ifndef LMP_REAXFF_GPU_XL_SCHEDULE_H
#define LMP_REAXFF_GPU_XL_SCHEDULE_H

#include <algorithm>
#include <array>
#include <cmath>

#include "puremd_gpu/qeq.h"

namespace LAMMPS_NS {

class XlSchedule {
 public:
  // restart values: a layout tag (never 0 or 1, the first value of the
  // earlier layout), then readiness, atoms, position print, order, warm-up
  static constexpr int kRestartValues = 9;
  static constexpr double kRestartFormat = -27.2;
  using RestartValues = std::array<double, kRestartValues>;

  explicit XlSchedule(int order = puremd::kQEqXlDefaultOrder) : order_(order) {}

  // The positions' fingerprint where a run ended, and its scale: two equal
  // within round-off of summing them in another order are the same.
  struct Print {
    double value = 0.0, scale = 0.0;
  };

  // A run's set-up (md: an MD run, not a minimization or rerun) at `step`:
  // whether its first solve should compare the positions with the last
  // run's end (only then is `same` asked for)
  bool may_continue(bool md, long long step) const {
    return md && print_valid_ && step == print_step_;
  }
  // ... and the set-up's request: Hold where it continues, else Start
  void run_setup(bool continues) { next_ = continues ? puremd::QEqXl::Hold : puremd::QEqXl::Start; }
  bool same(const Print &now) const {
    return std::fabs(now.value - print_.value) <= 1e-12 * std::max(now.scale, print_.scale);
  }
  void minimizer() { next_ = puremd::QEqXl::Start; }

  // The mode of the solve at hand, `natoms` atoms now, `created` whether
  // any rank created atoms since the last solve.
  puremd::QEqXl choose(long long natoms, bool created) {
    const bool ready = ready_ && natoms_ == natoms && !created;
    mode_ = ready ? next_ : puremd::QEqXl::Start;
    if (mode_ == puremd::QEqXl::Step && warm_left_ > 0) mode_ = puremd::QEqXl::Warm;
    return mode_;
  }
  puremd::QEqXl mode() const { return mode_; }
  // That solve done: the vectors are this run's, an MD step asks Step next.
  void solved(long long natoms) {
    ready_ = true;
    natoms_ = natoms;
    next_ = puremd::QEqXl::Step;
    if (mode_ == puremd::QEqXl::Start) warm_left_ = order_;
    if (mode_ == puremd::QEqXl::Warm) --warm_left_;
  }
  void run_ended(long long step, const Print &at_end) {
    print_ = at_end;
    print_step_ = step;
    print_valid_ = true;
  }

  RestartValues restart_values() const {
    return {kRestartFormat,
            ready_ ? 1.0 : 0.0,
            static_cast<double>(natoms_),
            print_valid_ ? 1.0 : 0.0,
            print_.value,
            print_.scale,
            static_cast<double>(print_step_),
            static_cast<double>(order_),
            static_cast<double>(warm_left_)};
  }
  // LAMMPS gives no size: the first value says which layout follows (an
  // earlier one, without it, begins with 0 or 1 and is not read further);
  // auxiliary vectors of another order are not this scheme's history.
  void read_restart(const double *v) {
    ready_ = false;
    if (v[0] != kRestartFormat) return;
    ready_ = v[1] != 0.0 && static_cast<int>(v[7]) == order_;
    natoms_ = static_cast<long long>(v[2]);
    print_valid_ = v[3] != 0.0;
    print_ = {v[4], v[5]};
    print_step_ = static_cast<long long>(v[6]);
    warm_left_ = std::min(std::max(static_cast<int>(v[8]), 0), order_);
  }

 private:
  int order_;                                 // the scheme's K (xlk)
  bool ready_ = false;                        // the history holds auxiliary vectors
  long long natoms_ = -1;                     // ... of this many atoms
  int warm_left_ = 0;                         // Warm solves still due after a Start
  puremd::QEqXl next_ = puremd::QEqXl::Step;  // what the next solve asks
  puremd::QEqXl mode_ = puremd::QEqXl::Off;   // what the solve at hand runs
  bool print_valid_ = false;                  // where the last run ended
  Print print_;
  long long print_step_ = -1;
};

}  // namespace LAMMPS_NS

#endif
