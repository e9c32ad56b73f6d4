// The engine's findings and spin handling on small kernels written for the
// test: barrier divergence, scoped races of thread-scope atomics, out of
// bounds, kernel faults, non-termination, and loops that spin-assume must
// (and must not) cut short. Every expectation is derived in a comment from
// semantics.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <chrono>
#include <atomic>
#include <cstdint>

#include "sim/engine/dpor_search.hpp"
#include "tests/test_kernels.hpp"

namespace scopesim {
namespace {
using namespace scopesim::dialect;
using test::Cells;
using test::kernel_model;
using test::global_id;

Exploration exhaustive(const models::Model& m, std::uint64_t max_steps = 20000) {
  ExploreOptions o;
  o.run.max_steps = max_steps;
  return explore(m, m.chapter, o);
}

// ---- barrier divergence ----

// Thread 1 returns before the barrier that thread 0 reaches. Thread 1 makes
// no event at all, so it exits before thread 0 runs: one execution, and in it
// thread 0 arrives at a barrier thread 1 never reaches (semantics.md,
// "Barriers": a thread that exits while others wait at or pass a barrier).
SCOPESIM_KERNEL void exit_before_barrier(Cells c) {
  if (thread_idx().x == 1) return;
  syncthreads();
  *c.r0 = 1;
}

TEST(BarrierDivergence, ThreadThatExitsBeforeOthersArriveIsReported) {
  const auto m = kernel_model<exit_before_barrier>("t.exit_before_barrier", 1, 2);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.executions, 1u);
  const FindingSummary* f = test::finding(x, FindingKind::barrier_divergence);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, x.executions);
  EXPECT_NE(f->finding.message.find("b0.t1"), std::string::npos) << f->finding.message;
  EXPECT_EQ(test::finding(x, FindingKind::deadlock), nullptr);
}

// Both threads execute one barrier, at different source lines: divergence.
SCOPESIM_KERNEL void different_barriers(Cells) {
  if (thread_idx().x == 0) {
    syncthreads();
  } else {
    syncthreads();
  }
}

TEST(BarrierDivergence, DifferentBarriersAreReported) {
  const auto m = kernel_model<different_barriers>("t.different_barriers", 1, 2);
  EXPECT_NE(test::finding(exhaustive(m), FindingKind::barrier_divergence), nullptr);
}

// Every thread reaches the same barrier: nothing to report.
SCOPESIM_KERNEL void uniform_barrier(Cells c) {
  syncthreads();
  if (thread_idx().x == 0) *c.r0 = 1;
}

TEST(BarrierDivergence, UniformBarrierIsNotReported) {
  const auto m = kernel_model<uniform_barrier>("t.uniform_barrier", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.findings.empty());
  EXPECT_TRUE(test::permits(x, "r0=1 r1=0 r2=0"));
}

// A lane that exits no longer holds up a __syncwarp of the others.
SCOPESIM_KERNEL void syncwarp_after_exit(Cells c) {
  if (thread_idx().x == 1) return;
  syncwarp(0x3u);
  *c.r0 = 1;
}

TEST(Syncwarp, ExitedLaneDoesNotDeadlockTheOthers) {
  const auto m = kernel_model<syncwarp_after_exit>("t.syncwarp_after_exit", 1, 2);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(test::finding(x, FindingKind::deadlock), nullptr);
  EXPECT_TRUE(test::permits(x, "r0=1 r1=0 r2=0"));
}

// A mask that leaves out the calling lane is barrier divergence (semantics.md, findings).
SCOPESIM_KERNEL void syncwarp_without_self(Cells) {
  if (thread_idx().x == 1) syncwarp(0x1u);
}

TEST(Syncwarp, MaskWithoutTheCallerIsDivergence) {
  const auto m = kernel_model<syncwarp_without_self>("t.syncwarp_without_self", 1, 2);
  EXPECT_NE(test::finding(exhaustive(m), FindingKind::barrier_divergence), nullptr);
}

// ---- thread scope ----

// Two threads of one block use x through thread-scope atomics. Thread scope
// includes no other thread, so the two are not morally strong: a scoped race
// (semantics.md: "report any cross-thread use as a race").
SCOPESIM_KERNEL void thread_scope_shared(Cells c) {
  atomic_ref<int, thread_scope_thread> x(*c.x);
  if (thread_idx().x == 0) x.store(1, memory_order_relaxed);
  else *c.r0 = x.load(memory_order_relaxed);
}

TEST(ThreadScope, CrossThreadUseIsAScopedRace) {
  const auto m = kernel_model<thread_scope_shared>("t.thread_scope_shared", 1, 2);
  const Exploration x = exhaustive(m);
  EXPECT_NE(test::finding(x, FindingKind::scoped_race), nullptr);
  // Outcomes are as for cta scope: the load reads the initial 0 or the 1.
  EXPECT_TRUE(test::permits(x, "r0=0 r1=0 r2=0"));
  EXPECT_TRUE(test::permits(x, "r0=1 r1=0 r2=0"));
}

// The same at block scope is morally strong: no finding.
SCOPESIM_KERNEL void block_scope_shared(Cells c) {
  atomic_ref<int, thread_scope_block> x(*c.x);
  if (thread_idx().x == 0) x.store(1, memory_order_relaxed);
  else *c.r0 = x.load(memory_order_relaxed);
}

TEST(ThreadScope, BlockScopeInOneBlockIsNotARace) {
  const auto m = kernel_model<block_scope_shared>("t.block_scope_shared", 1, 2);
  EXPECT_TRUE(exhaustive(m).findings.empty());
}

// ---- spin-assume must not cut loops that are not spinning ----

// Thread 0 reads x three times in a counted loop while thread 1 (another
// block) stores 1 once. The loop counter differs at each read, so none is a
// spin. The reads of one thread follow coherence (CoRR): a run of 0s then a
// run of 1s, so the sum is any of 0, 1, 2, 3.
SCOPESIM_KERNEL void counted_loop(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  if (global_id() == 0) {
    int sum = 0;
    for (int i = 0; i < 3; ++i) sum += x.load(memory_order_relaxed);
    *c.r0 = sum;
  } else {
    x.store(1, memory_order_relaxed);
  }
}

TEST(SpinAssume, CountedLoopKeepsEveryOutcome) {
  const auto m = kernel_model<counted_loop>("t.counted_loop", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.complete);
  EXPECT_TRUE(x.findings.empty());
  for (const char* o : {"r0=0 r1=0 r2=0", "r0=1 r1=0 r2=0", "r0=2 r1=0 r2=0", "r0=3 r1=0 r2=0"})
    EXPECT_TRUE(test::permits(x, o)) << o;
  EXPECT_EQ(x.outcomes.size(), 4u);
}

// A helper function reads x at one source line for two call sites. The two
// reads are different program points (different callers), so reading the
// initial 0 twice is no spin: (a, b) is (0,0), (0,1) or (1,1) (CoRR forbids (1,0)).
SCOPESIM_DEVICE int read_x(plain<int>* p) { return atomic_ref<int, thread_scope_device>(*p).load(memory_order_relaxed); }

SCOPESIM_KERNEL void helper_reads(Cells c) {
  if (global_id() == 0) {
    const int a = read_x(c.x);
    const int b = read_x(c.x);
    *c.r0 = a;
    *c.r1 = b;
  } else {
    atomic_ref<int, thread_scope_device>(*c.x).store(1, memory_order_relaxed);
  }
}

TEST(SpinAssume, HelperFunctionCalledTwiceIsNotASpin) {
  const auto m = kernel_model<helper_reads>("t.helper_reads", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.findings.empty());
  EXPECT_TRUE(test::permits(x, "r0=0 r1=0 r2=0"));
  EXPECT_TRUE(test::permits(x, "r0=0 r1=1 r2=0"));
  EXPECT_TRUE(test::permits(x, "r0=1 r1=1 r2=0"));
  EXPECT_EQ(x.outcomes.size(), 3u);
}

// ---- spin-assume must recognise spins ----

// The fence pattern with a fence inside the spin loop (publish.fence_pattern's
// consumer): the fence changes no shared state, so the loop is a spin and
// exhaustive search ends. Producer: x = 1; fence.sc.gpu; flag = 1 (relaxed).
// Consumer: spin on flag with a fence in the loop, fence, read x. The fences
// form a release and an acquire pattern at gpu scope (semantics.md, row 6:
// fence.sc.gpu ≠CTA is F), so the consumer reads x = 1 and nothing races.
SCOPESIM_KERNEL void fence_in_spin(Cells c) {
  atomic_ref<int, thread_scope_device> flag(*c.r1);
  if (global_id() == 0) {
    *c.x = 1;
    threadfence();
    flag.store(1, memory_order_relaxed);
  } else {
    while (flag.load(memory_order_relaxed) == 0) {
      threadfence();
    }
    threadfence();
    *c.r0 = *c.x;
  }
}

TEST(SpinAssume, FenceInsideTheLoopStillSpins) {
  const auto m = kernel_model<fence_in_spin>("t.fence_in_spin", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.complete);
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=1 r1=1 r2=0");
}

// A spin lock taken with compare_exchange (acquire) and released with a
// release store; each holder increments a plain counter. A failed CAS writes
// nothing, so a waiting CAS is a pure read and spins. The lock orders the
// increments (release/acquire at gpu scope, morally strong): counter = 2, no
// race, no deadlock, no non-termination.
SCOPESIM_KERNEL void cas_lock(Cells c) {
  atomic_ref<int, thread_scope_device> lock(*c.x);
  int expected = 0;
  while (!lock.compare_exchange_strong(expected, 1, memory_order_acquire)) expected = 0;
  *c.r0 = *c.r0 + 1;
  lock.store(0, memory_order_release);
}

TEST(SpinAssume, CompareExchangeLockTerminates) {
  const auto m = kernel_model<cas_lock>("t.cas_lock", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.complete);
  EXPECT_TRUE(x.findings.empty()) << x.findings.front().finding.message;
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=2 r1=0 r2=0");
}

// ---- bounds, faults, step bound ----

// x is one int: x[1] is 0 bytes past its end.
SCOPESIM_KERNEL void past_the_end(Cells c) { c.x[1] = 5; }

TEST(Bounds, WriteOnePastTheEndIsOutOfBounds) {
  const auto m = kernel_model<past_the_end>("t.past_the_end", 1, 1);
  const Exploration x = exhaustive(m);
  const FindingSummary* f = test::finding(x, FindingKind::out_of_bounds);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("0 bytes past the end of x"), std::string::npos) << f->finding.message;
  EXPECT_NE(f->finding.where.front().find("engine_findings_test.cpp"), std::string::npos);
}

// A kernel that reads the first 4 bytes of an 8-byte cell the host wrote
// whole: one address accessed with two sizes. The model leaves mixed-size
// accesses out and rejects them loudly (semantics.md: "mixed-size accesses
// ... rejected loudly"): an `unsupported` finding that names both sizes.
SCOPESIM_KERNEL void read_half(plain<long long>* wide, plain<int>* out) {
  *out = *reinterpret_cast<plain<int>*>(wide);
}

TEST(Unsupported, MixedSizeAccessIsReported) {
  models::Model m;
  m.name = "t.read_half";
  m.chapter = {1, 1};
  m.program = [](Host& h, const models::Config& c) {
    plain<long long>* wide = device_alloc<plain<long long>>(h, "wide");
    plain<int>* out = device_alloc<plain<int>>(h, "out");
    host_write(*wide, 0LL);
    host_write(*out, 0);
    launch<read_half>(h, "k", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, wide, out);
    device_synchronize(h);
    observe(h, "out", *out);
  };
  const Exploration x = exhaustive(m);
  const FindingSummary* f = test::finding(x, FindingKind::unsupported);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("(mixed-size access: 4 bytes at a location accessed with 8)"), std::string::npos)
      << f->finding.message;
  EXPECT_EQ(f->count, x.executions);
}

// Thread 0 divides by its own index, zero: the arithmetic fault ends its fiber
// as a finding; the run and the exploration go on.
SCOPESIM_KERNEL void divide_by_index(Cells c) {
  const int d = static_cast<int>(thread_idx().x);
  *c.r1 = 10 / d;
  *c.r0 = 7;
}

TEST(Faults, ArithmeticFaultIsAFinding) {
  const auto m = kernel_model<divide_by_index>("t.divide_by_index", 1, 2);
  const Exploration x = exhaustive(m);
  const FindingSummary* f = test::finding(x, FindingKind::kernel_fault);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("b0.t0"), std::string::npos) << f->finding.message;
}

// Thread 1 stores, then its assertion fails: abort() ends its fiber as a
// finding, in every execution, and the process goes on.
SCOPESIM_KERNEL void assert_index(Cells c) {
  const unsigned t = thread_idx().x;
  *c.r0 = static_cast<int>(t);
  if (t == 1) std::abort();  // what a failed assert() calls
}

TEST(Faults, AnAbortIsAFinding) {
  const auto m = kernel_model<assert_index>("t.assert_index", 1, 2);
  const Exploration x = exhaustive(m);
  const FindingSummary* f = test::finding(x, FindingKind::kernel_fault);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("b0.t1 faulted: aborted"), std::string::npos) << f->finding.message;
  EXPECT_EQ(f->count, x.executions);
}

// Thread 1 stores, then hands the C library's strlen() an address no page
// holds: the fault lies inside a system library, which may be left holding a
// lock, so the exploration stops at a limit of the simulator naming the
// thread, where and why, instead of going on into a wait that never ends.
// (A death test: such a fault ends the process, fiber_pool_test.cpp.)
SCOPESIM_KERNEL void length_of_nowhere(Cells c) {
  *c.r0 = 1;
  if (thread_idx().x == 1) {
    const char* volatile nowhere = reinterpret_cast<const char*>(16);
    *c.r1 = static_cast<int>(std::strlen(nowhere));
  }
}

TEST(FaultsDeathTest, AFaultInsideASystemLibraryStopsTheExplorationNamingIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const unsigned jobs : {1u, 2u}) {
    EXPECT_EXIT(
        {
          const auto m = kernel_model<length_of_nowhere>("t.length_of_nowhere", 1, 2);
          ExploreOptions o;
          o.jobs = jobs;
          try {
            explore(m, m.chapter, o);
            std::fputs("no SimulatorLimit\n", stderr);
          } catch (const SimulatorLimit& e) {
            std::fprintf(stderr, "%s\n", e.what());
          }
          std::_Exit(3);
        },
        testing::ExitedWithCode(3),
        "the simulator cannot run it: b0.t1 faulted inside [^\n]*libc[^\n]*: segmentation fault [^\n]* after "
        "[^\n]*engine_findings_test.cpp:[0-9]+[^\n]*nothing more can run in this process")
        << jobs << " jobs";
  }
}

// Thread 1 frees a block of the C library's heap twice: the library aborts
// inside its allocator, holding its lock (test::free_twice()).
// The exploration cannot go on, and the process ends, code 2, saying why,
// instead of waiting forever at its next allocation.
SCOPESIM_KERNEL void free_twice(Cells c) {
  *c.r0 = 1;
  if (thread_idx().x == 1) test::free_twice();
}

TEST(FaultsDeathTest, AnAbortOnADamagedHeapEndsTheProcessSayingWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const auto m = kernel_model<free_twice>("t.free_twice", 1, 2);
        try {
          explore(m, m.chapter, ExploreOptions{});
        } catch (const std::exception& e) {
          std::fprintf(stderr, "%s\n", e.what());
        }
        std::_Exit(3);
      },
      testing::ExitedWithCode(2),
      "double free or corruption[^\n]*\n"
      "[^\n]*: error: a simulated thread aborted [^\n]*the library's allocator then never answered");
}

// CUDA refuses a block of 2048 threads or of none, and a grid of no block
// (cudaErrorInvalidConfiguration): the host's launch faults, naming why.
TEST(Faults, ALaunchCudaRefusesIsAHostFault) {
  const std::pair<unsigned, unsigned> launches[] = {{1, 2048}, {1, 0}, {0, 1}};
  const char* const why[] = {"beyond CUDA's 1024 threads", "with no thread", "with no block"};
  for (std::size_t k = 0; k < 3; ++k) {
    const auto m = kernel_model<assert_index>("t.invalid_launch", launches[k].first, launches[k].second);
    const Exploration x = exhaustive(m);
    const FindingSummary* f = test::finding(x, FindingKind::kernel_fault);
    ASSERT_NE(f, nullptr) << why[k];
    EXPECT_NE(f->finding.message.find("host faulted: launch of k at "), std::string::npos) << f->finding.message;
    EXPECT_NE(f->finding.message.find(why[k]), std::string::npos) << f->finding.message;
  }
}

// An allocation whose bytes do not fit a size_t faults the host, naming it,
// rather than wrapping to a few bytes.
TEST(Faults, AnAllocationPastMemoryIsAHostFault) {
  models::Model m;
  m.name = "t.huge_alloc";
  m.chapter = {1, 1};
  m.program = [](Host& h, const models::Config&) {
    device_alloc<plain<int>>(h, "huge", (std::size_t{1} << 62) + 1);  // 2^64 + 4 bytes
  };
  const Exploration x = exhaustive(m);
  const FindingSummary* f = test::finding(x, FindingKind::kernel_fault);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("host faulted: allocation of 4611686018427387905 elements of 4 bytes for huge"),
            std::string::npos)
      << f->finding.message;
}

// A loop that writes on every iteration is no spin: it runs into the step bound.
SCOPESIM_KERNEL void endless_writer(Cells c) {
  for (int i = 0;; ++i) *c.r0 = i;
}

TEST(StepBound, EndlessLoopIsNonTermination) {
  const auto m = kernel_model<endless_writer>("t.endless_writer", 1, 1);
  const Exploration x = exhaustive(m, 200);
  const FindingSummary* f = test::finding(x, FindingKind::non_termination);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("step bound of 200"), std::string::npos) << f->finding.message;
}

// The bound counts the events of the program's threads (semantics.md,
// "Findings": a thread past --max-steps events), not a stream operation's
// own start and wait, which run none of its code and can never loop. A host
// whose only event is the launch of a kernel whose thread makes none, under
// a bound of 1: the host makes one event, the GPU thread none; the launch's
// operation takes two, its start and the wait for its grid, uncounted. So no
// finding, and one execution. With a device_synchronize after the launch, the
// host makes two: past the bound. (The operation's thread has no fiber of its
// own: its steps run on the stack of whichever thread's decision takes them,
// here the host's as it ends.)
SCOPESIM_KERNEL void no_event(int) {}

TEST(StepBound, AStreamOperationsOwnEventsAreNotCounted) {
  models::Model m;
  m.name = "t.launch_only";
  m.chapter = {1, 1};
  m.program = [](Host& h, const models::Config&) { launch<no_event>(h, "no_event", dim3{1}, dim3{1}, 0); };
  const Exploration x = exhaustive(m, 1);
  EXPECT_TRUE(x.findings.empty()) << x.findings.front().finding.message;
  EXPECT_EQ(x.executions, 1u);

  m.program = [](Host& h, const models::Config&) {
    launch<no_event>(h, "no_event", dim3{1}, dim3{1}, 0);
    device_synchronize(h);
  };
  const Exploration synced = exhaustive(m, 1);
  ASSERT_EQ(synced.findings.size(), 1u);
  const Finding& f = synced.findings[0].finding;
  EXPECT_EQ(f.kind, FindingKind::non_termination);
  EXPECT_EQ(f.threads, std::vector<std::string>{"host"});
  EXPECT_NE(f.message.find("step bound of 1 events"), std::string::npos) << f.message;
}

// ---- local loops ----

// Thread 1 loops over a local alone: it never reaches an event, so neither
// the step bound nor spin-assume can see it. Past the limit on local
// computation (RunOptions::local_time_limit) the run stops at a limit of the
// simulator, naming the thread, instead of hanging.
SCOPESIM_KERNEL void local_loop(Cells c) {
  if (thread_idx().x == 1) {
    volatile int spin = 0;
    while (spin == 0) {}
  }
  *c.r0 = 1;
}

TEST(LocalLoop, StopsTheExplorationWithAnErrorNamingTheThread) {
  const auto m = kernel_model<local_loop>("t.local_loop", 1, 2);
  ExploreOptions o;
  o.run.local_time_limit = 0.2;
  try {
    explore(m, m.chapter, o);
    FAIL() << "no SimulatorLimit";
  } catch (const SimulatorLimit& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("b0.t1 ran 0.2 s of CPU time"), std::string::npos) << what;
    EXPECT_NE(what.find("a loop over locals alone never ends"), std::string::npos) << what;
  }
}

// Thread 1 loops over allocations of its own: almost all of its time is in
// malloc and free, which hold a lock of the C library. A stop that abandons
// the fiber there leaves that lock held, and the thread's next allocation
// waits for it forever: the stop is put off while the fiber is inside a
// system library (the fiber pool's on_overrun()), so each exploration ends
// with the limit's error instead of hanging.
SCOPESIM_KERNEL void local_allocation_loop(Cells c) {
  if (thread_idx().x == 1) {
    volatile int spin = 0;
    while (spin == 0) {
      int* volatile block = new int[1000];  // (past the allocator's per-thread cache: its arena's lock)
      block[3] = 1;
      delete[] block;
    }
  }
  *c.r0 = 1;
}

TEST(LocalLoop, AStopInsideTheAllocatorIsPutOffNotAHang) {
  const auto m = kernel_model<local_allocation_loop>("t.local_allocation_loop", 1, 2);
  ExploreOptions o;
  o.run.local_time_limit = 0.1;
  for (int k = 0; k < 5; ++k) {
    try {
      explore(m, m.chapter, o);
      FAIL() << "no SimulatorLimit";
    } catch (const SimulatorLimit& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("b0.t1 ran 0.1 s of CPU time"), std::string::npos) << what;
    }
  }
}

// Simulated memory is a 1 GiB arena: a host that asks for more stops the
// exploration at a limit of the simulator, naming the allocation and its
// size, not with a crash or a fault of the model.
TEST(SimulatedMemory, AnAllocationPastItsSizeStopsTheExplorationNamingIt) {
  models::Model m;
  m.name = "t.huge_alloc";
  m.chapter = {1, 1};
  m.program = [](Host& h, const models::Config&) {
    device_alloc<plain<int>>(h, "huge", std::size_t{1} << 29);  // 2 GiB of ints
  };
  try {
    explore(m, m.chapter, ExploreOptions{});
    FAIL() << "no SimulatorLimit";
  } catch (const SimulatorLimit& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("simulated memory exhausted (2147483648 bytes for huge)"), std::string::npos) << what;
  }
}

// An interrupt (and likewise a time limit) ends a run that would take a
// billion steps, abandoned: it is not counted, reports nothing, and the
// search stops. (Without the cut this test would not end.)
TEST(StepBound, AnInterruptEndsALongRun) {
  const auto m = kernel_model<endless_writer>("t.endless_writer", 1, 1);
  std::atomic<bool> interrupt{false};
  std::thread presser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    interrupt = true;
  });
  ExploreOptions o;
  o.run.max_steps = 1'000'000'000;
  o.interrupt = &interrupt;
  const Exploration x = explore(m, m.chapter, o);
  presser.join();
  EXPECT_EQ(x.stopped_by, "interrupt");
  EXPECT_EQ(x.executions, 0u);
  EXPECT_TRUE(x.findings.empty());
  EXPECT_FALSE(x.complete);
}

// A time limit or an interrupt that comes while a finished run's races are
// walked stops the search there too (RunOptions::cut is asked every 256
// steps walked: a launch of thousands of threads takes longer to analyse
// than to make): the run, whole, is passed on cut, to be counted nowhere.
// Counted asks of a cut that never cuts tell how many the first run and
// its analysis make; cut at the last of them, the run is then whole (the
// ask was its analysis's, not its own) and cut.
TEST(StepBound, ACutWhileARunIsAnalysedStopsTheSearchThere) {
  const models::Model& m = test::model("counter.plain");
  models::Config c = m.chapter;
  c.grid = 1;
  c.block = 256;  // (512 device accesses: the analysis walks more than 256 steps)
  RunOptions o;
  o.keep_trace = false;
  std::size_t asks = 0, asked_by_first = 0;
  o.cut = [&] {
    ++asks;
    return false;
  };
  dpor_search(m, c, o, DporSearch{}, [] { return true; }, [&](const RunResult&, bool) {
    asked_by_first = asks;
    return false;
  });
  ASSERT_GT(asked_by_first, 0u);
  asks = 0;
  o.cut = [&] { return ++asks >= asked_by_first; };
  std::size_t taken = 0;
  bool cut = false, whole = false;
  dpor_search(m, c, o, DporSearch{}, [] { return true; }, [&](const RunResult& r, bool) {
    ++taken;
    cut = r.cut;
    whole = r.completed;
    return false;
  });
  EXPECT_EQ(taken, 1u);
  EXPECT_TRUE(cut);
  EXPECT_TRUE(whole);
}

}  // namespace
}  // namespace scopesim

namespace scopesim {
namespace {

// Residency: <<<4,1>>> with 2 slots. Blocks 2 and 3 do nothing and exit at
// once, freeing both slots, so the producer (block 0) and the consumer (block 1)
// are always dispatched: whichever blocks take the slots first, no execution
// deadlocks. (Blocks that exit while others start must dispatch the waiting
// blocks even when those have lower thread ids.)
TEST(Residency, BlocksThatExitAtOnceFreeTheirSlots) {
  const models::Model& m = test::model("publish.cross_block_device_scope");
  models::Config c = m.chapter;
  c.grid = 4;
  c.block = 1;
  ExploreOptions o;
  o.run.resident_blocks = 2;
  const Exploration x = explore(m, c, o);
  ASSERT_TRUE(x.complete);
  EXPECT_EQ(test::finding(x, FindingKind::deadlock), nullptr);
  EXPECT_TRUE(test::permits(x, "error=0"));
}

// A finding's text and a traced run's texts (each decision's, each trace
// line) are formatted on a stack the OS thread keeps for such work
// (FiberPool::aside), not deep in a step on the fiber's: there they would
// reach past the part of its stack the fiber keeps open (FiberPool::trips())
// and widen it for every later fiber on that stack. Traced explorations of
// models that find a spin nothing promises to end (publish.host_consumer),
// barrier divergence (tile.divergent_barrier) and races with read choices
// (histogram.plain_rmw), each on a thread of its own
// (test::trips_exploring()): no trip.
TEST(FindingTexts, AreFormattedOffTheFibersStacks) {
  for (const char* name : {"publish.host_consumer", "tile.divergent_barrier", "histogram.plain_rmw"}) {
    const models::Model& m = test::model(name);
    ExploreOptions o;
    o.run.keep_trace = true;
    o.max_executions = 50;
    Exploration x;
    EXPECT_EQ(test::trips_exploring(m, m.quick.value_or(m.chapter), o, x), 0u) << name;
    EXPECT_FALSE(x.findings.empty()) << name;
  }
}

}  // namespace
}  // namespace scopesim
