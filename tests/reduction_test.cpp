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
#include "tests/test_kernels.hpp"
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

// The reduced search against the naive enumeration at one configuration.
// false: too large to enumerate naively.
bool same_as_naive(const models::Model& m, const models::Config& c, const RunOptions& o) {
  const Found all = naive(m, c, o, naive_budget);
  if (!all.complete) return false;
  const std::string at = m.name + " <<<" + std::to_string(c.grid) + "," + std::to_string(c.block) + ">>>";
  const Found some = reduced(m, c, o);
  EXPECT_TRUE(some.complete) << at;
  EXPECT_EQ(some.outcomes, all.outcomes) << at;
  EXPECT_EQ(some.findings, all.findings) << at;
  EXPECT_EQ(some.executions.size(), all.executions.size()) << at << ": executions that ended";
  EXPECT_EQ(some.executions, all.executions) << at;
  EXPECT_LE(some.runs, all.runs) << at;
  return true;
}

class Reduction : public ::testing::TestWithParam<std::string> {};

TEST_P(Reduction, KeepsEveryExecutionOutcomeAndFindingOfTheNaiveEnumeration) {
  const models::Model& m = test::model(GetParam());
  for (const auto& [c, o] : configurations(m))
    if (!same_as_naive(m, c, o)) GTEST_SKIP() << m.name << ": more than " << naive_budget << " naive runs";
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
void expect_redundant_runs_repeat(const models::Model& m, const models::Config& c, const RunOptions& o) {
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

TEST_P(Reduction, ARedundantRunRepeatsAnExecutionExploredBeforeIt) {
  const models::Model& m = test::model(GetParam());
  for (const auto& [c, o] : configurations(m)) expect_redundant_runs_repeat(m, c, o);
}

INSTANTIATE_TEST_SUITE_P(Shipped, Reduction, ::testing::ValuesIn(test::model_names()),
                         [](const auto& info) { return test::test_name(info.param); });

// ---- spin loops: where spin-assume meets the reductions ----
//
// The property suites' random programs have no loops, and the shipped spin
// models few shapes of one. These small kernels spin in the ways a user
// writes (on the data's own location, on a flag while re-reading the data,
// with compare-and-swap, across blocks at block scope), so a thread that
// sleeps at a node and is woken half asleep by a write may then spin on
// what it read (docs/architecture.md, "reads-from sleep": a spin wait that
// counted the writes at that read keeps the run from being a repeat), and a
// write after a spin wait wakes the waiter, which may then re-read the old
// write ("A spin wait is no read": the writer wakes from the sleep sets;
// without that the search lost 2 of spin_on_flag_read_first's 12 ended
// executions). Each
// runs as one block of threads and as one-thread blocks (scope and moral
// strength differ), against the naive enumeration.
using namespace scopesim::dialect;
using test::Cells;
using test::global_id;

// Thread 0 stores the data, then the flag; the others re-read the data until
// they see the flag, and keep the last data they read.
using Ref = atomic_ref<int, thread_scope_device>;
template <class R>
void store_data_then_flag(R& data, R& flag, int stores) {
  for (int v = 1; v <= stores; ++v) data.store(v, memory_order_relaxed);
  flag.store(1, memory_order_relaxed);
}
template <class R>
int spin_until_flag(R& data, R& flag) {
  int seen;
  do {
    seen = data.load(memory_order_relaxed);
  } while (flag.load(memory_order_relaxed) == 0);
  return seen;
}

SCOPESIM_KERNEL void spin_on_flag(Cells c) {
  Ref data(*c.x), flag(*c.r3);
  if (global_id() == 0) {
    store_data_then_flag(data, flag, 1);
  } else {
    *c.r0 = spin_until_flag(data, flag);
  }
}

// As spin_on_flag, reading the data and the flag once before the loop: the
// loop's first visit to each load then finds the thread's stack as later
// visits do (the calls before it left the same there), so spin-assume may
// block from the loop's second iteration on.
SCOPESIM_KERNEL void spin_on_flag_read_first(Cells c) {
  Ref data(*c.x), flag(*c.r3);
  if (global_id() == 0) {
    store_data_then_flag(data, flag, 1);
  } else {
    int seen = data.load(memory_order_relaxed);
    bool set = flag.load(memory_order_relaxed) != 0;
    while (!set) {
      seen = data.load(memory_order_relaxed);
      set = flag.load(memory_order_relaxed) != 0;
    }
    *c.r0 = seen;
  }
}

// As spin_on_flag, keeping the data read one iteration before as well: the
// thread's local state at the data's load then differs with what the last
// iteration read.
SCOPESIM_KERNEL void spin_on_flag_keeping_last(Cells c) {
  Ref data(*c.x), flag(*c.r3);
  if (global_id() == 0) {
    store_data_then_flag(data, flag, 1);
  } else {
    int seen = 0, before;
    do {
      before = seen;
      seen = data.load(memory_order_relaxed);
    } while (flag.load(memory_order_relaxed) == 0);
    *c.r0 = seen;
    *c.r1 = before;
  }
}

// As spin_on_flag, the data stored twice before the flag.
SCOPESIM_KERNEL void spin_on_flag_data_twice(Cells c) {
  Ref data(*c.x), flag(*c.r3);
  if (global_id() == 0) {
    store_data_then_flag(data, flag, 2);
  } else {
    *c.r0 = spin_until_flag(data, flag);
  }
}

// As spin_on_flag with a plain data store and release/acquire on the flag.
SCOPESIM_KERNEL void spin_on_flag_plain_data(Cells c) {
  atomic_ref<int, thread_scope_device> flag(*c.r3);
  if (global_id() == 0) {
    *c.x = 1;
    flag.store(1, memory_order_release);
  } else {
    int seen;
    do {
      seen = *c.x;
    } while (flag.load(memory_order_acquire) == 0);
    *c.r0 = seen;
  }
}

// As spin_on_flag at block scope: across blocks the stores are not morally
// strong with the loads (possible non-termination).
SCOPESIM_KERNEL void spin_on_block_scope_flag(Cells c) {
  atomic_ref<int, thread_scope_block> data(*c.x), flag(*c.r3);
  if (global_id() == 0) {
    store_data_then_flag(data, flag, 1);
  } else {
    *c.r0 = spin_until_flag(data, flag);
  }
}

// Threads 0 and 1 store 1 and 2; the others wait until the value is not 0,
// and add what they saw to r1.
SCOPESIM_KERNEL void spin_on_two_stores(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x), sum(*c.r1);
  const unsigned id = global_id();
  if (id < 2) {
    x.store(static_cast<int>(id) + 1, memory_order_relaxed);
  } else {
    int seen;
    while ((seen = x.load(memory_order_relaxed)) == 0) {
    }
    sum.fetch_add(seen, memory_order_relaxed);
  }
}

// Thread 0 stores 1; the others swap it for 7 once it is 1 (a
// compare-and-swap loop: a failing one is a read that spins).
SCOPESIM_KERNEL void compare_and_swap_loop(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  if (global_id() == 0) {
    x.store(1, memory_order_relaxed);
  } else {
    int expected = 1;
    while (!x.compare_exchange_strong(expected, 7, memory_order_relaxed)) expected = 1;
    *c.r0 = expected;
  }
}

// As spin_on_flag, the spinner then storing to the data what it saw, plus 5.
SCOPESIM_KERNEL void spin_then_store(Cells c) {
  Ref data(*c.x), flag(*c.r3);
  if (global_id() == 0) {
    store_data_then_flag(data, flag, 1);
  } else {
    data.store(spin_until_flag(data, flag) + 5, memory_order_relaxed);
  }
}

struct SpinCase {
  models::Model model;
  unsigned threads;  // in all: one block of them, then as many one-thread blocks
};

TEST(SpinLoops, KeepEveryExecutionOutcomeAndFindingOfTheNaiveEnumeration) {
  const std::vector<SpinCase> cases{
      {test::kernel_model<spin_on_flag>("t.spin_on_flag", 1, 2, true), 2},
      {test::kernel_model<spin_on_flag_read_first>("t.spin_on_flag_read_first", 1, 2, true), 2},
      {test::kernel_model<spin_on_flag_keeping_last>("t.spin_on_flag_keeping_last", 1, 2, true), 2},
      {test::kernel_model<spin_on_flag_data_twice>("t.spin_on_flag_data_twice", 1, 2, true), 2},
      {test::kernel_model<spin_on_flag_plain_data>("t.spin_on_flag_plain_data", 1, 2, true), 2},
      {test::kernel_model<spin_on_block_scope_flag>("t.spin_on_block_scope_flag", 1, 2, true), 2},
      {test::kernel_model<spin_on_two_stores>("t.spin_on_two_stores", 1, 3, true), 3},
      {test::kernel_model<compare_and_swap_loop>("t.compare_and_swap_loop", 1, 2, true), 2},
      {test::kernel_model<compare_and_swap_loop>("t.compare_and_swap_loop", 1, 3, true), 3},
      {test::kernel_model<spin_then_store>("t.spin_then_store", 1, 2, true), 2},
  };
  RunOptions o;
  o.keep_trace = false;
  for (const SpinCase& k : cases)
    for (const models::Config& c : {models::Config{1, k.threads}, models::Config{k.threads, 1}}) {
      EXPECT_TRUE(same_as_naive(k.model, c, o)) << k.model.name << ": too large to enumerate naively";
      expect_redundant_runs_repeat(k.model, c, o);
    }
}


}  // namespace
}  // namespace scopesim
