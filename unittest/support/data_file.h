// LAMMPS data files of the examples (atom_style charge) read for the GPU
// library tests: box, tilt and the atoms as (type, q, x, y, z).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace test_data {

struct DataFile {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  double xy = 0, xz = 0, yz = 0;
  std::vector<std::array<double, 5>> atoms;  // type q x y z
};

inline DataFile read_data(const std::string &path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  DataFile d;
  std::string line;
  bool in_atoms = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    if (!in_atoms) {
      if (line.find("xlo xhi") != std::string::npos) ls >> d.lo[0] >> d.hi[0];
      if (line.find("ylo yhi") != std::string::npos) ls >> d.lo[1] >> d.hi[1];
      if (line.find("zlo zhi") != std::string::npos) ls >> d.lo[2] >> d.hi[2];
      if (line.find("xy xz yz") != std::string::npos) ls >> d.xy >> d.xz >> d.yz;
      if (line.rfind("Atoms", 0) == 0) in_atoms = true;
      continue;
    }
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) {
      if (!d.atoms.empty()) break;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(line[first]))) break;
    long long id;
    double t, q, x, y, z;
    ls >> id >> t >> q >> x >> y >> z;
    d.atoms.push_back({t, q, x, y, z});
  }
  return d;
}

}  // namespace test_data
