// The fiber pool's promise to the engine's local-state hash: a fiber starts
// with the outermost FiberPool::zeroed_bytes of its stack zero, whatever the
// fiber before it on that stack wrote, however deep, and with holes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sim/fiber/fiber_pool.hpp"
#include "tests/test_support.hpp"

namespace scopesim::fiber {
namespace {

constexpr std::size_t deep = 12 * 1024;  // well inside the zeroed part, several pages deep

// Runs `body` as fiber 0 of a new round of `pool` to its end.
void run_alone(FiberPool& pool, std::function<void()> body) {
  pool.reset();
  const FiberPool::Id id = pool.create([](void* b) { (*static_cast<std::function<void()>*>(b))(); }, &body);
  ASSERT_EQ(id, 0u);
  ASSERT_EQ(pool.resume(id), Status::finished) << pool.fault(id);
}

// From inside a fiber: are the zeroed part's bytes below this frame (with a
// margin for the frame itself) all zero?
bool below_is_zero() {
  const auto top = reinterpret_cast<std::uintptr_t>(FiberPool::stack_top());
  const auto end = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) - 512;
  bool zero = true;
  for (std::uintptr_t a = top - FiberPool::zeroed_bytes; a < end; ++a) zero &= *reinterpret_cast<const volatile char*>(a) == 0;
  return zero;
}

void write_deep() {
  [[maybe_unused]] volatile char buf[deep];
  for (std::size_t i = 0; i < deep; ++i) buf[i] = 0x5a;
}

void write_shallow() {
  [[maybe_unused]] volatile char buf[256];
  for (std::size_t i = 0; i < sizeof buf; ++i) buf[i] = 0x5a;
}

void write_lowest() {
  // A large frame written only at its lowest byte: the pages above stay untouched.
  [[maybe_unused]] volatile char buf[deep];
  buf[0] = 0x5a;
}

TEST(FiberPool, StartsWithTheOutermostPartZeroAfterADeepFiber) {
  FiberPool pool;
  bool zero = false;
  for (int round = 0; round < 3; ++round) {  // the stack widens what it checks, then stays
    run_alone(pool, [] { write_deep(); });
    run_alone(pool, [&] { zero = below_is_zero(); });
    EXPECT_TRUE(zero) << "round " << round;
  }
}

TEST(FiberPool, StartsWithTheOutermostPartZeroAfterAShallowFiber) {
  FiberPool pool;
  bool zero = false;
  run_alone(pool, [] { write_shallow(); });
  run_alone(pool, [&] { zero = below_is_zero(); });
  EXPECT_TRUE(zero);
}

TEST(FiberPool, StartsWithTheOutermostPartZeroAfterAFrameWrittenOnlyAtItsBottom) {
  FiberPool pool;
  bool zero = false;
  for (int round = 0; round < 3; ++round) {
    run_alone(pool, [] { write_lowest(); });
    run_alone(pool, [&] { zero = below_is_zero(); });
    EXPECT_TRUE(zero) << "round " << round;
  }
}

// One nonzero byte at the bottom of a frame, at depths across the open part
// and past it: the check finds it wherever it lies.
TEST(FiberPool, StartsWithTheOutermostPartZeroAfterOneByteAtAnyDepth) {
  for (std::size_t depth = 64; depth < 9 * 1024; depth += 200) {
    FiberPool pool;
    bool zero = false;
    run_alone(pool, [depth] {
      volatile char* frame = static_cast<char*>(__builtin_alloca(depth));
      frame[0] = 0x5a;
    });
    run_alone(pool, [&] { zero = below_is_zero(); });
    EXPECT_TRUE(zero) << "depth " << depth;
  }
}

// Calls that nest ever deeper first touch the closed part with a call or a
// push (the trip happens mid-instruction): the fiber computes on unharmed,
// and the next one starts zeroed.
[[gnu::noinline]] std::uint64_t nest(int n, std::uint64_t a) {
  volatile std::uint64_t pad[4] = {a, a + 1, a + 2, a + 3};
  return n == 0 ? a : nest(n - 1, a * 31 + 7) ^ pad[n % 4];
}
TEST(FiberPool, AFiberThatNestsCallsPastTheOpenPartRunsOnAndTheNextStartsZeroed) {
  const std::uint64_t expected = nest(200, 1);  // some 10 KB of frames
  for (int round = 0; round < 2; ++round) {
    FiberPool pool;
    std::uint64_t got = 0;
    bool zero = false;
    const std::uint64_t before = FiberPool::trips();
    run_alone(pool, [&] { got = nest(200, 1); });
    EXPECT_EQ(got, expected) << "round " << round;
    EXPECT_GE(FiberPool::trips(), before + 1) << "round " << round;  // (one per page newly reached, at most)
    run_alone(pool, [&] { zero = below_is_zero(); });
    EXPECT_TRUE(zero) << "round " << round;
  }
}

TEST(FiberPool, AFiberReadsDeepBelowAShallowOneAndFindsZeros) {
  FiberPool pool;
  bool zero = false;
  run_alone(pool, [] { write_shallow(); });
  // Reading far below its frames (not writing) must see zeros, not fault.
  run_alone(pool, [&] {
    const auto top = reinterpret_cast<std::uintptr_t>(FiberPool::stack_top());
    zero = *reinterpret_cast<const volatile char*>(top - deep) == 0;
  });
  EXPECT_TRUE(zero);
  run_alone(pool, [&] { zero = below_is_zero(); });
  EXPECT_TRUE(zero);
}

volatile int recursion_limit = 1 << 30;  // never reached: the stack ends first

[[gnu::noinline]] int recurse(int n) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(n);
  return n < recursion_limit ? recurse(n + 1) + pad[0] : 0;
}

TEST(FiberPool, AStackOverflowPastTheTripwireFaultsAndTheNextFiberStartsZeroed) {
  FiberPool pool;
  const FiberPool::Id id = pool.create([](void*) { recurse(0); }, nullptr);
  ASSERT_EQ(pool.resume(id), Status::faulted);
  EXPECT_NE(pool.fault(id).find("segmentation fault"), std::string::npos) << pool.fault(id);
  bool zero = false;
  run_alone(pool, [&] { zero = below_is_zero(); });
  EXPECT_TRUE(zero);
}

// pass_to(): a fiber passes on to a suspended one, which runs on from where
// it suspended or passed on itself; the resume() that ran the first returns
// when the one running then suspends, ends or faults, with that one's status.
TEST(FiberPool, APassRunsTheOtherFiberOnAndItsResumerGetsControlBackFromIt) {
  struct Shared {
    FiberPool* pool;
    std::string trace;
  };
  FiberPool pool;
  Shared sh{&pool, ""};
  const FiberPool::Id a = pool.create(
      [](void* c) {
        auto& s = *static_cast<Shared*>(c);
        s.trace += "a1 ";
        s.pool->pass_to(1);
        s.trace += "a2 ";
        s.pool->pass_to(1);
        s.trace += "a3 ";
      },
      &sh);
  const FiberPool::Id b = pool.create(
      [](void* c) {
        auto& s = *static_cast<Shared*>(c);
        s.trace += "b1 ";
        FiberPool::suspend();
        s.trace += "b2 ";
        s.pool->pass_to(0);
        s.trace += "b3 ";
        volatile int* volatile nowhere = nullptr;
        *nowhere = 1;  // a segmentation fault
      },
      &sh);
  ASSERT_EQ(b, 1u);
  ASSERT_EQ(pool.resume(b), Status::suspended);
  // a passes to b, b back to a, a to b again, and b faults: a's resume()
  // returns b's fault; a stays suspended in its second pass.
  EXPECT_EQ(pool.resume(a), Status::faulted);
  EXPECT_EQ(sh.trace, "b1 a1 b2 a2 b3 ");
  EXPECT_EQ(pool.status(b), Status::faulted);
  EXPECT_NE(pool.fault(b).find("segmentation fault"), std::string::npos) << pool.fault(b);
  EXPECT_EQ(pool.status(a), Status::suspended);
  EXPECT_EQ(pool.resume(a), Status::finished);
  EXPECT_EQ(sh.trace, "b1 a1 b2 a2 b3 a3 ");
  // Only to another fiber, suspended, and only from a fiber: fiber 2 to b,
  // which has ended, and fiber 3 to itself, each refused.
  struct Pass {
    FiberPool* pool;
    FiberPool::Id to;
  };
  for (const FiberPool::Id to : {b, FiberPool::Id{3}}) {
    Pass p{&pool, to};
    const FiberPool::Id c =
        pool.create([](void* x) { static_cast<Pass*>(x)->pool->pass_to(static_cast<Pass*>(x)->to); }, &p);
    EXPECT_EQ(pool.resume(c), Status::faulted) << "to " << to;
    EXPECT_NE(pool.fault(c).find("only a running fiber passes on, and only to one that has not ended"),
              std::string::npos)
        << pool.fault(c);
  }
  EXPECT_THROW(pool.pass_to(a), std::logic_error);
}

// A pass to a fiber not yet started starts it; the resume() that ran the one
// that passed returns when the new one suspends, and the one that passed runs
// on when resumed (or passed to) in turn.
TEST(FiberPool, APassStartsAFiberNotYetStarted) {
  struct Shared {
    FiberPool* pool;
    std::string trace;
  };
  FiberPool pool;
  Shared sh{&pool, ""};
  const auto first = [](void* c) {
    auto& s = *static_cast<Shared*>(c);
    s.trace += "a1 ";
    s.pool->pass_to(1);
    s.trace += "a2 ";
  };
  const auto second = [](void* c) {
    auto& s = *static_cast<Shared*>(c);
    s.trace += "b1 ";
    s.pool->pass_to(0);
    s.trace += "b2 ";
  };
  const FiberPool::Id a = pool.create(first, &sh);
  const FiberPool::Id b = pool.create(second, &sh);
  EXPECT_EQ(pool.status(b), Status::ready);
  // a starts b, b passes back to a, which ends: a's resume() returns a's end.
  EXPECT_EQ(pool.resume(a), Status::finished);
  EXPECT_EQ(sh.trace, "a1 b1 a2 ");
  EXPECT_EQ(pool.status(b), Status::suspended);
  EXPECT_EQ(pool.resume(b), Status::finished);
  EXPECT_EQ(sh.trace, "a1 b1 a2 b2 ");
}

// A failed assert or abort() in a fiber (a kernel's) faults that fiber, not
// the process, and again in the next one: abort() stays usable.
TEST(FiberPool, AnAbortFaultsTheFiberAndTheNextOneRuns) {
  FiberPool pool;
  for (int round = 0; round < 2; ++round) {
    pool.reset();
    const FiberPool::Id id = pool.create([](void*) { std::abort(); }, nullptr);
    ASSERT_EQ(pool.resume(id), Status::faulted);
    EXPECT_NE(pool.fault(id).find("aborted"), std::string::npos) << pool.fault(id);
  }
  bool ran = false;
  run_alone(pool, [&] { ran = true; });
  EXPECT_TRUE(ran);
}

// A fault inside a system library (here the C library's strlen() of an
// address no page holds) may leave the library holding a lock: the fiber
// ends stranded, naming where, and the process, whose next wait on that lock
// would never end, ends by itself stranded_grace_seconds later with exit
// code 2 and why on stderr. (A death test: it ends the process it runs in.)
TEST(FiberPoolDeathTest, AFaultInsideASystemLibraryStrandsTheFiberAndTheProcessEnds) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        FiberPool pool;
        const FiberPool::Id id = pool.create(
            [](void*) {
              const char* volatile nowhere = reinterpret_cast<const char*>(16);
              std::printf("%zu\n", std::strlen(nowhere));
            },
            nullptr);
        const Status s = pool.resume(id);
        std::fprintf(stderr, "%s: %s\n", s == Status::stranded ? "stranded" : "not stranded", pool.fault(id).c_str());
        for (;;) pause();  // (as a wait on the lock would)
      },
      testing::ExitedWithCode(2),
      "stranded: faulted inside [^\n]*libc[^\n]*: segmentation fault[^\n]*\n"
      "[^\n]*: error: a simulated thread stopped inside a system library \\(segmentation fault");
}

// A fiber the watchdog finds inside a system library is stopped there only
// after some 4 s of stops put off (the library may hold a lock a moment
// later released), and then ends stranded, naming the library. (Here a
// memchr() over a terabyte of address space that no page backs but the
// shared zero page: it stays inside the C library for longer than that. A
// death test: a stranded fiber arms the process's last resort.)
void* map_zeros(std::size_t bytes) {
  return mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}
constexpr std::size_t terabyte = std::size_t{1} << 40;

TEST(FiberPoolDeathTest, AFiberStoppedInsideASystemLibraryAfterItsPutOffStopsIsStranded) {
  void* zeros = map_zeros(terabyte);
  if (zeros == MAP_FAILED) GTEST_SKIP() << "this process may not map a terabyte of address space";
  munmap(zeros, terabyte);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        FiberPool::limit_slices(0.05);
        FiberPool pool;
        const FiberPool::Id id = pool.create(
            [](void*) {
              void* zeros = map_zeros(terabyte);
              if (zeros != MAP_FAILED) std::printf("%p\n", std::memchr(zeros, 1, terabyte));
            },
            nullptr);
        const Status s = pool.resume(id);
        std::fprintf(stderr, "%s: %s\n", s == Status::stranded ? "stranded" : "not stranded", pool.fault(id).c_str());
        std::_Exit(3);
      },
      testing::ExitedWithCode(3), "stranded: ran past its CPU-time limit inside [^\n]*libc");
}

// An abort() from the C library's allocator, holding its lock, would leave
// the thread's next allocation waiting forever: after an abort() the pool
// probes the allocator under the last resort, and the process ends with
// code 2 and why on stderr. (The library takes its locks once the process
// has had a second thread: one is started first, as the exploration's
// watchdog would be. A death test: it ends the process it runs in.)
TEST(FiberPoolDeathTest, AnAbortThatLeavesTheAllocatorLockedEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::thread([] {}).join();
        FiberPool pool;
        const FiberPool::Id id = pool.create([](void*) { test::free_twice(); }, nullptr);
        pool.resume(id);
        std::fputs("the resume returned\n", stderr);
        std::_Exit(3);
      },
      testing::ExitedWithCode(2),
      "double free or corruption[^\n]*\n"
      "[^\n]*: error: a simulated thread aborted \\([^\n]*\\), and the library's allocator then never answered: "
      "the process could not go on and ends here\n$");
}

// Is `a` on the running fiber's stack (its default size below its top)?
bool on_fiber_stack(const void* a) {
  const auto top = reinterpret_cast<std::uintptr_t>(FiberPool::stack_top());
  const auto at = reinterpret_cast<std::uintptr_t>(a);
  return at < top && at >= top - FiberPool::default_stack_bytes;
}

// Deep work aside runs on another stack: the fiber's own stays written only
// where the fiber's frames were, and the next fiber starts zeroed.
TEST(FiberPool, WorkAsideRunsOffTheFibersStack) {
  FiberPool pool;
  bool on_fiber = true, zero = false;
  run_alone(pool, [&] {
    FiberPool::aside([&] {
      on_fiber = on_fiber_stack(__builtin_frame_address(0));
      write_deep();
    });
  });
  EXPECT_FALSE(on_fiber);
  run_alone(pool, [&] { zero = below_is_zero(); });
  EXPECT_TRUE(zero);
}

// Outside a fiber, and within work aside, aside() runs its body in place;
// an exception its body throws is thrown on in the fiber.
TEST(FiberPool, WorkAsideRunsInPlaceOutsideAFiberOrNestedAndThrowsOn) {
  const void* outer = nullptr;
  const void* inner = nullptr;
  FiberPool::aside([&] { outer = __builtin_frame_address(0); });
  EXPECT_NE(outer, nullptr);
  FiberPool pool;
  std::string caught;
  run_alone(pool, [&] {
    FiberPool::aside([&] {
      outer = __builtin_frame_address(0);
      FiberPool::aside([&] { inner = __builtin_frame_address(0); });
    });
    try {
      FiberPool::aside([] { throw std::runtime_error("thrown aside"); });
    } catch (const std::exception& e) {
      caught = e.what();
    }
  });
  // (Nested: in place, just below the outer body's frame.)
  EXPECT_LT(reinterpret_cast<std::uintptr_t>(inner), reinterpret_cast<std::uintptr_t>(outer));
  EXPECT_LT(reinterpret_cast<std::uintptr_t>(outer) - reinterpret_cast<std::uintptr_t>(inner), std::uintptr_t{4096});
  EXPECT_EQ(caught, "thrown aside");
}

// The CPU time its OS thread has run, in seconds.
double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// A fiber that loops without suspending is stopped once it has run the
// pool's slice limit; it stays stopped, and the pool goes on.
TEST(FiberPool, AFiberThatRunsPastItsSliceLimitIsStoppedAndThePoolGoesOn) {
  FiberPool pool;
  FiberPool::limit_slices(0.2);
  volatile bool forever = true;
  const FiberPool::Id id = pool.create([](void* f) { while (*static_cast<volatile bool*>(f)) {} },
                                       const_cast<bool*>(&forever));
  EXPECT_EQ(pool.resume(id), Status::overran);
  EXPECT_NE(pool.fault(id).find("ran 0.2 s of CPU time"), std::string::npos) << pool.fault(id);
  EXPECT_EQ(pool.resume(id), Status::overran);  // abandoned: it never runs again
  bool ran = false;
  run_alone(pool, [&] { ran = true; });
  EXPECT_TRUE(ran);
}

// The limit is on a slice, from a resume to the next suspend: a fiber whose
// slices each end in time runs to its end, however long it runs in all.
TEST(FiberPool, AFiberWhoseSlicesEndInTimeIsNotStopped) {
  FiberPool pool;
  FiberPool::limit_slices(0.1);
  std::function<void()> body = [] {
    for (int slice = 0; slice < 100; ++slice) {  // 0.5 s of CPU time in all, 5 ms a slice
      const double end = thread_seconds() + 0.005;
      while (thread_seconds() < end) {}
      FiberPool::suspend();
    }
  };
  const FiberPool::Id id = pool.create([](void* b) { (*static_cast<std::function<void()>*>(b))(); }, &body);
  Status s = Status::ready;
  while ((s = pool.resume(id)) == Status::suspended) {}
  EXPECT_EQ(s, Status::finished) << pool.fault(id);
}

// progress() starts a slice over without a switch: a fiber that marks
// progress every 5 ms runs on alone for 0.5 s under a 0.1 s limit; once it
// stops marking, it is stopped as a loop is.
TEST(FiberPool, ProgressStartsTheSliceOverWithoutASwitch) {
  FiberPool pool;
  FiberPool::limit_slices(0.1);
  struct Progress {
    int marked = 0;
  } p;
  const FiberPool::Id id = pool.create(
      [](void* c) {
        auto& p = *static_cast<Progress*>(c);
        for (; p.marked < 100; ++p.marked) {  // 0.5 s of CPU time, no suspend
          const double end = thread_seconds() + 0.005;
          while (thread_seconds() < end) {}
          FiberPool::progress();
        }
        for (;;) {}
      },
      &p);
  EXPECT_EQ(pool.resume(id), Status::overran);
  EXPECT_EQ(p.marked, 100);  // stopped in the loop after the marks, not among them
}

}  // namespace
}  // namespace scopesim::fiber
