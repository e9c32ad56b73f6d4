// The exhaustive explorer's reductions (DPOR with sleep sets, reads-from
// sleep, dispatch sets; docs/architecture.md, "Exhaustive exploration") must
// keep exactly what a naive enumeration finds: for every shipped model small
// enough to enumerate naively, the same executions that end (by fingerprint:
// reads-from, coherence and fence.sc order), the same outcomes (and which are
// bad) and the same findings (kind and source positions). The naive enumeration, written
// here and sharing nothing with the explorer but run_once, tries every
// alternative of every decision the run offers, thread decisions included.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <unordered_map>

#include "sim/engine/dpor_search.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

// Depth-first over every alternative of every decision that reaches the strategy.
class Naive final : public Chooser {
 public:
  unsigned choose(const ChoicePoint& p) override {
    if (at_ == path_.size()) path_.push_back({0, static_cast<unsigned>(p.keys.size())});
    return path_[at_++].first;
  }
  // The next path; false when every one was run.
  bool next() {
    path_.resize(at_);
    at_ = 0;
    while (!path_.empty() && ++path_.back().first == path_.back().second) path_.pop_back();
    return !path_.empty();
  }

 private:
  std::vector<std::pair<unsigned, unsigned>> path_;  // chosen, alternatives
  std::size_t at_ = 0;
};

// Does the run's fingerprint name its execution exactly? Not where commuting
// RMWs ran (docs/architecture.md, "Counting executions": their order counts
// once only where the search leaves it out, and the reduced search explores
// one order of each such run).
bool exact(const RunResult& r) {
  return std::none_of(r.steps.begin(), r.steps.end(), [](const Step& s) { return s.shape.commutes != 0; });
}

struct Found {
  std::map<std::string, bool> outcomes;  // outcome text -> bad
  std::set<std::string> findings;        // kind and sorted source positions
  std::set<std::uint64_t> executions;    // fingerprints of the runs that ended
  std::uint64_t runs = 0;
  bool complete = true;
};

Found naive(const models::Model& m, const models::Config& c, const RunOptions& o, std::uint64_t budget) {
  Found f;
  Naive ch;
  do {
    if (f.runs == budget) {
      f.complete = false;
      break;
    }
    const RunResult r = run_once(m, c, o, ch);
    ++f.runs;
    if (r.completed) {
      f.outcomes[r.outcome.text()] = r.bad;
      if (exact(r)) f.executions.insert(r.fingerprint);
    }
    for (const Finding& x : r.findings) f.findings.insert(x.key());
  } while (ch.next());
  return f;
}

Found reduced(const models::Model& m, const models::Config& c, const RunOptions& o) {
  Found f;
  dpor_search(m, c, o, DporSearch{}, [] { return true; }, [&](const RunResult& r, bool redundant) {
    if (redundant) return true;
    ++f.runs;
    if (r.completed) {
      f.outcomes[r.outcome.text()] = r.bad;
      if (exact(r)) f.executions.insert(r.fingerprint);
    }
    for (const Finding& x : r.findings) f.findings.insert(x.key());
    return true;
  });
  return f;
}

// A model's quick configuration when it has one, else its chapter one, and
// each further configuration it names.
std::vector<std::pair<models::Config, RunOptions>> configurations(const models::Model& m) {
  std::vector<std::pair<models::Config, RunOptions>> out;
  RunOptions o;
  o.keep_trace = false;
  out.push_back({m.quick ? *m.quick : m.chapter, o});
  for (const auto& a : m.also) {
    o.resident_blocks = a.config.resident_blocks;
    out.push_back({a.config, o});
  }
  return out;
}

// Naive runs a model may take before it counts as too large to compare.
constexpr std::uint64_t naive_budget = 20000;

class Reduction : public ::testing::TestWithParam<std::string> {};

TEST_P(Reduction, KeepsEveryExecutionOutcomeAndFindingOfTheNaiveEnumeration) {
  const models::Model& m = test::model(GetParam());
  for (const auto& [c, o] : configurations(m)) {
    const Found all = naive(m, c, o, naive_budget);
    if (!all.complete) {
      GTEST_SKIP() << m.name << ": more than " << naive_budget << " naive runs";
    }
    const Found some = reduced(m, c, o);
    ASSERT_TRUE(some.complete);
    EXPECT_EQ(some.outcomes, all.outcomes) << m.name;
    EXPECT_EQ(some.findings, all.findings) << m.name;
    EXPECT_EQ(some.executions.size(), all.executions.size()) << m.name << ": executions that ended";
    EXPECT_EQ(some.executions, all.executions) << m.name;
    EXPECT_LE(some.runs, all.runs) << m.name;
  }
}

// A run the search counts as redundant without abandoning it (a half-asleep
// load that returned an older write, and the other rules of repeats()) is
// claimed to repeat an execution of a branch explored before it. So its
// execution (the fingerprint, with runs that did not end hashed apart, as the
// explorer counts them) must be one an earlier explored run had, with the same
// outcome; and each of its findings must be one an explored run has (not
// always the run of the same execution: a spin wait's possible
// non-termination depends on the interleaving, not only on the execution).
// Else the rule dropped an execution or a finding.
TEST_P(Reduction, ARedundantRunRepeatsAnExecutionExploredBeforeIt) {
  const models::Model& m = test::model(GetParam());
  for (const auto& [c, o] : configurations(m)) {
    const std::string at = m.name + " <<<" + std::to_string(c.grid) + "," + std::to_string(c.block) + ">>>";
    std::unordered_map<std::uint64_t, std::string> explored;  // fingerprint -> outcome
    std::set<std::string> found;                               // findings of explored runs
    std::map<std::string, std::string> claimed;                // findings of redundant runs -> a token
    dpor_search(m, c, o, DporSearch{}, [] { return true; }, [&](const RunResult& r, bool redundant) {
      if (redundant && r.abandoned) return true;  // stopped by the sleep sets: no whole execution
      const std::uint64_t key = r.fingerprint ^ (r.completed ? 0 : 0x5bd1e995ULL);
      const std::string outcome = r.completed ? r.outcome.text() : std::string();
      for (const Finding& f : r.findings) {
        if (redundant) {
          claimed.try_emplace(f.key(), log_token(r.log));
        } else {
          found.insert(f.key());
        }
      }
      if (!redundant) {
        explored.try_emplace(key, outcome);
        return true;
      }
      const auto it = explored.find(key);
      EXPECT_TRUE(it != explored.end()) << at << ": a redundant run's execution was not explored before it: "
                                        << log_token(r.log);
      if (it != explored.end()) {
        EXPECT_EQ(it->second, outcome) << at << ": a redundant run's outcome differs from the explored run of its "
                                       << "execution: " << log_token(r.log);
      }
      return true;
    });
    for (const auto& [finding, token] : claimed)
      EXPECT_TRUE(found.count(finding)) << at << ": a redundant run's finding no explored run has: " << finding
                                        << ", token " << token;
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, Reduction, ::testing::ValuesIn(test::model_names()),
                         [](const auto& info) { return test::test_name(info.param); });

}  // namespace
}  // namespace scopesim
