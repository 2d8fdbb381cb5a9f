/* fix acks2/reaxff/gpu: see the header. */
#include "fix_acks2_reaxff_gpu.h"

#include <mpi.h>

#include <algorithm>
#include <string>

#include "atom.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "kokkos_atoms.h"
#include "pair.h"
#include "pair_reaxff_gpu.h"
#include "read_on_root.h"
#include "style_registry.h"
#include "text_file_reader.h"
#include "tokenizer.h"
#include "update.h"
#include "utils.h"

using namespace LAMMPS_NS;

namespace {
// fix acks2/reaxff's syntax: QEq's, with matfree (as QEq's own_keyword
// takes it) and without the extended Lagrangian.
ChargeModelSyntax acks2_syntax() {
  ChargeModelSyntax s;
  s.cg = false;  // BiCGStab, with its own diagonal preconditioner
  s.keywords = {{"matfree", 0}};
  s.keyword_usage = " [matfree]";
  return s;
}
}  // namespace

FixAcks2ReaxFFGPU::FixAcks2ReaxFFGPU(LAMMPS *lmp, int narg, char **arg)
    : FixQEqReaxFFGPU(lmp, narg, arg, acks2_syntax()) {
  method = "BiCGStab";
}

/* bcut_acks2 and the bond softness come with chi, eta, gamma from the force
   field (the softness is its general parameter 34) */
void FixAcks2ReaxFFGPU::extract_pair_parameters() {
  FixQEqReaxFFGPU::extract_pair_parameters();
  Pair *pair = PairReaxFFGPU::find(lmp);
  int dim = 0;
  auto pbcut = static_cast<double *>(pair->extract("bcut_acks2", dim));
  auto psoft = static_cast<double *>(pair->extract("bond_softness", dim));
  if (!pbcut || !psoft)
    error->all(FLERR, "Fix {} could not extract the ACKS2 parameters from pair_style reaxff/gpu",
               style);
  bcut_acks2.assign(pbcut, pbcut + atom->ntypes + 1);
  bond_softness = *psoft;
}

/* fix acks2/reaxff's file: the bond softness on the first line, then one
   line "itype chi eta gamma bcut_acks2" per atom type, read on rank 0 */
void FixAcks2ReaxFFGPU::read_parameter_file(const char *arg) {
  const std::vector<std::vector<double> *> columns{&chi, &eta, &gamma, &bcut_acks2};
  for (std::vector<double> *c : columns) c->assign(atom->ntypes + 1, 0.0);
  read_on_root(lmp, comm->me, [&] {
    TextFileReader reader(arg, "acks2/reaxff parameter");
    reader.ignore_comments = true;
    const char *first = reader.next_line();
    if (!first)
      throw TokenizerException(fmt::format("Fix {}: parameter file {} is empty", style, arg), "");
    ValueTokenizer softness(first);
    if (softness.count() != 1)
      throw TokenizerException(
          fmt::format("Fix {}: the parameter file's first line must be the bond softness", style),
          first);
    bond_softness = softness.next_double();
    read_type_lines(reader, atom->ntypes, style, "parameter file", "itype chi eta gamma bcut_acks2",
                    columns);
  });
  broadcast_columns(lmp, columns);
  MPI_Bcast(&bond_softness, 1, MPI_DOUBLE, 0, world);
}

// u has an entry for every atom LAMMPS holds (new entries 0).
void FixAcks2ReaxFFGPU::size_potentials() {
  const size_t n = std::max(atom->nmax, atom->nlocal + atom->nghost);
  if (u.size() < n) u.resize(n, 0.0);
}

void FixAcks2ReaxFFGPU::charge_model(puremd::QEqProblem &in) {
  FixQEqReaxFFGPU::charge_model(in);  // fix efield shifts chi, as for QEq
  size_potentials();
  acks2.bcut = bcut_acks2.data();
  acks2.softness = bond_softness;
  acks2.u = u.data();
  in.model = &acks2;
}

/* a solve on every Nevery-th step; between solves, u of the owned atoms is
   the last solve's (the charge history, which moves with the atoms), sent
   to the ghosts for the pair style */
void FixAcks2ReaxFFGPU::pre_force(int vflag) {
  if (update->ntimestep % nevery == 0) {
    FixQEqReaxFFGPU::pre_force(vflag);
    return;
  }
  size_potentials();
  reaxff_gpu::host_arrays_current(lmp, MASK_MASK);
  const int nlocal = atom->nlocal;
  const int *mask = atom->mask;
  history_call("t_history", [&] {
    for (int i = 0; i < nlocal; ++i)
      if (mask[i] & groupbit) u[i] = history.t(i, 0);
  });
  forward_per_atom(u.data());
}

double FixAcks2ReaxFFGPU::memory_usage() {
  return FixQEqReaxFFGPU::memory_usage() + static_cast<double>(u.capacity() * sizeof(double));
}

namespace {
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::fix_style(
    {"acks2/reaxff/gpu", "acks2/reax/gpu"}, "ACKS2 charges for pair_style reaxff/gpu",
    &reaxff_gpu::new_charge_fix<FixAcks2ReaxFFGPU>)};
}  // namespace
