/* fix qtpie/reaxff/gpu: see fix_qtpie_reaxff_gpu.h. */
#include "fix_qtpie_reaxff_gpu.h"

#include <algorithm>
#include <exception>
#include <memory>

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "kokkos_atoms.h"
#include "neighbor.h"
#include "pair_reaxff_gpu.h"
#include "puremd_gpu/physics/qtpie.h"
#include "puremd_gpu/qeq.h"
#include "qeq_efield.h"
#include "read_on_root.h"
#include "style_registry.h"
#include "text_file_reader.h"
#include "tokenizer.h"
#include "utils.h"

using namespace LAMMPS_NS;

namespace {
// fix qtpie/reaxff's and qeq/rel/reaxff's syntax: QEq's with a gauss file
// after params and `scale`, without matfree or the extended Lagrangian.
ChargeModelSyntax overlap_syntax() {
  ChargeModelSyntax s;
  s.positional = 9;
  s.positional_usage = " gauss_file";
  s.keywords = {{"scale", 1}};
  s.keyword_usage = " [scale S]";
  return s;
}
}  // namespace

FixQtpieReaxFFGPU::FixQtpieReaxFFGPU(LAMMPS *lmp, int narg, char **arg)
    : FixQtpieReaxFFGPU(lmp, narg, arg, puremd::OverlapModel::Qtpie) {}

FixQtpieReaxFFGPU::FixQtpieReaxFFGPU(LAMMPS *lmp, int narg, char **arg, puremd::OverlapModel model)
    : FixQEqReaxFFGPU(lmp, narg, arg, overlap_syntax()), model(model) {
  gauss_file = arg[8];
}

// `scale`, the factor of fix efield's potential (fix qtpie/reaxff's keyword
// from LAMMPS 4Jul2026 on).
void FixQtpieReaxFFGPU::own_keyword(size_t k) {
  if (words[k] == "scale") phi_scale = utils::numeric(FLERR, keyword_value(k), false, lmp);
}

void FixQtpieReaxFFGPU::post_constructor() {
  FixQEqReaxFFGPU::post_constructor();
  read_exponents();
}

/* Gaussian orbital exponents per atom type, as fix qtpie/reaxff reads them;
   the overlap cut-off from the smallest. */
void FixQtpieReaxFFGPU::read_exponents() {
  exponent.assign(atom->ntypes + 1, 0.0);
  read_on_root(lmp, comm->me, [&] {
    TextFileReader reader(utils::open_potential(gauss_file, lmp, nullptr),
                          "qtpie/reaxff gaussian exponents");
    reader.ignore_comments = true;
    read_type_lines(reader, atom->ntypes, style, "gauss file " + gauss_file, "itype exponent",
                    {&exponent});
    for (int t = 1; t <= atom->ntypes; ++t)
      if (!(exponent[t] > 0.0))
        throw TokenizerException(
            fmt::format("Fix {}: invalid orbital exponent of type {} in gauss file (must be > 0)",
                        style, t),
            std::to_string(exponent[t]));
  });
  broadcast_columns(lmp, {&exponent});
  cutoff_bohr = puremd::qtpie_cutoff_bohr(*std::min_element(exponent.begin() + 1, exponent.end()));
}

/* The ghosts must reach the overlap cut-off, as fix qtpie/reaxff demands
   (once LAMMPS has set its cut-offs: at set-up). */
void FixQtpieReaxFFGPU::setup_pre_force(int vflag) {
  const double comm_cutoff = std::max(neighbor->cutneighmax, comm->cutghostuser);
  const double needed = cutoff_bohr / puremd::kBohrPerAngstrom;
  if (comm_cutoff < needed)
    error->all(FLERR,
               "comm cutoff = {} Angstrom is smaller than distance cutoff = {} Angstrom for "
               "overlap integrals in {}. Increase comm cutoff with comm_modify",
               comm_cutoff, needed, style);
  // fix qtpie/reaxff sums over every atom, also those of types pair_coeff
  // maps to NULL (pair hybrid); the CUDA driver's lists hold ReaxFF atoms only
  const int *map = reaxff ? reaxff->type_map() : nullptr;
  for (int t = 1; map && uses_overlaps() && t <= atom->ntypes; ++t)
    if (map[t] < 0)
      error->all(FLERR,
                 "Fix {}: atom type {} is mapped to NULL by pair_coeff; charges from orbital "
                 "overlaps need every atom type in pair_style reaxff/gpu",
                 style, t);
  FixQEqReaxFFGPU::setup_pre_force(vflag);
}

std::unique_ptr<QEqEfield> FixQtpieReaxFFGPU::find_efield() {
  return QEqEfield::find_qtpie(lmp, style);
}

void FixQtpieReaxFFGPU::charge_model(puremd::QEqProblem &in) {
  qtpie.model = model;
  qtpie.exponent = exponent.data();
  qtpie.phi = efield ? efield->potential_everywhere().data() : nullptr;
  qtpie.phi_scale = phi_scale;
  qtpie.cutoff_bohr = cutoff_bohr;
  in.model = &qtpie;
}

namespace {
const reaxff_gpu::RegisterStyle registered{
    reaxff_gpu::fix_style({"qtpie/reaxff/gpu"}, "QTPIE charges for pair_style reaxff/gpu",
                          &reaxff_gpu::new_charge_fix<FixQtpieReaxFFGPU>)};
}  // namespace
