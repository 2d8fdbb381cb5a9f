// The library's one registry template (common/registry.h) alone, with parts
// registered here only: found by key, listed in rank order (registration
// order within a rank), a second registration of a key replacing the first,
// each made with the constructor's arguments. The kinds built on it are
// proved by their own test-only entries: charge models
// (test_charge_models.cpp, cuda/test_cuda_charge_models.cpp),
// preconditioners (test_qeq_preconditioner.cpp,
// cuda/test_cuda_preconditioner.cpp); the halo's transports have no
// test-only entry yet (their two run in the GPU machine's several-rank tests).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/registry.h"

namespace {

struct Part {
  virtual ~Part() = default;
  virtual std::string what(int x) const = 0;
};
using Parts = puremd::Registry<std::string, Part, int>;

struct Doubling : Part {
  explicit Doubling(int base) : base(base) {}
  std::string what(int x) const override { return "double " + std::to_string(base + 2 * x); }
  int base;
};
struct Negating : Part {
  explicit Negating(int base) : base(base) {}
  std::string what(int x) const override { return "negate " + std::to_string(base - x); }
  int base;
};
struct Replacement : Part {
  explicit Replacement(int) {}
  std::string what(int) const override { return "replacement"; }
};

const Parts::Add<Negating> kLate("late", 50);
const Parts::Add<Doubling> kEarly("early", 10);
const Parts::Add<Negating> kEarlyToo("early too", 10);
const Parts::Add<Doubling> kReplaced("replaced", 20);
const Parts::Add<Replacement> kReplacing("replaced", 30);

}  // namespace

TEST(Registry, FindsEachPartByItsKeyAndMakesItWithTheArguments) {
  const Parts::Entry *e = Parts::find("early");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->make(100)->what(3), "double 106");
  ASSERT_NE(Parts::find("late"), nullptr);
  EXPECT_EQ(Parts::find("late")->make(100)->what(3), "negate 97");
  EXPECT_EQ(Parts::find("none"), nullptr);
}

TEST(Registry, ListsByRankThenRegistrationAndKeysAreUnique) {
  std::vector<std::string> keys;
  for (const Parts::Entry &e : Parts::entries()) keys.push_back(e.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"early", "early too", "replaced", "late"}));
  EXPECT_EQ(Parts::find("replaced")->make(0)->what(0), "replacement");
  EXPECT_EQ(Parts::find("replaced")->rank, 30);
}

TEST(Registry, AScopedPartStandsInForItsKeyUntilItEnds) {
  {
    const Parts::Scoped<Replacement> stand_in("early", 40);
    EXPECT_EQ(Parts::find("early")->make(100)->what(3), "replacement");
    EXPECT_EQ(stand_in.hidden().make(100)->what(3), "double 106");  // what it hides
    std::vector<std::string> keys;
    for (const Parts::Entry &e : Parts::entries()) keys.push_back(e.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"early too", "replaced", "early", "late"}));
    const Parts::Scoped<Doubling> added("new", 0);
    EXPECT_EQ(Parts::find("new")->make(1)->what(1), "double 3");
    EXPECT_EQ(Parts::entries().front().key, "new");
  }
  EXPECT_EQ(Parts::find("new"), nullptr);
  EXPECT_EQ(Parts::find("early")->make(100)->what(3), "double 106");
  EXPECT_EQ(Parts::find("early")->rank, 10);
  EXPECT_EQ(Parts::entries().size(), 4u);
}
