// The CUDA driver against the host reference driver on the same input:
// periodic boxes of the example systems with explicit image atoms (ghosts,
// carrying the tags of their originals) within 12 A of the box, so that the
// ownership rules for pairs / bonds / torsions that cross the boundary and the
// ghost rows of every list are exercised.
//
// Required agreement: each energy term within 1e-11 relative (1e-9 kcal/mol
// absolute near zero), forces within 1e-10 x max|F|, virial within 1e-10 of
// its largest component, eatom / vatom likewise, bond tables equal as sets.
// Skipped (with the reason) when no CUDA device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#if defined(PUREMD_WITH_CUDA)
#include <cuda_runtime.h>
#endif

#include "engine_test.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"
#include "require_gpu.h"
using namespace puremd;

namespace {

using namespace engine_test;

// ---------------------------------------------------------------------------

TEST(CudaEngine, DescriptionNamesTheGpu) {
  REQUIRE_GPU();
  const Model st = load("HNS/ffield.reax.hns", nullptr);
  auto gpu = make_engine(Driver::Cuda, st.ff, st.control);
  EXPECT_NE(gpu->description().find("CUDA driver on "), std::string::npos) << gpu->description();
  EXPECT_NE(gpu->description().find("(sm_"), std::string::npos) << gpu->description();
}

TEST(CudaEngine, HNSPeriodicWithGhostsAnalytic) {
  REQUIRE_GPU();
  const Model st = load("HNS/ffield.reax.hns", nullptr);
  ASSERT_EQ(st.control.tabulate, 0);
  const System s = periodic_system(read_data(example("HNS/data.hns-equil")), st.ff,
                                   {"C", "H", "O", "N"}, 12.0, 11, 0.05);
  ASSERT_GT(s.n_total(), 2 * s.n_local);
  Engines e = make_engines(st);
  compare_step(*e.host, *e.gpu, s, "HNS all terms");
  // term switches and the path without per-atom outputs
  compare_step(*e.host, *e.gpu, s, "HNS without Coulomb", kTermAll & ~kTermCoulomb);
  compare_step(*e.host, *e.gpu, s, "HNS torsion + conjugation", kTermTorsion | kTermConjugation);
  compare_step(*e.host, *e.gpu, s, "HNS bond only, no per-atom", kTermBond, false);
}

TEST(CudaEngine, RDXPeriodicWithGhostsTabulated) {
  REQUIRE_GPU();
  const Model st = load("RDX/ffield.reax.rdx", "RDX/lmp_control");
  ASSERT_GT(st.control.tabulate, 0);
  const System s = periodic_system(read_data(example("RDX/data.RDX")), st.ff, {"H", "C", "O", "N"},
                                   12.0, 12, 0.05);
  Engines e = make_engines(st);
  compare_step(*e.host, *e.gpu, s, "RDX tabulated");
}

// One atom far from the rest (a blown-up or evaporating atom, issue 42): both
// drivers give the same step, and the GPU's memory follows the atoms, not the
// space they span (the host's cell index: test_neighbor_list.cpp).
TEST(CudaEngine, FarAtomCostFollowsTheAtoms) {
  REQUIRE_GPU();
  const Model st = load("RDX/ffield.reax.rdx", "RDX/lmp_control");
  System s = periodic_system(read_data(example("RDX/data.RDX")), st.ff, {"H", "C", "O", "N"}, 12.0,
                             12, 0.05);
  Engines compact = make_engines(st);
  run(*compact.gpu, s);
  const size_t compact_bytes = compact.gpu->device_bytes();
  for (int m = 0; m < 3; ++m) s.x[m] += 2500.0;  // owned atom 0, far away
  Engines far = make_engines(st);
  compare_step(*far.host, *far.gpu, s, "RDX with an atom 2500 A away");
  EXPECT_LE(far.gpu->device_bytes(), compact_bytes + compact_bytes / 2)
      << "GPU memory grew with the space the atoms span";
}

TEST(CudaEngine, WaterPeriodicWithGhostsHydrogenBonds) {
  REQUIRE_GPU();
  const Model st = load("water/qeq_ff.water", nullptr);
  ASSERT_GT(st.control.hbond_cut, 0.0);
  System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 13, 0.05);
  // One atom (and all its images) that is not a ReaxFF atom: no pairs at all.
  const long long skipped_tag = 17;
  for (int i = 0; i < s.n_total(); ++i)
    if (s.tag[i] == skipped_tag) s.type[i] = -1;
  Engines e = make_engines(st);
  const Result rh = run(*e.host, s), rg = run(*e.gpu, s);
  EXPECT_GT(std::fabs(rh.e.e_hb), 1.0) << "no hydrogen-bond energy: test is vacuous";
  expect_same(rh, rg, "water");
}

TEST(CudaEngine, ListsGrowWhenTheSystemIsCompressed) {
  REQUIRE_GPU();
  const Model st = load("HNS/ffield.reax.hns", nullptr);
  const System full = periodic_system(read_data(example("HNS/data.hns-equil")), st.ff,
                                      {"C", "H", "O", "N"}, 12.0, 14, 0.05);
  // 1. a small piece first (only its first atoms, no ghosts): small arrays
  System small = full;
  small.n_local = 40;
  small.type.resize(40);
  small.q.resize(40);
  small.tag.resize(40);
  small.x.resize(120);
  Engines e = make_engines(st);
  compare_step(*e.host, *e.gpu, small, "small piece");
  const size_t bytes_small = e.gpu->device_bytes();

  // 2. the full system: every per-atom array and list grows
  compare_step(*e.host, *e.gpu, full, "full system");
  const size_t bytes_full = e.gpu->device_bytes();
  EXPECT_GT(bytes_full, bytes_small);

  // 3. compressed by 0.85: 1.6x denser, beyond the headroom (1.05x at first) of the
  //    far-neighbour, bond and three-body lists, which must grow mid-step
  System dense = full;
  for (double &v : dense.x) v *= 0.85;
  compare_step(*e.host, *e.gpu, dense, "compressed x0.85");
  EXPECT_GT(e.gpu->device_bytes(), bytes_full) << "lists did not grow";

  // 4. back to the original: capacities stay, results still agree
  compare_step(*e.host, *e.gpu, full, "full system again");
}

// Consecutive steps without re-neighbouring (atoms_reordered = false after
// the first): the far list comes from the reused skin list and must give the
// host's results at every step. Default skin (kept for all small moves, then
// rebuilt after one atom jumps 1.5 A), a small skin (rebuilt on the
// accumulated displacement), and skin 0 (a fresh list every step).
// With the capacity of the caller's arrays given, the engine page-locks
// them in place (host_pins.h), follows a reallocation (new pointer, old one
// freed) and lets them go with the engine; the results stay the host's.
TEST(CudaEngine, CallerArraysPinnedInPlaceAndFollowed) {
  REQUIRE_GPU();
  const Model st = load("HNS/ffield.reax.hns", nullptr);
  const System s = periodic_system(read_data(example("HNS/data.hns-equil")), st.ff,
                                   {"C", "H", "O", "N"}, 12.0, 11, 0.05);
  const int cap = 300000;  // 1.2 MB of types: every array above the least pinned size
  ASSERT_LT(s.n_total(), cap);
  const Result ref = run(*make_engine(Driver::Host, st.ff, st.control), s);
  auto registered = [](const void *p) {
#if defined(PUREMD_WITH_CUDA)
    unsigned flags = 0;
    const bool yes = cudaHostGetFlags(&flags, const_cast<void *>(p)) == cudaSuccess;
    cudaGetLastError();
    return yes;
#else
    (void)p;  // (skipped above: no CUDA in this build)
    return false;
#endif
  };
  auto gpu = make_engine(Driver::Cuda, st.ff, st.control);
  // the caller's arrays, each with room for cap atoms (as LAMMPS's nmax)
  using Types = std::vector<int>;
  using Ids = std::vector<long long>;  // System::tag
  auto step = [&](std::vector<double> &x, std::vector<double> &q, std::vector<double> &f,
                  Types &type, Ids &tag) {
    StepInput in;
    in.n_local = s.n_local;
    in.n_total = s.n_total();
    in.x = x.data();
    in.type = type.data();
    in.tag = tag.data();
    in.q = q.data();
    in.capacity = cap;
    StepRequest req;
    StepOutput out;
    out.overwrite = true;
    out.f = f.data();
    out.capacity = cap;
    gpu->compute(in, req, out);
    Result r;
    r.e = out.energy;
    r.f.assign(f.begin(), f.begin() + 3 * s.n_total());
    return r;
  };
  auto arrays = [&](std::vector<double> &x, std::vector<double> &q, std::vector<double> &f,
                    Types &type, Ids &tag) {
    x.assign(3 * static_cast<size_t>(cap), 0.0);
    q.assign(cap, 0.0);
    f.assign(3 * static_cast<size_t>(cap), 0.0);
    type.assign(cap, 0);
    tag.assign(cap, 0);
    std::copy(s.x.begin(), s.x.end(), x.begin());
    std::copy(s.q.begin(), s.q.end(), q.begin());
    std::copy(s.type.begin(), s.type.end(), type.begin());
    std::copy(s.tag.begin(), s.tag.end(), tag.begin());
  };
  auto same_as_host = [&](const Result &r, const char *what) {
    SCOPED_TRACE(what);
    for (int t = 0; t < 13; ++t)
      EXPECT_NEAR(energy_array(r.e)[t], energy_array(ref.e)[t],
                  1e-11 * std::fabs(energy_array(ref.e)[t]) + 1e-9)
          << kTermNames[t];
    expect_arrays_near(ref.f, r.f, 1e-10, "forces", 3);
  };
  auto xa = std::make_unique<std::vector<double>>(), qa = std::make_unique<std::vector<double>>(),
       fa = std::make_unique<std::vector<double>>();
  auto ta = std::make_unique<Types>();
  auto ia = std::make_unique<Ids>();
  arrays(*xa, *qa, *fa, *ta, *ia);
  same_as_host(step(*xa, *qa, *fa, *ta, *ia), "first arrays");
  EXPECT_TRUE(registered(xa->data()));
  EXPECT_TRUE(registered(qa->data()));
  EXPECT_TRUE(registered(fa->data()));
  EXPECT_TRUE(registered(ta->data()));
  EXPECT_TRUE(registered(ia->data()));
  // reallocated: new arrays, the old ones freed before the next step
  std::vector<double> xb, qb, fb;
  Types tb;
  Ids ib;
  arrays(xb, qb, fb, tb, ib);
  xa.reset();
  qa.reset();
  fa.reset();
  ta.reset();
  ia.reset();
  same_as_host(step(xb, qb, fb, tb, ib), "reallocated arrays");
  EXPECT_TRUE(registered(xb.data()));
  EXPECT_TRUE(registered(fb.data()));
  EXPECT_TRUE(registered(tb.data()));
  EXPECT_TRUE(registered(ib.data()));
  gpu.reset();
  EXPECT_FALSE(registered(xb.data())) << "the engine lets the caller's arrays go with it";
  EXPECT_FALSE(registered(fb.data()));
  EXPECT_FALSE(registered(tb.data()));
}

TEST(CudaEngine, NeighbourListReusedBetweenSteps) {
  REQUIRE_GPU();
  const Model st = load("RDX/ffield.reax.rdx", "RDX/lmp_control");
  const System start = periodic_system(read_data(example("RDX/data.RDX")), st.ff,
                                       {"H", "C", "O", "N"}, 12.0, 17, 0.05);
  for (const double skin : {-1.0, 0.3, 0.0}) {  // -1: the engine's default
    SCOPED_TRACE("skin " + std::to_string(skin));
    EngineSettings settings;
    if (skin >= 0.0) settings.list_skin = skin;
    Engines e = make_engines(st, settings);
    System s = start;
    std::mt19937 rng(29);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int step = 0; step < 6; ++step) {
      if (step > 0)  // every atom moved by up to 0.05 A
        for (double &v : s.x) v += u(rng) * 0.05 / std::sqrt(3.0);
      compare_step(*e.host, *e.gpu, s, "step " + std::to_string(step), kTermAll, true, step == 0);
    }
    s.x[3 * 5 + 0] += 1.5;  // one atom jumps: beyond skin / 2
    compare_step(*e.host, *e.gpu, s, "after a 1.5 A jump", kTermAll, true, false);
    for (double &v : s.x) v += u(rng) * 0.05 / std::sqrt(3.0);
    compare_step(*e.host, *e.gpu, s, "step after the jump", kTermAll, true, false);
  }
}

// The near list (the skin list's pairs that may become bonds or hydrogen-bond
// partners during its life, cuda_neighbors.cu) keeps up with atoms that move
// by almost skin / 2 without a new list: bonds and hbond partners that come
// and go after its build are found as the host finds them from scratch.
// Water (hydrogen bonds); each step moves every atom by 0.24 A, so after four
// steps an atom is at most 0.96 A from where the list was built (the default
// skin is 2 A).
TEST(CudaEngine, NearListFollowsAtomsWithinTheSkin) {
  REQUIRE_GPU();
  const Model st = load("water/qeq_ff.water", nullptr);
  System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 13, 0.05);
  Engines e = make_engines(st);
  std::mt19937 rng(41);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::set<std::pair<int, int>> built, last;
  double hb_built = 0.0, hb_last = 0.0;
  for (int step = 0; step <= 4; ++step) {
    if (step > 0)
      for (int i = 0; i < s.n_total(); ++i) {
        double d[3] = {gauss(rng), gauss(rng), gauss(rng)};
        const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; ++k) s.x[3 * i + k] += 0.24 * d[k] / len;
      }
    const Result rh = run(*e.host, s, kTermAll, true, step == 0);
    const Result rg = run(*e.gpu, s, kTermAll, true, step == 0);
    expect_same(rh, rg, "step " + std::to_string(step) + " of the list's life");
    std::set<std::pair<int, int>> &bonds = step == 0 ? built : last;
    bonds.clear();
    for (int i = 0; i + 1 < static_cast<int>(rh.row_start.size()); ++i)
      for (int b = rh.row_start[i]; b < rh.row_start[i + 1]; ++b)
        bonds.insert({std::min(i, rh.bonds[b].j), std::max(i, rh.bonds[b].j)});
    (step == 0 ? hb_built : hb_last) = rh.e.e_hb;
  }
  std::size_t moved = 0;  // bonds of one end and not the other
  for (const auto &b : built) moved += last.count(b) == 0;
  for (const auto &b : last) moved += built.count(b) == 0;
  EXPECT_GT(moved, 10u) << "no bond came or went: the test is vacuous";
  EXPECT_NE(hb_built, hb_last);
}

// Every stage with a ThreadMapping gives the host's results whatever the
// number of lanes per row (one lane, a whole warp, mixed), on fresh and
// reused lists; a malformed `lanes` value is an error naming the item.
TEST(CudaEngine, ThreadMappingsAgreeWithHost) {
  REQUIRE_GPU();
  const Model rdx = load("RDX/ffield.reax.rdx", "RDX/lmp_control");
  const Model water = load("water/qeq_ff.water", nullptr);
  const System rdx_sys = periodic_system(read_data(example("RDX/data.RDX")), rdx.ff,
                                         {"H", "C", "O", "N"}, 12.0, 17, 0.05);
  const System water_sys =
      periodic_system(read_data(example("water/data.water")), water.ff, {"O", "H"}, 12.0, 13, 0.05);
  for (const char *lanes : {"neighbors=1,compaction=1,hbonds=1,nonbonded=1,lists=1",
                            "neighbors=32,compaction=32,hbonds=32,nonbonded=32,lists=32",
                            "neighbors=2,compaction=8,hbonds=4,nonbonded=16,lists=4"}) {
    for (const auto &[model, start] : {std::pair{&rdx, &rdx_sys}, std::pair{&water, &water_sys}}) {
      SCOPED_TRACE(std::string("lanes ") + lanes + (model == &rdx ? " on RDX" : " on water"));
      EngineSettings settings;
      settings.lanes = parse_lanes(lanes);
      Engines e = make_engines(*model, settings);
      System s = *start;
      std::mt19937 rng(31);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      for (int step = 0; step < 3; ++step) {
        if (step > 0)
          for (double &v : s.x) v += u(rng) * 0.05 / std::sqrt(3.0);
        compare_step(*e.host, *e.gpu, s, "step " + std::to_string(step), kTermAll, true, step == 0);
      }
    }
  }
}

TEST(CudaEngine, EdgeCasesEmptyAndGhostsOnly) {
  REQUIRE_GPU();
  const Model st = load("HNS/ffield.reax.hns", nullptr);
  Engines e = make_engines(st);
  System empty;
  const Result r0 = run(*e.gpu, empty);
  EXPECT_EQ(r0.e.total(), 0.0);
  ASSERT_EQ(r0.row_start.size(), 1u);

  // A bad type is reported (naming the atom), and the engine stays usable.
  System bad = periodic_system(read_data(example("RDX/data.RDX")), st.ff, {"C", "H", "O", "N"}, 0.0,
                               16, 0.0);
  bad.type[7] = st.ff.num_types;
  try {
    run(*e.gpu, bad);
    ADD_FAILURE() << "a type outside the force field was accepted";
  } catch (const RuntimeError &err) {
    EXPECT_NE(std::string(err.what()).find("atom 7"), std::string::npos) << err.what();
  }
  bad.type[7] = 0;
  compare_step(*e.host, *e.gpu, bad, "after a rejected step");

  System ghosts = periodic_system(read_data(example("HNS/data.hns-equil")), st.ff,
                                  {"C", "H", "O", "N"}, 6.0, 15, 0.0);
  ghosts.n_local = 0;  // nothing owned: no energy, but every ghost row is built
  compare_step(*e.host, *e.gpu, ghosts, "ghosts only");
}

// The phases of PhaseTimes by name, for checks over all of them.
std::vector<std::pair<std::string, double>> phases(const PhaseTimes &t) {
  return {{"neighbors", t.neighbors_ms}, {"charges", t.charges_ms},
          {"lists", t.lists_ms},         {"bond_orders", t.bond_orders_ms},
          {"bonded", t.bonded_ms},       {"hbonds", t.hbonds_ms},
          {"nonbonded", t.nonbonded_ms}, {"chain_rule", t.chain_rule_ms},
          {"transfer", t.transfer_ms}};
}

// engine.h's promise: device time per phase, accumulated over steps, with
// EngineSettings::timing; all zero otherwise. A compute() (no charge solve)
// runs every phase but the charges, each taking some time, and the phases
// of one step, measured on the GPU inside the call, add up to no more than
// the call's wall time.
TEST(CudaEngine, PhaseTimesWhenRequested) {
  REQUIRE_GPU();
  // water: every phase has work (RDX's 21 atoms have no hydrogen bond)
  const Model st = load("water/qeq_ff.water", nullptr);
  const System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 13, 0.05);
  auto quiet = make_engine(Driver::Cuda, st.ff, st.control);
  const Result r = run(*quiet, s);
  ASSERT_NE(r.e.e_hb, 0.0) << "no hydrogen bonds: the hbonds phase would have nothing to time";
  for (const PhaseTimes &t :
       {quiet->phase_times(), make_engine(Driver::Host, st.ff, st.control)->phase_times()}) {
    EXPECT_EQ(t.steps, 0) << "timing without EngineSettings::timing";
    for (const auto &[name, ms] : phases(t))
      EXPECT_EQ(ms, 0.0) << name << " timed without EngineSettings::timing";
  }
  EXPECT_GT(quiet->device_bytes(), 0u);

  EngineSettings settings;
  settings.timing = true;
  auto timed = make_engine(Driver::Cuda, st.ff, st.control, settings);
  run(*timed, s);  // the first step also sizes every array
  const PhaseTimes before = timed->phase_times();
  EXPECT_EQ(before.steps, 1);
  const auto start = std::chrono::steady_clock::now();
  run(*timed, s);
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const PhaseTimes after = timed->phase_times();
  EXPECT_EQ(after.steps, 2);
  const auto a = phases(before), b = phases(after);
  double step_ms = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const std::string &name = a[k].first;
    const double ms = b[k].second - a[k].second;
    step_ms += ms;
    if (name == "charges")
      EXPECT_EQ(ms, 0.0) << "charges timed in a step without solve_charges()";
    else
      EXPECT_GT(ms, 0.0) << "phase " << name << " not timed";
  }
  // cudaEventElapsedTime resolves about 0.5 us per phase.
  EXPECT_LE(step_ms, wall_ms + 0.01) << "the phases of one step exceed its wall time";

  // Memory by array at the peak: the arrays add up to the peak, largest
  // first, the skin list (the far list's rows) among them; the host driver
  // holds no device memory.
  const MemoryTable table = timed->device_memory_table();
  ASSERT_FALSE(table.empty());
  size_t sum = 0;
  bool far_list = false;
  for (size_t k = 0; k < table.size(); ++k) {
    sum += table[k].bytes;
    far_list = far_list || table[k].what == "skin list";
    if (k > 0) EXPECT_GE(table[k - 1].bytes, table[k].bytes) << table[k].what;
  }
  EXPECT_EQ(sum, timed->device_bytes());
  EXPECT_TRUE(far_list);
  EXPECT_TRUE(make_engine(Driver::Host, st.ff, st.control)->device_memory_table().empty());
}

// ---------------------------------------------------------------------------
// LAMMPS's own arrays (StepInput's type map and 32-bit ids, StepOutput's
// overwrite) give the step of elements and 64-bit ids.

struct LammpsArrays {
  std::vector<int> type, map;  // types 1..ntypes; map[type]: element, or -1 (NULL)
  std::vector<int> tag;
};

// Types numbered against the element order, plus a NULL type (the atom of
// skipped_tag and its images, which are marked -1 in s as well), as
// pair_coeff * * ffield ... NULL would map them.
LammpsArrays lammps_arrays(System &s, int num_elements, long long skipped_tag) {
  LammpsArrays a;
  const int null_type = num_elements + 1;
  a.map.assign(num_elements + 2, -1);
  for (int e = 0; e < num_elements; ++e) a.map[num_elements - e] = e;
  for (int i = 0; i < s.n_total(); ++i) {
    if (s.tag[i] == skipped_tag) s.type[i] = -1;
    a.type.push_back(s.type[i] < 0 ? null_type : num_elements - s.type[i]);
    a.tag.push_back(static_cast<int>(s.tag[i]));
  }
  return a;
}

// One step from LAMMPS-style input, written over NaNs (overwrite) or added
// to `prefill` (whose values are then taken off again).
Result run_lammps(Engine &engine, const System &s, const LammpsArrays &a, bool overwrite,
                  const Result *prefill) {
  StepInput in;
  in.n_local = s.n_local;
  in.n_total = s.n_total();
  in.x = s.x.data();
  in.type = a.type.data();
  in.type_map = a.map.data();
  in.num_mapped = static_cast<int>(a.map.size());
  in.tag = a.tag.data();
  in.q = s.q.data();
  StepRequest req;
  req.eatom = req.vatom = true;
  const size_t n = s.type.size();
  const double nan = std::nan("");
  Result r;
  r.f = prefill ? prefill->f : std::vector<double>(3 * n, nan);
  r.eatom = prefill ? prefill->eatom : std::vector<double>(n, nan);
  r.vatom = prefill ? prefill->vatom : std::vector<double>(6 * n, nan);
  StepOutput out;
  out.overwrite = overwrite;
  out.f = r.f.data();
  out.eatom = r.eatom.data();
  out.vatom = r.vatom.data();
  engine.compute(in, req, out);
  if (prefill) {
    for (size_t k = 0; k < r.f.size(); ++k) r.f[k] -= prefill->f[k];
    for (size_t k = 0; k < r.eatom.size(); ++k) r.eatom[k] -= prefill->eatom[k];
    for (size_t k = 0; k < r.vatom.size(); ++k) r.vatom[k] -= prefill->vatom[k];
  }
  r.e = out.energy;
  for (int k = 0; k < 6; ++k) r.virial[k] = out.virial[k];
  engine.bond_table(r.row_start, r.bonds);
  engine.atom_table(r.total_bo, r.nlp);
  return r;
}

void expect_lammps_arrays_as_given(Driver driver) {
  const Model st = load("water/qeq_ff.water", nullptr);
  System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 23, 0.05);
  const LammpsArrays a = lammps_arrays(s, st.ff.num_types, 29);
  auto engine = make_engine(driver, st.ff, st.control);
  const Result ref = run(*engine, s);
  EXPECT_GT(std::fabs(ref.e.e_hb), 1.0) << "no hydrogen-bond energy: test is vacuous";
  expect_same(ref, run_lammps(*engine, s, a, true, nullptr), "LAMMPS arrays, written over NaN");
  Result prefill;
  for (size_t k = 0; k < 3 * s.type.size(); ++k) prefill.f.push_back(100.0 * std::sin(0.3 * k));
  for (size_t k = 0; k < s.type.size(); ++k) prefill.eatom.push_back(std::cos(0.7 * k));
  for (size_t k = 0; k < 6 * s.type.size(); ++k) prefill.vatom.push_back(std::sin(1.1 * k));
  expect_same(ref, run_lammps(*engine, s, a, false, &prefill), "LAMMPS arrays, added to");
}

TEST(EngineInput, LammpsArraysAsGivenHost) { expect_lammps_arrays_as_given(Driver::Host); }

TEST(CudaEngine, LammpsArraysAsGiven) {
  REQUIRE_GPU();
  expect_lammps_arrays_as_given(Driver::Cuda);
}

}  // namespace
