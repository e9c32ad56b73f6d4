// Parallel exploration: with --jobs N every strategy takes the runs in the
// order of one thread, so everything it reports (outcomes with their
// counts and witness schedules, findings with theirs, the counts of explored,
// distinct, redundant runs and of decisions, completeness, what stopped it)
// is the one-thread result, for every N, for exhaustive, random and PCT
// search; bounds (max-executions, stop-at-first) count in that order.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>
#include <map>
#include <string>
#include <vector>


#include "sim/api/scopesim.hpp"
#include "sim/engine/dpor.hpp"
#include "sim/engine/dpor_search.hpp"
#include "tests/test_kernels.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

// Everything an exploration reports but its time, as text.
std::string everything(const Exploration& x) {
  std::string s = fmt::format("executions {} distinct {} redundant {} decisions {} complete {} stopped_by '{}'\n",
                              x.executions, x.distinct, x.redundant, x.decisions, x.complete, x.stopped_by);
  for (const OutcomeSummary& o : x.outcomes)
    s += fmt::format("outcome {} bad {} count {} witness {}\n", o.outcome.text(), o.bad, o.count, log_token(o.witness.log()));
  for (const FindingSummary& f : x.findings)
    s += fmt::format("finding {} count {} witness {} ({})\n", f.finding.key(), f.count, log_token(f.witness.log()),
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
                      Case{"histogram.plain_rmw", true, {}}, Case{"histogram.plain_rmw", true, at_most(20)},
                      Case{"tile.missing_barrier", true, {}}, Case{"tile.missing_barrier", true, preemptions(1)},
                      Case{"publish.relaxed", false, sampled(Mode::pct, 300)},
                      Case{"spin.naive_grid_barrier", false, sampled(Mode::pct, 200, true)},
                      Case{"histogram.plain_rmw", true, sampled(Mode::random, 150)}),
    [](const auto& info) { return test::test_name(info.param.model) + "_" + std::to_string(info.index); });

// The bounds count in the one-thread order, so they stop every N at the same run.
TEST(ParallelExploration, MaxExecutionsCountsInTheOrderOfOneThread) {
  // histogram.plain_rmw at its quick launch explores 36 runs to the end (its
  // 36 executions: 6 per bin, as tests/dpor_rules_test.cpp derives for two
  // plain increments); a bound of 20 stops every N after exactly 20.
  for (unsigned jobs : {1u, 3u}) {
    const Exploration x = run(Case{"histogram.plain_rmw", true, at_most(20)}, jobs);
    EXPECT_EQ(x.executions, 20u) << jobs << " jobs";
    EXPECT_EQ(x.stopped_by, "max-executions");
    EXPECT_FALSE(x.complete);
  }
}

// A memory limit stops the search once what it keeps passes the limit, as a
// time limit does: at one byte, right after its first run explored to the
// end (histogram.plain_rmw: every run ends with an outcome, and the first
// keeps it). (With more jobs, subtrees tallied apart are added whole, and
// the search stops at the end of one: where varies with N, as at a time limit.)
TEST(ParallelExploration, AMemoryLimitStopsTheSearchOnceItsKeptRecordsPassIt) {
  ExploreOptions o;
  o.max_kept_bytes = 1;
  const Exploration x = run(Case{"histogram.plain_rmw", true, o}, 1);
  EXPECT_EQ(x.executions, 1u);
  EXPECT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.stopped_by, "memory-limit");
  EXPECT_FALSE(x.complete);
  for (unsigned jobs : {1u, 3u}) {
    o.max_kept_bytes = 0;  // none: the whole search, 36 executions (see above)
    const Exploration all = run(Case{"histogram.plain_rmw", true, o}, jobs);
    EXPECT_EQ(all.executions, 36u) << jobs << " jobs";
    EXPECT_TRUE(all.complete);
    EXPECT_EQ(all.stopped_by, "");
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

// Hands every run of the exhaustive search to `each`, in the order dpor_search
// hands them over; returns how many subtrees were walked on other threads and
// taken over.
std::size_t search(const models::Model& m, const models::Config& c, const DporSearch& s,
                   const std::function<void(const RunResult&, bool redundant)>& each) {
  RunOptions o;
  o.keep_trace = false;
  return dpor_search(m, c, o, s, [] { return true; }, [&](const RunResult& r, bool redundant) {
    each(r, redundant);
    return true;
  }).taken_over;
}

// The search's runs in order: each run's decisions and whether it is
// redundant; and how many subtrees were taken over.
struct Runs {
  std::vector<std::string> runs;
  std::size_t taken_over = 0;
};
Runs runs_of(const models::Model& m, const models::Config& c, const DporSearch& s) {
  Runs x;
  x.taken_over = search(m, c, s, [&](const RunResult& r, bool redundant) {
    x.runs.push_back(log_token(r.log) + (redundant ? " redundant" : ""));
  });
  return x;
}

// What the explorer uses of each run (explorer.cpp): its decisions, whether it
// is redundant and, if not, its fingerprint, outcome and findings (by their
// keys, with the hashes the tally looks them up by: "(its hash?)" where one
// is not its key's); and the log of the first run of each outcome and finding
// (the witness).
struct Used {
  std::vector<std::string> runs;
  std::map<std::string, std::string> first_log;
  std::size_t taken_over = 0;
};
Used used_of(const models::Model& m, const models::Config& c, const DporSearch& s) {
  Used x;
  x.taken_over = search(m, c, s, [&](const RunResult& r, bool redundant) {
    std::string run = std::to_string(r.scheduling_decisions);
    if (redundant) {
      x.runs.push_back(run + " redundant");
      return;
    }
    std::vector<std::string> shown;
    if (r.completed) shown.push_back("outcome " + r.outcome.text());
    for (std::size_t k = 0; k < r.findings.size(); ++k) {
      const std::string key = r.findings[k].key();
      shown.push_back("finding " + key + (r.finding_keys.at(k) == key ? "" : " (its key?)") +
                      (r.finding_hashes.at(k) == Finding::hash_key(key) ? "" : " (its hash?)"));
    }
    run += " " + std::to_string(r.fingerprint);
    for (const std::string& k : shown) {
      run += ", " + k;
      x.first_log.try_emplace(k, log_token(r.log));
    }
    x.runs.push_back(run);
  });
  return x;
}

using namespace scopesim::dialect;

// Three commuting adds to x (results unused) and a reader of a flag set after
// the first add, then of x (as in the commuting-RMW tests): the search keeps
// threads asleep behind commuting adds and wakes them where the load runs,
// at nodes above the branch a subtree hangs below.
SCOPESIM_KERNEL void adds_then_read(test::Cells c) {
  const unsigned t = thread_idx().x;
  if (t == 0) {
    atomic_add(c.x, 1);
    atomic_ref<int, thread_scope_device>(*c.r3).store(1, memory_order_relaxed);
  } else if (t < 3) {
    atomic_add(c.x, static_cast<int>(t) * 2);
  } else {
    *c.r0 = atomic_ref<int, thread_scope_device>(*c.r3).load(memory_order_relaxed);
    *c.r1 = atomic_ref<int, thread_scope_device>(*c.x).load(memory_order_relaxed);
  }
}

// Subtrees handed over at every node with a thread decision below it, up to
// eight waiting per walk, each walked on another thread (no walk takes one
// back): the runs, in order, with their redundancy, are those of one thread.
// Each model takes subtrees over (the search's first run leaves branches to
// take at its first nodes, and nothing changes them before they are taken
// on these models), so a wrong hand-over (a copy that disagrees with the
// stack, an effect above the branch lost) shows as other runs.
TEST(ParallelExploration, SubtreesWalkedOnOtherThreadsGiveTheRunsOfOneThread) {
  const models::Model adds = test::kernel_model<adds_then_read>("t.adds_then_read", 1, 4);
  const std::vector<std::pair<const models::Model*, models::Config>> cases{
      {&adds, adds.chapter},
      {&test::model("histogram.plain_rmw"), *test::model("histogram.plain_rmw").quick},
      {&test::model("publish.relaxed"), test::model("publish.relaxed").chapter},
      {&test::model("host.reuse_source_early"), test::model("host.reuse_source_early").chapter},
      {&test::model("spin.naive_grid_barrier"), test::model("spin.naive_grid_barrier").chapter},
  };
  for (const auto& [m, c] : cases) {
    const Runs one = runs_of(*m, c, DporSearch{});
    ASSERT_GT(one.runs.size(), 1u) << m->name;
    EXPECT_EQ(one.taken_over, 0u) << m->name;
    for (unsigned jobs : {2u, 4u}) {
      const Runs many = runs_of(*m, c, DporSearch{-1, jobs, 1, 8, false, false});
      EXPECT_EQ(many.runs, one.runs) << m->name << ", " << jobs << " jobs";
      EXPECT_GT(many.taken_over, 0u) << m->name << ", " << jobs << " jobs";
    }
  }
}

// A subtree's task is a copy of nodes 0..e of the walk's stack. A node's
// shapes keep what a wider node once left at its place (Dpor::Node: the
// vector only grows, and a thread's stack is kept from one exploration to
// the next); its copy carries the node's own only, the first keys.size(),
// so a task made after a 1024-thread launch copies no more than one made
// before it.
TEST(ParallelExploration, ACopiedNodeCarriesOnlyItsOwnShapes) {
  Dpor::Node wide;
  wide.kind = ChoiceKind::thread;
  wide.keys = {7, 9};
  wide.shapes.resize(1024);
  wide.shapes[1].addr = 42;
  wide.chosen = 1;
  wide.done.insert(0);
  Dpor::Node copied = wide;
  Dpor::Node assigned;
  assigned.shapes.resize(3);
  assigned = wide;
  for (const Dpor::Node* n : {&copied, &assigned}) {
    EXPECT_EQ(n->keys, wide.keys);
    ASSERT_EQ(n->shapes.size(), 2u);
    EXPECT_EQ(n->shapes[1].addr, 42u);
    EXPECT_EQ(n->chosen, 1u);
    EXPECT_TRUE(n->done.count(0));
  }
  Dpor::Node value;  // a value decision's node reads no shapes, and has none to carry
  value.kind = ChoiceKind::read;
  value.keys = {1, 2, 3};
  const Dpor::Node value_copy = value;
  EXPECT_TRUE(value_copy.shapes.empty());
}

}  // namespace
}  // namespace scopesim

namespace scopesim {
namespace {

// Runs made on other threads reach the explorer slimmed (DporSearch::slim:
// a redundant run without its log, outcome and findings; a log only on the
// first run of an outcome or finding in its subtree): with subtrees handed
// over at every node, what the explorer uses of the runs is that of one
// thread, the witnesses (first logs) and the findings' keys and hashes
// included. The models have many runs of one outcome, so most logs are
// dropped and a wrong "first" would show.
TEST(ParallelExploration, SlimRunsKeepWhatTheExplorerUses) {
  const std::vector<std::pair<const models::Model*, models::Config>> cases{
      {&test::model("histogram.plain_rmw"), *test::model("histogram.plain_rmw").quick},
      {&test::model("publish.relaxed"), test::model("publish.relaxed").chapter},
      {&test::model("spin.naive_grid_barrier"), test::model("spin.naive_grid_barrier").chapter},
  };
  for (const auto& [m, c] : cases) {
    const Used one = used_of(*m, c, DporSearch{});
    ASSERT_GT(one.runs.size(), one.first_log.size()) << m->name;
    for (unsigned jobs : {2u, 4u}) {
      const Used many = used_of(*m, c, DporSearch{-1, jobs, 1, 8, false, true});
      EXPECT_EQ(many.runs, one.runs) << m->name << ", " << jobs << " jobs";
      EXPECT_EQ(many.first_log, one.first_log) << m->name << ", " << jobs << " jobs";
      EXPECT_GT(many.taken_over, 0u) << m->name << ", " << jobs << " jobs";
    }
  }
}

}  // namespace
}  // namespace scopesim
