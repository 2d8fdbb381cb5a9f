/* `package gpu` (and -sf gpu / -pk gpu) for a LAMMPS built without its GPU
   package: LAMMPS issues the command as "fix package_gpu all GPU Ngpu ...".

   Same syntax as the GPU package's fix: Ngpu and the gpuID keyword choose
   which GPU each rank uses (puremd::GpuAssignment, the GPU package's rule);
   newton sets newton pair as there; its other keywords tune LAMMPS's GPU
   package styles, which this build does not have, so they are accepted with
   a warning that they have no effect. */
#ifndef LMP_FIX_PACKAGE_GPU_H
#define LMP_FIX_PACKAGE_GPU_H

#include "fix.h"

namespace LAMMPS_NS {

class FixPackageGPU : public Fix {
 public:
  FixPackageGPU(class LAMMPS *, int, char **);
  int setmask() override { return 0; }

  int ngpu() const { return ngpu_; }
  int first_gpu() const { return first_gpu_; }  // -1 unless gpuID was given

 private:
  int ngpu_ = 0;
  int first_gpu_ = -1;
};

}  // namespace LAMMPS_NS

#endif
