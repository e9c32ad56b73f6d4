// Shared helpers for the tests: find a model, explore it, ask about the result.
#pragma once
#include <algorithm>
#include <cctype>
#include <vector>
#include <stdexcept>
#include <string>

#include "sim/engine/explorer.hpp"

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

}  // namespace scopesim::test
