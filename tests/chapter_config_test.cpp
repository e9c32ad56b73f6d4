// Every model at the chapter's own launch configuration, which is often too
// large to explore exhaustively (<<<1,256>>>): a broken (✗) model must be found
// broken by a PCT or random sample of at most 10,000 executions with a fixed
// seed; a correct (✓) model is explored exhaustively at its quick
// configuration (complete, nothing bad, and as many executions as the model
// states) and a PCT sample at the chapter configuration must find nothing bad
// either. The expected verdicts are the
// models' own, derived beside each model from semantics.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/known_failures.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

constexpr std::uint64_t kBudget = 10000;  // executions, as the catalogue issue requires
// A known engine failure misses its finding in every run (the defect is not a
// matter of schedule), so a short sample shows that it persists.
constexpr std::uint64_t kKnownFailureBudget = 100;

bool broken(const models::Expectation& e) { return e.bad_outcome_permitted || !e.required.empty(); }

struct Found {
  bool bad = false;
  std::set<FindingKind> findings;
  std::uint64_t executions = 0;
  bool all_of(const models::Expectation& e) const {
    if (e.bad_outcome_permitted && !bad) return false;
    return std::all_of(e.required.begin(), e.required.end(), [&](FindingKind k) { return findings.count(k) > 0; });
  }
};

// Samples in growing batches (seeds seed, seed+1, ...) until every part of
// the expected broken verdict has shown up or the budget is spent.
Found sample_until_found(const models::Model& m, const models::Config& c, Mode mode, std::uint64_t seed,
                         const models::Expectation& e, std::uint64_t budget) {
  Found f;
  std::uint64_t batch = 1;
  while (f.executions < budget && !f.all_of(e)) {
    ExploreOptions o;
    o.mode = mode;
    o.seed = seed++;
    o.max_executions = std::min(batch, budget - f.executions);
    const Exploration x = explore(m, c, o);
    f.executions += x.executions;
    f.bad |= std::any_of(x.outcomes.begin(), x.outcomes.end(), [](const OutcomeSummary& s) { return s.bad; });
    for (const auto& s : x.findings) f.findings.insert(s.finding.kind);
    batch *= 2;
  }
  return f;
}

class ChapterConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(ChapterConfig, BrokenModelsAreFoundBrokenByASample) {
  const models::Model& m = test::model(GetParam());
  if (!broken(m.expect)) GTEST_SKIP() << m.name << " is correct (see CorrectModels...)";
  const std::string* known = test::known_engine_failure(m.name);
  bool found = false;
  std::string tried;
  for (Mode mode : {Mode::pct, Mode::random}) {
    const Found f = sample_until_found(m, m.chapter, mode, 1, m.expect, known ? kKnownFailureBudget : kBudget);
    tried += (mode == Mode::pct ? " pct: " : " random: ") + std::to_string(f.executions) + " executions;";
    if (f.all_of(m.expect)) {
      found = true;
      break;
    }
  }
  if (known != nullptr) {
    EXPECT_FALSE(found) << m.name << " is now found broken: remove it from the known engine failures";
    GTEST_SKIP() << "known engine failure: " << *known;
  }
  EXPECT_TRUE(found) << m.name << " was not found broken at <<<" << m.chapter.grid << "," << m.chapter.block
                     << ">>> within " << kBudget << " executions of either mode:" << tried << " expected "
                     << m.bad_means;
}

// Nothing bad: no bad outcome and, where the model's findings are exact (every
// catalogue model), no finding; racy litmus code may report races.
bool clean(const Exploration& x, const models::Expectation& e) {
  for (const auto& s : x.outcomes)
    if (s.bad) return false;
  return !e.exact_findings || x.findings.empty();
}

TEST_P(ChapterConfig, CorrectModelsAreCleanExhaustivelyAtQuickAndSampledAtChapter) {
  const models::Model& m = test::model(GetParam());
  if (broken(m.expect)) GTEST_SKIP() << m.name << " is broken (see BrokenModels...)";
  ExploreOptions o;
  const Exploration quick = explore(m, m.quick.value_or(m.chapter), o);
  ASSERT_TRUE(quick.complete) << m.name;
  EXPECT_TRUE(clean(quick, m.expect)) << m.name << " at its quick configuration";

  o.mode = Mode::pct;
  o.max_executions = m.quick ? 20 : 200;
  const Exploration chapter = explore(m, m.chapter, o);
  EXPECT_TRUE(clean(chapter, m.expect)) << m.name << " at its chapter configuration <<<" << m.chapter.grid << ","
                                        << m.chapter.block << ">>>";
}

INSTANTIATE_TEST_SUITE_P(Catalogue, ChapterConfig, ::testing::ValuesIn(test::model_names()),
                         [](const auto& info) { return test::test_name(info.param); });

}  // namespace
}  // namespace scopesim
