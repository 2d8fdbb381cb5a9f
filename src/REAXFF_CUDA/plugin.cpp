// Gives our styles to LAMMPS (`plugin load`, or automatically through
// LAMMPS_PLUGIN_PATH, which `-sf gpu` needs: LAMMPS looks for the GPU
// package before it reads the input). Each style registers itself in the
// file that defines it (style_registry.h); LAMMPS's `plugin list` shows
// them: pair_style reaxff/gpu, fix qeq/reaxff/gpu (qeq/reax/gpu),
// qtpie/reaxff/gpu, qeq/rel/reaxff/gpu (where LAMMPS has qeq/rel/reaxff),
// acks2/reaxff/gpu (acks2/reax/gpu), reaxff/bonds/gpu, reaxff/species/gpu,
// compute reaxff/atom/gpu, and fix GPU (`package gpu`, where LAMMPS has no
// GPU package of its own).
#include <dlfcn.h>

#include <cstring>

#include "lammps.h"
#include "lammpsplugin.h"
#include "style_registry.h"
#include "version.h"

using namespace LAMMPS_NS;

std::vector<reaxff_gpu::StyleEntry> &reaxff_gpu::registered_styles() {
  static std::vector<StyleEntry> styles;
  return styles;
}

namespace {

// LAMMPS closes a plugin's library once its styles are unloaded (at `clear`
// and at exit), but it does not find style instances held by pair_style
// hybrid under a suffixed name: hybrid stores `reaxff`, not `reaxff/gpu`.
// Those are deleted later, with LAMMPS's Force, and their code must still be
// mapped then. So the library stays loaded until the process ends.
void keep_library_loaded() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<void *>(&reaxff_gpu::registered_styles), &self) && self.dli_fname)
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

}  // namespace

extern "C" void lammpsplugin_init(void *ptr, void *handle, void *regfunc) {
  keep_library_loaded();
  auto *lmp = static_cast<LAMMPS *>(ptr);
  auto register_plugin = reinterpret_cast<lammpsplugin_regfunc>(regfunc);
  for (const reaxff_gpu::StyleEntry &s : reaxff_gpu::registered_styles()) {
    if (s.wanted && !s.wanted(lmp)) continue;
    lammpsplugin_t plugin{};
    plugin.version = LAMMPS_VERSION;
    plugin.author = "reaxff-cuda developers";
    plugin.handle = handle;
    plugin.style = s.style;
    plugin.info = s.info;
    if (std::strcmp(s.style, "pair") == 0)
      plugin.creator.v1 = s.pair_creator;
    else
      plugin.creator.v2 = s.creator;
    for (const char *name : s.names) {
      plugin.name = name;
      (*register_plugin)(&plugin, lmp);
    }
  }
}
