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
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "data_file.h"
#include "puremd_gpu/control.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"

using namespace puremd;

namespace {

// ---------------------------------------------------------------------------
// Input systems

using test_data::DataFile;
using test_data::read_data;

struct System {
  int n_local = 0;
  std::vector<double> x, q;
  std::vector<int> type;
  std::vector<long long> tag;
  int n_total() const { return static_cast<int>(type.size()); }
};

// All atoms of the data file owned (jiggled by up to `jiggle` A; zero charges
// replaced by random ones), plus every periodic image within `ghost_cut` of the
// (possibly triclinic) box as a ghost with its original's tag, type and charge.
System periodic_system(const DataFile &d, const ForceField &ff,
                       const std::vector<std::string> &elements, double ghost_cut, unsigned seed,
                       double jiggle) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double lx = d.hi[0] - d.lo[0], ly = d.hi[1] - d.lo[1], lz = d.hi[2] - d.lo[2];
  const double a[3] = {lx, 0, 0}, b[3] = {d.xy, ly, 0}, c[3] = {d.xz, d.yz, lz};
  auto cross_norm = [](const double *p, const double *q) {
    const double cx = p[1] * q[2] - p[2] * q[1], cy = p[2] * q[0] - p[0] * q[2],
                 cz = p[0] * q[1] - p[1] * q[0];
    return std::sqrt(cx * cx + cy * cy + cz * cz);
  };
  const double volume = lx * ly * lz;
  const double width[3] = {volume / cross_norm(b, c), volume / cross_norm(c, a),
                           volume / cross_norm(a, b)};
  auto fractional = [&](const double *r, double *s) {
    s[2] = (r[2] - d.lo[2]) / lz;
    s[1] = (r[1] - d.lo[1] - d.yz * s[2]) / ly;
    s[0] = (r[0] - d.lo[0] - d.xy * s[1] - d.xz * s[2]) / lx;
  };

  System s;
  for (size_t k = 0; k < d.atoms.size(); ++k) {
    const auto &at = d.atoms[k];
    s.type.push_back(ff.find_element(elements.at(static_cast<int>(at[0]) - 1)));
    s.q.push_back(at[1] != 0.0 ? at[1] : 0.3 * u(rng));
    for (int m = 0; m < 3; ++m) s.x.push_back(at[2 + m] + jiggle * u(rng));
    s.tag.push_back(static_cast<long long>(k) + 1);
  }
  s.n_local = static_cast<int>(s.type.size());

  int range[3];
  for (int m = 0; m < 3; ++m) range[m] = static_cast<int>(std::ceil(ghost_cut / width[m])) + 1;
  for (int i = 0; i < s.n_local; ++i)
    for (int ia = -range[0]; ia <= range[0]; ++ia)
      for (int ib = -range[1]; ib <= range[1]; ++ib)
        for (int ic = -range[2]; ic <= range[2]; ++ic) {
          if (ia == 0 && ib == 0 && ic == 0) continue;
          double r[3], f[3];
          for (int m = 0; m < 3; ++m) r[m] = s.x[3 * i + m] + ia * a[m] + ib * b[m] + ic * c[m];
          fractional(r, f);
          bool keep = true;
          for (int m = 0; m < 3; ++m)
            keep = keep && f[m] >= -ghost_cut / width[m] && f[m] <= 1.0 + ghost_cut / width[m];
          if (!keep) continue;
          s.x.insert(s.x.end(), r, r + 3);
          s.type.push_back(s.type[i]);
          s.q.push_back(s.q[i]);
          s.tag.push_back(s.tag[i]);
        }
  return s;
}

struct Model {
  ForceField ff;
  Control control;
};

Model load(const char *ffield, const char *control_file) {
  const std::string dir = std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/";
  Model st;
  st.ff = read_force_field(dir + ffield);
  if (control_file) st.control = read_control_file(dir + control_file).control;
  st.control.nonb_low = st.ff.nonb_low();
  st.control.nonb_cut = st.ff.nonb_cut();
  st.control.bo_cut = st.ff.bo_cut();
  return st;
}

std::string example(const char *rel) {
  return std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/" + rel;
}

// ---------------------------------------------------------------------------
// One step and its comparison

struct Result {
  Energies e;
  double virial[6];
  std::vector<double> f, eatom, vatom;
  std::vector<int> row_start;
  std::vector<BondRecord> bonds;
  std::vector<double> total_bo, nlp;
};

Result run(Engine &engine, const System &s, unsigned terms = kTermAll, bool per_atom = true,
           bool reordered = true, bool charges_from_solve = false) {
  StepInput in;
  in.charges_from_solve = charges_from_solve;
  in.atoms_reordered = reordered;
  in.n_local = s.n_local;
  in.n_total = s.n_total();
  in.x = s.x.data();
  in.type = s.type.data();
  in.tag = s.tag.data();
  in.q = s.q.data();
  StepRequest req;
  req.terms = terms;
  req.eatom = req.vatom = per_atom;
  Result r;
  r.f.assign(3 * s.type.size(), 0.0);
  r.eatom.assign(s.type.size(), 0.0);
  r.vatom.assign(6 * s.type.size(), 0.0);
  StepOutput out;
  out.f = r.f.data();
  out.eatom = per_atom ? r.eatom.data() : nullptr;
  out.vatom = per_atom ? r.vatom.data() : nullptr;
  engine.compute(in, req, out);
  r.e = out.energy;
  for (int k = 0; k < 6; ++k) r.virial[k] = out.virial[k];
  engine.bond_table(r.row_start, r.bonds);
  engine.atom_table(r.total_bo, r.nlp);
  return r;
}

const char *const kTermNames[13] = {"e_bond", "e_ov",  "e_un",  "e_lp",  "e_ang", "e_pen", "e_coa",
                                    "e_hb",   "e_tor", "e_con", "e_vdW", "e_ele", "e_pol"};

const double *energy_array(const Energies &e) { return &e.e_bond; }

// |a - b| <= tol for every entry; reports the count and the worst entry.
void expect_arrays_near(const std::vector<double> &host, const std::vector<double> &gpu, double tol,
                        const std::string &what, int stride) {
  ASSERT_EQ(host.size(), gpu.size()) << what;
  size_t bad = 0, worst = 0;
  double worst_err = -1.0;
  for (size_t k = 0; k < host.size(); ++k) {
    const double err = std::fabs(host[k] - gpu[k]);
    if (!(err <= tol)) ++bad;
    if (!(err <= worst_err)) {
      worst_err = err;
      worst = k;
    }
  }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << host.size()
                     << " entries differ by more than " << tol << "; worst: atom " << worst / stride
                     << " component " << worst % stride << " host " << host[worst] << " gpu "
                     << gpu[worst] << " (diff " << worst_err << ")";
}

double max_abs(const std::vector<double> &v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

void expect_same(const Result &host, const Result &gpu, const std::string &what,
                 bool per_atom = true) {
  SCOPED_TRACE(what);
  const double *eh = energy_array(host.e), *eg = energy_array(gpu.e);
  for (int k = 0; k < 13; ++k) {
    const double tol = std::max(1e-11 * std::fabs(eh[k]), 1e-9);
    EXPECT_NEAR(eg[k], eh[k], tol) << kTermNames[k];
  }

  expect_arrays_near(host.f, gpu.f, 1e-10 * max_abs(host.f), "forces", 3);

  double vmax = 0.0;
  for (double v : host.virial) vmax = std::max(vmax, std::fabs(v));
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(gpu.virial[k], host.virial[k], 1e-10 * vmax) << "virial component " << k;

  if (per_atom) {
    expect_arrays_near(host.eatom, gpu.eatom, 1e-10 * max_abs(host.eatom) + 1e-13, "eatom", 1);
    expect_arrays_near(host.vatom, gpu.vatom, 1e-10 * max_abs(host.vatom) + 1e-13, "vatom", 6);
  }

  // bond tables, as sets per row
  ASSERT_EQ(host.row_start.size(), gpu.row_start.size()) << "bond table rows";
  const size_t n = host.row_start.size() - 1;
  size_t bad_rows = 0;
  std::string first_bad;
  for (size_t i = 0; i < n; ++i) {
    auto row = [&](const Result &r) {
      std::vector<std::pair<int, double>> v;
      for (int p = r.row_start[i]; p < r.row_start[i + 1]; ++p)
        v.emplace_back(r.bonds[p].j, r.bonds[p].bo);
      std::sort(v.begin(), v.end());
      return v;
    };
    const auto rh = row(host), rg = row(gpu);
    bool same = rh.size() == rg.size();
    for (size_t k = 0; same && k < rh.size(); ++k)
      same = rh[k].first == rg[k].first && std::fabs(rh[k].second - rg[k].second) <= 1e-10;
    if (!same && bad_rows++ == 0) {
      std::ostringstream os;
      os << "atom " << i << ": host {";
      for (auto &b : rh) os << " " << b.first << ":" << b.second;
      os << " } gpu {";
      for (auto &b : rg) os << " " << b.first << ":" << b.second;
      os << " }";
      first_bad = os.str();
    }
  }
  EXPECT_EQ(bad_rows, 0u) << "bond-table rows differ; first: " << first_bad;
  expect_arrays_near(host.total_bo, gpu.total_bo, 1e-10, "total bond order", 1);
  expect_arrays_near(host.nlp, gpu.nlp, 1e-10, "lone pairs", 1);
}

// One step of the host and the CUDA engine on the same system, compared.
void compare_step(Engine &host, Engine &gpu, const System &s, const std::string &what,
                  unsigned terms = kTermAll, bool per_atom = true, bool reordered = true) {
  const Result rh = run(host, s, terms, per_atom, reordered);
  const Result rg = run(gpu, s, terms, per_atom, reordered);
  expect_same(rh, rg, what, per_atom);
}

struct Engines {
  std::unique_ptr<Engine> host, gpu;
};

Engines make_engines(const Model &st, const EngineSettings &settings = {}) {
  Engines e;
  e.host = make_engine(Driver::Host, st.ff, st.control);
  e.gpu = make_engine(Driver::Cuda, st.ff, st.control, settings);
  EXPECT_EQ(e.gpu->driver(), Driver::Cuda);
  return e;
}

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

  // 3. compressed by 0.85: 1.6x denser, beyond the 1.2x headroom of the
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
TEST(CudaEngine, NeighbourListReusedBetweenSteps) {
  REQUIRE_GPU();
  const Model st = load("RDX/ffield.reax.rdx", "RDX/lmp_control");
  const System start = periodic_system(read_data(example("RDX/data.RDX")), st.ff,
                                       {"H", "C", "O", "N"}, 12.0, 17, 0.05);
  for (const double skin : {-1.0, 0.3, 0.0}) {  // -1: the engine's default
    SCOPED_TRACE("skin " + std::to_string(skin));
    Engines e = make_engines(st);
    if (skin >= 0.0) e.gpu->set_list_skin(skin);
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

// As fix qeq/reaxff/gpu and pair_style reaxff/gpu run a step: the charge
// stage (solve_charges, with the engine's solver, atoms and far list) must
// give the host solver's charges (all atoms and a sub-group; ghost owners
// given, found by id, or moved by QEqComm), on a fresh and on a reused skin
// list, and with a QEq cut-off beyond the nonbonded one (the far list widens);
// then compute() on the same atoms reuses them, and with charges_from_solve
// the charges the solve left on the GPU (the caller's q is not read), and
// must give the host driver's results with the host solver's charges.
TEST(CudaEngine, ChargeStageOfTheEngine) {
  REQUIRE_GPU();
  const Model st = load("water/qeq_ff.water", nullptr);
  System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 19, 0.05);
  const int n = s.n_total(), nl = s.n_local;
  std::map<long long, int> index_of_tag;
  for (int i = 0; i < nl; ++i) index_of_tag[s.tag[i]] = i;
  qeq_test::SingleRankComm comm;
  comm.n_local = nl;
  for (int g = nl; g < n; ++g) comm.owner.push_back(index_of_tag.at(s.tag[g]));
  std::vector<double> chi, eta, gamma;
  for (int t = 0; t < st.ff.num_types; ++t) {
    chi.push_back(st.ff.sbp[t].chi);
    eta.push_back(st.ff.sbp[t].eta);
    gamma.push_back(st.ff.sbp[t].gamma);
  }
  QEqSettings set;
  set.cut_lo = 0.0;
  set.cut_hi = st.control.nonb_cut;
  set.tolerance = 1e-12;
  set.max_iter = 400;

  Engines e = make_engines(st);
  auto step_input = [&](const System &sys) {
    StepInput in;
    in.n_local = nl;
    in.n_total = n;
    in.x = sys.x.data();
    in.type = sys.type.data();
    in.tag = sys.tag.data();
    in.q = sys.q.data();
    return in;
  };
  // The group as LAMMPS's mask holds it: bit 0 (group all) everywhere, the
  // fix's group bit 0x4 on four atoms of five.
  std::vector<int> mask(n, 0x5);
  for (int g = 0; g < n; ++g)
    if ((g < nl ? g : comm.owner[g - nl]) % 5 == 0) mask[g] = 0x1;
  // LAMMPS's 32-bit ids
  const std::vector<int> tag32(s.tag.begin(), s.tag.end());
  auto qeq_input = [&](bool sub_group, int ghosts) {
    QEqInput qi;
    qi.n_local = nl;
    qi.n_total = n;
    qi.x = s.x.data();
    qi.tag = s.tag.data();
    qi.active = sub_group ? mask.data() : nullptr;
    qi.active_bits = 0x4;
    qi.type = s.type.data();
    qi.num_types = st.ff.num_types;
    qi.chi = chi.data();
    qi.eta = eta.data();
    qi.gamma = gamma.data();
    qi.ghost_owner = ghosts == 0 ? comm.owner.data() : nullptr;
    qi.ghosts_are_images = ghosts == 1;
    return qi;
  };
  auto charges_equal_host = [&](const std::string &what) {
    for (bool sub_group : {false, true})
      for (int ghosts : {0, 1, 2}) {  // owners given, found by id (images), QEqComm
        const char *how[] = {", device ghost refresh", ", ghosts found by id", ", QEqComm"};
        const std::string where = what + (sub_group ? ", sub-group" : ", all atoms") + how[ghosts];
        QEqInput qi = qeq_input(sub_group, ghosts);
        std::vector<double> q_host = s.q, q_gpu = s.q;
        const QEqResult rh = make_host_qeq_solver(set)->solve(qi, comm, q_host.data());
        StepInput in = step_input(s);
        if (ghosts == 1) in.tag = tag32.data();
        auto solver = e.gpu->make_qeq_solver(set);
        const QEqResult rg = e.gpu->solve_charges(in, qi, *solver, comm, q_gpu.data());
        EXPECT_NEAR(rg.iter_s, rh.iter_s, 1) << where;
        EXPECT_NEAR(rg.iter_t, rh.iter_t, 1) << where;
        double worst = 0.0;
        for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(q_gpu[i] - q_host[i]));
        EXPECT_LE(worst, 1e-10) << where << ": charges of the charge stage vs host";
        if (!sub_group && ghosts == 0) s.q = q_host;
      }
  };

  // Without a skin the far list is built each step; with one, the reverse
  // index comes from the skin list (pairs out to cut + skin, which the
  // matrix must drop) and, after a move of less than skin / 2, is reused.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> shake(-0.25, 0.25);
  for (double skin : {0.0, 2.0}) {
    e.gpu->set_list_skin(skin);
    const std::string with = "skin " + std::to_string(skin);
    charges_equal_host(with);
    std::vector<double> dx(3 * static_cast<size_t>(nl));
    for (double &v : dx) v = shake(rng);
    for (int g = 0; g < n; ++g) {  // images move with their owners
      const int o = g < nl ? g : comm.owner[g - nl];
      for (int k = 0; k < 3; ++k) s.x[3 * g + k] += dx[3 * o + k];
    }
    charges_equal_host(with + ", atoms moved");
  }

  // The step as LAMMPS runs it: solve, then compute on the same atoms.
  for (bool from_solve : {true, false}) {
    const std::string what = from_solve ? "compute with the solve's charges kept on the GPU"
                                        : "compute with the caller's charges";
    System sg = s;  // the GPU's copy of the atoms
    const QEqInput qi = qeq_input(false, 1);
    std::vector<double> q_host = s.q;
    make_host_qeq_solver(set)->solve(qi, comm, q_host.data());
    auto solver = e.gpu->make_qeq_solver(set);
    e.gpu->solve_charges(step_input(sg), qi, *solver, comm, sg.q.data());
    if (from_solve) std::fill(sg.q.begin(), sg.q.end(), 1.0e3);  // must not be read
    const Result rg = run(*e.gpu, sg, kTermAll, true, false, from_solve);
    System sh = s;
    sh.q = q_host;
    const Result rh = run(*e.host, sh, kTermAll, true, false);
    expect_same(rh, rg, what, true);
  }

  // A QEq cut-off beyond the nonbonded one: the far list reaches it, the
  // forces keep to the nonbonded cut-off.
  QEqSettings wide = set;
  wide.cut_hi = st.control.nonb_cut + 1.5;
  {
    const QEqInput qi = qeq_input(false, 1);
    std::vector<double> q_host = s.q, q_gpu = s.q;
    const QEqResult rh = make_host_qeq_solver(wide)->solve(qi, comm, q_host.data());
    auto solver = e.gpu->make_qeq_solver(wide);
    const QEqResult rg = e.gpu->solve_charges(step_input(s), qi, *solver, comm, q_gpu.data());
    EXPECT_NEAR(rg.iter_s, rh.iter_s, 1);
    double worst = 0.0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(q_gpu[i] - q_host[i]));
    EXPECT_LE(worst, 1e-10) << "charges with a QEq cut-off beyond the nonbonded one";
    compare_step(*e.host, *e.gpu, s, "compute after a QEq cut-off beyond the nonbonded one");
  }

  // A solver belongs to the engine that made it.
  auto foreign = e.host->make_qeq_solver(set);
  std::vector<double> q = s.q;
  EXPECT_THROW(e.gpu->solve_charges(step_input(s), qeq_input(false, 0), *foreign, comm, q.data()),
               RuntimeError);
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

TEST(CudaEngine, PhaseTimesWhenRequested) {
  REQUIRE_GPU();
  const Model st = load("RDX/ffield.reax.rdx", "RDX/lmp_control");
  const System s = periodic_system(read_data(example("RDX/data.RDX")), st.ff, {"H", "C", "O", "N"},
                                   12.0, 17, 0.05);
  auto quiet = make_engine(Driver::Cuda, st.ff, st.control);
  run(*quiet, s);
  EXPECT_EQ(quiet->phase_times().steps, 0) << "timing without EngineSettings::timing";
  EXPECT_GT(quiet->device_bytes(), 0u);

  EngineSettings settings;
  settings.timing = true;
  auto timed = make_engine(Driver::Cuda, st.ff, st.control, settings);
  run(*timed, s);
  run(*timed, s);
  const PhaseTimes t = timed->phase_times();
  EXPECT_EQ(t.steps, 2);
  for (double ms : {t.neighbors_ms, t.charges_ms, t.lists_ms, t.bond_orders_ms, t.bonded_ms,
                    t.hbonds_ms, t.nonbonded_ms, t.chain_rule_ms, t.transfer_ms})
    EXPECT_GE(ms, 0.0);
  EXPECT_GT(t.nonbonded_ms, 0.0);
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
