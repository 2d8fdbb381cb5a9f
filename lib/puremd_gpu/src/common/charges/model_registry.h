// Which implementation of a charge model a solver runs, found by the type of
// the model's input (charge_model.h), in the library's registry
// (common/registry.h). Each model's source registers its implementation for
// one driver at namespace scope:
//   const ModelRegistry<HostChargeModel>::Add<QtpieInput, HostQtpie> kHostQtpie;
#pragma once

#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>

#include "common/registry.h"
#include "puremd_gpu/charge_model.h"
#include "puremd_gpu/errors.h"

namespace puremd {

// Impl: the driver's model interface; Args: what its constructor takes.
template <class Impl, class... Args>
class ModelRegistry {
  using Table = Registry<std::type_index, Impl, Args...>;

 public:
  template <class Input, class Model>
  struct Add {
    Add() { typename Table::template Add<Model>{std::type_index(typeid(Input))}; }
  };

  // The implementation for `in`'s model; InputError naming the model and
  // `driver` when this build has none.
  static std::unique_ptr<Impl> make(const ChargeModelInput &in, const char *driver, Args... a) {
    const auto *entry = Table::find(std::type_index(typeid(in)));
    if (!entry)
      throw InputError(std::string(in.name()) + ": the charge model has no " + driver +
                       " implementation in this build");
    return entry->make(a...);
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
