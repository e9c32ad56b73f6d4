// Known shortfalls of the engine, each with its cause; the tests that meet
// such a model require the shortfall to persist (a fix must remove the entry).
//
// Engine failures: models whose expected verdict the simulator does not reach
// yet, each with the engine defect that stops it. The model is written as CUDA C++ requires
// and its expectation derived from semantics.md; the tests that meet such a
// model require the failure to persist (a fix must remove the entry).
#pragma once
#include <map>
#include <string>

namespace scopesim::test {

inline const std::map<std::string, std::string>& known_engine_failures() {
  static const std::map<std::string, std::string> list{
  };
  return list;
}

inline const std::string* known_engine_failure(const std::string& model) {
  auto it = known_engine_failures().find(model);
  return it == known_engine_failures().end() ? nullptr : &it->second;
}

// Redundancy: models whose exhaustive search explores some of their derived
// executions more than once (docs/performance-history.md, "What is left above 1.05").
inline const std::map<std::string, std::string>& known_redundancies() {
  static const std::map<std::string, std::string> list{
  };
  return list;
}

}  // namespace scopesim::test
