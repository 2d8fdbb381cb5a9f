// Registers pair_style reaxff/gpu and fix qeq/reaxff/gpu with LAMMPS
// (`plugin load`, or automatically through LAMMPS_PLUGIN_PATH).
#include "fix_qeq_reaxff_gpu.h"
#include "lammpsplugin.h"
#include "pair_reaxff_gpu.h"
#include "version.h"

using namespace LAMMPS_NS;

static Pair *make_pair_reaxff_gpu(LAMMPS *lmp) { return new PairReaxFFGPU(lmp); }

static Fix *make_fix_qeq_reaxff_gpu(LAMMPS *lmp, int argc, char **argv) {
  return new FixQEqReaxFFGPU(lmp, argc, argv);
}

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc) {
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
  plugin.name = "qeq/reaxff/gpu";
  plugin.info = "QEq charge equilibration for pair_style reaxff/gpu";
  plugin.creator.v2 = reinterpret_cast<lammpsplugin_factory2 *>(&make_fix_qeq_reaxff_gpu);
  (*register_plugin)(&plugin, lmp);
}
