#include "analysis_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

Bonds read_local_bonds(const std::string &path, double min_bo) {
  Bonds out;
  std::ifstream in(path);
  std::string line;
  long step = -1;
  bool entries = false;
  while (std::getline(in, line)) {
    if (line.rfind("ITEM: TIMESTEP", 0) == 0) {
      std::getline(in, line);
      step = std::stol(line);
      entries = false;
    } else if (line.rfind("ITEM:", 0) == 0) {
      entries = line.rfind("ITEM: ENTRIES", 0) == 0;
    } else if (entries) {
      std::istringstream w(line);
      double i = 0, j = 0, bo = 0;
      w >> i >> j >> bo;
      if (bo >= min_bo) out[step][{std::min<long>(i, j), std::max<long>(i, j)}] = bo;
    }
  }
  return out;
}

Table read_bonds_file(const std::string &path) {
  Table out;
  std::ifstream in(path);
  std::string line;
  long step = -1;
  while (std::getline(in, line)) {
    if (line.rfind("# Timestep", 0) == 0) step = std::stol(line.substr(10));
    if (line.empty() || line[0] == '#') continue;
    std::istringstream w(line);
    long id = 0, type = 0, nb = 0;
    w >> id >> type >> nb;
    std::vector<long> partner(nb);
    for (auto &p : partner) w >> p;
    long mol = 0;
    w >> mol;
    auto &rec = out[std::to_string(step) + ":" + std::to_string(id)];
    for (long p : partner) w >> rec["bo " + std::to_string(p)];
    w >> rec["abo"] >> rec["nlp"] >> rec["q"];
  }
  return out;
}
Table read_local_table(const std::string &path) {
  Table out;
  for (const auto &[step, pairs] : read_local_bonds(path, 0.0))
    for (const auto &[pair, bo] : pairs)
      out[std::to_string(step)][std::to_string(pair.first) + "-" + std::to_string(pair.second)] =
          bo;
  return out;
}
Table read_dump_table(const std::string &path) {
  Table out;
  std::ifstream in(path);
  std::string line, item;
  long step = -1;
  while (std::getline(in, line)) {
    if (line.rfind("ITEM:", 0) == 0) {
      item = line;
      continue;
    }
    if (item.rfind("ITEM: TIMESTEP", 0) == 0) step = std::stol(line);
    if (item.rfind("ITEM: ATOMS", 0) != 0) continue;
    std::istringstream w(line);
    long id = 0;
    w >> id;
    auto &rec = out[std::to_string(step) + ":" + std::to_string(id)];
    int k = 0;
    for (double v; w >> v;) rec[std::to_string(++k)] = v;
  }
  return out;
}

void expect_same(const Table &ours, const Table &ref, double tol, const std::string &what) {
  ASSERT_FALSE(ref.empty()) << what;
  EXPECT_EQ(ours.size(), ref.size()) << what << ": records";
  int worse = 0;
  for (const auto &[key, fields] : ref) {
    if (!ours.count(key)) {
      ADD_FAILURE() << what << ": no record " << key;
      continue;
    }
    const auto &mine = ours.at(key);
    EXPECT_EQ(mine.size(), fields.size()) << what << " " << key;
    for (const auto &[f, v] : fields)
      if (!mine.count(f) || std::fabs(mine.at(f) - v) > tol)
        if (++worse < 5) ADD_FAILURE() << what << " " << key << " " << f << ": " << v;
  }
  EXPECT_EQ(worse, 0) << what;
}
