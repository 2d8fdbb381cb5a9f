// REAXFF_GPU_LANES: "stage=lanes" items separated by commas.
#include <cstdlib>
#include <string>

#include "cuda/thread_mapping.h"
#include "puremd_gpu/errors.h"

namespace puremd::cuda {

ThreadMapping ThreadMapping::from_environment() {
  ThreadMapping m;
  const char *env = std::getenv("REAXFF_GPU_LANES");
  if (!env || !*env) return m;
  const std::string text(env);
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? comma : comma - pos);
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
    if (!slot || eq == std::string::npos || *end != '\0' || lanes < 1 || lanes > 32 ||
        (lanes & (lanes - 1)) != 0)
      throw RuntimeError("CUDA driver: REAXFF_GPU_LANES=" + text + ": bad item '" + item +
                         "'; expected stage=lanes with stage one of neighbors, compaction, "
                         "hbonds, nonbonded, lists and lanes one of 1, 2, 4, 8, 16, 32");
    *slot = static_cast<int>(lanes);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return m;
}

std::string ThreadMapping::describe() const {
  return "neighbors=" + std::to_string(neighbors) + ",compaction=" + std::to_string(compaction) +
         ",hbonds=" + std::to_string(hbonds) + ",nonbonded=" + std::to_string(nonbonded) +
         ",lists=" + std::to_string(lists);
}

}  // namespace puremd::cuda
