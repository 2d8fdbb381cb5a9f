// Device memory by array at the peak of a run: what a CUDA engine or its
// QEq solver held when it held the most (pair_style reaxff/gpu ... timing
// yes prints it), largest first.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace puremd {

struct MemoryEntry {
  std::string what;   // the array's name, e.g. "far-neighbour list"
  std::size_t bytes;  // held at the peak
};
using MemoryTable = std::vector<MemoryEntry>;

}  // namespace puremd
