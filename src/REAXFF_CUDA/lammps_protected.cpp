#include "lammps_protected.h"

#include "fix_efield.h"
#include "fix_reaxff_species.h"
#include "memory.h"

using namespace LAMMPS_NS;

namespace {

struct SpeciesMembers : FixReaxFFSpecies {
  static constexpr int FixReaxFFSpecies::*nrepeat_ = &SpeciesMembers::nrepeat;
  static constexpr bigint FixReaxFFSpecies::*nvalid_ = &SpeciesMembers::nvalid;
};

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
  static constexpr void (FixEfield::*evaluate_)() = &EfieldMembers::update_efield_variables;
};

}  // namespace

namespace reaxff_gpu {

bool species_schedule(const Fix *fix, SpeciesScheduleRead &out) {
  const auto *f = dynamic_cast<const FixReaxFFSpecies *>(fix);
  if (!f) return false;
  out.nrepeat = f->*SpeciesMembers::nrepeat_;
  out.next_output = f->*SpeciesMembers::nvalid_;
  return true;
}

EfieldRead efield_state(const FixEfield *fix) {
  using M = EfieldMembers;
  EfieldRead r;
  r.field[0] = fix->*M::ex_;
  r.field[1] = fix->*M::ey_;
  r.field[2] = fix->*M::ez_;
  const int styles[3] = {fix->*M::xstyle_, fix->*M::ystyle_, fix->*M::zstyle_};
  for (int d = 0; d < 3; ++d) r.constant[d] = styles[d] == FixEfield::CONSTANT;
  r.varying = fix->*M::varflag_ != FixEfield::CONSTANT;
  r.atom_style = fix->*M::varflag_ == FixEfield::ATOM;
  r.atom_potential = fix->*M::pstyle_ == FixEfield::ATOM;
  r.region = fix->*M::region_;
  return r;
}

void efield_evaluate(FixEfield *fix) { (fix->*EfieldMembers::evaluate_)(); }

double **efield_rows(FixEfield *fix, int nmax, Memory *memory) {
  using M = EfieldMembers;
  if (nmax > fix->*M::maxatom_) {
    fix->*M::maxatom_ = nmax;
    memory->destroy(fix->*M::efield_);
    memory->create(fix->*M::efield_, nmax, 4, "efield:efield");
  }
  return fix->*M::efield_;
}

}  // namespace reaxff_gpu
