// The exhaustive explorer against the naive enumeration, for kernels written
// inside a test (tests/test_kernels.hpp): the same outcomes and the same
// findings (kind and source positions), whatever the reductions skipped.
#pragma once
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/properties/naive_search.hpp"
#include "tests/test_support.hpp"

namespace scopesim::test {

struct Found {
  std::set<std::string> outcomes;
  std::set<std::string> findings;
};

inline Found naive(const models::Model& m) {
  Found f;
  RunOptions o;
  o.keep_trace = false;
  props::NaiveSearch walk;
  const bool complete = walk.run_all(m, m.chapter, o, 200000, [&](const RunResult& r) {
    if (r.completed) f.outcomes.insert(r.outcome.text());
    for (const Finding& x : r.findings) f.findings.insert(x.key());
  });
  EXPECT_TRUE(complete) << m.name << ": too many runs for the naive enumeration";
  return f;
}

inline Exploration exhaustive(const models::Model& m) {
  ExploreOptions o;
  o.run.keep_trace = false;
  return explore(m, m.chapter, o);
}

inline Found found(const Exploration& x) {
  Found f;
  for (const auto& s : x.outcomes) f.outcomes.insert(s.outcome.text());
  for (const auto& s : x.findings) f.findings.insert(s.finding.key());
  return f;
}

inline void expect_same_as_naive(const models::Model& m, const Exploration& x) {
  EXPECT_TRUE(x.complete);
  const Found a = found(x), b = naive(m);
  EXPECT_EQ(a.outcomes, b.outcomes) << m.name;
  EXPECT_EQ(a.findings, b.findings) << m.name;
}

}  // namespace scopesim::test
