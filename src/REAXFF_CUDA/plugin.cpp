// Registers our styles with LAMMPS (`plugin load`, or automatically through
// LAMMPS_PLUGIN_PATH, which `-sf gpu` needs: LAMMPS looks for the GPU
// package before it reads the input):
//   pair_style reaxff/gpu          (what `-sf gpu` makes of reaxff)
//   fix qeq/reaxff/gpu, qeq/reax/gpu   (of qeq/reaxff and its old name qeq/reax;
//                                   LAMMPS's own beside a pair style that is not ReaxFF)
//   fix qtpie/reaxff/gpu, acks2/reaxff/gpu (acks2/reax/gpu)
//   fix qeq/rel/reaxff/gpu         (only in a LAMMPS that has qeq/rel/reaxff:
//                                   4Jul2026 on, with its REAXFF package)
//   compute reaxff/atom/gpu        (of reaxff/atom)
//   fix reaxff/species/gpu         (of reaxff/species)
//   fix GPU                        (`package gpu`, only when LAMMPS has no
//                                   GPU package of its own)
#include <dlfcn.h>

#include "comm.h"
#include "compute_reaxff_atom_gpu.h"
#include "fix_acks2_reaxff_gpu.h"
#include "fix_package_gpu.h"
#include "fix_qeq_reaxff.h"
#include "fix_qeq_reaxff_gpu.h"
#include "fix_qeq_rel_reaxff_gpu.h"
#include "fix_qtpie_reaxff_gpu.h"
#include "fix_reaxff_bonds_gpu.h"
#include "fix_reaxff_species_gpu.h"
#include "force.h"
#include "lammps.h"
#include "lammpsplugin.h"
#include "modify.h"
#include "pair_reaxff_gpu.h"
#include "utils.h"
#include "version.h"

using namespace LAMMPS_NS;

namespace {

Pair *make_pair_reaxff_gpu(LAMMPS *lmp) { return new PairReaxFFGPU(lmp); }

// fix qeq/reaxff with a parameter file runs beside any pair style; ours is a
// stage of reaxff/gpu's engine. When `-sf gpu` (or an input) makes it
// qeq/reaxff/gpu beside a pair style that is no ReaxFF at all, LAMMPS's own
// fix runs under that name, as it would without the suffix (the log says so).
Fix *make_fix_qeq_reaxff_gpu(LAMMPS *lmp, int argc, char **argv) {
  const bool from_file = argc > 7 && !utils::strmatch(argv[7], "^reax");
  if (from_file && lmp->force->pair && !lmp->force->pair_match("^reax", 0)) {
    if (lmp->comm->me == 0)
      utils::logmesg(lmp,
                     "ReaxFF/GPU: fix {} {} is LAMMPS's fix qeq/reaxff: pair_style {} is not "
                     "ReaxFF\n",
                     argv[0], argv[2], lmp->force->pair_style);
    return new FixQEqReaxFF(lmp, argc, argv);
  }
  return new FixQEqReaxFFGPU(lmp, argc, argv);
}

Fix *make_fix_qtpie_reaxff_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixQtpieReaxFFGPU(lmp, argc, argv);
}

Fix *make_fix_qeq_rel_reaxff_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixQEqRelReaxFFGPU(lmp, argc, argv);
}

Fix *make_fix_acks2_reaxff_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixAcks2ReaxFFGPU(lmp, argc, argv);
}

Compute *make_compute_reaxff_atom_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new ComputeReaxFFAtomGPU(lmp, argc, argv);
}

Fix *make_fix_reaxff_bonds_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixReaxFFBondsGPU(lmp, argc, argv);
}
Fix *make_fix_reaxff_species_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixReaxFFSpeciesGPU(lmp, argc, argv);
}

Fix *make_fix_package_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixPackageGPU(lmp, argc, argv);
}

// LAMMPS closes a plugin's library once its styles are unloaded (at `clear`
// and at exit), but it does not find style instances held by pair_style
// hybrid under a suffixed name: hybrid stores `reaxff`, not `reaxff/gpu`.
// Those are deleted later, with LAMMPS's Force, and their code must still be
// mapped then. So the library stays loaded until the process ends.
void keep_library_loaded() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<void *>(&make_pair_reaxff_gpu), &self) && self.dli_fname)
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

}  // namespace

extern "C" void lammpsplugin_init(void *ptr, void *handle, void *regfunc) {
  keep_library_loaded();
  auto *lmp = static_cast<LAMMPS *>(ptr);
  auto register_plugin = reinterpret_cast<lammpsplugin_regfunc>(regfunc);
  lammpsplugin_t plugin{};
  plugin.version = LAMMPS_VERSION;
  plugin.author = "reaxff-cuda developers";
  plugin.handle = handle;

  plugin.style = "pair";
  plugin.name = "reaxff/gpu";
  plugin.info = "ReaxFF on lib/puremd_gpu (CUDA driver, or host reference driver)";
  plugin.creator.v1 = reinterpret_cast<lammpsplugin_factory1 *>(&make_pair_reaxff_gpu);
  (*register_plugin)(&plugin, lmp);

  plugin.style = "fix";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_qeq_reaxff_gpu);
  plugin.info = "QEq charge equilibration for pair_style reaxff/gpu";
  for (const char *name : {"qeq/reaxff/gpu", "qeq/reax/gpu"}) {
    plugin.name = name;
    (*register_plugin)(&plugin, lmp);
  }
  plugin.name = "qtpie/reaxff/gpu";
  plugin.info = "QTPIE charges for pair_style reaxff/gpu";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_qtpie_reaxff_gpu);
  (*register_plugin)(&plugin, lmp);
  // The LAMMPS versions differ here: a style for fix qeq/rel/reaxff only
  // where LAMMPS has that fix, so that `-sf gpu` maps exactly what runs
  // without it.
  if (lmp->modify->fix_map->count("qeq/rel/reaxff")) {
    plugin.name = "qeq/rel/reaxff/gpu";
    plugin.info = "QEqR charges for pair_style reaxff/gpu";
    plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_qeq_rel_reaxff_gpu);
    (*register_plugin)(&plugin, lmp);
  }
  plugin.info = "ACKS2 charges for pair_style reaxff/gpu";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_acks2_reaxff_gpu);
  for (const char *name : {"acks2/reaxff/gpu", "acks2/reax/gpu"}) {
    plugin.name = name;
    (*register_plugin)(&plugin, lmp);
  }

  plugin.style = "compute";
  plugin.name = "reaxff/atom/gpu";
  plugin.info = "compute reaxff/atom for pair_style reaxff/gpu (bonds copied when invoked)";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_compute_reaxff_atom_gpu);
  (*register_plugin)(&plugin, lmp);

  plugin.style = "fix";
  plugin.name = "reaxff/bonds/gpu";
  plugin.info = "fix reaxff/bonds for pair_style reaxff/gpu (bonds picked on the GPU)";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_reaxff_bonds_gpu);
  (*register_plugin)(&plugin, lmp);
  plugin.name = "reaxff/species/gpu";
  plugin.info = "fix reaxff/species for pair_style reaxff/gpu (molecules found in linear time)";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_reaxff_species_gpu);
  (*register_plugin)(&plugin, lmp);

  // `-sf gpu` and `package gpu` need a fix style named GPU. LAMMPS's GPU
  // package brings its own (its styles and ours then share the device it
  // chooses); without it, ours takes the package's device settings.
  if (!lmp->modify->check_package("GPU")) {
    plugin.name = "GPU";
    plugin.info = "package gpu for reaxff/gpu (LAMMPS built without its GPU package)";
    plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_package_gpu);
    (*register_plugin)(&plugin, lmp);
  }
}
