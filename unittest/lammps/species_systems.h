// The heated systems the analysis-style tests (fix reaxff/species, fix
// reaxff/bonds, compute reaxff/atom) run on: bonds break and form within a
// few steps, so species change and many bond orders sit near the fixes'
// floors and cut-offs.
#pragma once

#include <string>
#include <vector>

inline const std::string &examples_reaxff_dir() {
  static const std::string dir = std::string(LAMMPS_EXAMPLES_DIR) + "/";
  return dir;
}

// TATB 2x2x2 (3,072 atoms) heated to 2500 K, as LAMMPS's
// examples/reaxff/in.reaxff.tatb writes its analysis (control file, neighbor
// settings), smaller time step.
inline std::string tatb_input(const std::string &pair, const std::string &control,
                              const std::string &analysis, int steps) {
  const std::string &dir = examples_reaxff_dir();
  return "units real\natom_style charge\nread_data " + dir +
         "data.tatb\nreplicate 2 2 2\npair_style " + pair + " " + control + "\npair_coeff * * " +
         dir + "ffield.reax C H O N\nneighbor 2.5 bin\nneigh_modify delay 0 every 5 check no\n" +
         "velocity all create 2500.0 4242 loop geom\nfix 1 all nve\nfix 2 all qeq/" + pair +
         " 1 0.0 10.0 1.0e-10 reaxff\n" + analysis + "timestep 0.2\nthermo 5\nrun " +
         std::to_string(steps) + " post no\n";
}

// LAMMPS's examples/reaxff/CHO (hydrocarbons and water in the gas phase)
// replicated 3x3x3 (2,835 atoms) and heated to 3000 K.
inline std::string cho_input(const std::string &pair, const std::string &control,
                             const std::string &analysis, int steps) {
  const std::string cho = examples_reaxff_dir() + "CHO/";
  return "units real\natom_style charge\nread_data " + cho +
         "data.CHO\nreplicate 3 3 3\npair_style " + pair + " " + control + "\npair_coeff * * " +
         cho + "ffield.reax.cho H C O\nneighbor 2 bin\nneigh_modify delay 0 every 5 check no\n" +
         "velocity all create 3000.0 4242 loop geom\nfix 1 all nve\nfix 2 all qeq/" + pair +
         " 1 0.0 10.0 1.0e-10 " + cho + "param.qeq\n" + analysis + "timestep 0.25\nthermo 5\nrun " +
         std::to_string(steps) + " post no\n";
}

// A system of the tests: its input, its control file and its elements in
// type order (the species file's formulas list them so).
struct SpeciesSystem {
  std::string (*input)(const std::string &, const std::string &, const std::string &, int);
  std::string control;
  std::vector<std::string> elements;
};
inline SpeciesSystem tatb_system() {
  return {tatb_input, examples_reaxff_dir() + "control.reax_c.tatb", {"C", "H", "O", "N"}};
}
inline SpeciesSystem cho_system() {
  return {cho_input, examples_reaxff_dir() + "CHO/lmp_control", {"H", "C", "O"}};
}
