// The CUDA QEq solver's matrix stores come from the registry (qeq_matrix_store.h):
// each QEqStore has one, registered in its own file, and each holds what the host
// rule (common/charges/qeq_matrix_choice.h: qeq_store_traits) chooses it for.
// Needs the CUDA build, not a GPU (making a store allocates nothing).
#include <gtest/gtest.h>

#include "common/charges/qeq_matrix_choice.h"

#if defined(PUREMD_WITH_CUDA)
#include "cuda/charges/qeq_matrix_store.h"
#endif

using namespace puremd;

TEST(CudaMatrixStores, EveryStoreIsRegisteredAndHoldsWhatTheRuleChoosesItFor) {
#if !defined(PUREMD_WITH_CUDA)
  GTEST_SKIP() << "the library was built without CUDA";
#else
  cuda::MemoryTracker mem;
  cuda::QEqMatrixPool pool(mem);
  for (int k = 0; k < kNumQEqStores; ++k) {
    const auto key = static_cast<QEqStore>(k);
    const auto *entry = cuda::QEqMatrixStores::find(key);
    ASSERT_NE(entry, nullptr) << "no store registered for QEqStore " << k;
    const auto store = entry->make(pool);
    const QEqStoreTraits t = qeq_store_traits(key);
    EXPECT_EQ(store->format(), t.format) << "QEqStore " << k;
    EXPECT_EQ(store->once(), t.once) << "QEqStore " << k;
  }
  EXPECT_EQ(cuda::QEqMatrixStores::entries().size(), static_cast<std::size_t>(kNumQEqStores));
#endif
}
