// Shared by the CUDA driver's tests against the host driver (cuda/): the
// example systems in periodic boxes with explicit ghosts, one step of an
// engine, and the comparison of two steps (see test_cuda_engine.cpp for the
// tolerances).
#pragma once

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

namespace engine_test {

using namespace puremd;

// ---------------------------------------------------------------------------
// Input systems

using test_data::DataFile;
using test_data::read_data;

struct System {
  int n_local = 0;
  std::vector<double> x, q;
  std::vector<double> u;  // ACKS2's effective potentials (StepInput::u); empty without
  std::vector<int> type;
  std::vector<long long> tag;
  int n_total() const { return static_cast<int>(type.size()); }
};

// All atoms of the data file owned (jiggled by up to `jiggle` A; zero charges
// replaced by random ones), plus every periodic image within `ghost_cut` of the
// (possibly triclinic) box as a ghost with its original's tag, type and charge.
inline System periodic_system(const DataFile &d, const ForceField &ff,
                              const std::vector<std::string> &elements, double ghost_cut,
                              unsigned seed, double jiggle) {
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

inline Model load(const char *ffield, const char *control_file) {
  const std::string dir = std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/";
  Model st;
  st.ff = read_force_field(dir + ffield);
  if (control_file) st.control = read_control_file(dir + control_file).control;
  st.control.nonb_low = st.ff.nonb_low();
  st.control.nonb_cut = st.ff.nonb_cut();
  st.control.bo_cut = st.ff.bo_cut();
  return st;
}

inline std::string example(const char *rel) {
  return std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/" + rel;
}

// The force field's QEq parameters by element, as QEqProblem reads them.
struct QEqParams {
  std::vector<double> chi, eta, gamma;
};
inline QEqParams qeq_params(const ForceField &ff) {
  QEqParams p;
  for (int t = 0; t < ff.num_types; ++t) {
    p.chi.push_back(ff.sbp[t].chi);
    p.eta.push_back(ff.sbp[t].eta);
    p.gamma.push_back(ff.sbp[t].gamma);
  }
  return p;
}

// Each ghost's owned atom, found by its id.
inline std::vector<int> ghost_owners(const System &s) {
  std::map<long long, int> index_of_tag;
  for (int i = 0; i < s.n_local; ++i) index_of_tag[s.tag[i]] = i;
  std::vector<int> owner;
  for (int g = s.n_local; g < s.n_total(); ++g) owner.push_back(index_of_tag.at(s.tag[g]));
  return owner;
}

// One rank's communicator for a System: its ghosts are images of its owned
// atoms (image_halo).
inline qeq_test::SingleRankComm single_rank_comm(const System &s) {
  qeq_test::SingleRankComm comm;
  comm.n_local = s.n_local;
  comm.owner = ghost_owners(s);
  return comm;
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

// A System's atoms as a caller passes them (types are elements: no map).
inline StepInput step_input(const System &s) {
  StepInput in;
  in.n_local = s.n_local;
  in.n_total = s.n_total();
  in.x = s.x.data();
  in.type = s.type.data();
  in.tag = s.tag.data();
  in.q = s.q.data();
  in.u = s.u.empty() ? nullptr : s.u.data();
  return in;
}

inline Result run(Engine &engine, const System &s, unsigned terms = kTermAll, bool per_atom = true,
                  bool reordered = true, const StepKey &key = {}) {
  StepInput in = step_input(s);
  in.key = key;
  in.atoms_reordered = reordered;
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

inline const char *const kTermNames[13] = {"e_bond", "e_ov",  "e_un", "e_lp",  "e_ang",
                                           "e_pen",  "e_coa", "e_hb", "e_tor", "e_con",
                                           "e_vdW",  "e_ele", "e_pol"};

inline const double *energy_array(const Energies &e) { return &e.e_bond; }

// |a - b| <= tol for every entry; reports the count and the worst entry.
inline void expect_arrays_near(const std::vector<double> &host, const std::vector<double> &gpu,
                               double tol, const std::string &what, int stride) {
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

inline double max_abs(const std::vector<double> &v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

inline void expect_same(const Result &host, const Result &gpu, const std::string &what,
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
inline void compare_step(Engine &host, Engine &gpu, const System &s, const std::string &what,
                         unsigned terms = kTermAll, bool per_atom = true, bool reordered = true) {
  const Result rh = run(host, s, terms, per_atom, reordered);
  const Result rg = run(gpu, s, terms, per_atom, reordered);
  expect_same(rh, rg, what, per_atom);
}

struct Engines {
  std::unique_ptr<Engine> host, gpu;
};

inline Engines make_engines(const Model &st, const EngineSettings &settings = {}) {
  Engines e;
  e.host = make_engine(Driver::Host, st.ff, st.control);
  e.gpu = make_engine(Driver::Cuda, st.ff, st.control, settings);
  EXPECT_EQ(e.gpu->driver(), Driver::Cuda);
  return e;
}

}  // namespace engine_test
