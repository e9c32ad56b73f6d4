// Models whose expected verdict the simulator does not reach yet, each with
// the engine defect that stops it. The model is written as CUDA C++ requires
// and its expectation derived from semantics.md; the tests that meet such a
// model require the failure to persist (a fix must remove the entry).
#pragma once
#include <map>
#include <string>

namespace scopesim::test {

inline const std::map<std::string, std::string>& known_engine_failures() {
  static const std::map<std::string, std::string> list{
      {"tile.divergent_barrier",
       "barrier divergence is missed when a thread exits before any thread of its block arrives at the barrier "
       "(docs/limitations.md, \"Early exits before any thread reaches the barrier are not reported\"); the "
       "out-of-range threads have no visible operation before their exit, so they always exit first"},
  };
  return list;
}

inline const std::string* known_engine_failure(const std::string& model) {
  auto it = known_engine_failures().find(model);
  return it == known_engine_failures().end() ? nullptr : &it->second;
}

}  // namespace scopesim::test
