// Parallel exploration: with --jobs N every strategy takes the runs in the
// order of one thread, so everything it reports (outcomes with their
// counts and witness schedules, findings with theirs, the counts of explored,
// distinct, redundant runs and of decisions, completeness, what stopped it)
// is the one-thread result, for every N, for exhaustive, random and PCT
// search; bounds (max-executions, stop-at-first) count in that order.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "sim/api/scopesim.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

// Everything an exploration reports but its time, as text.
std::string everything(const Exploration& x) {
  std::string s = fmt::format("executions {} distinct {} redundant {} decisions {} complete {} stopped_by '{}'\n",
                              x.executions, x.distinct, x.redundant, x.decisions, x.complete, x.stopped_by);
  for (const OutcomeSummary& o : x.outcomes)
    s += fmt::format("outcome {} bad {} count {} witness {}\n", o.outcome.text(), o.bad, o.count, log_token(o.witness));
  for (const FindingSummary& f : x.findings)
    s += fmt::format("finding {} count {} witness {} ({})\n", f.finding.key(), f.count, log_token(f.witness),
                     f.witness_outcome);
  return s;
}

struct Case {
  std::string model;
  bool quick = false;
  ExploreOptions options;
};

Exploration run(const Case& c, unsigned jobs) {
  const models::Model& m = test::model(c.model);
  ExploreOptions o = c.options;
  o.jobs = jobs;
  o.run.keep_trace = false;
  return explore(m, c.quick ? *m.quick : m.chapter, o);
}

class SameForEveryJobs : public ::testing::TestWithParam<Case> {};

TEST_P(SameForEveryJobs, OneTwoAndFourThreadsReportTheSame) {
  const Exploration one = run(GetParam(), 1);
  const std::string want = everything(one);
  for (unsigned jobs : {2u, 4u}) EXPECT_EQ(everything(run(GetParam(), jobs)), want) << jobs << " jobs";
}

ExploreOptions stop_at_first() {
  ExploreOptions o;
  o.stop_at_first = true;
  return o;
}
ExploreOptions at_most(std::uint64_t runs) {
  ExploreOptions o;
  o.max_executions = runs;
  return o;
}
ExploreOptions under_sc() {
  ExploreOptions o;
  o.run.memory_model = "sc";
  return o;
}
ExploreOptions sampled(Mode mode, std::uint64_t runs, bool stop = false) {
  ExploreOptions o;
  o.mode = mode;
  o.seed = 11;
  o.max_executions = runs;
  o.stop_at_first = stop;
  return o;
}
ExploreOptions preemptions(int bound) {
  ExploreOptions o;
  o.preemption_bound = bound;
  return o;
}

INSTANTIATE_TEST_SUITE_P(
    Models, SameForEveryJobs,
    ::testing::Values(Case{"litmus.SB.xcta", false, {}}, Case{"litmus.IRIW+fence.sc.gpu.xcta", false, {}},
                      Case{"publish.relaxed", false, {}}, Case{"publish.relaxed", false, under_sc()},
                      Case{"spin.naive_grid_barrier", false, {}}, Case{"spin.naive_grid_barrier", false, stop_at_first()},
                      Case{"host.reuse_source_early", false, {}}, Case{"host.reuse_source_early", false, at_most(100)},
                      Case{"histogram.plain_rmw", true, {}}, Case{"histogram.plain_rmw", true, at_most(57)},
                      Case{"tile.missing_barrier", true, {}}, Case{"tile.missing_barrier", true, preemptions(1)},
                      Case{"publish.relaxed", false, sampled(Mode::pct, 300)},
                      Case{"spin.naive_grid_barrier", false, sampled(Mode::pct, 200, true)},
                      Case{"histogram.plain_rmw", true, sampled(Mode::random, 150)}),
    [](const auto& info) { return test::test_name(info.param.model) + "_" + std::to_string(info.index); });

// The bounds count in the one-thread order, so they stop every N at the same run.
TEST(ParallelExploration, MaxExecutionsCountsInTheOrderOfOneThread) {
  // histogram.plain_rmw at its quick launch explores 100 runs to the end
  // (docs/performance.md); a bound of 57 stops every N after exactly 57.
  for (unsigned jobs : {1u, 3u}) {
    const Exploration x = run(Case{"histogram.plain_rmw", true, at_most(57)}, jobs);
    EXPECT_EQ(x.executions, 57u) << jobs << " jobs";
    EXPECT_EQ(x.stopped_by, "max-executions");
    EXPECT_FALSE(x.complete);
  }
}

TEST(ParallelExploration, StopAtFirstStopsAtTheSameRun) {
  // spin.naive_grid_barrier is bad (catalogue: a block may read its
  // neighbour's value before it is visible): the search stops at the first
  // run that shows it, the same run for every N.
  const Exploration one = run(Case{"spin.naive_grid_barrier", false, stop_at_first()}, 1);
  ASSERT_EQ(one.stopped_by, "stop-at-first");
  ASSERT_TRUE(one.bad());
  for (unsigned jobs : {2u, 5u}) EXPECT_EQ(everything(run(Case{"spin.naive_grid_barrier", false, stop_at_first()}, jobs)),
                                           everything(one));
}

TEST(ParallelExploration, TheLibraryTakesJobsInItsOptions) {
  Options o;
  o.jobs = 3;
  const Report r = scopesim::explore("publish.relaxed", test::model("publish.relaxed").chapter, o);
  // publish.relaxed: the relaxed flag lets the consumer read stale data (catalogue).
  EXPECT_TRUE(r.permits("error=1"));
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(everything(r.exploration()), everything(run(Case{"publish.relaxed", false, {}}, 1)));
}

}  // namespace
}  // namespace scopesim
