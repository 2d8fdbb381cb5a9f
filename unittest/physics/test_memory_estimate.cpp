// The CUDA driver's memory model (common/memory_estimate.h) against what was
// measured on an H200 (bench/README.md, "Memory model"): HNS 16^3 and 32^3,
// one rank, pair_style reaxff/gpu + fix qeq/reaxff/gpu, `timing yes` peak
// tables. Those tables were taken with 20 % headroom on the lists and the
// per-atom arrays and 5 % on the QEq matrix; the model predicts the arrays
// at their first allocation (kFirstHeadroom), so the measured sizes are
// rescaled by headroom before the comparison. No GPU needed.
#include <gtest/gtest.h>

#include <string>

#include "common/memory_estimate.h"
#include "puremd_gpu/physics/qeq_fsai.h"

using namespace puremd;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// One measured run: counts, and its peak table summed by the headroom its
// arrays were allocated with.
struct Measured {
  long long n_local, n_total, pairs;  // pairs: "pairs in the far-neighbour lists"
  double mib_at_1_2, mib_at_1_05;     // the peak table's arrays at 1.2 x and 1.05 x
  double engine_mib_at_1_2;           // of mib_at_1_2: every array but the QEq solver's
};

// HNS 16^3: skin list 1529.1 MiB, hbond list / three-body arrays 601.2,
// bond orders, vectors, lengths, near list, workspace and the 79 smaller
// arrays 3734.5 (1.2 x); QEq matrix values, tile entries and partners
// 2633.4 (1.05 x).
constexpr Measured kHns16{
    1245184, 1636289, 334044374, 1529.1 + 601.2 + 3734.5, 2633.4, 1529.1 + 601.2 + 3734.5};
// HNS 32^3: the same groups, 11701.5 + 4779.5 + 26523.2 and 20812.3.
constexpr Measured kHns32{
    9961472, 11455923, 2556242310, 11701.5 + 4779.5 + 26523.2, 20812.3, 11701.5 + 4779.5 + 26523.2};

MemoryEstimateInput input_of(const Measured &m, bool charges = true) {
  MemoryEstimateInput in;
  in.n_local = m.n_local;
  in.n_total = m.n_total;
  in.list_pairs = m.pairs;
  in.charges = charges;
  return in;
}

// The measured peak with every array at its first allocation's headroom.
double first_allocation_peak(const Measured &m) {
  return (m.mib_at_1_2 * kFirstHeadroom / 1.2 + m.mib_at_1_05 * kFirstHeadroom / 1.05) * kMiB;
}

}  // namespace

TEST(MemoryEstimate, ErrsHighByAFewPerCentOnTheMeasuredRuns) {
  for (const Measured &m : {kHns16, kHns32}) {
    const double want = first_allocation_peak(m);
    const double got = estimate_device_memory(input_of(m)).bytes;
    EXPECT_GE(got, want) << m.n_local << " owned atoms";
    EXPECT_LE(got, 1.10 * want) << m.n_local << " owned atoms";
  }
}

TEST(MemoryEstimate, WithoutChargesLeavesOutTheQEqMatrix) {
  for (const Measured &m : {kHns16, kHns32}) {
    const MemoryEstimate with = estimate_device_memory(input_of(m, true));
    const MemoryEstimate without = estimate_device_memory(input_of(m, false));
    EXPECT_EQ(without.optional_bytes, 0.0);
    EXPECT_DOUBLE_EQ(with.required(), without.bytes);
    // the optional part is the QEq matrix as measured (values, entries, partners)
    EXPECT_GE(with.optional_bytes, m.mib_at_1_05 * kMiB);
    EXPECT_LE(with.optional_bytes, 1.10 * m.mib_at_1_05 * kMiB);
    // the engine alone (QEq vectors, a few per cent, included in its small arrays)
    const double engine = m.engine_mib_at_1_2 * kFirstHeadroom / 1.2 * kMiB;
    EXPECT_GE(without.bytes, engine);
    EXPECT_LE(without.bytes, 1.10 * engine);
  }
}

// FSAI's factor G and its work arrays, as CudaFsai::setup allocates them
// (cuda/charges/qeq_cuda_fsai.cu), array by array for every owned atom:
// count_ and g_count_ (int), slot_ (kFsaiCandidates ints), g_col_ and g_val_
// (kFsaiPattern ints and doubles: G in ELL), y_ (double2), built_ids_ (long
// long), and G^T: gt_count_ and gt_start_ (int), gt_row_ and gt_val_ (as
// many as G's): 552 bytes. The runs above were measured with Jacobi (no G); with
// FSAI the estimate adds G at its first allocation's headroom, as required
// memory (a matrix-free solve keeps it), within the estimate's margin.
TEST(MemoryEstimate, FsaiAddsItsFactorPerOwnedAtom) {
  const double per_owned = 4 * sizeof(int) + kFsaiCandidates * sizeof(int) +
                           2 * kFsaiPattern * (sizeof(int) + sizeof(double)) + 2 * sizeof(double) +
                           sizeof(long long);
  ASSERT_EQ(per_owned, 552.0);
  for (const Measured &m : {kHns16, kHns32}) {
    MemoryEstimateInput in = input_of(m);
    const MemoryEstimate jacobi = estimate_device_memory(in);
    in.fsai = true;
    const MemoryEstimate fsai = estimate_device_memory(in);
    const double g = per_owned * static_cast<double>(m.n_local) * kFirstHeadroom;
    EXPECT_GE(fsai.bytes - jacobi.bytes, g) << m.n_local << " owned atoms";
    EXPECT_LE(fsai.bytes - jacobi.bytes, 1.10 * g) << m.n_local << " owned atoms";
    EXPECT_DOUBLE_EQ(fsai.optional_bytes, jacobi.optional_bytes);  // G is no optional matrix
    // without a charge solver there is no G
    MemoryEstimateInput engine_only = in;
    engine_only.charges = false;
    in.fsai = false;
    in.charges = false;
    EXPECT_DOUBLE_EQ(estimate_device_memory(engine_only).bytes, estimate_device_memory(in).bytes);
  }
  // the GPU-count advice counts G too: 32^3 on GPUs that hold 16^3 with
  // Jacobi need a 9th GPU with FSAI (G adds ~6 % to a rank of 16^3)
  MemoryEstimateInput in32 = input_of(kHns32);
  const double need16 = estimate_device_memory(input_of(kHns16)).bytes;
  ASSERT_EQ(gpus_to_hold(in32, 1, 1.005 * need16), 8);
  in32.fsai = true;
  EXPECT_EQ(gpus_to_hold(in32, 1, 1.005 * need16), 9);
}

// HNS 32^3 split over 8 GPUs has HNS 16^3's owned atoms a rank, and the same
// ghost shell (same cell, same cut-offs): its share must come out as the
// 16^3 run measured.
TEST(MemoryEstimate, ShareOnMoreGpusShrinksGhostsAsTheMeasuredRuns) {
  const MemoryEstimateInput share = scaled_to_gpus(input_of(kHns32), 100, 800);
  EXPECT_NEAR(static_cast<double>(share.n_local), kHns16.n_local, 0.001 * kHns16.n_local);
  const double ghosts = static_cast<double>(share.n_total - share.n_local);
  EXPECT_NEAR(ghosts, kHns16.n_total - kHns16.n_local, 0.01 * (kHns16.n_total - kHns16.n_local));
  EXPECT_NEAR(static_cast<double>(share.list_pairs), kHns16.pairs, 0.01 * kHns16.pairs);
  // the same number of GPUs as now: unchanged
  const MemoryEstimateInput same = scaled_to_gpus(input_of(kHns32), 4, 4);
  EXPECT_EQ(same.n_total, kHns32.n_total);
  EXPECT_EQ(same.list_pairs, kHns32.pairs);
}

TEST(MemoryEstimate, GpusToHoldCountsGhostsThatShrinkLessThanOwned) {
  const MemoryEstimateInput in16 = input_of(kHns16), in32 = input_of(kHns32);
  const double need16 = estimate_device_memory(in16).bytes;
  // 32^3 on GPUs that hold (a hair more than) 16^3's need: 8 x its owned
  // atoms, so 8 GPUs; a GPU a per cent smaller: 9
  EXPECT_EQ(gpus_to_hold(in32, 1, 1.005 * need16), 8);
  EXPECT_EQ(gpus_to_hold(in32, 1, 0.99 * need16), 9);
  // half the memory a GPU: 2 GPUs halve the owned atoms, not the ghosts
  EXPECT_EQ(gpus_to_hold(in16, 1, 0.5 * need16), 3);
  // counted from the ranks of now: 4 ranks that each need 2x -> more than 8
  EXPECT_GT(gpus_to_hold(in16, 4, 0.5 * need16), 8);
  // a scale (an allocation failed beyond the estimate) asks for more
  EXPECT_GT(gpus_to_hold(in16, 1, 0.5 * need16, 3.0), gpus_to_hold(in16, 1, 0.5 * need16));
  // below what the ghost shell of a tiny sub-domain needs: no number of GPUs
  EXPECT_EQ(gpus_to_hold(in16, 1, 1e6), 0);
}

TEST(MemoryEstimate, MessageSaysNeedGpuAndHowManyGpus) {
  MemoryShortage s;
  s.n_local = 8208000;
  s.n_total = 9525469;
  s.need = 63.0 * 1024 * kMiB;
  s.gpu = "NVIDIA H100 80GB HBM3";
  s.gpu_total = 79.1 * 1024 * kMiB;
  s.available = 78.4 * 1024 * kMiB;
  s.gpus = 2;
  const std::string m = memory_shortage_message(s);
  EXPECT_NE(m.find("8208000 owned + 1317469 ghost atoms need about 63.0 GiB"), std::string::npos)
      << m;
  EXPECT_NE(m.find("GPU NVIDIA H100 80GB HBM3 has 79.1 GiB (78.4 GiB of it available"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("at least 2 GPUs"), std::string::npos) << m;
  EXPECT_NE(m.find("mpirun -np 2"), std::string::npos) << m;
  EXPECT_EQ(m.find("allocating"), std::string::npos) << m;

  s.failed = "far-neighbour list";
  s.failed_bytes = 1529.1 * kMiB;
  s.held = 3.25 * 1024 * kMiB;
  const std::string f = memory_shortage_message(s);
  EXPECT_NE(f.find("allocating 1529.1 MiB for far-neighbour list failed, with 3.25 GiB held"),
            std::string::npos)
      << f;

  MemoryShortage no_atoms = s;  // an array of no step's
  no_atoms.n_local = no_atoms.n_total = 0;
  const std::string n = memory_shortage_message(no_atoms);
  EXPECT_EQ(n.find("ReaxFF/GPU: this rank needs about 63.0 GiB of GPU memory"), 0u) << n;

  MemoryShortage runtime = no_atoms;  // a launch that found the memory used up
  runtime.need = 0.0;
  runtime.failed = "kernel k_bonds at cuda_stages.cu:10";
  runtime.failed_bytes = 0.0;
  runtime.gpus = -1;
  const std::string r = memory_shortage_message(runtime);
  EXPECT_NE(r.find("this rank needs more GPU memory (kernel k_bonds at cuda_stages.cu:10 found "
                   "the GPU's memory used up)"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("Run on more GPUs (one MPI rank per GPU"), std::string::npos) << r;

  s.gpus = 0;
  const std::string none = memory_shortage_message(s);
  EXPECT_EQ(none.find("at least"), std::string::npos) << none;
  EXPECT_NE(none.find("GPU with more memory"), std::string::npos) << none;
}

TEST(MemoryEstimate, FirstAllocationNearlyExactLaterGrowthWithHeadroom) {
  EXPECT_EQ(grown_capacity(1000000, 1.2, true), 1050000u);
  EXPECT_EQ(grown_capacity(1000000, 1.2, false), 1200000u);
  EXPECT_EQ(grown_capacity(1000000, 1.0, true), 1000000u);  // exact stays exact
  EXPECT_EQ(grown_capacity(1000000, 1.0, false), 1000000u);
  EXPECT_EQ(grown_capacity(1000, 1.02, true), 1020u);  // less than first headroom: as asked
  EXPECT_EQ(grown_capacity(0, 1.2, true), 1u);         // a valid pointer always
  EXPECT_EQ(grown_capacity(3, 1.2, true), 3u);         // never below n
}
