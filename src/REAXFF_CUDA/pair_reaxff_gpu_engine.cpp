// PairReaxFFGPU's engine: this rank's GPU (checked for code at pair_style,
// assigned as LAMMPS's GPU package assigns them) and the engine made on it,
// with its log lines.
#include <string>
#include <vector>

#include "comm.h"
#include "error.h"
#include "fix.h"
#include "fix_package_gpu.h"
#include "kokkos_atoms.h"
#include "library_call.h"
#include "modify.h"
#include "pair_reaxff_gpu.h"
#include "puremd_gpu/device_choice.h"
#include "shared_gpu.h"
#include "utils.h"

using namespace LAMMPS_NS;

// A GPU this build has no code for stops the input at pair_style, naming the
// GPU, its architecture and CMAKE_CUDA_ARCHITECTURES, rather than at the
// first run (or, unchecked, at the first kernel). On the GPU the engine will
// use (the device choice of make_engine).
void PairReaxFFGPU::check_gpu_code() {
  if (requested_driver == puremd::Driver::Host) return;
  const puremd::GpuAssignment assignment = gpu_assignment();  // collective: on every rank
  call_library_all(lmp, "pair_style reaxff/gpu", "check_cuda_code", [&] {
    if (!puremd::cuda_available(nullptr)) return;
    puremd::select_cuda_device(assignment);
    puremd::check_cuda_code();
  });
}

// The GPU of this rank (selected in make_engine): the one LAMMPS's GPU
// package has made current when it is active (both then share it);
// otherwise by the GPU package's rule, with `package gpu Ngpu gpuID first`
// settings when given (FixPackageGPU). Collective (the ranks of a node).
puremd::GpuAssignment PairReaxFFGPU::gpu_assignment() {
  MPI_Comm node;
  puremd::GpuAssignment a;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, comm->me, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &a.node_rank);
  MPI_Comm_size(node, &a.node_ranks);
  MPI_Comm_free(&node);

  Fix *package = modify->get_fix_by_id("package_gpu");
  if (reaxff_gpu::kokkos_running(lmp) && reaxff_gpu::kokkos_device_is_gpu()) {
    a.count = 1;  // Kokkos's GPU (`-k on g N`), current since Kokkos started
    a.first = puremd::current_cuda_device();
  } else if (auto *ours = dynamic_cast<FixPackageGPU *>(package)) {
    a.count = ours->ngpu();
    a.first = ours->first_gpu();
  } else if (package) {
    a.count = 1;
    a.first = puremd::current_cuda_device();
  }
  return a;
}

void PairReaxFFGPU::make_engine() {
  std::string why;
  const bool gpu = puremd::cuda_available(&why);
  const puremd::Driver d = requested_driver;
  // every rank stops together, or none (ranks without a GPU among ranks with
  // one would otherwise leave those in the collective GPU assignment)
  int without = (d == puremd::Driver::Cuda && !gpu) ? 1 : 0, any_without = 0;
  MPI_Allreduce(&without, &any_without, 1, MPI_INT, MPI_MAX, world);
  if (any_without)
    error->all(FLERR, "pair_style reaxff/gpu driver cuda requested but {} has no usable GPU{}{}",
               without ? "this rank" : "another rank", without ? ": " : "", without ? why : "");
  const bool on_gpu_rank = gpu && d != puremd::Driver::Host;
  const std::string context = fmt::format("pair_style reaxff/gpu: cannot start the {} driver",
                                          on_gpu_rank ? "CUDA" : "host");
  // collective (every rank, whether or not it has a GPU)
  const puremd::GpuAssignment assignment =
      d != puremd::Driver::Host ? gpu_assignment() : puremd::GpuAssignment{};
  engine_settings.ranks = comm->nprocs;  // for the advice of an out-of-memory error
  call_library_all(lmp, context.c_str(), "make_engine", [&] {
    if (on_gpu_rank) gpu_id = puremd::select_cuda_device(assignment);
    engine = puremd::make_engine(d, ffield, control, engine_settings);
  });
  // Which GPU each rank uses (rank:GPU), so a job script's layout can be checked.
  const bool on_gpu = engine->driver() == puremd::Driver::Cuda;
  std::vector<int> ids(comm->me == 0 ? comm->nprocs : 0);
  MPI_Gather(&gpu_id, 1, MPI_INT, ids.data(), 1, MPI_INT, 0, world);
  if (comm->me == 0) {
    std::string msg = "ReaxFF/GPU: using the " + engine->description();
    if (on_gpu) msg += " (GPU " + std::to_string(gpu_id) + ")";
    if (engine->driver() == puremd::Driver::Host && requested_driver == puremd::Driver::Auto)
      msg += " (no GPU: " + why + ")";
    if (on_gpu && comm->nprocs > 1) {
      msg += "\nReaxFF/GPU: rank:GPU";
      for (int r = 0; r < comm->nprocs; ++r) msg += fmt::format(" {}:{}", r, ids[r]);
    }
    utils::logmesg(lmp, msg + "\n");
  }
  warn_if_gpu_shared_without_mps(lmp, on_gpu ? gpu_id : -1);
  // `-pk gpu N` (or `package gpu N`) asked for GPUs this machine does not have
  auto *package = dynamic_cast<FixPackageGPU *>(modify->get_fix_by_id("package_gpu"));
  if (!on_gpu && requested_driver == puremd::Driver::Auto && package && package->ngpu() > 0 &&
      comm->me == 0)
    error->warning(FLERR,
                   "package gpu {} asks for GPUs, but {}: pair_style reaxff/gpu runs its host "
                   "reference driver (serial, slow; 'driver cuda' makes this an error)",
                   package->ngpu(), why.empty() ? "none is usable" : why);
  engine_stale = false;
}
