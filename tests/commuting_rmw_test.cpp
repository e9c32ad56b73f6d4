// Commuting RMWs (docs/architecture.md, "Commuting RMWs"): the exhaustive
// explorer takes two RMWs of one family whose results are unused as
// independent, unless a reader of their location could tell their order. It
// must keep every outcome and finding of the naive enumeration: where the
// results are used, where a load reads an intermediate value, and where a
// load is ordered after one of the RMWs but not the other. Also the rule
// beside it that a store and a later load that did not read it are no race
// to reverse, where a spin wait re-reads a flag written twice.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/naive_comparison.hpp"
#include "tests/test_kernels.hpp"

namespace scopesim {
namespace {
using namespace scopesim::dialect;
using test::Cells;
using test::exhaustive;
using test::expect_same_as_naive;
using test::found;
using test::kernel_model;

// ---- results unused: one execution ----

// Four threads atomic_add(r0, 1), results dropped. Every step commutes with
// every other (the RMWs by the rule, the rest touch nothing shared) and the
// host reads r0 after cudaDeviceSynchronize, which joins every thread: one
// execution, r0 = 4 (atomicity: no increment is lost).
SCOPESIM_KERNEL void count(Cells c) { atomic_add(c.r0, 1); }

TEST(CommutingRmw, UnusedIncrementsAreExploredOnce) {
  const auto m = kernel_model<count>("t.count", 1, 4);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.executions, 1u);
  EXPECT_EQ(x.distinct, 1u);
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=4 r1=0 r2=0");
  expect_same_as_naive(m, x);
}

// Behind a barrier, thread 0 reads the sum: the barrier joins every thread
// after its RMW, so the load sees all of them and tells no order: one
// execution, r0 = 1 + 2 + 3 = 6.
SCOPESIM_KERNEL void sum_then_read(Cells c) {
  atomic_add(c.x, static_cast<int>(thread_idx().x) + 1);
  syncthreads();
  if (thread_idx().x == 0) *c.r0 = atomic_ref<int, thread_scope_device>(*c.x).load(memory_order_relaxed);
}

TEST(CommutingRmw, ReadBehindABarrierSeesTheSum) {
  const auto m = kernel_model<sum_then_read>("t.sum_then_read", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.executions, 1u);
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=6 r1=0 r2=0");
  expect_same_as_naive(m, x);
}

// ---- results used: every order ----

// A ticket: each thread takes fetch_add's result as its slot and writes its
// own number there. The results are used, so the RMWs do not commute: every
// one of the 3! orders gives a different assignment of threads to slots, six
// outcomes (r0, r1, r2 a permutation of 1, 2, 3).
SCOPESIM_KERNEL void ticket(Cells c) {
  const int slot = atomic_add(c.x, 1);
  plain<int>* slots[] = {c.r0, c.r1, c.r2};
  *slots[slot] = static_cast<int>(thread_idx().x) + 1;
}

TEST(CommutingRmw, UsedResultsKeepEveryOrder) {
  const auto m = kernel_model<ticket>("t.ticket", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.outcomes.size(), 6u);
  for (const char* o : {"r0=1 r1=2 r2=3", "r0=1 r1=3 r2=2", "r0=2 r1=1 r2=3", "r0=2 r1=3 r2=1", "r0=3 r1=1 r2=2",
                        "r0=3 r1=2 r2=1"})
    EXPECT_TRUE(test::permits(x, o)) << o;
  expect_same_as_naive(m, x);
}

// ---- a reader that can tell the order ----

// Threads 0 and 1 add 1 and 2 to x, results dropped; thread 2 loads x (relaxed,
// device scope: no race). The load may run before, between or after the
// RMWs, and may return any write its view allows: 0, 1 (only thread 0's add
// before it), 2 (only thread 1's) or 3 (both): four outcomes. The value 1 or 2
// read after both exists only in one of their two orders.
SCOPESIM_KERNEL void intermediate(Cells c) {
  const unsigned t = thread_idx().x;
  if (t < 2) {
    atomic_add(c.x, static_cast<int>(t) + 1);
  } else {
    *c.r0 = atomic_ref<int, thread_scope_device>(*c.x).load(memory_order_relaxed);
  }
}

TEST(CommutingRmw, LoadReadsEveryIntermediateValue) {
  const auto m = kernel_model<intermediate>("t.intermediate", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.outcomes.size(), 4u);
  for (const char* o : {"r0=0 r1=0 r2=0", "r0=1 r1=0 r2=0", "r0=2 r1=0 r2=0", "r0=3 r1=0 r2=0"})
    EXPECT_TRUE(test::permits(x, o)) << o;
  expect_same_as_naive(m, x);
}

// The same kernel, counted: the executions are the coherence order of the two
// RMWs (A adds 1, B adds 2) with the write the load returns. Reading the
// initial 0 tells nothing of their order: 1. Reading the first of them (1
// after A then B, 2 after B then A) tells which came first: 2. Reading the
// last (3 either way) still names which write it read, A or B, and that one
// came last: 2. Five executions; before counting a write read by the load as
// the end of the RMWs' run, A-then-B-reading-A (value 1) and
// B-then-A-reading-A (value 3) had one fingerprint. (What the search explores
// twice here is not this test's subject: it counts.)
TEST(CommutingRmw, ALoadOfAnRmwBeforeTheLastCountsTheirOrder) {
  const auto m = kernel_model<intermediate>("t.intermediate", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.distinct, 5u);
  EXPECT_GE(x.executions, x.distinct);
}

// The reader runs after thread 0's RMW in every run that sees its flag, but
// relaxed accesses order nothing: thread 0 adds 1 to x, then sets the flag r3;
// thread 1 adds 2; thread 2 reads the flag into r0, then x into r1. With the
// flag seen (r0 = 1), x may still read 0, 1, 2 or 3: 2 needs thread 1's add
// first in coherence and thread 0's after it, unseen (the order the rule would
// have skipped behind the flag). Eight outcomes: r0 in {0, 1} x r1 in {0..3}.
// It takes both halves of the rule: the run with thread 0 first must reverse
// the two RMWs (the load is a witness), and in the run with thread 1 first,
// thread 0, kept asleep behind thread 1's RMW, must wake there when the load
// runs; without either, r0 = 1, r1 = 2 is lost.
SCOPESIM_KERNEL void flag_after_add(Cells c) {
  const unsigned t = thread_idx().x;
  if (t == 0) {
    atomic_add(c.x, 1);
    atomic_ref<int, thread_scope_device>(*c.r3).store(1, memory_order_relaxed);
  } else if (t == 1) {
    atomic_add(c.x, 2);
  } else {
    *c.r0 = atomic_ref<int, thread_scope_device>(*c.r3).load(memory_order_relaxed);
    *c.r1 = atomic_ref<int, thread_scope_device>(*c.x).load(memory_order_relaxed);
  }
}

TEST(CommutingRmw, ReaderOrderedAfterOneRmwOnlyStillTellsTheOrder) {
  const auto m = kernel_model<flag_after_add>("t.flag_after_add", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.outcomes.size(), 8u);
  for (int f = 0; f <= 1; ++f)
    for (int v = 0; v <= 3; ++v) {
      const std::string o = "r0=" + std::to_string(f) + " r1=" + std::to_string(v) + " r2=0";
      EXPECT_TRUE(test::permits(x, o)) << o;
    }
  expect_same_as_naive(m, x);
}

// Float additions do not commute (rounding), so float RMWs are never taken
// as commuting: three threads add 1e8, 4 and -1e8 to x, then thread 0 reads
// the sum behind a barrier.
SCOPESIM_KERNEL void float_sum(Cells c) {
  static const float add[] = {1e8f, 4.0f, -1e8f};
  atomic_add(reinterpret_cast<plain<float>*>(c.x), add[thread_idx().x]);
  syncthreads();
  if (thread_idx().x == 0) *c.r0 = static_cast<int>(static_cast<float>(*reinterpret_cast<plain<float>*>(c.x)));
}

TEST(CommutingRmw, FloatAdditionsKeepEveryOrder) {
  // In float, 1e8 + 4 rounds back to 1e8 (the spacing there is 8; the tie
  // goes to the even 1e8), so the 4 survives only when it comes last, after
  // 1e8 and -1e8 cancelled: the sum is 4 then, and 0 in the four other orders.
  const auto m = kernel_model<float_sum>("t.float_sum", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(test::permits(x, "r0=4 r1=0 r2=0"));
  EXPECT_TRUE(test::permits(x, "r0=0 r1=0 r2=0"));
  expect_same_as_naive(m, x);
}


// ---- reads-from, not the interleaving: spin waits on a flag written twice ----

// Thread 0 stores 1 then 2 to a relaxed gpu-scope flag; thread 1 spins while
// it reads 0, then reads the flag again (r0: the value that ended the spin,
// r1: the next read). Under spin-assume the spin ends on 1 or 2, and coherence
// (CoRR) keeps the next read at or after it: (r0, r1) in {(1,1), (1,2), (2,2)}.
// The exhaustive search, which does not reverse a store and a later load that
// did not read it, must find what the naive enumeration finds.
SCOPESIM_KERNEL void spin_on_two_stores(Cells c) {
  atomic_ref<int, thread_scope_device> flag(*c.x);
  if (test::global_id() == 0) {
    flag.store(1, memory_order_relaxed);
    flag.store(2, memory_order_relaxed);
  } else {
    int v;
    while ((v = flag.load(memory_order_relaxed)) == 0) {
    }
    *c.r0 = v;
    *c.r1 = flag.load(memory_order_relaxed);
  }
}

TEST(ReadsFromSleep, SpinOnAFlagWrittenTwiceKeepsTheNaiveOutcomes) {
  const auto m = kernel_model<spin_on_two_stores>("t.spin_on_two_stores", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(found(x).outcomes, (std::set<std::string>{"r0=1 r1=1 r2=0", "r0=1 r1=2 r2=0", "r0=2 r1=2 r2=0"}));
  expect_same_as_naive(m, x);
}

// The same flag, waited for until it reads 2; r0 records whether the wait
// ever read 1 (either is possible: the wait may read 0 or 1 before 2, or see 2
// at once), r1 the read after the wait (2: coherence, nothing follows 2).
// Outcomes {r0=0 r1=2, r0=1 r1=2}, as the naive enumeration finds.
SCOPESIM_KERNEL void wait_for_second_store(Cells c) {
  atomic_ref<int, thread_scope_device> flag(*c.x);
  if (test::global_id() == 0) {
    flag.store(1, memory_order_relaxed);
    flag.store(2, memory_order_relaxed);
  } else {
    int saw_one = 0, v;
    while ((v = flag.load(memory_order_relaxed)) != 2) saw_one |= v == 1;
    *c.r0 = saw_one;
    *c.r1 = flag.load(memory_order_relaxed);
  }
}

TEST(ReadsFromSleep, WaitForTheSecondOfTwoStoresKeepsTheNaiveOutcomes) {
  const auto m = kernel_model<wait_for_second_store>("t.wait_for_second_store", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(found(x).outcomes, (std::set<std::string>{"r0=0 r1=2 r2=0", "r0=1 r1=2 r2=0"}));
  expect_same_as_naive(m, x);
}

}  // namespace
}  // namespace scopesim
