/* fix qeq/reaxff/gpu: the QEq parameters per atom type, from pair_style
   reaxff/gpu or a parameter file (see fix_qeq_reaxff_gpu.h). */
#include <string>
#include <vector>

#include "atom.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "fix_qeq_reaxff_gpu.h"
#include "kokkos_atoms.h"
#include "pair_reaxff_gpu.h"
#include "platform.h"
#include "read_on_root.h"
#include "text_file_reader.h"
#include "utils.h"

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   chi, eta, gamma per atom type: from pair_style reaxff/gpu or a file
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::pertype_parameters(const char *arg) {
  if (utils::strmatch(arg, "^reaxff")) {
    reaxflag = 1;
    extract_pair_parameters();
    return;
  }
  if (utils::strmatch(arg, "^reax/c"))
    error->all(FLERR, "Fix {} keyword 'reax/c' is obsolete; please use 'reaxff'", style);
  if (!platform::file_is_readable(arg))
    error->all(FLERR,
               "Fix {}: params must be 'reaxff' or a readable parameter file; cannot read '{}'",
               style, arg);

  reaxflag = 0;
  read_parameter_file(arg);
  check_parameters();
}

/* one line "itype chi eta gamma" per atom type, read on rank 0 */
void FixQEqReaxFFGPU::read_parameter_file(const char *arg) {
  const std::vector<std::vector<double> *> columns{&chi, &eta, &gamma};
  for (std::vector<double> *c : columns) c->assign(atom->ntypes + 1, 0.0);
  read_on_root(lmp, comm->me, [&] {
    TextFileReader reader(arg, "qeq/reaxff parameter");
    reader.ignore_comments = true;
    read_type_lines(reader, atom->ntypes, style, "parameter file", "itype chi eta gamma", columns);
  });
  broadcast_columns(lmp, columns);
}

/* ---------------------------------------------------------------------- */

void FixQEqReaxFFGPU::extract_pair_parameters() {
  Pair *pair = PairReaxFFGPU::find(lmp);
  if (!pair) error->all(FLERR, kNeedsOurPair, style, style);

  int dim = 0;
  auto pchi = static_cast<double *>(pair->extract("chi", dim));
  auto peta = static_cast<double *>(pair->extract("eta", dim));
  auto pgamma = static_cast<double *>(pair->extract("gamma", dim));
  if (!pchi || !peta || !pgamma)
    error->all(FLERR,
               "Fix {} could not extract the QEq parameters from pair_style reaxff/gpu "
               "(define pair_coeff before the fix)",
               style);

  const int ntypes = atom->ntypes;
  chi.assign(pchi, pchi + ntypes + 1);
  eta.assign(peta, peta + ntypes + 1);
  gamma.assign(pgamma, pgamma + ntypes + 1);

  check_parameters();
}

/* ----------------------------------------------------------------------
   every atom type in the group needs QEq parameters with eta > 0, except
   types that pair_coeff maps to NULL: their atoms take no part in QEq
------------------------------------------------------------------------- */

void FixQEqReaxFFGPU::check_parameters() {
  const PairReaxFFGPU *pair = PairReaxFFGPU::find(lmp);
  const int *map = pair ? pair->type_map() : nullptr;
  int missing = 0, bad_eta = 0;
  reaxff_gpu::host_arrays_current(lmp, MASK_MASK | TYPE_MASK);
  for (int i = 0; i < atom->nlocal; ++i) {
    if (!(atom->mask[i] & groupbit)) continue;
    const int t = atom->type[i];
    if (map && map[t] < 0) continue;
    if (chi[t] == 0.0 && eta[t] == 0.0 && gamma[t] == 0.0)
      missing = t;
    else if (!(eta[t] > 0.0))
      bad_eta = t;
  }
  int all[2] = {0, 0}, mine[2] = {missing, bad_eta};
  MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, world);
  if (all[0] && reaxflag)
    error->all(FLERR, "No QEq parameters for atom type {} provided by pair_style reaxff/gpu",
               all[0]);
  if (all[0])
    error->all(FLERR, "Fix {}: the parameter file gives atom type {} no QEq parameters", style,
               all[0]);
  if (all[1])
    error->all(FLERR, "Fix {}: QEq parameter eta of atom type {} is {}; it must be positive", style,
               all[1], eta[all[1]]);
}
