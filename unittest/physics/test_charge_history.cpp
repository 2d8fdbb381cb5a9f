// ChargeHistory with a driver's mirror (the CUDA engine keeps the newest
// values on its GPU): every host access brings the mirror's values home
// first, growing keeps them, clearing drops them, and a history moves. A fake
// mirror stands for the GPU, so that CI checks the rule without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "puremd_gpu/charge_history.h"

using puremd::ChargeHistory;

namespace {

struct FakeMirror : ChargeHistory::Mirror {
  std::vector<double> values;
  int *fetches;
  explicit FakeMirror(int *count) : fetches(count) {}
  void fetch(double *host, std::size_t count) override {
    ++*fetches;
    for (std::size_t k = 0; k < count; ++k) host[k] = values[k];
  }
  double *gpu_room(std::size_t kept, std::size_t count, const double *host,
                   std::size_t uploaded) override {
    values.resize(std::max(values.size(), count));
    for (std::size_t k = kept; k < count; ++k) values[k] = 0.0;
    for (std::size_t k = 0; host && k < uploaded; ++k) values[k] = host[k];
    return values.data();
  }
  std::size_t bytes() const override { return values.size() * sizeof(double); }
};

// A mirror holding `rows` blocks whose entries are 100 * atom + slot, marked newest.
FakeMirror *attach_newest(ChargeHistory &h, int rows, int *fetches) {
  auto m = std::make_unique<FakeMirror>(fetches);
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < puremd::kQEqHistoryPerAtom; ++k) m->values.push_back(100.0 * i + k);
  FakeMirror *raw = m.get();
  h.attach(std::move(m));
  h.mirror_is_newest(rows);
  return raw;
}

}  // namespace

TEST(ChargeHistory, HostAccessBringsTheMirrorHome) {
  int fetches = 0;
  ChargeHistory h;
  h.grow(4);
  attach_newest(h, 3, &fetches);
  EXPECT_EQ(h.mirror_rows(), 3);
  h.grow(6);  // growing keeps entries by index: nothing to fetch yet
  EXPECT_EQ(fetches, 0);
  EXPECT_EQ(h.s(2, 1), 201.0);  // the mirror's value, not the host's zero
  EXPECT_EQ(h.t(1, 0), 100.0 + puremd::kQEqHistoryDepth);
  EXPECT_EQ(fetches, 1);
  EXPECT_EQ(h.mirror_rows(), -1);
  EXPECT_EQ(h.s(2, 1), 201.0);  // home now: no second fetch
  EXPECT_EQ(fetches, 1);
  EXPECT_EQ(h.s(4, 0), 0.0);  // grown past the mirror's rows: zero
  EXPECT_GE(h.capacity(), 6);
}

TEST(ChargeHistory, EveryHostEntryPointFetchesFirst) {
  std::vector<double> buf(puremd::kQEqHistoryPerAtom);
  for (int entry = 0; entry < 4; ++entry) {
    int fetches = 0;
    ChargeHistory h;
    attach_newest(h, 3, &fetches);
    switch (entry) {
      case 0:
        h.pack(1, buf.data());
        EXPECT_EQ(buf[3], 103.0);
        break;
      case 1:
        h.copy(2, 0);
        EXPECT_EQ(h.s(0, 0), 200.0);
        break;
      case 2:
        for (double &v : buf) v = -1.0;
        h.unpack(5, buf.data());  // past the end: grows, the mirror's rows kept
        EXPECT_EQ(h.s(1, 2), 102.0);
        EXPECT_EQ(h.s(5, 0), -1.0);
        break;
      case 3:
        EXPECT_EQ(h.host_blocks(3)[puremd::kQEqHistoryPerAtom * 2 + 1], 201.0);
        break;
    }
    EXPECT_EQ(fetches, 1) << "entry " << entry;
  }
}

TEST(ChargeHistory, ClearDropsTheMirrorsValues) {
  int fetches = 0;
  ChargeHistory h;
  attach_newest(h, 2, &fetches);
  h.global_block()[0] = 7.0;
  h.clear();
  EXPECT_EQ(h.mirror_rows(), -1);
  EXPECT_EQ(h.s(1, 1), 0.0);
  EXPECT_EQ(h.global_block()[0], 0.0);
  EXPECT_EQ(fetches, 0);
}

TEST(ChargeHistory, MovesWithItsMirror) {
  int fetches = 0;
  ChargeHistory a;
  attach_newest(a, 2, &fetches);
  ChargeHistory b = std::move(a);
  EXPECT_EQ(b.s(1, 0), 100.0);
  EXPECT_EQ(fetches, 1);
  EXPECT_GT(b.bytes(), 0u);
}

// A caller that moves atoms on the GPU itself (LAMMPS KOKKOS's exchange)
// reads and writes the mirror's blocks: newest there (the host's go up when
// they are newer), rows past the newest zero, its writes what the host API
// then brings home; without a mirror there are none.
TEST(ChargeHistory, GpuBlocksAreTheNewestAndTheCallersWritesStay) {
  const int per = puremd::kQEqHistoryPerAtom;
  ChargeHistory none;
  EXPECT_EQ(none.gpu_blocks(4), nullptr);

  int fetches = 0;
  ChargeHistory h;
  FakeMirror *m = attach_newest(h, 2, &fetches);
  double *g = h.gpu_blocks(3);  // the mirror's two rows, a third zero
  ASSERT_EQ(g, m->values.data());
  EXPECT_EQ(g[per + 1], 101.0);
  EXPECT_EQ(g[2 * per], 0.0);
  EXPECT_EQ(h.mirror_rows(), 3);
  g[2 * per] = 7.0;  // the caller moves an atom's block there
  EXPECT_EQ(h.s(2, 0), 7.0);  // brought home with the caller's write
  EXPECT_EQ(fetches, 1);

  h.unpack(0, std::vector<double>(per, -3.0).data());  // the host's are newest now
  g = h.gpu_blocks(3);
  EXPECT_EQ(g[0], -3.0);  // uploaded
  EXPECT_EQ(g[per + 1], 101.0);
  EXPECT_EQ(fetches, 1);
}
