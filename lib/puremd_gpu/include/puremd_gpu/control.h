// Run-time controls: the ReaxFF control file (PuReMD format) plus the
// pair_style keywords, with the defaults of LAMMPS's pair_style reaxff.
#pragma once

#include <string>
#include <vector>

namespace puremd {

struct Control {
  double bond_cut = 5.0;       // nbrhood_cutoff: bonded-neighbour search radius (A)
  double hbond_cut = 7.5;      // hbond_cutoff (A); <= 0 disables hydrogen bonds
  double thb_cut = 0.001;      // thb_cutoff: minimum bond order in a valence angle
  double thb_cutsq = 0.00001;  // thb_cutoff_sq: minimum BO product in angles/torsions
  double bg_cut = 0.3;         // bond_graph_cutoff (used by analysis fixes)
  int tabulate = 0;            // tabulate_long_range: spline points, 0 = analytic
  // Filled from the force field when it is read:
  double nonb_low = 0.0;   // taper inner radius
  double nonb_cut = 10.0;  // taper outer radius = nonbonded cut-off
  double bo_cut = 0.001;   // bond-order cut-off (0.01 * gp[29])
  // pair_style keywords
  bool lgvdw = false;    // low-gradient dispersion correction
  bool enobonds = true;  // over/under-coordination energy for atoms with no bonds
};

// Messages for keywords that the reaxff control parser accepts but ignores.
struct ControlReadResult {
  Control control;
  std::vector<std::string> warnings;
};

// Parse a control file. Throws InputError for unknown keywords or bad values.
ControlReadResult read_control_file(const std::string &path, Control base = Control{});

}  // namespace puremd
