#include "sim/fiber/worker_pool.hpp"

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "sim/fiber/start_threads.hpp"

namespace scopesim::fiber {

namespace ctx = boost::context;

namespace {

// A task's stack is as large as a thread's (what a task runs was written for
// one), with a guard page below it; only the pages it touches take memory.
constexpr std::size_t kStackBytes = std::size_t{8} << 20;
// How often a sleeping thread looks again without being woken (a safety net).
constexpr std::chrono::milliseconds kPatience{20};

// One thread's stacks, kept for its next task (a task ends on its own thread).
class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool() {
    for (ctx::stack_context& s : free_) make_.deallocate(s);
  }
  ctx::stack_context allocate() {
    if (free_.empty()) return make_.allocate();
    const ctx::stack_context s = free_.back();
    free_.pop_back();
    return s;
  }
  void deallocate(ctx::stack_context& s) { free_.push_back(s); }

 private:
  ctx::protected_fixedsize_stack make_{kStackBytes};
  std::vector<ctx::stack_context> free_;
};

// Boost.Context's StackAllocator over a thread's StackPool.
struct PooledStack {
  StackPool* pool;
  ctx::stack_context allocate() { return pool->allocate(); }
  void deallocate(ctx::stack_context& s) noexcept { pool->deallocate(s); }
};

}  // namespace

// Runs only on its home thread. Between runs it is parked (its fiber is where
// it goes on) or ended (its fiber is empty).
struct WorkerPool::Task {
  Worker* home = nullptr;
  ctx::fiber fiber;     // parked: where it goes on
  ctx::fiber back;      // running: the home thread's loop (serve)
  bool parked = true;   // (a task not started yet counts as parked) home thread only
  bool ended = false;   // home thread only
};

struct WorkerPool::Worker {
  std::mutex lock;  // guards ready, asleep and poked; taken after any other lock, never before
  std::condition_variable wake;
  std::deque<Task*> ready;  // woken; an entry for a task no longer parked is skipped
  std::atomic<bool> has_ready = false;
  bool asleep = false;
  bool poked = false;  // offered() or stop() since it last looked
  // The thread's own:
  std::vector<std::unique_ptr<Task>> tasks;  // every task it started, kept until run() ends
  std::size_t live = 0;                      // of them, not ended
  StackPool stacks;
  // Its idle time (IdleTime): when it first ran a task; then its sleeps, in
  // all and since it last ran one (`ran`: it has, since `stretch_began`).
  // Its own thread's only.
  bool started = false, ran = true;
  std::chrono::steady_clock::time_point first_task, stretch_began;
  std::chrono::steady_clock::duration slept{}, stretch{};
};

// Threads asleep for want of a task. offers_ changes only under `lock`, so a
// thread that found the source empty and sees offers_ unchanged under it
// cannot miss an offer.
struct WorkerPool::Idle {
  std::mutex lock;
  std::vector<Worker*> asleep;
};

namespace {
thread_local WorkerPool::Task* running_task = nullptr;
}

WorkerPool::WorkerPool(unsigned threads, Source source) : source_(std::move(source)), idle_(std::make_unique<Idle>()) {
  for (unsigned k = 0; k < std::max(threads, 1u); ++k) workers_.push_back(std::make_unique<Worker>());
}

WorkerPool::~WorkerPool() = default;

void WorkerPool::run(Body first) {
  using clock = std::chrono::steady_clock;
  const clock::time_point begun = clock::now();
  Worker& mine = *workers_[0];
  mine.ready.push_back(start(mine, std::move(first)));
  // (Where the system refuses a thread, those started find the pool
  // stopping and end; `first` never runs.)
  std::vector<std::thread> threads = start_threads(
      workers_.size() - 1, workers_.size(), [this](std::size_t k) { serve(*workers_[k + 1]); },
      [this](std::size_t) { stop(); });
  serve(mine);
  for (std::thread& t : threads) t.join();
  const clock::time_point ended = clock::now();
  const auto seconds = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
  idle_time_ = {};
  for (const auto& w : workers_) {
    if (!w->started) {
      idle_time_.start += seconds(ended - begun);
      continue;
    }
    idle_time_.start += seconds(w->first_task - begun);
    if (w->ran) {
      idle_time_.between += seconds(w->slept);
    } else {
      idle_time_.between += seconds(w->slept - w->stretch);
      idle_time_.end += seconds(ended - w->stretch_began);
    }
  }
}

WorkerPool::Task* WorkerPool::start(Worker& me, Body body) {
  auto task = std::make_unique<Task>();
  Task* t = task.get();
  t->home = &me;
  t->fiber = ctx::fiber(std::allocator_arg, PooledStack{&me.stacks}, [t, body = std::move(body)](ctx::fiber&& back) {
    t->back = std::move(back);
    body();
    return std::move(t->back);
  });
  me.tasks.push_back(std::move(task));
  ++me.live;
  return t;
}

void WorkerPool::serve(Worker& me) {
  for (;;) {
    Task* t = nullptr;
    {
      std::lock_guard<std::mutex> g(me.lock);
      while (t == nullptr && !me.ready.empty()) {
        if (me.ready.front()->parked) t = me.ready.front();
        me.ready.pop_front();
      }
      me.has_ready.store(!me.ready.empty(), std::memory_order_relaxed);
    }
    if (t == nullptr && !stopping()) {
      const std::uint64_t seen = offers_.load();
      if (Body b = source_()) {
        t = start(me, std::move(b));
      } else {
        sleep(me, seen);
        continue;
      }
    }
    if (t == nullptr) {  // stopping
      if (me.live == 0) return;
      // Every task of this thread not running is parked: wake them all; they end without parking again.
      for (const auto& p : me.tasks)
        if (!p->ended) wake(p.get());
      continue;
    }
    if (!me.started) {
      me.started = true;
      me.first_task = std::chrono::steady_clock::now();
    }
    if (!stopping()) me.ran = true;  // (a task woken to end is no work)
    t->parked = false;
    running_task = t;
    t->fiber = std::move(t->fiber).resume();
    running_task = nullptr;
    if (!t->fiber) {
      t->ended = true;
      --me.live;
    }
  }
}

void WorkerPool::sleep(Worker& me, std::uint64_t offers_seen) {
  {
    std::lock_guard<std::mutex> g(idle_->lock);
    if (offers_.load() != offers_seen || stopping()) return;
    idle_->asleep.push_back(&me);
    idle_count_.fetch_add(1, std::memory_order_relaxed);
  }
  const auto began = std::chrono::steady_clock::now();
  {
    std::unique_lock<std::mutex> h(me.lock);
    me.asleep = true;
    me.wake.wait_for(h, kPatience, [&] { return !me.ready.empty() || me.poked || stopping(); });
    me.asleep = false;
    me.poked = false;
  }
  if (me.started) {  // (before: its start, IdleTime)
    if (me.ran) {
      me.ran = false;
      me.stretch_began = began;
      me.stretch = {};
    }
    const auto took = std::chrono::steady_clock::now() - began;
    me.slept += took;
    me.stretch += took;
  }
  std::lock_guard<std::mutex> g(idle_->lock);
  const auto it = std::find(idle_->asleep.begin(), idle_->asleep.end(), &me);
  if (it != idle_->asleep.end()) {
    idle_->asleep.erase(it);
    idle_count_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void WorkerPool::offered() {
  Worker* w = nullptr;
  {
    std::lock_guard<std::mutex> g(idle_->lock);
    offers_.fetch_add(1);
    if (!idle_->asleep.empty()) {
      w = idle_->asleep.back();
      idle_->asleep.pop_back();
      idle_count_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  if (w == nullptr) return;
  std::lock_guard<std::mutex> h(w->lock);
  w->poked = true;
  w->wake.notify_one();
}

void WorkerPool::stop() {
  stopping_.store(true);
  for (const auto& w : workers_) {
    std::lock_guard<std::mutex> h(w->lock);
    w->poked = true;
    w->wake.notify_one();
  }
}

WorkerPool::Task* WorkerPool::current() { return running_task; }

void WorkerPool::park() {
  Task* t = running_task;
  t->parked = true;
  t->back = std::move(t->back).resume();
}

void WorkerPool::wake(Task* task) {
  Worker& w = *task->home;
  std::lock_guard<std::mutex> g(w.lock);
  w.ready.push_back(task);
  w.has_ready.store(true, std::memory_order_relaxed);
  if (w.asleep) w.wake.notify_one();
}

bool WorkerPool::others_ready() {
  return running_task != nullptr && running_task->home->has_ready.load(std::memory_order_relaxed);
}

void WorkerPool::yield() {
  wake(running_task);
  park();
}

}  // namespace scopesim::fiber
