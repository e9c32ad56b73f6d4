// Replay and determinism: every witness log that exploration keeps replays to
// the same trace, outcome and findings; two explorations with the same options
// give the same result; a log that does not fit the run is refused with the
// first mismatching decision named.
#include <gtest/gtest.h>

#include "sim/engine/strategies.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

class ReplayEveryModel : public ::testing::TestWithParam<std::string> {};

TEST_P(ReplayEveryModel, EveryWitnessReplaysIdentically) {
  const models::Model& m = test::model(GetParam());
  ExploreOptions o;
  o.mode = Mode::random;
  o.seed = 7;
  o.max_executions = 30;
  const Exploration x = explore(m, m.chapter, o);
  for (const auto& s : x.outcomes) {
    const RunResult a = replay(m, m.chapter, o.run, s.witness.log());
    const RunResult b = replay(m, m.chapter, o.run, s.witness.log());
    EXPECT_EQ(a.outcome.text(), s.outcome.text());
    EXPECT_EQ(a.trace, b.trace);
  }
  for (const auto& f : x.findings) {
    const RunResult a = replay(m, m.chapter, o.run, f.witness.log());
    bool again = false;
    for (const auto& g : a.findings) again |= g.key() == f.finding.key();
    EXPECT_TRUE(again) << f.finding.message;
  }
}

TEST_P(ReplayEveryModel, SameSeedSameExploration) {
  const models::Model& m = test::model(GetParam());
  ExploreOptions o;
  o.mode = Mode::pct;
  o.seed = 3;
  o.max_executions = 20;
  const Exploration a = explore(m, m.chapter, o), b = explore(m, m.chapter, o);
  ASSERT_EQ(a.outcomes.size(), b.outcomes.size());
  for (std::size_t i = 0; i < a.outcomes.size(); ++i) {
    EXPECT_EQ(a.outcomes[i].outcome.text(), b.outcomes[i].outcome.text());
    EXPECT_EQ(a.outcomes[i].count, b.outcomes[i].count);
    EXPECT_EQ(log_token(a.outcomes[i].witness.log()), log_token(b.outcomes[i].witness.log()));
  }
  EXPECT_EQ(a.findings.size(), b.findings.size());
}

INSTANTIATE_TEST_SUITE_P(Catalogue, ReplayEveryModel, ::testing::ValuesIn(test::model_names()),
                         [](const auto& info) { return test::test_name(info.param); });

TEST(Replay, AForeignLogIsRefusedNamingTheDecision) {
  const models::Model& relaxed = test::model("publish.relaxed");
  const models::Model& mp = test::model("litmus.MP+rel.gpu+acq.gpu");
  ExploreOptions o;
  o.mode = Mode::random;
  o.max_executions = 1;
  const Exploration x = explore(mp, mp.chapter, o);
  ASSERT_FALSE(x.outcomes.empty());
  try {
    replay(relaxed, relaxed.chapter, o.run, x.outcomes[0].witness.log());
    FAIL() << "a log of another model replayed";
  } catch (const ReplayDivergence& e) {
    EXPECT_NE(std::string(e.what()).find("decision "), std::string::npos) << e.what();
  }
}

// A search makes its runs into one RunResult. A run there is the same run,
// step for step and finding for finding, as the same choices make into a new
// RunResult: whatever the run before it left (another model's, longer or
// shorter, with findings or without) is cleared or dropped. The three models
// differ in length, in streams and in findings (each has runs with and
// without), so each run follows a different one.
TEST(Replay, ARunIntoAUsedResultIsTheRunIntoANewOne) {
  const std::vector<const models::Model*> ms = {&test::model("host.reuse_source_early"),
                                                &test::model("litmus.MP+rel.cta+acq.cta.xcta"),
                                                &test::model("counter.plain")};
  RunOptions o;
  o.keep_trace = false;  // as a search runs
  RunResult into;
  for (std::uint64_t seed = 1; seed <= 12; ++seed)
    for (const models::Model* m : ms) {
      const models::Config c = m->quick.value_or(m->chapter);
      RandomChooser a(seed), b(seed);
      run_once(*m, c, o, a, into);
      const RunResult fresh = run_once(*m, c, o, b);
      SCOPED_TRACE(m->name + " seed " + std::to_string(seed));
      EXPECT_EQ(into.completed, fresh.completed);
      EXPECT_EQ(into.outcome.text(), fresh.outcome.text());
      EXPECT_EQ(into.fingerprint, fresh.fingerprint);
      EXPECT_EQ(into.scheduling_decisions, fresh.scheduling_decisions);
      ASSERT_EQ(into.findings.size(), fresh.findings.size());
      for (std::size_t k = 0; k < fresh.findings.size(); ++k) {
        EXPECT_EQ(into.findings[k].message, fresh.findings[k].message);
        EXPECT_EQ(into.findings[k].threads, fresh.findings[k].threads);
        EXPECT_EQ(into.findings[k].where, fresh.findings[k].where);
      }
      ASSERT_EQ(into.steps.size(), fresh.steps.size());
      for (std::size_t k = 0; k < fresh.steps.size(); ++k) {
        const Step &x = into.steps[k], &y = fresh.steps[k];
        EXPECT_EQ(x.thread, y.thread) << k;
        EXPECT_EQ(x.decision, y.decision) << k;
        EXPECT_EQ(x.shape.addr, y.shape.addr) << k;
        EXPECT_EQ(x.shape.reads, y.shape.reads) << k;
        EXPECT_EQ(x.shape.writes, y.shape.writes) << k;
        EXPECT_EQ(x.shape.global, y.shape.global) << k;
        EXPECT_EQ(x.shape.commutes, y.shape.commutes) << k;
        EXPECT_EQ(x.joins, y.joins) << k;
        EXPECT_EQ(x.learns, y.learns) << k;
        EXPECT_EQ(x.spawned, y.spawned) << k;
        EXPECT_EQ(x.reads_from, y.reads_from) << k;
        EXPECT_EQ(x.counted, y.counted) << k;
        EXPECT_EQ(x.hidden_by_unknown, y.hidden_by_unknown) << k;
        EXPECT_EQ(x.precedes, y.precedes) << k;
        EXPECT_EQ(x.unordered, y.unordered) << k;
      }
    }
}

// A run may leave in place the findings its own run before left in the same
// RunResult; what another run left there is copied over, even where a move
// put it at the very address the run before filled (as the parallel search's
// walks hand their kept RunResult on). Each model here has runs with
// different findings (another race, or none) from one seed to the next.
TEST(Replay, ARunIntoAResultAnotherRunFilledKeepsNoneOfItsFindings) {
  const std::vector<const models::Model*> ms = {&test::model("litmus.SB.xcta"), &test::model("counter.plain"),
                                                &test::model("tile.missing_barrier")};
  RunOptions o;
  o.keep_trace = false;
  std::size_t differed = 0;  // runs whose findings the other run's were not
  for (const models::Model* m : ms)
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const models::Config c = m->quick.value_or(m->chapter);
      RunResult into, other;
      RandomChooser a(seed + 1000), b(seed), again(seed), fresh_choices(seed);
      run_once(*m, c, o, a, other);
      run_once(*m, c, o, b, into);
      std::swap(into, other);  // `into`, where the last run was made, now holds the run before's
      std::vector<std::string> left;
      for (const Finding& f : into.findings) left.push_back(f.message);
      run_once(*m, c, o, again, into);
      const RunResult fresh = run_once(*m, c, o, fresh_choices);
      SCOPED_TRACE(m->name + " seed " + std::to_string(seed));
      ASSERT_EQ(into.findings.size(), fresh.findings.size());
      std::vector<std::string> made;
      for (std::size_t k = 0; k < fresh.findings.size(); ++k) {
        EXPECT_EQ(into.findings[k].message, fresh.findings[k].message);
        EXPECT_EQ(into.findings[k].where, fresh.findings[k].where);
        made.push_back(fresh.findings[k].message);
      }
      differed += made != left && made.size() == left.size();
    }
  EXPECT_GT(differed, 0u) << "no run here had as many findings as, and other findings than, the one before";
}

}  // namespace
}  // namespace scopesim
