/* pair_style reaxff/gpu's charge fix: see charge_fix_gpu.h. */
#include "charge_fix_gpu.h"

#include "error.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"
#include "utils.h"

namespace LAMMPS_NS {

namespace {
// LAMMPS's own ReaxFF charge fixes (CPU, OPENMP and KOKKOS, under every name
// they are registered with) work on PairReaxFF's CPU neighbour list, which
// reaxff/gpu does not build: they would fail or leave the charges alone.
void refuse_lammps_charge_fixes(LAMMPS *lmp) {
  struct Foreign {
    const char *pattern, *what, *ours;
  };
  static const Foreign foreign[] = {
      {"^qeq/reax", "charge equilibration", "qeq/reaxff/gpu"},
      {"^qeq/rel/reax", "QEqR charges", "qeq/rel/reaxff/gpu"},
      {"^qtpie/reax", "QTPIE charges", "qtpie/reaxff/gpu"},
      {"^acks2/reax", "ACKS2 charges", "acks2/reaxff/gpu"},
  };
  for (Fix *fix : lmp->modify->get_fix_list()) {
    if (dynamic_cast<ChargeFixGPU *>(fix)) continue;
    for (const Foreign &f : foreign)
      if (utils::strmatch(fix->style, f.pattern))
        lmp->error->all(FLERR,
                        "Fix {} is {}, LAMMPS's {} for pair_style reaxff; with pair_style "
                        "reaxff/gpu use fix {} with the same arguments (`-sf gpu` renames both)",
                        fix->id, fix->style, f.what, f.ours);
  }
}
}  // namespace

ChargeFixGPU *find_charge_fix(LAMMPS *lmp, bool checkqeq, Fix *&charge_fix) {
  refuse_lammps_charge_fixes(lmp);
  ChargeFixGPU *ours = nullptr;
  charge_fix = nullptr;
  int count = lmp->modify->get_fix_by_style("^qeq/shielded").size();
  for (Fix *fix : lmp->modify->get_fix_list())
    if (auto *c = dynamic_cast<ChargeFixGPU *>(fix)) {
      ours = c;
      charge_fix = fix;
      ++count;
    }
  if (checkqeq && count != 1)
    lmp->error->all(FLERR,
                    "Pair style reaxff/gpu requires exactly one charge equilibration fix "
                    "(fix qeq/reaxff/gpu, qtpie/reaxff/gpu, qeq/rel/reaxff/gpu, acks2/reaxff/gpu "
                    "or qeq/shielded), or 'checkqeq no' with charges set otherwise");
  return ours;
}

}  // namespace LAMMPS_NS
