#include "fix_package_gpu.h"

#include <string>

#include "comm.h"
#include "error.h"
#include "force.h"
#include "modify.h"
#include "style_registry.h"
#include "utils.h"

using namespace LAMMPS_NS;

FixPackageGPU::FixPackageGPU(LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg) {
  if (narg < 4) error->all(FLERR, "Illegal package gpu command: expected 'package gpu Ngpu ...'");
  ngpu_ = utils::inumeric(FLERR, arg[3], false, lmp);
  if (ngpu_ < 0) error->all(FLERR, "Illegal number of GPUs ({}) in package gpu command", ngpu_);

  // The GPU package's keywords; each takes one value.
  static const char *const kIgnored[] = {"neigh",     "binsize",  "split",       "tpa",
                                         "omp",       "platform", "device_type", "blocksize",
                                         "pair/only", "ocl_args"};
  for (int iarg = 4; iarg < narg; iarg += 2) {
    const std::string kw = arg[iarg];
    if (iarg + 1 >= narg)
      error->all(FLERR, "Illegal package gpu command: keyword {} needs a value", kw);
    const char *value = arg[iarg + 1];
    if (kw == "gpuID") {
      first_gpu_ = utils::inumeric(FLERR, value, false, lmp);
      if (first_gpu_ < 0)
        error->all(FLERR, "Illegal package gpu command: gpuID must be 0 or more, got {}", value);
    } else if (kw == "newton") {
      // as the GPU package does; reaxff/gpu itself needs newton pair on
      force->newton_pair = utils::logical(FLERR, value, false, lmp);
      force->newton = (force->newton_pair || force->newton_bond) ? 1 : 0;
    } else {
      bool known = false;
      for (const char *name : kIgnored) known = known || kw == name;
      if (!known) error->all(FLERR, "Illegal package gpu command: unknown keyword {}", kw);
      if (comm->me == 0)
        error->warning(FLERR,
                       "package gpu {} {} has no effect: this LAMMPS has no GPU package, only "
                       "reaxff/gpu, which chooses its own GPU settings",
                       kw, value);
    }
  }
}

namespace {
// `-sf gpu` and `package gpu` need a fix style named GPU. LAMMPS's GPU
// package brings its own (its styles and ours then share the device it
// chooses); without it, ours takes the package's device settings.
bool lammps_lacks_gpu_package(LAMMPS *lmp) { return !lmp->modify->check_package("GPU"); }
const reaxff_gpu::RegisterStyle registered{reaxff_gpu::fix_style(
    {"GPU"}, "package gpu for reaxff/gpu (LAMMPS built without its GPU package)",
    &reaxff_gpu::new_fix<FixPackageGPU>, &lammps_lacks_gpu_package)};
}  // namespace
