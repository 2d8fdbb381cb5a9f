// The CUDA QEq solver's parts that come from the registry (common/registry.h) by a
// key the host rules choose: the matrix stores (qeq_matrix_store.h; each QEqStore
// has one, holding what qeq_store_traits says it is chosen for) and the homes of
// CG's scalars (qeq_cg_scalars.h; each QEqScalarsHome has one). Needs the CUDA
// build, not a GPU (making these parts allocates nothing).
#include <gtest/gtest.h>

#include "common/charges/qeq_matrix_choice.h"
#include "common/charges/qeq_scalars_home.h"

#if defined(PUREMD_WITH_CUDA)
#include "cuda/charges/qeq_cg_scalars.h"
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

namespace {
struct OneRank final : QEqComm {
  double sum(double local) override { return local; }
  const HaloPattern *halo() const override { return nullptr; }
};
}  // namespace

TEST(CudaReductions, EveryHomeOfCgScalarsIsRegistered) {
#if !defined(PUREMD_WITH_CUDA)
  GTEST_SKIP() << "the library was built without CUDA";
#else
  for (QEqScalarsHome h : {QEqScalarsHome::Gpu, QEqScalarsHome::PeerGpus, QEqScalarsHome::Host})
    EXPECT_NE(cuda::CgReductions::find(h), nullptr) << static_cast<int>(h);
  OneRank comm;
  EXPECT_TRUE(cuda::make_cg_scalars(QEqScalarsHome::Gpu, nullptr, comm)->on_device());
  EXPECT_FALSE(cuda::make_cg_scalars(QEqScalarsHome::Host, nullptr, comm)->on_device());
#endif
}
