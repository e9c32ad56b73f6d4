// Shared helpers for the tests: find a model, explore it, ask about the result.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/engine/explorer.hpp"
#include "sim/fiber/fiber_pool.hpp"

namespace scopesim::test {

inline const models::Model& model(const std::string& name) {
  for (const auto& m : models::registry())
    if (m.name == name) return m;
  throw std::runtime_error("no model " + name);
}

inline Exploration exhaustive(const std::string& name, unsigned resident_blocks = 0) {
  const auto& m = model(name);
  ExploreOptions o;
  o.run.resident_blocks = resident_blocks;
  return explore(m, m.chapter, o);
}

// Explores `m` at `c` on an OS thread of its own, whose fibers' stacks no
// earlier exploration widened, into `x`, and returns how often its fibers
// touched their stacks past the part kept open (FiberPool::trips()). (Explored
// once before on another thread: a shared library's first call of a
// function, bound then, saves the vector registers in a deep frame, once a
// process.)
inline std::uint64_t trips_exploring(const models::Model& m, const models::Config& c, const ExploreOptions& o,
                                     Exploration& x) {
  std::thread([&] { explore(m, c, o); }).join();
  std::uint64_t trips = 0;
  std::thread([&] {
    const std::uint64_t before = fiber::FiberPool::trips();
    x = explore(m, c, o);
    trips = fiber::FiberPool::trips() - before;
  }).join();
  return trips;
}

inline bool permits(const Exploration& x, const std::string& outcome) {
  return std::any_of(x.outcomes.begin(), x.outcomes.end(),
                     [&](const OutcomeSummary& s) { return s.outcome.text() == outcome; });
}

inline const FindingSummary* finding(const Exploration& x, FindingKind k) {
  for (const auto& f : x.findings)
    if (f.finding.kind == k) return &f;
  return nullptr;
}

// Every shipped model's name, sorted, and a gtest-safe spelling of one.
inline std::vector<std::string> model_names() {
  std::vector<std::string> n;
  for (const auto& m : models::registry()) n.push_back(m.name);
  std::sort(n.begin(), n.end());
  return n;
}
inline std::string test_name(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

// Frees a block of the C library's heap twice, a block too large for the
// library's per-thread cache and with a neighbour, so that the second free()
// finds the heap inconsistent ("double free or corruption") inside the
// allocator's locked part and aborts there, its lock held (once the process
// has had a second thread: before, the library takes no lock).
inline void free_twice() {
  void* volatile block = std::malloc(2000);
  void* volatile neighbour = std::malloc(2000);
  std::free(block);
  std::free(block);
  std::free(neighbour);
}

}  // namespace scopesim::test
