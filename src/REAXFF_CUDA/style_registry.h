// Our LAMMPS styles, each registered by the file that defines it: that file
// holds one RegisterStyle object at namespace scope (its names, a line of
// information and its creator), and plugin.cpp's lammpsplugin_init gives
// every registered style to LAMMPS. A new style is one .cpp (CMake takes
// every .cpp of this folder); nothing else lists it.
#pragma once

#include <vector>

#include "lammpsplugin.h"

namespace LAMMPS_NS {
class LAMMPS;
class Pair;
class Fix;
class Compute;
}  // namespace LAMMPS_NS

namespace reaxff_gpu {

struct StyleEntry {
  const char *style = nullptr;      // "pair", "fix" or "compute"
  std::vector<const char *> names;  // LAMMPS's names for it (old names too)
  const char *info = nullptr;
  lammpsplugin_factory1 *pair_creator = nullptr;  // a pair style's
  lammpsplugin_factory2 *creator = nullptr;       // a fix's or a compute's
  // registered only where this says yes (null: always), e.g. where LAMMPS
  // has the style that ours replaces
  bool (*wanted)(LAMMPS_NS::LAMMPS *) = nullptr;
};

// The styles registered so far (all of them once the plugin is loaded).
std::vector<StyleEntry> &registered_styles();

struct RegisterStyle {
  explicit RegisterStyle(StyleEntry e) { registered_styles().push_back(std::move(e)); }
};

using PairMaker = LAMMPS_NS::Pair *(*)(LAMMPS_NS::LAMMPS *);
using FixMaker = LAMMPS_NS::Fix *(*)(LAMMPS_NS::LAMMPS *, int, char **);
using ComputeMaker = LAMMPS_NS::Compute *(*)(LAMMPS_NS::LAMMPS *, int, char **);

// (LAMMPS calls a creator as the style's own maker type: the casts only
// carry it through lammpsplugin_t.)
inline StyleEntry pair_style(std::vector<const char *> names, const char *info, PairMaker make) {
  StyleEntry e;
  e.style = "pair";
  e.names = std::move(names);
  e.info = info;
  e.pair_creator = reinterpret_cast<lammpsplugin_factory1 *>(make);
  return e;
}

inline StyleEntry fix_style(std::vector<const char *> names, const char *info, FixMaker make,
                            bool (*wanted)(LAMMPS_NS::LAMMPS *) = nullptr) {
  StyleEntry e;
  e.style = "fix";
  e.names = std::move(names);
  e.info = info;
  e.creator = reinterpret_cast<lammpsplugin_factory2 *>(make);
  e.wanted = wanted;
  return e;
}

inline StyleEntry compute_style(std::vector<const char *> names, const char *info,
                                ComputeMaker make) {
  StyleEntry e;
  e.style = "compute";
  e.names = std::move(names);
  e.info = info;
  e.creator = reinterpret_cast<lammpsplugin_factory2 *>(make);
  return e;
}

}  // namespace reaxff_gpu
