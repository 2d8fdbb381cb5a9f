// The one registry template of the library's open sets of parts: each part's
// own source registers it at namespace scope, so a new part adds its file
// and edits no list. Serves the charge models (keyed by their input's type:
// common/charges/model_registry.h), the preconditioners (by name:
// common/charges/preconditioner_registry.h) and the halo's transports (by
// name, tried in rank order: cuda/charges/halo_transport.h). The library is
// linked whole (an OBJECT library, lib/puremd_gpu/CMakeLists.txt): a static
// archive would drop the registering objects nobody names.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

namespace puremd {

// Key: what a part is found by; Impl: the interface the parts implement;
// Args: what their constructors take.
template <class Key, class Impl, class... Args>
class Registry {
 public:
  using Maker = std::unique_ptr<Impl> (*)(Args...);
  struct Entry {
    Key key;
    int rank;  // order of entries(), lower first (then registration order)
    Maker make;
  };

  // Registers part T under `key` (a later registration of the same key
  // replaces the earlier one).
  template <class T>
  struct Add {
    explicit Add(Key key, int rank = 0) {
      auto &t = table();
      t.erase(std::remove_if(t.begin(), t.end(), [&](const Entry &e) { return e.key == key; }),
              t.end());
      const auto at = std::upper_bound(t.begin(), t.end(), rank,
                                       [](int r, const Entry &e) { return r < e.rank; });
      t.insert(at, Entry{key, rank, [](Args... a) -> std::unique_ptr<Impl> {
                           return std::make_unique<T>(a...);
                         }});
    }
  };

  // Registers part T under `key` for this object's life only (a test's
  // stand-in for a kind whose keys are a closed set, as QEqStore): the
  // table is as before once it ends. `hidden()` is the entry it replaced.
  template <class T>
  class Scoped {
   public:
    explicit Scoped(Key key, int rank = 0) : saved_(table()) {
      for (const Entry &e : saved_)
        if (e.key == key) hidden_ = e;
      Add<T>{key, rank};
    }
    ~Scoped() { table() = saved_; }
    Scoped(const Scoped &) = delete;
    Scoped &operator=(const Scoped &) = delete;
    // the part `key` had before (make null where none)
    const Entry &hidden() const { return hidden_; }

   private:
    std::vector<Entry> saved_;
    Entry hidden_{};
  };

  // The part registered under `key`, or null.
  static const Entry *find(const Key &key) {
    for (const Entry &e : table())
      if (e.key == key) return &e;
    return nullptr;
  }
  // Every part, in rank order.
  static const std::vector<Entry> &entries() { return table(); }

 private:
  // (a function's static: filled by other files' registrations before main)
  static std::vector<Entry> &table() {
    static std::vector<Entry> t;
    return t;
  }
};

}  // namespace puremd
