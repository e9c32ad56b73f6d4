// The worker pool's promises to the parallel search: a fixed number of
// threads run every task the source gives; a parked task resumes on the
// thread that started it, however it was woken; a wake before the park is not
// lost; yield lets the thread's other ready tasks run first; stop() ends
// every parked task; and it tells where its threads were idle.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/fiber/worker_pool.hpp"

namespace scopesim::fiber {
namespace {

// A task parked until `done()`, woken by whoever makes it so (the pool's
// Waiter slot, under a lock of its own).
struct Waiter {
  std::mutex lock;
  WorkerPool::Waiter parked;

  template <class Done>
  void park_until(Done&& done) {
    std::unique_lock<std::mutex> g(lock);
    parked.park_until(g, done);
  }
  void wake() {
    std::lock_guard<std::mutex> g(lock);
    parked.wake();
  }
};

TEST(WorkerPool, RunsEveryOfferedTaskOnNoMoreThreadsThanItHas) {
  constexpr int kTasks = 200;
  std::atomic<int> offered = 0, given = 0, ended = 0;
  std::mutex ids_lock;
  std::set<std::thread::id> ids;
  Waiter first;
  WorkerPool* self = nullptr;
  WorkerPool pool(3, [&]() -> WorkerPool::Body {
    // A task for each offer not yet taken.
    int g = given.load();
    while (g < offered.load())
      if (given.compare_exchange_weak(g, g + 1))
        return [&] {
          {
            std::lock_guard<std::mutex> l(ids_lock);
            ids.insert(std::this_thread::get_id());
          }
          if (++ended == kTasks) first.wake();
        };
    return {};
  });
  self = &pool;
  pool.run([&] {
    for (int k = 0; k < kTasks; ++k) {
      ++offered;
      self->offered();
    }
    first.park_until([&] { return ended.load() == kTasks; });
    self->stop();
  });
  EXPECT_EQ(ended.load(), kTasks);
  EXPECT_EQ(given.load(), kTasks);
  EXPECT_GE(ids.size(), 1u);
  EXPECT_LE(ids.size(), 3u);  // the caller's thread and the pool's two
}

TEST(WorkerPool, AParkedTaskResumesOnItsOwnThreadWhenWokenFromAnother) {
  std::atomic<bool> given = false, woken = false;
  std::thread::id before, after, waker;
  Waiter first;
  WorkerPool* self = nullptr;
  WorkerPool pool(2, [&]() -> WorkerPool::Body {
    if (given.exchange(true)) return {};
    return [&] {
      waker = std::this_thread::get_id();
      woken = true;
      first.wake();
    };
  });
  self = &pool;
  pool.run([&] {
    before = std::this_thread::get_id();
    self->offered();
    first.park_until([&] { return woken.load(); });
    after = std::this_thread::get_id();
    self->stop();
  });
  EXPECT_TRUE(woken.load());
  EXPECT_EQ(before, after);
  EXPECT_EQ(before, std::this_thread::get_id());  // the first task runs on the caller's thread
}

TEST(WorkerPool, AWakeBeforeTheParkIsNotLost) {
  WorkerPool pool(1, [] { return WorkerPool::Body{}; });
  WorkerPool* self = &pool;
  bool returned = false;
  pool.run([&] {
    WorkerPool::wake(WorkerPool::current());
    WorkerPool::park();  // would never return if the wake were lost: nothing else runs here
    returned = true;
    self->stop();
  });
  EXPECT_TRUE(returned);
}

TEST(WorkerPool, YieldLetsTheThreadsOtherReadyTasksRunFirst) {
  std::vector<std::string> log;  // one thread: no lock needed
  bool given = false, second_started = false;
  WorkerPool::Task* first = nullptr;
  WorkerPool* self = nullptr;
  WorkerPool pool(1, [&]() -> WorkerPool::Body {
    if (given) return {};
    given = true;
    return [&] {
      log.push_back("second runs");
      second_started = true;
      WorkerPool::wake(first);
      EXPECT_TRUE(WorkerPool::others_ready());
      WorkerPool::yield();
      log.push_back("second after yield");
    };
  });
  self = &pool;
  pool.run([&] {
    first = WorkerPool::current();
    log.push_back("first parks");
    while (!second_started) WorkerPool::park();  // the thread asks the source and runs the second
    log.push_back("first woken");
    EXPECT_TRUE(WorkerPool::others_ready());  // the second yielded: it is ready again, behind this one
    self->stop();
  });
  EXPECT_FALSE(WorkerPool::others_ready());  // outside any task
  EXPECT_EQ(log, (std::vector<std::string>{"first parks", "second runs", "first woken", "second after yield"}));
}

TEST(WorkerPool, StopEndsEveryParkedTask) {
  constexpr int kTasks = 5;
  std::atomic<int> given = 0, started = 0, ended = 0;
  Waiter first;
  WorkerPool* self = nullptr;
  WorkerPool pool(2, [&]() -> WorkerPool::Body {
    if (given.fetch_add(1) >= kTasks) return {};
    return [&] {
      if (++started == kTasks) first.wake();
      while (!self->stopping()) WorkerPool::park();  // only stop() wakes these
      ++ended;
    };
  });
  self = &pool;
  pool.run([&] {
    for (int k = 0; k < kTasks; ++k) self->offered();
    first.park_until([&] { return started.load() == kTasks; });
    self->stop();
  });
  EXPECT_EQ(started.load(), kTasks);
  EXPECT_EQ(ended.load(), kTasks);
}

// Two threads. The second sleeps 30 ms and more before its first task
// (start); the first sleeps while its task waits for that one, which takes
// 30 ms once the first is asleep (between); the second sleeps 30 ms and more
// after its task (end), until stop().
TEST(WorkerPool, TellsWhereItsThreadsWereIdle) {
  using namespace std::chrono_literals;
  std::atomic<bool> offered = false, taken = false, done = false;
  Waiter first;
  WorkerPool* self = nullptr;
  // Until the pool's other thread is asleep, with nothing to run.
  const auto until_one_asleep = [&] {
    while (self->idle() != 1) std::this_thread::sleep_for(1ms);
  };
  WorkerPool pool(2, [&]() -> WorkerPool::Body {
    if (!offered || taken.exchange(true)) return {};
    return [&] {
      until_one_asleep();  // the first thread, its task waiting for this one
      std::this_thread::sleep_for(30ms);
      done = true;
      first.wake();
    };
  });
  self = &pool;
  const auto begun = std::chrono::steady_clock::now();
  pool.run([&] {
    until_one_asleep();  // the second thread, before its first task
    std::this_thread::sleep_for(30ms);
    offered = true;
    self->offered();
    while (!taken) std::this_thread::sleep_for(1ms);  // (by the second thread: this one is busy)
    first.park_until([&] { return done.load(); });
    until_one_asleep();  // the second thread, after its last task
    std::this_thread::sleep_for(30ms);
    self->stop();
  });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
  const WorkerPool::IdleTime idle = pool.idle_time();
  EXPECT_GE(idle.start, 0.030);
  EXPECT_GE(idle.between, 0.025);  // (less the moments it looked for work between its sleeps)
  EXPECT_GE(idle.end, 0.030);
  EXPECT_LE(idle.start + idle.between + idle.end, 2 * wall);
}

}  // namespace
}  // namespace scopesim::fiber
