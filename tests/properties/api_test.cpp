// The library API as a user's test meets it: explore by name or by Model (one
// that is in no registry too), the Report's answers, tokens that replay, clear
// errors, and a failing property that shrinks to the smallest launch and
// carries a token that replays its counterexample.
#include <gtest/gtest.h>

#include <optional>

#include "sim/api/rapidcheck.hpp"
#include "sim/engine/choice_log.hpp"

namespace scopesim {
namespace {

Launch one_block(unsigned block) {
  Launch l;
  l.block = block;
  return l;
}

// publish.relaxed at <<<1,64>>> (catalogue.md): stale payload permitted, race
// on slot, never-written slot read. Its token must replay to a bad run.
TEST(Api, ReportOfABrokenModelCarriesATokenThatReplays) {
  const Report r = explore("publish.relaxed", one_block(64));
  EXPECT_TRUE(r.complete());
  EXPECT_TRUE(r.bad());
  EXPECT_TRUE(r.bad_outcome());
  EXPECT_TRUE(r.permits("error=1"));
  EXPECT_TRUE(r.has(FindingKind::data_race));
  EXPECT_FALSE(r.has(FindingKind::deadlock));
  ASSERT_TRUE(r.schedule().has_value());
  const std::string token = r.token();
  // The witness's decisions, then '@' and its launch's key.
  ASSERT_NE(token.find('@'), std::string::npos) << token;
  EXPECT_EQ(token.substr(0, token.find('@')), log_token(*r.schedule()));
  EXPECT_NE(r.describe().find(token), std::string::npos);
  EXPECT_NE(r.describe().find("scopesim::replay(\"publish.relaxed\", {.grid = 1, .block = 64"), std::string::npos);

  // The first bad witness is the bad outcome's: its replay ends with error=1.
  const RunResult again = replay("publish.relaxed", one_block(64), token);
  EXPECT_TRUE(again.completed);
  EXPECT_TRUE(again.bad);
  EXPECT_EQ(again.outcome.text(), "error=1");
  EXPECT_EQ(again.log.size(), r.schedule()->size());
}

// publish.block_acqrel (catalogue.md ✓): nothing bad, no token.
TEST(Api, ReportOfACorrectModelIsClean) {
  const Report r = explore("publish.block_acqrel", one_block(64));
  EXPECT_TRUE(r.complete());
  EXPECT_FALSE(r.bad());
  EXPECT_EQ(r.finding_kinds(), std::vector<FindingKind>{});
  EXPECT_FALSE(r.schedule().has_value());
  EXPECT_EQ(r.token(), "");
}

// A model need not be registered: a copy under a new name is in no registry.
TEST(Api, AModelInNoRegistryIsExplored) {
  models::Model mine = *find_model("publish.relaxed");
  mine.name = "mine.relaxed";
  EXPECT_EQ(find_model("mine.relaxed"), nullptr);
  const Report r = explore(mine, one_block(40));
  EXPECT_TRUE(r.bad_outcome());
  const RunResult again = replay(mine, one_block(40), r.token());
  EXPECT_TRUE(again.bad);
}

// The launch's resident blocks are the run's: publish.cross_block_device_scope
// deadlocks with one resident block (catalogue.md).
TEST(Api, TheLaunchDecidesTheResidentBlocks) {
  Launch l = one_block(8);
  l.grid = 2;
  l.resident_blocks = 1;
  Options o;
  o.run.resident_blocks = 0;  // ignored: the launch decides
  const Report r = explore("publish.cross_block_device_scope", l, o);
  EXPECT_EQ(r.finding_kinds(), std::vector{FindingKind::deadlock});
  EXPECT_FALSE(replay("publish.cross_block_device_scope", l, r.token()).findings.empty());
}

TEST(Api, BadInputIsAClearError) {
  EXPECT_THROW(explore("no.such_model", one_block(1)), std::invalid_argument);
  EXPECT_THROW(explore("publish.relaxed", one_block(0)), std::invalid_argument);
  Options o;
  o.run.memory_model = "tso";
  EXPECT_THROW(explore("publish.relaxed", one_block(1), o), std::invalid_argument);
  // PCT's depth: 1 to kMaxPctDepth.
  Options deep;
  deep.mode = Mode::pct;
  deep.pct_depth = kMaxPctDepth + 1;
  EXPECT_THROW(explore("publish.relaxed", one_block(1), deep), std::invalid_argument);
  deep.pct_depth = 0;
  EXPECT_THROW(explore("publish.relaxed", one_block(1), deep), std::invalid_argument);
  // A parameter the model does not declare, and a value the model does not fit.
  Launch misspelt = one_block(4);
  misspelt.params["bin"] = 2;
  EXPECT_THROW(explore("histogram.plain_rmw", misspelt), std::invalid_argument);
  Launch empty = one_block(4);
  empty.params["n"] = 0;
  EXPECT_THROW(explore("tile.barrier", empty), std::invalid_argument);
  EXPECT_THROW(replay("publish.relaxed", one_block(64), "0.1.2"), std::invalid_argument);
  EXPECT_THROW(replay("publish.relaxed", one_block(64), "v1:0.!"), std::invalid_argument);
  EXPECT_THROW(replay("publish.relaxed", one_block(64), "v1:0..1"), std::invalid_argument);
  // A token of another launch is refused by its launch key; without the key
  // (a token of an older scopesim) it does not fit: too few decisions, or an
  // index out of range.
  const std::string t33 = explore("publish.relaxed", one_block(33)).token();
  const auto refusal = [](const Launch& l, const std::string& token, const Options& o = {}) {
    try {
      replay("publish.relaxed", l, token, o);
    } catch (const ReplayDivergence& e) {
      return std::string(e.what());
    }
    return std::string("(replayed)");
  };
  EXPECT_NE(refusal(one_block(64), t33).find("was printed for another launch"), std::string::npos);
  EXPECT_NE(refusal(one_block(64), t33.substr(0, t33.find('@'))).find("does not fit"), std::string::npos);
  EXPECT_THROW(replay("publish.relaxed", one_block(64), "v1:zz"), ReplayDivergence);
  // Its own launch with another step bound: the decisions would fit, the key does not.
  Options fewer_steps;
  fewer_steps.run.max_steps = 19999;
  EXPECT_NE(refusal(one_block(33), t33, fewer_steps).find("was printed for another launch"), std::string::npos);
  EXPECT_EQ(refusal(one_block(33), t33), "(replayed)");
  EXPECT_THROW(replay("publish.relaxed", one_block(33), t33 + "!"), std::invalid_argument);
}

// The token codec read back: the indexes of exactly the decisions that had a choice.
TEST(Api, ParseTokenInvertsLogToken) {
  const Report r = explore("publish.cross_block_block_scope", Launch{.grid = 2, .block = 2});
  for (const FindingSummary& f : r.findings()) {
    std::vector<unsigned> expected;
    for (const Decision& d : f.witness.log())
      if (d.alternatives > 1) expected.push_back(d.index);
    EXPECT_EQ(parse_token(log_token(f.witness.log())).indexes, expected);
  }
  EXPECT_EQ(parse_token("v1:").indexes, std::vector<unsigned>{});
  EXPECT_EQ(parse_token("v1:a.10.0").indexes, (std::vector<unsigned>{10, 36, 0}));
  EXPECT_EQ(parse_token("v1:a.10.0").launch, "");
  EXPECT_EQ(parse_token("v1:a.10.0@k3x9q1").indexes, (std::vector<unsigned>{10, 36, 0}));
  EXPECT_EQ(parse_token("v1:a.10.0@k3x9q1").launch, "k3x9q1");
  EXPECT_EQ(parse_token("v1:@k3x9q1").indexes, std::vector<unsigned>{});
}

// A property that does not hold: "publish.relaxed permits no bad outcome" over
// block sizes 1..256. It fails exactly when a consumer exists, block > 32
// (catalogue.md: thread 32 consumes), so rapidcheck must shrink every failing
// block size to the smallest, 33, and the message of the final failure must
// carry a token that replays to the stale payload at <<<1,33>>>.
TEST(Api, AFailingPropertyShrinksToTheSmallestLaunchAndItsTokenReplays) {
  std::optional<Launch> last;
  std::string message;
  const bool held = rc::check("publish.relaxed permits no bad outcome", [&] {
    const Launch l = *gen::launch(gen::Geometry{.block = {1, 256}});
    const Report r = explore("publish.relaxed", l);
    try {
      require(!r.bad_outcome(), "no bad outcome", r);
    } catch (...) {
      last = l;  // the last failing case rapidcheck runs is the one it reports
      message = r.describe();
      throw;
    }
  });
  EXPECT_FALSE(held);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->block, 33u);
  EXPECT_EQ(last->grid, 1u);
  const std::string key = "replay        scopesim::replay(\"publish.relaxed\", ";
  const std::size_t at = message.find(key);
  ASSERT_NE(at, std::string::npos) << message;
  const std::size_t open = message.find("\"v1:", at);
  ASSERT_NE(open, std::string::npos) << message;
  const std::string token = message.substr(open + 1, message.find('"', open + 1) - open - 1);
  const RunResult again = replay("publish.relaxed", *last, token);
  EXPECT_TRUE(again.bad);
  EXPECT_EQ(again.outcome.text(), "error=1");
}

}  // namespace
}  // namespace scopesim
