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
#include "memory.h"
#include "modify.h"
#include "region.h"
#include "update.h"

using namespace LAMMPS_NS;

namespace {

// fix efield keeps its field protected (LAMMPS's own QEq fixes are its
// friends). A class derived from it may name those members, and a pointer to
// a member named so reads them from any FixEfield.
struct EfieldMembers : FixEfield {
  static constexpr double FixEfield::*ex_ = &EfieldMembers::ex;
  static constexpr double FixEfield::*ey_ = &EfieldMembers::ey;
  static constexpr double FixEfield::*ez_ = &EfieldMembers::ez;
  static constexpr int FixEfield::*varflag_ = &EfieldMembers::varflag;
  static constexpr int FixEfield::*xstyle_ = &EfieldMembers::xstyle;
  static constexpr int FixEfield::*ystyle_ = &EfieldMembers::ystyle;
  static constexpr int FixEfield::*zstyle_ = &EfieldMembers::zstyle;
  static constexpr int FixEfield::*pstyle_ = &EfieldMembers::pstyle;
  static constexpr int FixEfield::*maxatom_ = &EfieldMembers::maxatom;
  static constexpr Region *FixEfield::*region_ = &EfieldMembers::region;
  static constexpr double **FixEfield::*efield_ = &EfieldMembers::efield;
  static constexpr void (FixEfield::*update_variables)() = &EfieldMembers::update_efield_variables;
};

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
  if (fix->*EfieldMembers::varflag_ == FixEfield::ATOM &&
      fix->*EfieldMembers::pstyle_ != FixEfield::ATOM)
    error->all(FLERR,
               "Atom-style external electric field requires atom-style potential variable when "
               "used with fix {}",
               qeq_style);
  const Domain *domain = lmp->domain;
  const int periodic[3] = {domain->xperiodic, domain->yperiodic, domain->zperiodic};
  const int styles[3] = {fix->*EfieldMembers::xstyle_, fix->*EfieldMembers::ystyle_,
                         fix->*EfieldMembers::zstyle_};
  const double values[3] = {fix->*EfieldMembers::ex_, fix->*EfieldMembers::ey_,
                            fix->*EfieldMembers::ez_};
  for (int d = 0; d < 3; ++d)
    if (periodic[d] && (styles[d] != FixEfield::CONSTANT || std::fabs(values[d]) > kSmallField))
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
  if (fix->groupbit != 1)
    error->all(FLERR, "Must use group id all for fix efield when using fix {}", qtpie_style);
  if (fix->*EfieldMembers::region_)
    error->all(FLERR, "Keyword region not supported for fix efield when using fix {}", qtpie_style);
  if (fix->*EfieldMembers::varflag_ == FixEfield::ATOM)
    error->all(FLERR,
               "Fix {}: an atom-style fix efield is not supported (fix qtpie/reaxff reads its "
               "potential at ghost atoms, where fix efield does not set it); use a constant or "
               "equal-style field",
               qtpie_style);
  return std::unique_ptr<QEqEfield>(new QEqEfield(lmp, fix));
}

const std::vector<double> &QEqEfield::potential_everywhere() {
  const int n = atom->nlocal + atom->nghost;
  phi.assign(n, 0.0);
  if (fix->*EfieldMembers::varflag_ != FixEfield::CONSTANT)
    (fix->*EfieldMembers::update_variables)();
  const double to_volts = 1.0 / force->qe2f;
  const double ex = fix->*EfieldMembers::ex_ * to_volts, ey = fix->*EfieldMembers::ey_ * to_volts,
               ez = fix->*EfieldMembers::ez_ * to_volts;
  reaxff_gpu::host_arrays_current(lmp, X_MASK);
  double **x = atom->x;
  for (int i = 0; i < n; ++i) phi[i] = -(x[i][0] * ex + x[i][1] * ey + x[i][2] * ez);
  return phi;
}

const std::vector<double> &QEqEfield::potential() {
  const int nlocal = atom->nlocal;
  phi.assign(nlocal, 0.0);

  if (fix->*EfieldMembers::varflag_ == FixEfield::ATOM &&
      atom->nmax > fix->*EfieldMembers::maxatom_) {
    // fix efield grows this array in its post_force, which comes after us
    fix->*EfieldMembers::maxatom_ = atom->nmax;
    memory->destroy(fix->*EfieldMembers::efield_);
    memory->create(fix->*EfieldMembers::efield_, atom->nmax, 4, "efield:efield");
  }
  if (fix->*EfieldMembers::varflag_ != FixEfield::CONSTANT)
    (fix->*EfieldMembers::update_variables)();
  Region *region = fix->*EfieldMembers::region_;
  if (region) region->prematch();

  // fix efield holds the field in force units (kcal/mol/A per e): back to V/A
  const double to_volts = 1.0 / force->qe2f;
  const double ex = fix->*EfieldMembers::ex_ * to_volts, ey = fix->*EfieldMembers::ey_ * to_volts,
               ez = fix->*EfieldMembers::ez_ * to_volts;
  const bool atom_style = fix->*EfieldMembers::varflag_ == FixEfield::ATOM;
  double **field = fix->*EfieldMembers::efield_;
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
