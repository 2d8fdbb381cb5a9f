#include "qeq_efield.h"

#include <cmath>
#include <string>

#include "atom.h"
#include "atom_masks.h"
#include "domain.h"
#include "error.h"
#include "fix_efield.h"
#include "force.h"
#include "kokkos_atoms.h"
#include "lammps_protected.h"
#include "memory.h"
#include "modify.h"
#include "region.h"
#include "update.h"

using namespace LAMMPS_NS;

namespace {

constexpr double kSmallField = 1.0e-14;  // fix qeq/reaxff's "no component" threshold

}  // namespace

// The run's one fix efield, initialised, in real units (what both charge
// models ask); null without one.
FixEfield *QEqEfield::the_fix(LAMMPS *lmp, const char *style) {
  const auto fixes = lmp->modify->get_fix_by_style("^efield");
  if (fixes.empty()) return nullptr;
  Error *error = lmp->error;
  if (fixes.size() > 1)
    error->all(FLERR, "There may be only one fix efield instance used with fix {}", style);
  auto *fix = dynamic_cast<FixEfield *>(fixes.front());
  if (!fix)
    error->all(FLERR, "Fix {} takes fix efield into charge equilibration, not fix {} ({})", style,
               fixes.front()->id, fixes.front()->style);
  fix->init();  // it may come after the charge fix in LAMMPS's fix list
  if (std::string(lmp->update->unit_style) != "real")
    error->all(FLERR, "Must use unit_style real with fix {} and external fields", style);
  return fix;
}

std::unique_ptr<QEqEfield> QEqEfield::find(LAMMPS *lmp, const char *qeq_style) {
  FixEfield *fix = the_fix(lmp, qeq_style);
  if (!fix) return nullptr;
  Error *error = lmp->error;
  const reaxff_gpu::EfieldRead e = reaxff_gpu::efield_state(fix);
  if (e.atom_style && !e.atom_potential)
    error->all(FLERR,
               "Atom-style external electric field requires atom-style potential variable when "
               "used with fix {}",
               qeq_style);
  const Domain *domain = lmp->domain;
  const int periodic[3] = {domain->xperiodic, domain->yperiodic, domain->zperiodic};
  for (int d = 0; d < 3; ++d)
    if (periodic[d] && (!e.constant[d] || std::fabs(e.field[d]) > kSmallField))
      error->all(FLERR,
                 "Must not have electric field component in direction of periodic boundary when "
                 "using charge equilibration with ReaxFF (fix {}: the {} direction is periodic)",
                 qeq_style, "xyz"[d]);
  return std::unique_ptr<QEqEfield>(new QEqEfield(lmp, fix));
}

std::unique_ptr<QEqEfield> QEqEfield::find_qtpie(LAMMPS *lmp, const char *qtpie_style) {
  FixEfield *fix = the_fix(lmp, qtpie_style);
  if (!fix) return nullptr;
  Error *error = lmp->error;
  const reaxff_gpu::EfieldRead e = reaxff_gpu::efield_state(fix);
  if (fix->groupbit != 1)
    error->all(FLERR, "Must use group id all for fix efield when using fix {}", qtpie_style);
  if (e.region)
    error->all(FLERR, "Keyword region not supported for fix efield when using fix {}", qtpie_style);
  if (e.atom_style)
    error->all(FLERR,
               "Fix {}: an atom-style fix efield is not supported (fix qtpie/reaxff reads its "
               "potential at ghost atoms, where fix efield does not set it); use a constant or "
               "equal-style field",
               qtpie_style);
  return std::unique_ptr<QEqEfield>(new QEqEfield(lmp, fix));
}

// fix efield's state with its variables evaluated now (as its post_force does).
reaxff_gpu::EfieldRead QEqEfield::evaluated() {
  reaxff_gpu::EfieldRead e = reaxff_gpu::efield_state(fix);
  if (!e.varying) return e;
  reaxff_gpu::efield_evaluate(fix);
  return reaxff_gpu::efield_state(fix);
}

const std::vector<double> &QEqEfield::potential_everywhere() {
  const int n = atom->nlocal + atom->nghost;
  phi.assign(n, 0.0);
  const reaxff_gpu::EfieldRead e = evaluated();
  const double to_volts = 1.0 / force->qe2f;
  const double ex = e.field[0] * to_volts, ey = e.field[1] * to_volts, ez = e.field[2] * to_volts;
  reaxff_gpu::host_arrays_current(lmp, X_MASK);
  double **x = atom->x;
  for (int i = 0; i < n; ++i) phi[i] = -(x[i][0] * ex + x[i][1] * ey + x[i][2] * ez);
  return phi;
}

const std::vector<double> &QEqEfield::potential() {
  const int nlocal = atom->nlocal;
  phi.assign(nlocal, 0.0);

  // (fix efield grows its per-atom rows in its post_force, which comes after
  // us: grown here before the variables are evaluated into them)
  const bool atom_style = reaxff_gpu::efield_state(fix).atom_style;
  double **field = atom_style ? reaxff_gpu::efield_rows(fix, atom->nmax, memory) : nullptr;
  const reaxff_gpu::EfieldRead e = evaluated();
  Region *region = e.region;
  if (region) region->prematch();

  // fix efield holds the field in force units (kcal/mol/A per e): back to V/A
  const double to_volts = 1.0 / force->qe2f;
  const double ex = e.field[0] * to_volts, ey = e.field[1] * to_volts, ez = e.field[2] * to_volts;
  reaxff_gpu::host_arrays_current(lmp, X_MASK | MASK_MASK | IMAGE_MASK);
  const int *mask = atom->mask;
  double **x = atom->x;
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & fix->groupbit)) continue;
    if (region && !region->match(x[i][0], x[i][1], x[i][2])) continue;
    if (atom_style) {
      phi[i] = field[i][3];
    } else {
      double u[3];
      domain->unmap(x[i], atom->image[i], u);
      phi[i] = -(ex * u[0] + ey * u[1] + ez * u[2]);
    }
  }
  return phi;
}
