/* fix ave/atom's sampling schedule (Nevery, Nrepeat, Nfreq), the one both
   ways of fix reaxff/species follow: LAMMPS's fix beside pair_style
   reaxff/gpu (the pair fills tmpid / tmpbo on the steps it samples) and fix
   reaxff/species/gpu (which averages itself). A window is the Nrepeat
   multiples of Nevery that end on a multiple of Nfreq; the average is ready
   on that multiple of Nfreq. Pure arithmetic on steps, so it is tested alone
   (unittest/lammps/test_ave_atom_schedule.cpp). */
#ifndef LMP_REAXFF_GPU_AVE_ATOM_SCHEDULE_H
#define LMP_REAXFF_GPU_AVE_ATOM_SCHEDULE_H

#include "lmptype.h"

namespace LAMMPS_NS {

struct AveAtomSchedule {
  bigint nevery = 1, nrepeat = 1, nfreq = 1;

  // what fix ave/atom accepts (a schedule read from elsewhere is checked)
  bool valid() const {
    return nevery > 0 && nrepeat > 0 && nfreq > 0 && nfreq % nevery == 0 &&
           nrepeat * nevery <= nfreq;
  }
  // steps from a window's first sample to its last
  bigint window() const { return (nrepeat - 1) * nevery; }
  // steps from t to the next multiple of Nfreq (0 on one)
  bigint to_output(bigint t) const { return ((t + nfreq - 1) / nfreq) * nfreq - t; }
  // whether step t is one of a window's samples
  bool samples(bigint t) const { return t % nevery == 0 && to_output(t) <= window(); }
  // whether t is a window's first sample
  bool starts_window(bigint t) const { return samples(t) && to_output(t) == window(); }
  // whether t lies inside a window after its first sample
  bool inside_window(bigint t) const { return to_output(t) < window(); }
  // The first sample of a run set up on step t (fix ave/atom's): the first
  // window that starts on t or later, but t itself where Nrepeat is 1 and t a
  // multiple of Nfreq.
  bigint first_sample(bigint t) const {
    const bigint output = (t / nfreq) * nfreq + nfreq;
    if (output - nfreq == t && nrepeat == 1) return t;
    const bigint s = output - window();
    return s < t ? s + nfreq : s;
  }
  // the first sample of the window after the one whose last sample is t
  bigint next_window(bigint t) const { return t + nfreq - window(); }
};

}  // namespace LAMMPS_NS

#endif
