/* Reading a small input file on rank 0 only, as LAMMPS does, without the
   trap that comes with it: error->one on rank 0 alone leaves the other
   ranks waiting in the broadcast that follows (with LAMMPS exceptions on,
   as in the library interface, that wait never ends). */
#ifndef LMP_REAXFF_GPU_READ_ON_ROOT_H
#define LMP_REAXFF_GPU_READ_ON_ROOT_H

#include <exception>
#include <string>

#include "lammps.h"

namespace LAMMPS_NS {

// Tells every rank what went wrong on rank 0 ("" when nothing did); a
// non-empty message stops every rank together with error->all.
void stop_all_if(LAMMPS *lmp, const std::string &root_message);

// Runs read() on rank 0; an exception it throws stops every rank.
template <class Read>
void read_on_root(LAMMPS *lmp, int me, Read &&read) {
  std::string message;
  if (me == 0) {
    try {
      read();
    } catch (std::exception &e) {
      message = e.what();
      if (message.empty()) message = "unreadable input file";
    }
  }
  stop_all_if(lmp, message);
}

}  // namespace LAMMPS_NS

#endif
