// parse_lanes / LaneCounts::describe (puremd_gpu/engine_settings.h).
#include <cstdlib>
#include <string>

#include "puremd_gpu/engine_settings.h"
#include "puremd_gpu/errors.h"

namespace puremd {

LaneCounts parse_lanes(const std::string &spec) {
  LaneCounts m;
  size_t pos = 0;
  while (pos <= spec.size()) {
    const size_t comma = spec.find(',', pos);
    const std::string item = spec.substr(pos, comma == std::string::npos ? comma : comma - pos);
    const size_t eq = item.find('=');
    int *slot = nullptr;
    const std::string key = item.substr(0, eq);
    if (key == "neighbors") slot = &m.neighbors;
    if (key == "compaction") slot = &m.compaction;
    if (key == "hbonds") slot = &m.hbonds;
    if (key == "nonbonded") slot = &m.nonbonded;
    if (key == "lists") slot = &m.lists;
    char *end = nullptr;
    const long lanes = eq == std::string::npos ? 0 : std::strtol(item.c_str() + eq + 1, &end, 10);
    const bool auto_ok = slot == &m.nonbonded && item.substr(eq + 1) == "auto";
    if (!auto_ok && (!slot || eq == std::string::npos || *end != '\0' || lanes < 1 || lanes > 32 ||
                     (lanes & (lanes - 1)) != 0))
      throw InputError("lanes " + spec + ": bad item '" + item +
                       "'; expected stage=lanes with stage one of neighbors, compaction, hbonds, "
                       "nonbonded, lists and lanes one of 1, 2, 4, 8, 16, 32 (nonbonded also "
                       "auto), items separated by commas");
    *slot = auto_ok ? kLanesAuto : static_cast<int>(lanes);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return m;
}

std::string LaneCounts::describe() const {
  return "neighbors=" + std::to_string(neighbors) + ",compaction=" + std::to_string(compaction) +
         ",hbonds=" + std::to_string(hbonds) + ",nonbonded=" +
         (nonbonded == kLanesAuto ? std::string("auto") : std::to_string(nonbonded)) +
         ",lists=" + std::to_string(lists);
}

}  // namespace puremd
