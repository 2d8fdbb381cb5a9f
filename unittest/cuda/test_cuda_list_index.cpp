// The pair lists' 64-bit row index (ListPos, puremd_gpu/lists.h): the skin,
// far, near and reverse lists pass 2^31 entries at about 10 million atoms a
// GPU (HNS 32^3: 2.56e9 skin-list entries), far more than a system the suite
// can hold. So the two pieces that decide it are tested on their own here:
// the prefix sum that lays the rows out (int counts summed in 64 bits on the
// GPU), and the check of a list's total (a list of 32-bit rows still stops
// with the message that names it; a pair list goes on). `bench/device_check.sh
// large` runs such a system end to end on the device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "puremd_gpu/errors.h"
#include "puremd_gpu/lists.h"
#include "require_gpu.h"

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>

#include "cuda/cuda_context.h"
#endif

using namespace puremd;

#if defined(PUREMD_WITH_CUDA)

TEST(ListIndex, OnlyListsOf32BitRowsStopAt2To31Entries) {
  const unsigned long long past = 3000000000ULL;  // > 2^31 - 1
  try {
    cuda::checked_list_total(past, "bond-list", 1234, false);
    FAIL() << "a bond list of 3e9 entries was accepted";
  } catch (const RuntimeError &e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("bond-list"), std::string::npos) << m;
    EXPECT_NE(m.find("32-bit"), std::string::npos) << m;
    EXPECT_NE(m.find("more GPUs"), std::string::npos) << m;
  }
  EXPECT_EQ(cuda::checked_list_total(past, "skin list", 1234, true), past);
  EXPECT_EQ(cuda::checked_list_total(2147483647ULL, "bond-list", 1234, false), 2147483647ULL);
}

// Row starts of 301 rows whose counts are 0x01010101 each (cudaMemset's
// bytes): the total, 5.07e9, passes 2^32, so a sum kept in 32 bits anywhere
// would show.
TEST(CudaListIndex, RowStartsSumPast2To31) {
  REQUIRE_GPU();
  cuda::CudaContext c;
  constexpr int kRows = 300;
  constexpr long long kCount = 0x01010101LL;  // 16,843,009
  cuda::DeviceArray<int> count{"test counts", &c.mem};
  cuda::DeviceArray<ListPos> start{"test starts", &c.mem};
  count.reserve_discarding(kRows + 1);
  start.reserve_discarding(kRows + 1);
  PMD_CUDA_CHECK(cudaMemset(count.data(), 0x01, (kRows + 1) * sizeof(int)));
  c.exclusive_scan(count.data(), start.data(), kRows + 1);
  std::vector<ListPos> got(kRows + 1);
  PMD_CUDA_CHECK(
      cudaMemcpy(got.data(), start.data(), got.size() * sizeof(ListPos), cudaMemcpyDeviceToHost));
  for (int k = 0; k <= kRows; ++k) ASSERT_EQ(got[k], k * kCount) << "row " << k;
  EXPECT_GT(got[kRows], 4294967296LL);
}

#endif
