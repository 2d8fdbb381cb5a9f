/* Reading a small input file on rank 0 only, as LAMMPS does (the charge
   fixes' parameter files), without the trap that comes with it: error->one on rank 0 alone leaves
   the other ranks waiting in the broadcast that follows (with LAMMPS exceptions on, as in the
   library interface, that wait never ends). */
#ifndef LMP_REAXFF_GPU_READ_ON_ROOT_H
#define LMP_REAXFF_GPU_READ_ON_ROOT_H

#include <exception>
#include <string>
#include <vector>

#include "lammps.h"
#include "library_call.h"

namespace LAMMPS_NS {

class TextFileReader;

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
  stop_all_if_any(lmp, message);
}

// The per-type lines of a charge fix's file, "itype v_1 ... v_k" (k =
// columns.size()), one per atom type 1..ntypes in any order: v_m goes to
// (*columns[m])[itype]. Throws TokenizerException naming the fix `style`,
// the file (`file`, e.g. "parameter file") and the line `format` when a
// line is missing, has another count or names a type out of range.
void read_type_lines(TextFileReader &reader, int ntypes, const char *style, const std::string &file,
                     const std::string &format, const std::vector<std::vector<double> *> &columns);

// Rank 0's columns to every rank (each already sized on every rank).
void broadcast_columns(LAMMPS *lmp, const std::vector<std::vector<double> *> &columns);

}  // namespace LAMMPS_NS

#endif
