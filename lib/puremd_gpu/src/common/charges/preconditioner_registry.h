// Which preconditioner a charge solver's CG runs, found by the name in
// QEqSettings::preconditioner. Each preconditioner's source registers its
// implementation for one driver at namespace scope, in the library's
// registry (common/registry.h):
//   const HostPreconditioners::Add<HostJacobi> kHostJacobi(kQEqJacobi);
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "common/registry.h"
#include "puremd_gpu/errors.h"

namespace puremd {

// Impl: the driver's preconditioner interface; Args: what its constructor takes.
template <class Impl, class... Args>
class PreconditionerRegistry {
  using Table = Registry<std::string, Impl, Args...>;

 public:
  template <class P>
  struct Add {
    explicit Add(const char *name) { typename Table::template Add<P>{name}; }
  };

  // The preconditioner registered as `name`; InputError listing `driver`'s
  // names when there is none.
  static std::unique_ptr<Impl> make(const std::string &name, const char *driver, Args... a) {
    const auto *entry = Table::find(name);
    if (!entry) {
      std::string known;
      for (const std::string &n : names()) known += (known.empty() ? "" : ", ") + n;
      throw InputError("QEq: no preconditioner '" + name + "' in the " + driver +
                       " solver; choose one of: " + known);
    }
    return entry->make(a...);
  }

  // The registered names, in alphabetical order.
  static std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto &entry : Table::entries()) out.push_back(entry.key);
    std::sort(out.begin(), out.end());
    return out;
  }
};

}  // namespace puremd
