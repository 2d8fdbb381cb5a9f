// MPI ranks that share a GPU while no CUDA MPS daemon runs get a warning
// that names MPS (src/REAXFF_CUDA/shared_gpu.h: without it they take turns
// on the GPU, several times slower); one rank per GPU, the host driver, or
// MPS running: no warning. Which case holds is read from the run's log
// (the driver line and the rank:GPU line; the tests run on one node).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "lammps_session.h"

namespace {

const std::string kDir = source_dir() + "/examples/HNS/";

bool mps_pipe_here() {
  const char *dir = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  std::error_code ec;
  return std::filesystem::exists(std::string(dir && *dir ? dir : "/tmp/nvidia-mps") + "/control",
                                 ec);
}

// Whether two ranks name the same GPU in "ReaxFF/GPU: rank:GPU 0:0 1:0 ...".
bool ranks_share_a_gpu(const std::string &log) {
  const auto at = log.find("ReaxFF/GPU: rank:GPU");
  if (at == std::string::npos) return false;  // one rank
  std::istringstream line(log.substr(at + 20, log.find('\n', at) - at - 20));
  std::set<std::string> gpus;
  int ranks = 0;
  for (std::string pair; line >> pair; ++ranks) gpus.insert(pair.substr(pair.find(':') + 1));
  return static_cast<int>(gpus.size()) < ranks;
}

TEST(SharedGpu, WarnsWhenRanksShareAGpuWithoutMps) {
  const std::string log = scratch_path("shared_gpu.log");
  {
    LammpsSession lmp(log);
    lmp.load_plugin();
    ASSERT_EQ(lmp.run("units real\natom_style charge\nread_data " + kDir +
                      "data.hns-equil\npair_style reaxff/gpu NULL\npair_coeff * * " + kDir +
                      "ffield.reax.hns C H O N\nfix q all qeq/reaxff/gpu 1 0.0 10.0 1e-6 "
                      "reaxff\nrun 0 post no\n"),
              "");
  }
  if (mpi_rank() != 0) return;  // the log is rank 0's
  const std::string text = read_text(log);
  const bool cuda = text.find("using the CUDA driver") != std::string::npos;
  const bool expected = cuda && ranks_share_a_gpu(text) && !mps_pipe_here();
  EXPECT_EQ(text.find("share one GPU and no CUDA MPS daemon runs") != std::string::npos, expected)
      << (cuda ? "CUDA driver" : "host driver")
      << ", ranks share a GPU: " << ranks_share_a_gpu(text) << ", MPS: " << mps_pipe_here() << "\n"
      << text;
  if (expected) EXPECT_NE(text.find("nvidia-cuda-mps-control -d"), std::string::npos) << text;
}

}  // namespace
