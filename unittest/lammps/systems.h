// The systems every LAMMPS-level comparison runs on: LAMMPS's own
// examples/reaxff inputs plus the PuReMD paper's benchmark systems.
#pragma once

#include <string>
#include <vector>

struct SystemSpec {
  std::string name;
  std::string dir;      // under examples/
  std::string data;     // data file
  std::string control;  // control file name or NULL
  std::string ffield;
  std::string elements;    // pair_coeff element list
  std::string qeq_params;  // reaxff or a file name
  std::string pair_extra;  // extra pair_style keywords of the example
  double dt;               // fs
  int steps;               // NVE steps for the after-dynamics comparison
  int max_ranks;           // largest rank count this system runs on in CI
};

inline const std::vector<SystemSpec> &all_systems() {
  static const std::vector<SystemSpec> systems = {
      {"HNS", "HNS", "data.hns-equil", "NULL", "ffield.reax.hns", "C H O N", "reaxff", "", 0.1, 100,
       4},
      {"RDX", "RDX", "data.RDX", "lmp_control", "ffield.reax.rdx", "H C O N", "param.qeq", "", 0.25,
       100, 4},
      {"CHO", "CHO", "data.CHO", "lmp_control", "ffield.reax.cho", "H C O", "param.qeq", "", 0.25,
       100, 4},
      {"FeOH3", "FeOH3", "data.FeOH3", "lmp_control", "ffield.reax.Fe_O_C_H", "H O Fe", "param.qeq",
       "", 0.25, 100, 4},
      {"AuO", "AuO", "data.AuO", "lmp_control", "ffield.reax.AuO", "O Au", "param.qeq", "", 0.25,
       100, 4},
      // (50 steps: a minute and a half a hundred on the host, CI time)
      {"water", "water", "data.water", "NULL", "qeq_ff.water", "O H", "reaxff",
       "safezone 3.0 mincap 150", 0.5, 50, 2},
      // the two largest, minutes a hundred steps on the host: one rank and 20
      // steps in CI (the others cover the decomposition on 2 and 4 and 100
      // steps of dynamics; a wrong force shows at step 0 and grows from there)
      {"water6540", "water6540", "data.water6540", "lmp_control", "ffield.water", "H O", "reaxff",
       "", 0.1, 20, 1},
      {"silica6000", "silica6000", "data.silica6000", "lmp_control", "ffield-bio", "O Si", "reaxff",
       "", 0.1, 20, 1},
  };
  return systems;
}
