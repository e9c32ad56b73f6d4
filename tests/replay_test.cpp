// Replay and determinism: every witness log that exploration keeps replays to
// the same trace, outcome and findings; two explorations with the same options
// give the same result; a log that does not fit the run is refused with the
// first mismatching decision named.
#include <gtest/gtest.h>

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
    const RunResult a = replay(m, m.chapter, o.run, s.witness);
    const RunResult b = replay(m, m.chapter, o.run, s.witness);
    EXPECT_EQ(a.outcome.text(), s.outcome.text());
    EXPECT_EQ(a.trace, b.trace);
  }
  for (const auto& f : x.findings) {
    const RunResult a = replay(m, m.chapter, o.run, f.witness);
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
    EXPECT_EQ(log_token(a.outcomes[i].witness), log_token(b.outcomes[i].witness));
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
    replay(relaxed, relaxed.chapter, o.run, x.outcomes[0].witness);
    FAIL() << "a log of another model replayed";
  } catch (const ReplayDivergence& e) {
    EXPECT_NE(std::string(e.what()).find("decision "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace scopesim
