// The CUDA QEq solver's matrix formats against the host solver: each pair
// stored once in tiles (and in rows where a tile's partners overflow), and
// the choice `auto` makes (test_cuda_qeq.cpp: the solver's other paths).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cuda_qeq_compare.h"
#include "cuda_qeq_engine.h"
#include "host_qeq.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>
#endif

using namespace puremd;
using namespace qeq_test;

// QEqMatrix::Half stores its pairs in tiles of 32 rows (qeq_matrix_half_tiles.cu)
// where a tile's partners fit its table, as in a system of LAMMPS-sorted
// atoms; the row format (column array) is then not held. Same charges as the
// host (compare_once covers both paths; this pins down that tiles ran). The
// small system first: the room for partners and values it leaves is too
// small for the larger one, whose solve must find them again with more room.
TEST(CudaQEq, HalfMatrixInTiles) {
  REQUIRE_GPU();
  const System small = make_periodic_system(27, 9.0, 6.0, 12345u);
  const System sys = make_periodic_system(216, 13.0, 7.0, 99u);
  QEqSettings set = settings(0.0, 7.0, 1e-12);
  set.matrix = QEqMatrix::Half;
  HostQEq host(set);
  CudaQEq cuda(set);
  expect_same_solve(host, cuda, make_input(small), small, "half, tiles, small");
  // the same engine on the larger system, from an empty history as the host's
  cuda.history.clear();
  QEqInput larger = make_input(sys);
  larger.atoms_reordered = true;
  HostQEq host2(set);
  expect_same_solve(host2, cuda, larger, sys, "half, tiles, after the small");
  HostQEq host3(set);
  CudaQEq cuda2(set);
  expect_same_solve(host3, cuda2, make_input(sys), sys, "half, tiles");
  std::size_t tiles = 0, columns = 0;
  for (const MemoryEntry &e : cuda2.engine->device_memory_table()) {
    if (e.what == "QEq: tile entries") tiles = e.bytes;
    if (e.what == "QEq: matrix columns") columns = e.bytes;
  }
  EXPECT_GT(tiles, 0u) << "the half matrix in tiles";
  EXPECT_EQ(columns, 0u) << "no row format beside the tiles";
}

// QEqMatrix::Half finds its tiles' partners once per build of the engine's
// skin list and each solve's pairs among them, at that solve's positions:
// atoms moving within the skin (pairs crossing the cut-off, no list build:
// the later solves reuse the first one's partners) give the host's charges
// at every solve, owned and ghost pairs alike.
TEST(CudaQEq, HalfTilesFollowAtomsWithinTheSkin) {
  REQUIRE_GPU();
  const double cut = 7.0;
  System sys = make_periodic_system(216, 13.0, cut + 1.0, 99u);
  QEqSettings set = settings(0.0, cut, 1e-12);
  set.matrix = QEqMatrix::Half;
  set.preconditioner = kQEqJacobi;  // (the tiles' path, with Jacobi's iteration counts)
  HostQEq host(set);
  CudaQEq cuda(set);
  // |moves| <= 3 * 0.15 per axis, 0.78 A in all: under half the engine's 2 A skin
  std::mt19937 rng(3u);
  std::uniform_real_distribution<double> u(-0.15, 0.15);
  auto pairs_within = [&](const System &s) {
    std::vector<char> in;
    for (int i = 0; i < s.n_local; ++i)
      for (int j = i + 1; j < s.n_total(); ++j) {
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += std::pow(s.x[3 * j + k] - s.x[3 * i + k], 2);
        in.push_back(d2 <= cut * cut);
      }
    return in;
  };
  std::vector<char> before = pairs_within(sys);
  int crossed = 0;
  for (int solve = 0; solve < 4; ++solve) {
    if (solve > 0) {
      std::vector<double> move(3 * sys.n_local);
      for (double &m : move) m = u(rng);
      for (int i = 0; i < sys.n_total(); ++i) {
        const int o = i < sys.n_local ? i : sys.owner[i - sys.n_local];
        for (int k = 0; k < 3; ++k) sys.x[3 * i + k] += move[3 * o + k];
      }
      const std::vector<char> now = pairs_within(sys);
      for (std::size_t p = 0; p < now.size(); ++p) crossed += now[p] != before[p];
      before = now;
    }
    QEqInput in = make_input(sys);
    in.atoms_reordered = solve == 0;  // (as LAMMPS says between its neighbour-list builds)
    const std::string where = "half, tiles, solve " + std::to_string(solve);
    QEqResult r;
    expect_same_solve(host, cuda, in, sys, where, &r);
    EXPECT_EQ(r.matrix, QEqMatrix::Half) << where;
    EXPECT_EQ(r.tiles_reused, solve > 0) << where << ": the partners of the first solve's list";
  }
  EXPECT_GT(crossed, 100) << "pairs crossing the cut-off between solves";
}

// The test lattice (atoms in lattice order: a tile's partners fit its
// table) with its atoms shuffled: 32 atoms of 4096 then have some 5,000
// partners of higher index, more than a tile's table holds.
System shuffled_lattice() {
  const int n = 4096;
  const double L = 34.5;
  std::vector<double> lattice;
  std::vector<int> lattice_type;
  random_atoms(n, L, 99u, lattice, lattice_type);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7u));
  std::vector<double> pos;
  std::vector<int> type;
  for (int i : order) {
    pos.insert(pos.end(), lattice.begin() + 3 * i, lattice.begin() + 3 * i + 3);
    type.push_back(lattice_type[i]);
  }
  return periodic_from_positions(pos, type, std::vector<int>(n, 1), L, 10.0);
}

// Atoms in no spatial order give a tile of 32 rows partners all over the
// box: more than its table holds, so `matrix half` stores the pairs in rows
// instead (the column array is held), with the same charges as the host.
TEST(CudaQEq, HalfMatrixInRowsWhenTilesOverflow) {
  REQUIRE_GPU();
  const System sys = shuffled_lattice();
  QEqSettings set = settings(0.0, 10.0, 1e-10, 500);
  set.matrix = QEqMatrix::Half;
  HostQEq host(set);
  CudaQEq cuda(set);
  expect_same_solve(host, cuda, make_input(sys), sys, "half, rows");
  std::size_t columns = 0;
  for (const MemoryEntry &e : cuda.engine->device_memory_table())
    if (e.what == "QEq: matrix columns") columns = e.bytes;
  EXPECT_GT(columns, 0u) << "the half matrix in rows";
}

// `matrix auto` stores Half (in tiles) from half_from_atoms owned atoms on,
// without the engine's reverse far index, Full below. When a tile
// overflows, that solve stores Half in rows (no reverse index was built) and
// the later ones Full (Half in rows, with its atomics per entry, is slower).
TEST(CudaQEq, AutoTakesHalfInTilesOrFull) {
  REQUIRE_GPU();
  const System sorted = make_periodic_system(216, 13.0, 7.0, 99u);
  const System shuffled = shuffled_lattice();
  for (int from : {0, 1000000}) {
    QEqSettings set = settings(0.0, 10.0, 1e-10, 500);
    set.half_from_atoms = from;
    CudaQEq cuda(set);
    SingleRankComm comm = make_comm(sorted);
    std::vector<double> q(sorted.n_total());
    const QEqResult r = cuda.solve(make_input(sorted), comm, q.data());
    EXPECT_EQ(r.matrix, from == 0 ? QEqMatrix::Half : QEqMatrix::Full) << "from " << from;
    std::size_t reverse = 0;
    for (const MemoryEntry &e : cuda.engine->device_memory_table())
      if (e.what == "reverse far index") reverse = e.bytes;
    if (from == 0)
      EXPECT_EQ(reverse, 0u) << "no reverse far index under Half";
    else
      EXPECT_GT(reverse, 0u) << "the reverse far index under Full";
  }
  QEqSettings set = settings(0.0, 10.0, 1e-10, 500);
  set.half_from_atoms = 0;
  HostQEq host(set);
  CudaQEq cuda(set);
  for (int solve = 0; solve < 2; ++solve) {
    SingleRankComm ch = make_comm(shuffled), cc = make_comm(shuffled);
    std::vector<double> qh(shuffled.n_total()), qc(shuffled.n_total());
    host.solve(make_input(shuffled), ch, qh.data());
    const QEqResult r = cuda.solve(make_input(shuffled), cc, qc.data());
    EXPECT_EQ(r.matrix, solve == 0 ? QEqMatrix::Half : QEqMatrix::Full)
        << "solve " << solve << " (a tile overflows at the first)";
    // (the table is the peak's, which Full's matrix, larger than the first
    // solve's, sets after the tiles were given back)
    if (solve == 1)
      for (const MemoryEntry &e : cuda.engine->device_memory_table())
        if (e.what.rfind("QEq: tile", 0) == 0) EXPECT_EQ(e.bytes, 0u) << e.what << " under Full";
    // (CG to 1e-10 on this system: the two solvers' sums in other orders moved
    // a charge by 1.2e-10 on an H100)
    for (int i = 0; i < shuffled.n_total(); ++i)
      ASSERT_NEAR(qc[i], qh[i], 1e-9) << "solve " << solve << ": q of atom " << i;
  }
}

// Under matrix auto the tiles of one solve count as held at the next: with
// the GPU nearly full (a block of memory taken here leaves less room than
// the far list's entries would need in rows, but more than the tiles hold),
// the next solve keeps Half in tiles instead of going matrix-free with a
// reverse far index (HNS 28^3 on an H100 did, 4x slower).
TEST(CudaQEq, AutoKeepsItsTilesWhenTheGpuIsNearlyFull) {
  REQUIRE_GPU();
#if defined(PUREMD_WITH_CUDA)  // (the library without CUDA: REQUIRE_GPU skipped)
  // 20,000 atoms on a jittered grid, in blocks of 4 x 4 x 2 grid points (a
  // tile of 32 rows is one block: few partners, as after LAMMPS's sort)
  const int n = 20000;
  const double L = 73.7;
  std::vector<double> grid;
  std::vector<int> grid_type;
  random_atoms(n, L, 11u, grid, grid_type);
  const int m = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(n))));
  auto key = [&](int i) {
    const int c0 = i % m, c1 = (i / m) % m, c2 = i / (m * m);
    return std::make_tuple(c2 / 2, c1 / 4, c0 / 4, c2 % 2, c1 % 4, c0 % 4);
  };
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  std::vector<double> pos;
  std::vector<int> type;
  for (int i : order) {
    pos.insert(pos.end(), grid.begin() + 3 * i, grid.begin() + 3 * i + 3);
    type.push_back(grid_type[i]);
  }
  const System sys = periodic_from_positions(pos, type, std::vector<int>(n, 1), L, 12.0);
  QEqSettings set = settings(0.0, 10.0, 1e-10, 500);
  set.half_from_atoms = 0;
  CudaQEq cuda(set);
  std::vector<double> q(sys.n_total());
  {
    SingleRankComm comm = make_comm(sys);
    ASSERT_EQ(cuda.solve(make_input(sys), comm, q.data()).matrix, QEqMatrix::Half);
  }
  // leave the memory in use 16 MB under kQEqStoredShare of the GPU; the far
  // list's entries in rows would need about 45 MB more
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  const double leave = (1.0 - kQEqStoredShare) * static_cast<double>(total_b) + 16e6;
  ASSERT_GT(static_cast<double>(free_b), leave + 64e6);
  void *block = nullptr;
  ASSERT_EQ(cudaMalloc(&block, static_cast<std::size_t>(static_cast<double>(free_b) - leave)),
            cudaSuccess);
  SingleRankComm comm = make_comm(sys);
  const QEqResult r = cuda.solve(make_input(sys), comm, q.data());
  cudaFree(block);
  EXPECT_EQ(r.matrix, QEqMatrix::Half);
  for (const MemoryEntry &e : cuda.engine->device_memory_table())
    if (e.what == "reverse far index") EXPECT_EQ(e.bytes, 0u) << "a reverse far index was built";
#endif
}
