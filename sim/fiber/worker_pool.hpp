// A fixed number of OS threads (the caller's among them) that run tasks on
// fibers of their own, cooperatively. A task that has to wait parks its fiber
// and its thread runs another: a ready one of its own, else a new task from
// the pool's source. A thread sleeps only when it has neither, so threads
// never outnumber `threads` and never sleep while there is work they can do.
//
// A fiber stays on the thread that started it (its thread-local state is that
// thread's) and runs until it parks, yields or ends. Knows nothing of the
// simulator.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace scopesim::fiber {

class WorkerPool {
 public:
  struct Task;  // one task's fiber; valid until the pool's run() returns
  using Body = std::function<void()>;
  // Asked by a thread with nothing to run: the body of a new task, or empty.
  // Called on a thread's own stack, with no lock of the pool held.
  using Source = std::function<Body()>;

  WorkerPool(unsigned threads, Source source);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs `first` as a task on the calling thread and the source's tasks on
  // the pool's threads until stop() was called and every task ended. A task
  // must not let an exception escape.
  void run(Body first);
  // The source may have a task now: a sleeping thread asks it.
  void offered();
  // No new tasks from now on; every parked task is woken (again and again)
  // until all have ended: a task must not park once it sees stopping().
  void stop();
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }
  // Threads asleep for want of a task.
  std::size_t idle() const { return idle_count_.load(std::memory_order_relaxed); }
  // Where run() left its threads idle (asleep for want of a task), in seconds
  // summed over the threads: before a thread's first task, after its last
  // one (from the sleep it did not leave for a task again, to the end), and
  // between. (A matter of timing alone; valid once run() returned.)
  struct IdleTime {
    double start = 0, between = 0, end = 0;
  };
  IdleTime idle_time() const { return idle_time_; }

  // From inside a task:
  // The running task.
  static Task* current();
  // Until some thread calls wake() for it (possibly before this call: then at
  // once); may also return spuriously, so wait in a loop on a condition.
  static void park();
  // Makes a parked task ready (any thread; a task not parked runs again at its next park()).
  static void wake(Task* task);
  // Is another task of this thread ready? Then the caller should yield().
  static bool others_ready();
  // Lets this thread's ready tasks run first.
  static void yield();

  // The task, if any, parked until a condition guarded by some lock holds;
  // the slot is guarded by that lock too.
  class Waiter {
   public:
    // With `g` held, from inside a task: parks it until `ready()` (read
    // under g), after each wake-up looking again.
    template <class Ready>
    void park_until(std::unique_lock<std::mutex>& g, Ready&& ready) {
      while (!ready()) {
        task_ = current();
        g.unlock();
        park();
        g.lock();
        if (task_ == current()) task_ = nullptr;  // (else someone else parked meanwhile, or wake() cleared it)
      }
    }
    // With the lock held, after the condition may have come true: wakes the parked task, if any.
    void wake() {
      if (task_ == nullptr) return;
      WorkerPool::wake(task_);
      task_ = nullptr;
    }

   private:
    Task* task_ = nullptr;
  };

 private:
  struct Worker;
  void serve(Worker& me);
  void sleep(Worker& me, std::uint64_t offers_seen);
  Task* start(Worker& me, Body body);

  const Source source_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<bool> stopping_ = false;
  std::atomic<std::uint64_t> offers_ = 0;  // offered() calls
  std::atomic<std::size_t> idle_count_ = 0;
  IdleTime idle_time_;
  struct Idle;
  std::unique_ptr<Idle> idle_;
};

}  // namespace scopesim::fiber
