// Forces are minus the gradient of the energy, one energy term at a time, for
// the host reference driver on clusters cut from the example systems, with
// random displacements that stretch some bonds toward their cut-offs.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "puremd_gpu/control.h"
#include "puremd_gpu/engine.h"

using namespace puremd;

namespace {

struct Cluster {
  std::vector<double> x, q;
  std::vector<int> type;
  std::vector<long long> tag;
};

// Atoms of a LAMMPS data file (atom_style charge) within `radius` of the box
// centre, element per LAMMPS type given by `elements`.
Cluster cut_cluster(const std::string &data, const ForceField &ff,
                    const std::vector<std::string> &elements, double radius, unsigned seed,
                    double jiggle) {
  std::ifstream in(data);
  EXPECT_TRUE(in.good()) << data;
  std::string line;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  std::vector<std::array<double, 5>> atoms;  // type q x y z
  bool in_atoms = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    double a, b;
    std::string w1, w2;
    if (line.find("xlo xhi") != std::string::npos) ls >> lo[0] >> hi[0];
    if (line.find("ylo yhi") != std::string::npos) ls >> lo[1] >> hi[1];
    if (line.find("zlo zhi") != std::string::npos) ls >> lo[2] >> hi[2];
    if (line.rfind("Atoms", 0) == 0) {
      in_atoms = true;
      continue;
    }
    if (in_atoms) {
      if (line.empty() || line.find_first_not_of(" \t\r") == std::string::npos) {
        if (!atoms.empty()) break;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(line[line.find_first_not_of(" \t")]))) break;
      long long id;
      int t;
      double q, x, y, z;
      std::istringstream as(line);
      as >> id >> t >> q >> x >> y >> z;
      atoms.push_back({double(t), q, x, y, z});
      (void)a, (void)b;
    }
  }
  Cluster c;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-jiggle, jiggle);
  const double cx = 0.5 * (lo[0] + hi[0]), cy = 0.5 * (lo[1] + hi[1]), cz = 0.5 * (lo[2] + hi[2]);
  for (auto &a : atoms) {
    const double dx = a[2] - cx, dy = a[3] - cy, dz = a[4] - cz;
    if (dx * dx + dy * dy + dz * dz > radius * radius) continue;
    c.type.push_back(ff.find_element(elements.at(static_cast<int>(a[0]) - 1)));
    c.q.push_back(a[1] != 0.0 ? a[1] : 0.2 * u(rng));
    c.x.push_back(a[2] + u(rng));
    c.x.push_back(a[3] + u(rng));
    c.x.push_back(a[4] + u(rng));
    c.tag.push_back(static_cast<long long>(c.tag.size()) + 1);
  }
  return c;
}

double energy_of(Engine &e, const Cluster &c, unsigned terms, std::vector<double> *f = nullptr) {
  StepInput in;
  in.n_local = in.n_total = static_cast<int>(c.type.size());
  in.x = c.x.data();
  in.type = c.type.data();
  in.tag = c.tag.data();
  in.q = c.q.data();
  StepRequest req;
  req.terms = terms;
  std::vector<double> scratch(c.x.size(), 0.0);
  StepOutput out;
  out.f = f ? f->data() : scratch.data();
  e.compute(in, req, out);
  return out.energy.total();
}

struct TermCase {
  unsigned term;
  const char *name;
};

const TermCase kTerms[] = {
    {kTermBond, "bond"},
    {kTermOverUnder, "over/under"},
    {kTermLonePair, "lone pair"},
    {kTermAngle, "valence angle"},
    {kTermPenalty, "penalty"},
    {kTermCoalition, "coalition"},
    {kTermHbond, "hydrogen bond"},
    {kTermTorsion, "torsion"},
    {kTermConjugation, "conjugation"},
    {kTermVdw, "van der Waals"},
    {kTermCoulomb, "Coulomb"},
};

struct SystemCase {
  const char *name, *data, *ffield, *control;
  std::vector<std::string> elements;
  double jiggle;
  unsigned nonzero;  // terms whose energy must be non-zero here (else the check is vacuous)
};

constexpr unsigned kCommon =
    kTermBond | kTermOverUnder | kTermLonePair | kTermAngle | kTermVdw | kTermCoulomb;

void check_system(const SystemCase &sc, unsigned seed) {
  const std::string dir = std::string(REAXFF_CUDA_SOURCE_DIR) + "/examples/";
  ForceField ff = read_force_field(dir + sc.ffield);
  Control ctl;
  if (sc.control) ctl = read_control_file(dir + sc.control).control;
  ctl.nonb_low = ff.nonb_low();
  ctl.nonb_cut = ff.nonb_cut();
  ctl.bo_cut = ff.bo_cut();
  Cluster c = cut_cluster(dir + sc.data, ff, sc.elements, 7.0, seed, sc.jiggle);
  ASSERT_GT(c.type.size(), 10u);
  auto engine = make_engine(Driver::Host, ff, ctl);

  std::mt19937 rng(seed + 17);
  std::uniform_int_distribution<size_t> pick(0, c.type.size() - 1);
  std::vector<size_t> probe;
  for (int k = 0; k < 8; ++k) probe.push_back(pick(rng));

  for (const TermCase &t : kTerms) {
    SCOPED_TRACE(std::string(sc.name) + " term " + t.name);
    std::vector<double> f(c.x.size(), 0.0);
    const double e0 = energy_of(*engine, c, t.term, &f);
    if (sc.nonzero & t.term)
      EXPECT_GT(std::fabs(e0), 1e-6) << "term energy is zero: test is vacuous";
    double fmax = 1.0;
    for (double v : f) fmax = std::max(fmax, std::fabs(v));
    const double h = 1e-5;
    for (size_t a : probe)
      for (int d = 0; d < 3; ++d) {
        Cluster cp = c, cm = c;
        cp.x[3 * a + d] += h;
        cm.x[3 * a + d] -= h;
        const double fd =
            -(energy_of(*engine, cp, t.term) - energy_of(*engine, cm, t.term)) / (2 * h);
        EXPECT_NEAR(f[3 * a + d], fd, 2e-6 * fmax)
            << "atom " << a << " dim " << d << " analytic " << f[3 * a + d] << " fd " << fd;
      }
  }
}

TEST(FiniteDifference, HNSClusterEveryTerm) {
  check_system({"HNS",
                "HNS/data.hns-equil",
                "HNS/ffield.reax.hns",
                nullptr,
                {"C", "H", "O", "N"},
                0.15,
                kCommon | kTermTorsion | kTermConjugation},
               1);
}

TEST(FiniteDifference, StretchedHNSClusterEveryTerm) {
  // Larger random displacements: bonds near the bond-order and angle cut-offs.
  check_system({"HNS-stretched",
                "HNS/data.hns-equil",
                "HNS/ffield.reax.hns",
                nullptr,
                {"C", "H", "O", "N"},
                0.45,
                kCommon | kTermTorsion},
               2);
}

TEST(FiniteDifference, WaterClusterEveryTermWithHydrogenBonds) {
  check_system({"water",
                "water/data.water",
                "water/qeq_ff.water",
                nullptr,
                {"O", "H"},
                0.1,
                kCommon | kTermHbond},
               3);
}

TEST(FiniteDifference, RDXClusterTabulatedLongRange) {
  check_system({"RDX",
                "RDX/data.RDX",
                "RDX/ffield.reax.rdx",
                "RDX/lmp_control",
                {"H", "C", "O", "N"},
                0.15,
                kCommon | kTermTorsion},
               4);
}

}  // namespace
