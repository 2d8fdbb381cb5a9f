#include "shared_gpu.h"

#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "comm.h"
#include "error.h"

namespace LAMMPS_NS {

bool mps_running() {
  const char *dir = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::string pipe = std::string(dir && *dir ? dir : "/tmp/nvidia-mps") + "/control";
  std::error_code ec;
  return std::filesystem::exists(pipe, ec);
}

void warn_if_gpu_shared_without_mps(LAMMPS *lmp, int gpu_id) {
  MPI_Comm node, same_gpu;
  MPI_Comm_split_type(lmp->world, MPI_COMM_TYPE_SHARED, lmp->comm->me, MPI_INFO_NULL, &node);
  MPI_Comm_split(node, gpu_id < 0 ? MPI_UNDEFINED : gpu_id, 0, &same_gpu);
  int sharing = 0;
  if (same_gpu != MPI_COMM_NULL) {
    MPI_Comm_size(same_gpu, &sharing);
    MPI_Comm_free(&same_gpu);
  }
  MPI_Comm_free(&node);
  int mine = sharing > 1 && !mps_running() ? sharing : 0, most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, lmp->world);
  if (most > 1 && lmp->comm->me == 0)
    lmp->error->warning(FLERR,
                        "ReaxFF/GPU: {} MPI ranks share one GPU and no CUDA MPS daemon runs: "
                        "they take turns on the GPU, and every charge-solver iteration waits "
                        "for them (several times slower). Start MPS before the job "
                        "(nvidia-cuda-mps-control -d), or run one rank per GPU",
                        most);
}

}  // namespace LAMMPS_NS
