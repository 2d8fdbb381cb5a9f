// Running out of GPU memory, for real: the test takes nearly all free device
// memory itself (plain cudaMalloc blocks, a few hundred MiB or less left),
// then asks the CUDA force engine for one step, and the CUDA QEq solver for
// one solve, on a system whose lists need far more than that. The error must
// be a puremd::GpuMemoryError that a user can act on: this rank's owned and
// ghost atoms, the memory they need and the GPU has (GiB), how many GPUs
// would hold them; never a bare CUDA error text. The failure must not be
// sticky: once the memory is back, the object that failed runs the same step
// and agrees with a reference, and an object destroyed while memory is still
// short goes quietly.
//
// Before taking the memory, a reference object runs the same system once and
// is destroyed: that loads every kernel the step needs (lazy module loading
// needs device memory, and CUB picks other kernels for larger inputs) and
// sizes the runtime's own reservations, so the failure can only come from one
// of the library's own allocations; its result is the one the recovered object
// must reproduce. Skipped (with the reason) without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>

#include "cuda/device_buffer.h"
#endif

#include "cuda_qeq_engine.h"
#include "data_file.h"
#include "engine_test.h"
#include "puremd_gpu/control.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/force_field.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"

using namespace puremd;

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;
// Left free while the test holds the rest: room for the runtime's own needs
// (it still launches kernels and copies) and for the per-atom arrays of the
// large systems below (~10-20 MiB), but far less than their neighbour list
// or QEq matrix (hundreds of MiB), so the failure lands on one of those.
constexpr std::size_t kLeaveFree = 64 * kMiB;

double mib(std::size_t bytes) { return static_cast<double>(bytes) / kMiB; }

// Holds all but about `leave` bytes of the current GPU's free memory until it
// is destroyed: large blocks first, then halving down to 1 MiB.
class GpuMemoryHog {
 public:
  explicit GpuMemoryHog(std::size_t leave) {
#if defined(PUREMD_WITH_CUDA)
    std::size_t chunk = 1024 * kMiB;
    while (chunk >= kMiB) {
      const std::size_t free_b = free_bytes();
      if (free_b <= leave + kMiB) break;
      if (free_b - leave < chunk) {
        chunk /= 2;
        continue;
      }
      void *p = nullptr;
      if (cudaMalloc(&p, chunk) != cudaSuccess) {
        cudaGetLastError();  // our own failure; nothing later may see it
        chunk /= 2;
        continue;
      }
      blocks_.push_back(p);
      held_ += chunk;
    }
#else
    (void)leave;
#endif
  }
  ~GpuMemoryHog() {
#if defined(PUREMD_WITH_CUDA)
    for (void *p : blocks_) cudaFree(p);
#endif
  }
  GpuMemoryHog(const GpuMemoryHog &) = delete;
  GpuMemoryHog &operator=(const GpuMemoryHog &) = delete;

  std::size_t held() const { return held_; }

  static std::size_t free_bytes() {
    std::size_t free_b = 0;
#if defined(PUREMD_WITH_CUDA)
    std::size_t total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
#endif
    return free_b;
  }

 private:
  std::vector<void *> blocks_;
  std::size_t held_ = 0;
};

// what() of the RuntimeError that f throws, empty if it returns normally.
// Any other exception escapes and fails the test as such.
template <class F>
std::string runtime_error_of(F &&f) {
  try {
    f();
  } catch (const RuntimeError &e) {
    return e.what();
  }
  return {};
}

// n appears in msg as a number of its own (not inside a longer one, such as
// a MiB figure).
bool mentions_number(const std::string &msg, long long n) {
  const std::string s = std::to_string(n);
  auto numeric = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; };
  for (std::size_t p = msg.find(s); p != std::string::npos; p = msg.find(s, p + 1)) {
    const bool left = p == 0 || !numeric(msg[p - 1]);
    const bool right = p + s.size() == msg.size() || !numeric(msg[p + s.size()]);
    if (left && right) return true;
  }
  return false;
}

// What every out-of-memory error says: the rank's owned and ghost atoms, the
// memory in GiB, the GPUs to run on (or a larger GPU); not a CUDA error text.
void expect_out_of_memory_message(const std::string &msg, long long n_local, long long n_total) {
  EXPECT_TRUE(mentions_number(msg, n_local)) << "no owned count " << n_local << " in: " << msg;
  EXPECT_TRUE(mentions_number(msg, n_total - n_local))
      << "no ghost count " << n_total - n_local << " in: " << msg;
  EXPECT_NE(msg.find("GiB of GPU memory"), std::string::npos) << msg;
  EXPECT_NE(msg.find(" GPUs (one MPI rank per GPU"), std::string::npos) << msg;
  for (const char *cuda : {"cudaError", "CUDA driver", "out of memory", "cudaMalloc"})
    EXPECT_EQ(msg.find(cuda), std::string::npos) << "CUDA's own words (" << cuda << ") in: " << msg;
}

// what() of the GpuMemoryError that f throws, empty if it returns normally.
// Any other exception escapes and fails the test as such.
template <class F>
std::string memory_error_of(F &&f) {
  try {
    f();
  } catch (const GpuMemoryError &e) {
    return e.what();
  }
  return {};
}

// ---------------------------------------------------------------------------
// Force engine: the water example, replicated

using test_data::DataFile;
using test_data::read_data;

struct Atoms {
  std::vector<double> x, q;
  std::vector<int> type;
  std::vector<long long> tag;
  int n() const { return static_cast<int>(type.size()); }
};

// copies^3 images of the (orthogonal) box, all owned, no ghosts: a finite
// cluster of the periodic crystal, so no two atoms come closer than in it.
Atoms replicate(const DataFile &d, const ForceField &ff, const std::vector<std::string> &elements,
                int copies) {
  Atoms s;
  const double len[3] = {d.hi[0] - d.lo[0], d.hi[1] - d.lo[1], d.hi[2] - d.lo[2]};
  for (int a = 0; a < copies; ++a)
    for (int b = 0; b < copies; ++b)
      for (int c = 0; c < copies; ++c) {
        const int shift[3] = {a, b, c};
        for (const auto &at : d.atoms) {
          s.type.push_back(ff.find_element(elements.at(static_cast<int>(at[0]) - 1)));
          s.q.push_back(at[1]);
          for (int m = 0; m < 3; ++m) s.x.push_back(at[2 + m] + shift[m] * len[m]);
          s.tag.push_back(static_cast<long long>(s.tag.size()) + 1);
        }
      }
  return s;
}

struct StepResult {
  Energies e;
  std::vector<double> f;
};

StepResult step(Engine &engine, const Atoms &s) {
  StepInput in;
  in.n_local = in.n_total = s.n();
  in.x = s.x.data();
  in.type = s.type.data();
  in.tag = s.tag.data();
  in.q = s.q.data();
  StepRequest req;
  StepResult r;
  r.f.assign(3 * static_cast<std::size_t>(s.n()), 0.0);
  StepOutput out;
  out.f = r.f.data();
  engine.compute(in, req, out);
  r.e = out.energy;
  return r;
}

// Two steps' energies and forces (StepResult, engine_test::Result: e, f).
template <class Result>
void expect_same_step(const Result &a, const Result &b) {
  const double *ea = &a.e.e_bond, *eb = &b.e.e_bond;
  for (int k = 0; k < static_cast<int>(sizeof(Energies) / sizeof(double)); ++k)
    EXPECT_NEAR(ea[k], eb[k], std::max(1e-9 * std::fabs(eb[k]), 1e-6)) << "energy term " << k;
  ASSERT_EQ(a.f.size(), b.f.size());
  double fmax = 0.0, worst = 0.0;
  for (std::size_t k = 0; k < b.f.size(); ++k) {
    fmax = std::max(fmax, std::fabs(b.f[k]));
    worst = std::max(worst, std::fabs(a.f[k] - b.f[k]));
  }
  EXPECT_LE(worst, 1e-9 * fmax) << "largest force difference";
}

TEST(CudaOutOfMemory, EngineStepSaysAtomsAndGpuMemory) {
  REQUIRE_GPU();
  const std::string dir = std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/water/";
  const ForceField ff = read_force_field(dir + "qeq_ff.water");
  Control control;
  control.nonb_low = ff.nonb_low();
  control.nonb_cut = ff.nonb_cut();
  control.bo_cut = ff.bo_cut();
  const DataFile d = read_data(dir + "data.water");
  ASSERT_EQ(d.xy, 0.0);
  ASSERT_EQ(d.xz, 0.0);
  ASSERT_EQ(d.yz, 0.0);
  // 8 x 3000 atoms at water density: its far-neighbour list alone needs some
  // hundred MiB, its per-atom arrays about 10.
  const Atoms large = replicate(d, ff, {"O", "H"}, 2);

  StepResult ref;
  ASSERT_NO_THROW(ref = step(*make_engine(Driver::Cuda, ff, control), large));
  std::unique_ptr<Engine> failing = make_engine(Driver::Cuda, ff, control);
  std::unique_ptr<Engine> dropped = make_engine(Driver::Cuda, ff, control);
  {
    GpuMemoryHog hog(kLeaveFree);
    const std::size_t left = GpuMemoryHog::free_bytes();
    ASSERT_LE(left, kLeaveFree + 4 * kMiB)
        << "could not take the GPU's memory down to " << mib(kLeaveFree) << " MiB free (held "
        << mib(hog.held()) << " MiB)";
    const std::string msg = memory_error_of([&] { step(*failing, large); });
    ASSERT_FALSE(msg.empty()) << "a step of " << large.n() << " atoms with " << mib(left)
                              << " MiB of GPU memory free did not fail";
    expect_out_of_memory_message(msg, large.n(), large.n());
    // As when LAMMPS unwinds after the error: the engine goes while memory is short.
    EXPECT_FALSE(runtime_error_of([&] { step(*dropped, large); }).empty());
    dropped.reset();
  }

  // Memory is back: the engine that failed runs the step, as the reference did.
  StepResult again;
  ASSERT_NO_THROW(again = step(*failing, large)) << "the failure was sticky";
  expect_same_step(again, ref);
  failing.reset();
}

// ---------------------------------------------------------------------------
// Force engine: an HNS crystal of 6^3 cells with its periodic ghosts, as LAMMPS
// hands a rank its atoms; the step is refused at its list count, before the
// large arrays are allocated, by the estimate of what it needs.

// n^3 copies of the (triclinic) cell of d as one cell.
DataFile replicate_cell(const DataFile &d, int n) {
  DataFile r = d;
  const double a[3] = {d.hi[0] - d.lo[0], 0, 0}, b[3] = {d.xy, d.hi[1] - d.lo[1], 0},
               c[3] = {d.xz, d.yz, d.hi[2] - d.lo[2]};
  for (int m = 0; m < 3; ++m) r.hi[m] = d.lo[m] + n * (d.hi[m] - d.lo[m]);
  r.xy = n * d.xy;
  r.xz = n * d.xz;
  r.yz = n * d.yz;
  r.atoms.clear();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        for (auto at : d.atoms) {
          for (int m = 0; m < 3; ++m) at[2 + m] += i * a[m] + j * b[m] + k * c[m];
          r.atoms.push_back(at);
        }
  return r;
}

TEST(CudaOutOfMemory, HnsStepTooLargeForTheGpuSaysHowManyGpus) {
  REQUIRE_GPU();
  const engine_test::Model st = engine_test::load("HNS/ffield.reax.hns", nullptr);
  // 65,664 owned atoms and about as many ghosts: ~600 MB by the estimate
  // (memory_estimate.h), twice what is left free below.
  const engine_test::System s = engine_test::periodic_system(
      replicate_cell(read_data(engine_test::example("HNS/data.hns-equil")), 6), st.ff,
      {"C", "H", "O", "N"}, 12.0, 5, 0.05);
  ASSERT_EQ(s.n_local, 6 * 6 * 6 * 304);
  constexpr std::size_t kLeave = 300 * kMiB;

  engine_test::Result ref;
  ASSERT_NO_THROW(ref = engine_test::run(*make_engine(Driver::Cuda, st.ff, st.control), s));
  std::unique_ptr<Engine> failing = make_engine(Driver::Cuda, st.ff, st.control);
  {
    GpuMemoryHog hog(kLeave);
    const std::size_t left = GpuMemoryHog::free_bytes();
    ASSERT_LE(left, kLeave + 4 * kMiB) << "could not take the GPU's memory down to " << mib(kLeave)
                                       << " MiB free (held " << mib(hog.held()) << " MiB)";
    const std::string msg = memory_error_of([&] { engine_test::run(*failing, s); });
    ASSERT_FALSE(msg.empty()) << "a step of " << s.n_total() << " atoms with " << mib(left)
                              << " MiB of GPU memory free did not fail";
    expect_out_of_memory_message(msg, s.n_local, s.n_total());
    // refused by the estimate, not by a failing allocation
    EXPECT_EQ(msg.find("allocating"), std::string::npos) << msg;
    const std::size_t at = msg.find("Run on at least ");
    ASSERT_NE(at, std::string::npos) << msg;
    EXPECT_GE(std::atoi(msg.c_str() + at + 16), 2) << msg;
    // the estimate holds the arrays' need: nothing large was allocated
    EXPECT_LT(failing->device_bytes(), 100 * kMiB);
  }
  // Memory is back: the same engine runs the step, as the reference did.
  engine_test::Result again;
  ASSERT_NO_THROW(again = engine_test::run(*failing, s)) << "the failure was sticky";
  expect_same_step(again, ref);
}

// ---------------------------------------------------------------------------
// One array: a cudaMalloc beyond the GPU's memory fails with the same kind of
// message, naming the array; the array stays usable, and its first
// allocation is nearly exact while a later growth takes the full headroom.

TEST(CudaOutOfMemory, FailedAllocationNamesTheArrayAndTheNeed) {
  REQUIRE_GPU();
#if defined(PUREMD_WITH_CUDA)
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  cuda::MemoryTracker t;
  t.n_local = 1000;
  t.n_atoms = 1500;
  t.device_name = "the test's GPU";
  cuda::DeviceArray<double> a("test array", &t);
  const std::size_t too_many = 2 * (total_b / sizeof(double));

  std::string msg = memory_error_of([&] { a.reserve_discarding(too_many); });
  ASSERT_FALSE(msg.empty()) << "allocating twice the GPU's memory did not fail";
  expect_out_of_memory_message(msg, 1000, 1500);
  EXPECT_NE(msg.find("for test array failed"), std::string::npos) << msg;
  EXPECT_NE(msg.find("GPU the test's GPU has"), std::string::npos) << msg;

  // with an estimate of the step known: still at least what was asked for
  t.need = MemoryEstimateInput{1000, 1500, 200000, false};
  t.need_known = true;
  msg = memory_error_of([&] { a.reserve_discarding(too_many); });
  expect_out_of_memory_message(msg, 1000, 1500);
  const double asked_gib = static_cast<double>(too_many * sizeof(double)) / (1024.0 * kMiB);
  const std::size_t about = msg.find("need about ");
  ASSERT_NE(about, std::string::npos) << msg;
  EXPECT_GE(std::atof(msg.c_str() + about + 11), 0.99 * asked_gib) << msg;

  EXPECT_EQ(a.data(), nullptr);
  ASSERT_NO_THROW(a.reserve_discarding(1000000, cuda::kGrowHeadroom)) << "the failure was sticky";
  EXPECT_EQ(a.capacity(), 1050000u) << "first allocation: kFirstHeadroom";
  EXPECT_FALSE(a.reserve_discarding(1050000, cuda::kGrowHeadroom));
  EXPECT_TRUE(a.reserve_discarding(1050001, cuda::kGrowHeadroom));
  EXPECT_EQ(a.capacity(), 1260001u) << "a later growth: kGrowHeadroom";
  EXPECT_EQ(t.current, a.capacity() * sizeof(double));
#endif
}

// ---------------------------------------------------------------------------
// CUDA QEq solver: the shared periodic test system at ~0.1 atoms / A^3

QEqSettings qeq_settings() {
  QEqSettings s;
  s.cut_lo = 0.0;
  s.cut_hi = 10.0;
  s.tolerance = 1e-10;
  s.max_iter = 500;
  s.matrix = QEqMatrix::Full;  // the failure must land on the matrix
  // Jacobi: a solve's sums in a fixed order (FSAI's G^T adds by atomics), so
  // that a solve after the failure is the reference's to the bit
  s.preconditioner = kQEqJacobi;
  return s;
}

struct Solve {
  QEqResult res;
  std::vector<double> q;
};

Solve solve(qeq_test::CudaQEq &solver, const qeq_test::System &sys) {
  qeq_test::SingleRankComm comm = qeq_test::make_comm(sys);
  Solve s;
  s.q.assign(sys.n_total(), 0.0);
  s.res = solver.solve(qeq_test::make_input(sys), comm, s.q.data());
  return s;
}

TEST(CudaOutOfMemory, QEqSolveSaysAtomsAndGpuMemory) {
  REQUIRE_GPU();
  // 27^3 owned atoms at the density of test_cuda_qeq.cpp's systems, ~48000
  // with ghosts, ~400 matrix entries per owned row: the matrix needs some
  // hundred MiB, the per-atom vectors about 15.
  const qeq_test::System large = qeq_test::make_periodic_system(19683, 58.0, 10.0, 4711u);

  Solve ref;
  {
    qeq_test::CudaQEq fresh(qeq_settings());
    ASSERT_NO_THROW(ref = solve(fresh, large));
  }
  auto failing = std::make_unique<qeq_test::CudaQEq>(qeq_settings());
  auto dropped = std::make_unique<qeq_test::CudaQEq>(qeq_settings());
  {
    GpuMemoryHog hog(kLeaveFree);
    const std::size_t left = GpuMemoryHog::free_bytes();
    ASSERT_LE(left, kLeaveFree + 4 * kMiB)
        << "could not take the GPU's memory down to " << mib(kLeaveFree) << " MiB free (held "
        << mib(hog.held()) << " MiB)";
    const std::string msg = memory_error_of([&] { solve(*failing, large); });
    ASSERT_FALSE(msg.empty()) << "a QEq solve of " << large.n_total() << " atoms with " << mib(left)
                              << " MiB of GPU memory free did not fail";
    expect_out_of_memory_message(msg, large.n_local, large.n_total());
    EXPECT_FALSE(runtime_error_of([&] { solve(*dropped, large); }).empty());
    dropped.reset();
  }

  // Memory is back: the solver that failed solves as the reference did (both
  // start from an empty history, so the results must agree to the last bit).
  Solve again;
  ASSERT_NO_THROW(again = solve(*failing, large)) << "the failure was sticky";
  EXPECT_EQ(again.res.iter_s, ref.res.iter_s);
  EXPECT_EQ(again.res.iter_t, ref.res.iter_t);
  for (int i = 0; i < large.n_total(); ++i)
    ASSERT_NEAR(again.q[i], ref.q[i], 1e-10) << "q of atom " << i;
  failing.reset();
}

// QEqMatrix::Auto stores the matrix while it fits and otherwise solves
// matrix-free with the same charges: Full while the memory in use plus the
// matrix stays within kQEqStoredShareFirst of the GPU at a solver's first
// solve and kQEqStoredShare at later ones; Half (before its tiles exist)
// while the memory model's whole step adds to what is in use within
// kQEqStoredShare (qeq_model_fits). The test holds memory to put each rule
// on either side.
TEST(CudaOutOfMemory, QEqAutoGoesMatrixFreeWhenMemoryIsShort) {
  REQUIRE_GPU();
  const qeq_test::System sys = qeq_test::make_periodic_system(4096, 34.5, 10.0, 99u);
  QEqSettings set = qeq_settings();
  Solve ref;
  {
    qeq_test::CudaQEq stored(set);
    ASSERT_NO_THROW(ref = solve(stored, sys));
    EXPECT_FALSE(ref.res.matrix_free);
  }
  set.matrix = QEqMatrix::Auto;
  qeq_test::CudaQEq solver(set);
  std::size_t free_b = 0, total_b = 0;
#if defined(PUREMD_WITH_CUDA)
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
#endif
  auto leave = [&](double share) { return static_cast<std::size_t>(share * total_b); };
  {
    // 70 % in use at a first solve: beyond Full's share (60 %), not the
    // model's step (90 %): stored, each pair once
    qeq_test::CudaQEq other(set);
    GpuMemoryHog hog(leave(1.0 - 0.7));
    Solve half;
    ASSERT_NO_THROW(half = solve(other, sys));
    EXPECT_FALSE(half.res.matrix_free) << "first solve, held " << mib(hog.held()) << " MiB";
    for (int i = 0; i < sys.n_total(); ++i)
      ASSERT_NEAR(half.q[i], ref.q[i], 1e-10) << "q of atom " << i;
  }
  {
    // 95 % in use: beyond both
    GpuMemoryHog hog(leave(1.0 - 0.95));
    Solve lean;
    ASSERT_NO_THROW(lean = solve(solver, sys));
    EXPECT_TRUE(lean.res.matrix_free) << "first solve, held " << mib(hog.held()) << " MiB";
    EXPECT_NEAR(lean.res.iter_s, ref.res.iter_s, 1);  // sums in another order
    EXPECT_NEAR(lean.res.iter_t, ref.res.iter_t, 1);
    for (int i = 0; i < sys.n_total(); ++i)
      ASSERT_NEAR(lean.q[i], ref.q[i], 1e-10) << "q of atom " << i;
    for (const MemoryEntry &e : solver.engine->device_memory_table())
      EXPECT_FALSE(e.what == "QEq: matrix values") << "a matrix-free solve held " << e.bytes;
  }
  {
    GpuMemoryHog hog(leave(1.0 - 0.95));  // 95 %: beyond a later solve's share (90 %)
    Solve lean;
    ASSERT_NO_THROW(lean = solve(solver, sys));
    EXPECT_TRUE(lean.res.matrix_free) << "later solve, held " << mib(hog.held()) << " MiB";
  }
  {
    GpuMemoryHog hog(leave(1.0 - 0.7));  // 70 %: within a later solve's share
    Solve stored;
    ASSERT_NO_THROW(stored = solve(solver, sys));
    EXPECT_FALSE(stored.res.matrix_free) << "later solve, held " << mib(hog.held()) << " MiB";
  }
  Solve back;
  ASSERT_NO_THROW(back = solve(solver, sys));
  EXPECT_FALSE(back.res.matrix_free) << "memory is back: the matrix is stored";
}

}  // namespace
