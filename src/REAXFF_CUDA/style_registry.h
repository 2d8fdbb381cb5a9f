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

// An entry's names, information and predicate; the helpers below add its
// creator. (LAMMPS calls a creator as the style's own maker type: the casts
// only carry it through lammpsplugin_t.)
inline StyleEntry style_entry(const char *style, std::vector<const char *> names, const char *info,
                              bool (*wanted)(LAMMPS_NS::LAMMPS *)) {
  StyleEntry e;
  e.style = style;
  e.names = std::move(names);
  e.info = info;
  e.wanted = wanted;
  return e;
}

inline StyleEntry pair_style(std::vector<const char *> names, const char *info, PairMaker make) {
  StyleEntry e = style_entry("pair", std::move(names), info, nullptr);
  e.pair_creator = reinterpret_cast<lammpsplugin_factory1 *>(make);
  return e;
}

inline StyleEntry fix_style(std::vector<const char *> names, const char *info, FixMaker make,
                            bool (*wanted)(LAMMPS_NS::LAMMPS *) = nullptr) {
  StyleEntry e = style_entry("fix", std::move(names), info, wanted);
  e.creator = reinterpret_cast<lammpsplugin_factory2 *>(make);
  return e;
}

inline StyleEntry compute_style(std::vector<const char *> names, const char *info,
                                ComputeMaker make) {
  StyleEntry e = style_entry("compute", std::move(names), info, nullptr);
  e.creator = reinterpret_cast<lammpsplugin_factory2 *>(make);
  return e;
}

// The plain creators: construct T with LAMMPS's arguments (instantiated in
// the style's own file, where T is complete).
template <class T>
LAMMPS_NS::Pair *new_pair(LAMMPS_NS::LAMMPS *lmp) {
  return new T(lmp);
}
template <class T>
LAMMPS_NS::Fix *new_fix(LAMMPS_NS::LAMMPS *lmp, int argc, char **argv) {
  return new T(lmp, argc, argv);
}
template <class T>
LAMMPS_NS::Compute *new_compute(LAMMPS_NS::LAMMPS *lmp, int argc, char **argv) {
  return new T(lmp, argc, argv);
}

}  // namespace reaxff_gpu
