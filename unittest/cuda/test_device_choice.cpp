// Which GPU a rank gets: the rule of LAMMPS's GPU package (blocks of
// consecutive node ranks per GPU), so `package gpu Ngpu gpuID first` means
// the same for reaxff/gpu. Pure rule, no GPU needed.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "puremd_gpu/device_choice.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"

using namespace puremd;

namespace {

int gpu(int rank, int ranks, int count, int first, int devices) {
  return gpu_for_rank(GpuAssignment{rank, ranks, count, first}, devices);
}

TEST(DeviceChoice, OneRankPerGpuByDefault) {
  for (int r = 0; r < 4; ++r) EXPECT_EQ(gpu(r, 4, 0, -1, 4), r);
}

TEST(DeviceChoice, RanksShareGpusInBlocks) {
  // 8 ranks on 4 GPUs: 0,0,1,1,2,2,3,3 (the GPU package's blocks, not round robin)
  const int want[8] = {0, 0, 1, 1, 2, 2, 3, 3};
  for (int r = 0; r < 8; ++r) EXPECT_EQ(gpu(r, 8, 0, -1, 4), want[r]) << "rank " << r;
  // 3 ranks on 2 GPUs: ceil(3/2) = 2 per GPU
  EXPECT_EQ(gpu(0, 3, 2, -1, 2), 0);
  EXPECT_EQ(gpu(1, 3, 2, -1, 2), 0);
  EXPECT_EQ(gpu(2, 3, 2, -1, 2), 1);
}

TEST(DeviceChoice, NgpuAndGpuIdPickTheRange) {
  // package gpu 2 gpuID 1 on a 4-GPU node, 4 ranks: GPUs 1 and 2
  const int want[4] = {1, 1, 2, 2};
  for (int r = 0; r < 4; ++r) EXPECT_EQ(gpu(r, 4, 2, 1, 4), want[r]);
  // Ngpu 0 from gpuID 2: GPUs 2 and 3
  EXPECT_EQ(gpu(0, 2, 0, 2, 4), 2);
  EXPECT_EQ(gpu(1, 2, 0, 2, 4), 3);
  // fewer ranks than GPUs: one each, from the first
  EXPECT_EQ(gpu(0, 1, 0, -1, 8), 0);
}

TEST(DeviceChoice, RequestsThatDoNotFitAreInputErrors) {
  EXPECT_THROW(gpu(0, 1, 2, -1, 1), InputError);  // 2 GPUs asked, 1 there
  EXPECT_THROW(gpu(0, 1, 1, 3, 2), InputError);   // gpuID 3 of 2
  EXPECT_THROW(gpu(0, 1, 2, 1, 2), InputError);   // 1..2 of 0..1
  EXPECT_THROW(gpu(0, 1, 0, -1, 0), InputError);  // no GPU
  try {
    gpu(0, 1, 1, 5, 2);
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("gpuID 5"), std::string::npos) << e.what();
  }
}

}  // namespace

// Without a GPU, the reason in the log says so (issue 42: with no NVIDIA
// driver installed it read "CUDA driver version is insufficient for CUDA
// runtime version", which sends a user to update a driver they do not have).
TEST(DeviceChoice, NoGpuReasonSaysWhatIsMissing) {
  std::string why;
  if (puremd::cuda_available(&why)) GTEST_SKIP() << "a GPU is here: " << why;
#if PUREMD_WITH_CUDA
  if (void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(driver);
    GTEST_SKIP() << "an NVIDIA driver is installed here without a usable GPU: " << why;
  }
  EXPECT_EQ(why, "no NVIDIA GPU or driver found (libcuda.so.1 is not installed)");
#endif
}
