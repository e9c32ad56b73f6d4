// Every shipped model against its expected verdict. The expectations are data
// beside each model (models/*/…cpp), each derived there by hand from the rules
// of semantics.md; this test only checks that exhaustive exploration agrees.
#include <gtest/gtest.h>

#include <set>

#include "tests/known_failures.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

void expect_verdict(const models::Model& m, const models::Config& c, const models::Expectation& e, unsigned resident) {
  ExploreOptions o;
  o.run.resident_blocks = resident;
  o.max_executions = 200000;
  const Exploration x = explore(m, c, o);
  ASSERT_TRUE(x.complete) << m.name << " did not finish exhaustively";
  bool bad = false;
  for (const auto& s : x.outcomes) bad |= s.bad;
  EXPECT_EQ(bad, e.bad_outcome_permitted) << m.name << ": " << m.bad_means;
  if (e.several_outcomes) {
    EXPECT_GT(x.outcomes.size(), 1u) << m.name << ": the result should depend on the schedule";
  }
  std::set<FindingKind> found;
  for (const auto& f : x.findings) found.insert(f.finding.kind);
  for (FindingKind k : e.required) EXPECT_TRUE(found.count(k)) << m.name << " lacks a " << name(k) << " finding";
  if (e.exact_findings) {
    for (FindingKind k : found) {
      EXPECT_TRUE(std::find(e.required.begin(), e.required.end(), k) != e.required.end())
          << m.name << " reports an unexpected " << name(k);
    }
  }
}

class EveryModel : public ::testing::TestWithParam<std::string> {};

// At the model's quick configuration when it has one: chapter launches such as
// <<<1,256>>> are too large to explore exhaustively (tests/chapter_config_test.cpp
// covers them).
TEST_P(EveryModel, MatchesItsExpectedVerdict) {
  const models::Model& m = test::model(GetParam());
  if (const std::string* known = test::known_engine_failure(m.name))
    GTEST_SKIP() << "known engine failure (tests/chapter_config_test.cpp checks it persists): " << *known;
  expect_verdict(m, m.quick.value_or(m.chapter), m.expect, 0);
  for (const auto& also : m.also) expect_verdict(m, also.config, also.expect, also.config.resident_blocks);
}

// The count of distinct executions derived beside the model (reads-from,
// coherence edges, order of morally strong fence.sc), where it states one: the
// search finds exactly those, and explores each once.
TEST_P(EveryModel, ExploresEachDerivedExecutionOnce) {
  const models::Model& m = test::model(GetParam());
  if (m.exhaustive_executions == 0) GTEST_SKIP() << m.name << " states no execution count";
  ExploreOptions o;
  const Exploration x = explore(m, m.quick.value_or(m.chapter), o);
  ASSERT_TRUE(x.complete) << m.name;
  EXPECT_EQ(x.distinct, m.exhaustive_executions) << m.name;
  if (test::known_redundancies().count(m.name)) {
    EXPECT_GT(x.executions, x.distinct) << m.name << " explores each execution once now: remove it from the known "
                                        << "redundancies";
  } else {
    EXPECT_EQ(x.executions, m.exhaustive_executions) << m.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, EveryModel, ::testing::ValuesIn(test::model_names()),
                         [](const auto& info) { return test::test_name(info.param); });

// ---- the foundation issue's named checks ----

TEST(Publish, RelaxedPermitsTheStalePayloadAndReportsTheRaceOnTheRecord) {
  const Exploration x = test::exhaustive("publish.relaxed");
  EXPECT_TRUE(test::permits(x, "error=1"));
  EXPECT_TRUE(test::permits(x, "error=0"));
  const FindingSummary* race = test::finding(x, FindingKind::data_race);
  ASSERT_NE(race, nullptr);
  // Both source lines: the producer's store of the record and the consumer's copy.
  ASSERT_EQ(race->finding.where.size(), 2u);
  for (const auto& w : race->finding.where) EXPECT_NE(w.find("models/publish/publish.cpp:"), std::string::npos) << w;
  EXPECT_NE(race->finding.message.find("slot"), std::string::npos) << race->finding.message;
}

TEST(Publish, BlockAcqrelHasExactlyOneOutcome) {
  const Exploration x = test::exhaustive("publish.block_acqrel");
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "error=0");
  EXPECT_TRUE(x.findings.empty());
}

TEST(Publish, DeviceScopeDeadlocksWithOneResidentBlock) {
  const Exploration x = test::exhaustive("publish.cross_block_device_scope", 1);
  const FindingSummary* d = test::finding(x, FindingKind::deadlock);
  ASSERT_NE(d, nullptr);
  // Names the spinning consumer (thread 0 of block 1) and the producer block that never becomes resident.
  EXPECT_NE(d->finding.message.find("b1.t0 spins on ready"), std::string::npos) << d->finding.message;
  EXPECT_NE(d->finding.message.find("block 0 never becomes resident"), std::string::npos) << d->finding.message;
  // Producer dispatched first: the run completes with the record intact.
  EXPECT_TRUE(test::permits(x, "error=0"));
  EXPECT_FALSE(test::permits(x, "error=1"));
}

TEST(Publish, DeviceScopeWithEveryBlockResidentIsCorrect) {
  const Exploration x = test::exhaustive("publish.cross_block_device_scope");
  EXPECT_TRUE(x.findings.empty());
  EXPECT_FALSE(x.bad());
}

}  // namespace
}  // namespace scopesim
