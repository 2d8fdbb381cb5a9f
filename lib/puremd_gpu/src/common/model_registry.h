// Which implementation of a charge model a solver runs, found by the type of
// the model's input (charge_model.h). Each model's source registers its
// implementation for one driver at namespace scope:
//   const ModelRegistry<HostChargeModel>::Add<QtpieInput, HostQtpie> kHostQtpie;
// so a new model adds files and edits no list. The library is linked whole
// (an OBJECT library, lib/puremd_gpu/CMakeLists.txt): a static archive would
// drop the registering objects nobody names.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>

#include "puremd_gpu/charge_model.h"
#include "puremd_gpu/errors.h"

namespace puremd {

// Impl: the driver's model interface; Args: what its constructor takes.
template <class Impl, class... Args>
class ModelRegistry {
 public:
  using Maker = std::unique_ptr<Impl> (*)(Args...);

  template <class Input, class Model>
  struct Add {
    Add() {
      table()[std::type_index(typeid(Input))] = [](Args... a) -> std::unique_ptr<Impl> {
        return std::make_unique<Model>(a...);
      };
    }
  };

  // The implementation for `in`'s model; InputError naming the model and
  // `driver` when this build has none.
  static std::unique_ptr<Impl> make(const ChargeModelInput &in, const char *driver, Args... a) {
    const auto it = table().find(std::type_index(typeid(in)));
    if (it == table().end())
      throw InputError(std::string(in.name()) + ": the charge model has no " + driver +
                       " implementation in this build");
    return it->second(a...);
  }

 private:
  // (a function's static: filled by other files' registrations before main)
  static std::map<std::type_index, Maker> &table() {
    static std::map<std::type_index, Maker> t;
    return t;
  }
};

// The model a solver keeps between solves (its scratch), made anew when the
// input's model changes.
template <class Impl, class... Args>
class ModelSlot {
 public:
  // The implementation for `in` (null for QEq's own).
  Impl *of(const ChargeModelInput *in, const char *driver, Args... a) {
    if (!in) return nullptr;
    const std::type_index t(typeid(*in));
    if (!impl_ || t != type_) {
      impl_ = ModelRegistry<Impl, Args...>::make(*in, driver, a...);
      type_ = t;
    }
    return impl_.get();
  }
  Impl *get() const { return impl_.get(); }

 private:
  std::unique_ptr<Impl> impl_;
  std::type_index type_{typeid(void)};
};

}  // namespace puremd
