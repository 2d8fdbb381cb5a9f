// Which preconditioner a driver's CG runs, by the name it registered under
// (QEqSettings::preconditioner). Each preconditioner's source registers its
// implementation for one driver at namespace scope:
//   const PreconditionerRegistry<CudaPreconditioner, MemoryTracker &>::Add<Jacobi> kJ("jacobi");
// so a new preconditioner adds a file and edits no list (the library is
// linked whole: model_registry.h says why).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "puremd_gpu/errors.h"

namespace puremd {

// Impl: the driver's preconditioner interface; Args: what its constructor takes.
template <class Impl, class... Args>
class PreconditionerRegistry {
 public:
  using Maker = std::unique_ptr<Impl> (*)(Args...);

  template <class P>
  struct Add {
    explicit Add(const char *name) {
      table()[name] = [](Args... a) -> std::unique_ptr<Impl> { return std::make_unique<P>(a...); };
    }
  };

  // The preconditioner registered as `name`; InputError listing `driver`'s
  // names when there is none.
  static std::unique_ptr<Impl> make(const std::string &name, const char *driver, Args... a) {
    const auto it = table().find(name);
    if (it == table().end()) {
      std::string known;
      for (const std::string &n : names()) known += (known.empty() ? "" : ", ") + n;
      throw InputError("QEq: no preconditioner '" + name + "' in the " + driver +
                       " driver; its preconditioners: " + known);
    }
    return it->second(a...);
  }

  // The registered names, sorted.
  static std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto &e : table()) out.push_back(e.first);
    return out;
  }

 private:
  // (a function's static: filled by other files' registrations before main)
  static std::map<std::string, Maker> &table() {
    static std::map<std::string, Maker> t;
    return t;
  }
};

}  // namespace puremd
