// The charge stage of the CUDA engine (Engine::solve_charges) against the
// host QEq solver and the host driver, as LAMMPS runs a step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine_test.h"
#include "host_qeq.h"
#include "puremd_gpu/engine.h"
#include "puremd_gpu/errors.h"
#include "puremd_gpu/qeq.h"
#include "qeq_test_system.h"
#include "require_gpu.h"

namespace {

using namespace engine_test;
using qeq_test::HostQEq;

// The problem of a QEq test input (its atoms go in the StepInput).
QEqProblem problem_of(const QEqInput &qi, const QEqSettings &set) {
  QEqProblem p = qi;
  p.settings = set;
  return p;
}

// As fix qeq/reaxff/gpu and pair_style reaxff/gpu run a step: the charge
// stage (solve_charges, with the engine's solver, atoms and far list) must
// give the host solver's charges (all atoms and a sub-group; ghost owners
// given, found by id, or moved by QEqComm), on a fresh and on a reused skin
// list, and with a QEq cut-off beyond the nonbonded one (the far list widens);
// then compute() keyed as the solve (StepInput::key) reuses
// the solve's atoms and charges (the caller's q is not read), and must give
// the host driver's results with the host solver's charges; a compute() keyed
// otherwise (another rRESPA level, or unset) takes the caller's atoms, also when they moved in the
// same array (rRESPA's inner levels move atoms between the solve and the forces); a history solved
// on the GPU serves a host engine's solve next.
TEST(CudaEngine, ChargeStageOfTheEngine) {
  REQUIRE_GPU();
  const Model st = load("water/qeq_ff.water", nullptr);
  System s =
      periodic_system(read_data(example("water/data.water")), st.ff, {"O", "H"}, 12.0, 19, 0.05);
  const int n = s.n_total(), nl = s.n_local;
  qeq_test::SingleRankComm comm = single_rank_comm(s);
  const std::vector<int> owner = ghost_owners(s);
  const QEqParams par = qeq_params(st.ff);
  QEqSettings set;
  set.cut_lo = 0.0;
  set.cut_hi = st.control.nonb_cut;
  set.tolerance = 1e-12;
  set.max_iter = 400;

  Engines e = make_engines(st);
  // The group as LAMMPS's mask holds it: bit 0 (group all) everywhere, the
  // fix's group bit 0x4 on four atoms of five.
  std::vector<int> mask(n, 0x5);
  for (int g = 0; g < n; ++g)
    if ((g < nl ? g : owner[g - nl]) % 5 == 0) mask[g] = 0x1;
  // LAMMPS's 32-bit ids
  const std::vector<int> tag32(s.tag.begin(), s.tag.end());
  auto qeq_input = [&](bool sub_group) {
    QEqInput qi;
    qi.n_local = nl;
    qi.n_total = n;
    qi.x = s.x.data();
    qi.tag = s.tag.data();
    qi.active = sub_group ? mask.data() : nullptr;
    qi.active_bits = 0x4;
    qi.type = s.type.data();
    qi.num_types = st.ff.num_types;
    qi.chi = par.chi.data();
    qi.eta = par.eta.data();
    qi.gamma = par.gamma.data();
    return qi;
  };
  auto charges_equal_host = [&](const std::string &what) {
    for (bool sub_group : {false, true}) {
      const std::string where = what + (sub_group ? ", sub-group" : ", all atoms");
      QEqInput qi = qeq_input(sub_group);
      std::vector<double> q_host = s.q, q_gpu = s.q;
      const QEqResult rh = HostQEq(set).solve(qi, comm, q_host.data());
      StepInput in = step_input(s);
      in.tag = tag32.data();
      ChargeHistory history;
      const QEqResult rg =
          e.gpu->solve_charges(in, problem_of(qi, set), history, comm, q_gpu.data());
      EXPECT_NEAR(rg.iter_s, rh.iter_s, 1) << where;
      EXPECT_NEAR(rg.iter_t, rh.iter_t, 1) << where;
      double worst = 0.0;
      for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(q_gpu[i] - q_host[i]));
      EXPECT_LE(worst, 1e-10) << where << ": charges of the charge stage vs host";
      if (!sub_group) s.q = q_host;
    }
  };

  // Without a skin the far list is built each step; with one, the reverse
  // index comes from the skin list (pairs out to cut + skin, which the
  // matrix must drop) and, after a move of less than skin / 2, is reused.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> shake(-0.25, 0.25);
  for (double skin : {0.0, 2.0}) {
    EngineSettings with_skin;
    with_skin.list_skin = skin;
    e.gpu = make_engine(Driver::Cuda, st.ff, st.control, with_skin);
    const std::string with = "skin " + std::to_string(skin);
    charges_equal_host(with);
    std::vector<double> dx(3 * static_cast<size_t>(nl));
    for (double &v : dx) v = shake(rng);
    for (int g = 0; g < n; ++g) {  // images move with their owners
      const int o = g < nl ? g : owner[g - nl];
      for (int k = 0; k < 3; ++k) s.x[3 * g + k] += dx[3 * o + k];
    }
    charges_equal_host(with + ", atoms moved");
  }

  // The step as LAMMPS runs it: solve, then compute on the same atoms.
  for (bool from_solve : {true, false}) {
    const std::string what = from_solve ? "compute with the solve's charges kept on the GPU"
                                        : "compute with the caller's charges";
    System sg = s;  // the GPU's copy of the atoms
    const QEqInput qi = qeq_input(false);
    std::vector<double> q_host = s.q;
    HostQEq(set).solve(qi, comm, q_host.data());
    ChargeHistory history;
    StepKey key;
    key.timestep = 3;
    key.evaluation = 2;
    StepInput atoms = step_input(sg);
    atoms.key = key;
    e.gpu->solve_charges(atoms, problem_of(qi, set), history, comm, sg.q.data());
    if (from_solve) std::fill(sg.q.begin(), sg.q.end(), 1.0e3);  // must not be read
    const Result rg = run(*e.gpu, sg, kTermAll, true, false, from_solve ? key : StepKey{});
    System sh = s;
    sh.q = q_host;
    const Result rh = run(*e.host, sh, kTermAll, true, false);
    expect_same(rh, rg, what, true);
  }

  // rRESPA: the solve at the outer level, then the atoms move in place (same
  // array, same count) and the inner level computes forces. 21bc415 kept the
  // solve's positions there (a cache keyed on the array and the count).
  {
    System sg = s;
    const QEqInput qi = qeq_input(false);
    ChargeHistory history;
    StepKey outer;  // the solve's: the outermost of two levels
    outer.timestep = 5;
    outer.level = 1;
    outer.evaluation = 7;
    StepInput atoms = step_input(sg);
    atoms.key = outer;
    e.gpu->solve_charges(atoms, problem_of(qi, set), history, comm, sg.q.data());
    for (int g = 0; g < n; ++g) {
      const int o = g < nl ? g : owner[g - nl];
      sg.x[3 * g] += 0.05 * std::sin(o);
      sg.x[3 * g + 1] -= 0.04 * std::cos(3.0 * o);
    }
    StepKey inner = outer;  // the pair's, at the inner level
    inner.level = 0;
    const Result rg = run(*e.gpu, sg, kTermAll, true, false, inner);
    const Result rh = run(*e.host, sg, kTermAll, true, false);
    expect_same(rh, rg, "compute after the atoms moved in place since the solve", true);
  }

  // A QEq cut-off beyond the nonbonded one: the far list reaches it, the
  // forces keep to the nonbonded cut-off.
  QEqSettings wide = set;
  wide.cut_hi = st.control.nonb_cut + 1.5;
  {
    const QEqInput qi = qeq_input(false);
    std::vector<double> q_host = s.q, q_gpu = s.q;
    const QEqResult rh = HostQEq(wide).solve(qi, comm, q_host.data());
    ChargeHistory history;
    const QEqResult rg =
        e.gpu->solve_charges(step_input(s), problem_of(qi, wide), history, comm, q_gpu.data());
    EXPECT_NEAR(rg.iter_s, rh.iter_s, 1);
    double worst = 0.0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(q_gpu[i] - q_host[i]));
    EXPECT_LE(worst, 1e-10) << "charges with a QEq cut-off beyond the nonbonded one";
    compare_step(*e.host, *e.gpu, s, "compute after a QEq cut-off beyond the nonbonded one");
  }

  // The history is the caller's and outlives an engine (LAMMPS makes a new
  // one when the pair settings change): two solves on the GPU leave it in
  // the GPU's mirror; the host engine's solve then starts from it (brought
  // home), as from a history the host engine made itself.
  {
    const QEqProblem p = problem_of(qeq_input(false), set);
    ChargeHistory on_gpu, on_host;
    std::vector<double> q_gpu = s.q, q_host = s.q;
    for (int k = 0; k < 2; ++k) {
      e.gpu->solve_charges(step_input(s), p, on_gpu, comm, q_gpu.data());
      e.host->solve_charges(step_input(s), p, on_host, comm, q_host.data());
    }
    ASSERT_GE(on_gpu.mirror_rows(), nl) << "the history did not stay on the GPU";
    const QEqResult rg = e.host->solve_charges(step_input(s), p, on_gpu, comm, q_gpu.data());
    const QEqResult rh = e.host->solve_charges(step_input(s), p, on_host, comm, q_host.data());
    EXPECT_NEAR(rg.iter_s, rh.iter_s, 1);
    EXPECT_NEAR(rg.iter_t, rh.iter_t, 1);
    for (int i = 0; i < nl; ++i) {
      ASSERT_NEAR(q_gpu[i], q_host[i], 1e-10) << "atom " << i;
      ASSERT_NEAR(on_gpu.s(i, 1), on_host.s(i, 1), 1e-10) << "s history of atom " << i;
    }
  }
}

}  // namespace
