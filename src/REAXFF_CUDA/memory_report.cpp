/* see memory_report.h */
#include "memory_report.h"

#include <algorithm>

#include "fmt/format.h"

namespace LAMMPS_NS {

std::string memory_report(const std::string &who, const puremd::MemoryTable &table, int n_atoms) {
  if (table.empty()) return {};
  constexpr double MB = 1048576.0;
  const double per_atom = 1024.0 * std::max(1, n_atoms);
  double total = 0.0;
  for (const auto &e : table) total += static_cast<double>(e.bytes);
  std::string out =
      fmt::format("{} peak device memory {:.1f} MB = {:.2f} KB/atom ({} owned+ghost), by array:\n",
                  who, total / MB, total / per_atom, n_atoms);
  double rest = 0.0;
  int rest_count = 0;
  for (const auto &e : table) {
    const double b = static_cast<double>(e.bytes);
    if (b >= 0.005 * total) {
      out += fmt::format("  {:<44s} {:10.1f} MB {:7.3f} KB/atom\n", e.what, b / MB, b / per_atom);
    } else {
      rest += b;
      ++rest_count;
    }
  }
  if (rest_count)
    out += fmt::format("  {:<44s} {:10.1f} MB {:7.3f} KB/atom\n",
                       fmt::format("({} smaller arrays)", rest_count), rest / MB, rest / per_atom);
  return out;
}

}  // namespace LAMMPS_NS
