#include "sim/engine/dpor_search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sim/engine/dpor.hpp"
#include "sim/fiber/worker_pool.hpp"

namespace scopesim {

namespace {

constexpr std::size_t none = ~std::size_t{0};

// The last thread node at or above `node`, none if there is none (in the
// walk's stack, Dpor::Nodes, or a task's copy of its bottom).
template <class Stack>
std::size_t thread_above(const Stack& stack, std::size_t node) {
  for (std::size_t k = node + 1; k-- > 0;)
    if (stack[k].kind == ChoiceKind::thread) return k;
  return none;
}

// A run made on another thread, on its way to the walk that takes it. Of a
// redundant run, slimmed (DporSearch::slim), only its decisions are kept, in
// place: most runs a subtree makes are redundant, and a queue of them stays
// small. Any other run is kept (whole, or slimmed: Buffer::made) behind a
// pointer.
struct Made {
  bool redundant = false;
  std::uint64_t decisions = 0;     // a slimmed redundant run: all that is kept
  std::unique_ptr<RunResult> run;  // any other
};
using Runs = std::deque<Made>;

// The run a walk makes runs into, kept on each OS thread from one walk to the
// next, so that its buffers (the steps, the log) keep their capacity: a
// search of a few runs, as a litmus test's, no longer grows them anew. (A
// walk takes it whole, by its pointer: one started while another is parked
// on the same thread finds none, and starts bare.)
std::unique_ptr<RunResult>& spare_run() {
  thread_local std::unique_ptr<RunResult> r;
  return r;
}

// Where the runs go: the explorer (the whole search) or the subtree task
// that consumes them in order.
struct Sink {
  virtual ~Sink() = default;
  virtual bool go_on() = 0;
  virtual bool take(const RunResult& r, bool redundant) = 0;
  // The runs of a subtree another thread walked, tallied there (the search's
  // runs are tallied: SubtreeSearch::tallied_), the last one cut or not.
  virtual bool take_tally(Tally&& t, bool cut) = 0;
  // Runs another thread made, in order (emptied or not).
  virtual bool take_all(Runs& runs) {
    RunResult decisions_only;  // a slimmed redundant run, as take() would have had it
    for (const Made& m : runs) {
      if (!go_on()) return false;
      decisions_only.scheduling_decisions = m.decisions;
      if (!take(m.run ? *m.run : decisions_only, m.redundant)) return false;
    }
    return true;
  }
};

}  // namespace

// The exhaustive search on several threads, with the runs, their order and
// every count of the sequential search (`next()` from the first run on).
//
// The sequential search explores the subtree below a branch (choice c at node
// e) as a function of what its runs read of nodes 0..e (dpor.hpp, at
// SubtreeSearch): the choices, the parts fixed when each node was made, the
// sleep sets of nodes 0..e (a run may wake a sleeper there) and, at the last
// thread node P at or above e, its done set and the steps of the done threads
// as they last turned out. Its effect on nodes 0..e: backtrack entries added,
// sleepers woken, steps as they turned out. Nothing else above e is read or
// written until the search comes back to e.
//
// So a walk (one sequential search below a root), while few subtrees wait
// (fewer than the idle threads plus DporSearch::stock), lists the branches it
// will take next at shallow nodes and hands the shallowest, with a copy of
// nodes 0..e as they will then be (the predicted done set), to a task that
// another walk, on a stack of its own, takes, recursively. When the walk
// reaches that branch it compares the copy with its own nodes 0..e in
// everything the subtree reads; equal, it takes the task's runs in their
// order instead of making them, then applies its effect on nodes 0..e; else
// it drops the task and walks the subtree itself. A task is a pure function of its copy, so the runs, their order and
// the stack after each subtree are the sequential search's for every number of
// jobs and any timing.
//
// Walks run as tasks of a WorkerPool: `jobs` threads, each running the walks
// it started on fibers of their own. A walk that waits for a subtree's runs,
// or for room for its own, parks and its thread runs another walk or takes a
// queued subtree, so no thread sleeps while there is a subtree to walk and
// threads never outnumber the jobs. A walk parks only between runs (the run
// state is per thread).
class SubtreeSearch {
 public:
  SubtreeSearch(const models::Model& m, const models::Config& c, const RunOptions& o, const DporSearch& s)
      : m_(m), c_(c), o_(o), s_(s) {}

  SearchStats search(const std::function<bool()>& go_on, const std::function<bool(const RunResult&, bool)>& take,
                     const std::function<bool(Tally&&, bool)>& take_tally) {
    struct Explorer final : Sink {
      const std::function<bool()>& go_on_;
      const std::function<bool(const RunResult&, bool)>& take_;
      const std::function<bool(Tally&&, bool)>& take_tally_;
      Explorer(const std::function<bool()>& g, const std::function<bool(const RunResult&, bool)>& t,
               const std::function<bool(Tally&&, bool)>& tt)
          : go_on_(g), take_(t), take_tally_(tt) {}
      bool go_on() override { return go_on_(); }
      bool take(const RunResult& r, bool redundant) override { return take_(r, redundant); }
      bool take_tally(Tally&& t, bool cut) override { return take_tally_(std::move(t), cut); }
    } explorer(go_on, take, take_tally);
    tallied_ = static_cast<bool>(take_tally);
    Dpor d(s_.preemption_bound, o_.memory_model != "sc", s_.jobs >= 2);
    if (s_.jobs < 2) {
      walk(d, 0, explorer, {});
      return stats_;
    }
    fiber::WorkerPool pool(s_.jobs, [this] { return next_task(); });
    pool_ = &pool;
    std::exception_ptr error;
    pool.run([&] {
      try {
        walk(d, 0, explorer, {});
      } catch (...) {
        error = std::current_exception();
      }
      pool.stop();  // every other walk is of a dropped subtree now
    });
    pool_ = nullptr;
    if (error) std::rethrow_exception(error);
    std::lock_guard<std::mutex> g(lock_);
    stats_.runs_ahead = runs_ahead_;
    stats_.taken_over = taken_over_;
    stats_.passing = std::chrono::duration<double>(passing_).count();
    stats_.runs_lost = runs_on_workers_ - runs_ahead_;
    const fiber::WorkerPool::IdleTime idle = pool.idle_time();
    stats_.idle_start = idle.start;
    stats_.idle_between = idle.between;
    stats_.idle_end = idle.end;
    return stats_;
  }

 private:
  // What a subtree changes of a node at or above its root (see above): the
  // backtrack entries it adds, the sleep set it leaves, and the steps of the
  // node's alternatives as they last turned out. (Moved out of the walk's
  // nodes, whose other buffers stay for the thread's next subtree.)
  struct Effect {
    Dpor::Alternatives backtrack;
    decltype(Dpor::Node::sleep) sleep;
    std::vector<StepShape> shapes;
  };
  // A subtree handed to another thread: the runs below choice `prefix[root].chosen`
  // at node `root`, made on a copy of nodes 0..root as the walk expects them.
  // (Made again over one whose last holder let it go, its nodes copied into
  // those of its last use: see new_task().)
  struct Task {
    Dpor::Nodes prefix;  // nodes 0..root; backtrack sets empty
    std::size_t root = 0;
    std::vector<std::uint64_t> order;  // the search's order: the least first
    // Into or out of `queued` only with the search's lock_ held (it guards the
    // queue); the other changes with `lock`.
    enum class State : std::uint8_t { queued, running, finished, dropped };
    std::atomic<State> state = State::queued;
    std::mutex lock;  // guards the runs, after and error; taken after lock_, never before
    Runs runs;                      // made, not yet taken by the walk that spawned it
    std::size_t kept = 0;           // of them, those kept behind a pointer (Made::run)
    // Or, where the search's runs are tallied, all of them, the last one cut or
    // not: only its walk's thread touches them until `finished`.
    Tally tally;
    bool cut = false;
    std::vector<Effect> after;  // finished: on nodes 0..root
    std::exception_ptr error;
    // Parked (under `lock`): the walk that takes the runs, for a batch or
    // the end; the walk that makes them, for room in `runs`.
    fiber::WorkerPool::Waiter taker, maker;
  };
  using TaskPtr = std::shared_ptr<Task>;
  // Threads take the shallowest branch first (the largest subtree, the one
  // its walk reaches last: the most time to finish before it is needed), then
  // the one the search takes first.
  struct Sooner {
    bool operator()(const TaskPtr& a, const TaskPtr& b) const {
      if (a->root != b->root) return a->root < b->root;
      if (a->order != b->order) return a->order < b->order;
      return a.get() < b.get();
    }
  };

  // Runs a task makes ahead of the walk that will take them: at most kBuffered
  // in all, of them at most kKept kept behind a pointer (a few hundred bytes
  // each; a slimmed redundant run takes 24). On histogram.plain_rmw <<<1,14>>>
  // at 16 jobs, where settled repeats stop early and two runs in three are
  // short and redundant, 16384 runs of either kind took 8.5 s (168 MB at its
  // peak), 1M runs of which 16384 kept 7.6 s, of which 65536 kept 6.0-6.7 s
  // (230-246 MB); more changed nothing. A walk waiting for them is woken at
  // every kBatch-th (or at the end).
  static constexpr std::size_t kBuffered = std::size_t{1} << 20;
  static constexpr std::size_t kKept = std::size_t{1} << 16;
  static constexpr std::size_t kBatch = 64;

  // The sequential search below the first `floor` nodes of `d`'s stack (its
  // choices set), from the run at the current choices until next() would
  // leave them. false: `sink` stopped it.
  bool walk(Dpor& d, std::size_t floor, Sink& sink, const std::vector<std::uint64_t>& order) {
    std::vector<std::vector<TaskPtr>> spawned;  // per node: tasks for branches there
    std::uint64_t serial = 0;
    struct DropAll {
      SubtreeSearch& s;
      std::vector<std::vector<TaskPtr>>& spawned;
      ~DropAll() { s.drop_from(spawned, 0); }
    } drop_all{*this, spawned};
    struct KeptRun {  // each run into it, in the buffers of the one before
      std::unique_ptr<RunResult> r = spare_run() ? std::move(spare_run()) : std::make_unique<RunResult>();
      ~KeptRun() { spare_run() = std::move(r); }
    } kept;
    RunResult& r = *kept.r;
    struct CountRuns {  // runs on other threads than the search's first walk, added once (no shared counter a run)
      std::atomic<std::uint64_t>& to;
      std::uint64_t made = 0;
      ~CountRuns() { to += made; }
    } on_workers{runs_on_workers_};
    for (;;) {
      if (!sink.go_on()) return false;
      d.begin_run(r);
      run_once(m_, c_, o_, d, r);
      if (floor > 0) ++on_workers.made;
      // The search stops at a run cut short (a time limit, an interrupt),
      // or whose analysis was: passed on for the sink to stop at, counted
      // nowhere. (A run of thousands of threads takes longer to analyse
      // than to make.)
      if (r.cut || !d.analyse(r, o_.cut)) [[unlikely]] {
        r.cut = r.abandoned = true;
        sink.take(r, true);
        return false;
      }
      const bool redundant = r.abandoned || d.repeats(r);
      if (!sink.take(r, redundant)) return false;
      if (pool_ != nullptr && fiber::WorkerPool::others_ready() && !pool_->stopping()) fiber::WorkerPool::yield();
      for (;;) {
        if (pool_ != nullptr) spawn(d, floor, spawned, order, serial);  // (a search on one thread hands out none)
        if (!d.next(floor)) return true;
        if (spawned.empty()) break;  // (none handed out anywhere, as in a search on one thread: asked first)
        const std::size_t e = d.stack_.size() - 1;
        if (spawned.size() > e + 1) {
          drop_from(spawned, e + 1);
          spawned.resize(e + 1);
        }
        if (spawned.size() <= e) break;  // (no task handed out there, as in a search on one thread: walk it here)
        TaskPtr t = claim(d, e, spawned);
        if (!t) break;  // walk it here
        if (!consume(*t, d, e, sink, floor == 0)) return false;
      }
    }
  }

  // The task for the branch the walk stands at (node e), if one was handed
  // out and its copy agrees with the walk's nodes in what the subtree reads
  // (and a thread has started it; a queued one is walked here instead).
  TaskPtr claim(const Dpor& d, std::size_t e, std::vector<std::vector<TaskPtr>>& spawned) {
    if (spawned.size() <= e) return nullptr;
    std::vector<TaskPtr>& at = spawned[e];
    const auto it = std::find_if(at.begin(), at.end(), [&](const TaskPtr& t) {
      return t->prefix[e].chosen == d.stack_[e].chosen;
    });
    if (it == at.end()) return nullptr;
    TaskPtr t = *it;
    at.erase(it);
    std::unique_lock<std::mutex> g(lock_);
    if (t->state != Task::State::queued || !s_.take_back) {
      g.unlock();  // the copy is not changed once the task is queued
      if (agrees(t->prefix, d.stack_, e)) {
        ++taken_over_;
        return t;
      }
      g.lock();
    }
    drop(*t);
    return nullptr;
  }

  // Do `a` and `b` agree in what the subtree below node e reads of nodes 0..e,
  // given the same choices above e? (the sleep sets; the done set of the last
  // thread node and the steps of its done threads as they turned out)
  static bool agrees(const Dpor::Nodes& a, const Dpor::Nodes& b, std::size_t e) {
    const std::size_t p = thread_above(a, e);
    if (p != none) {
      if (a[p].done != b[p].done) return false;
      for (std::size_t k = 0; k < a[p].keys.size(); ++k)
        if (a[p].done.count(k) && !(a[p].shapes[k] == b[p].shapes[k])) return false;
    }
    for (std::size_t k = 0; k <= e; ++k)
      if (a[k].sleep != b[k].sleep) return false;
    return true;
  }

  // Takes the runs of task `t` (the subtree below node e of `d`) in order,
  // then applies its effect on nodes 0..e. `top`: the walk of the whole search.
  // While no runs are there, the walk parks (it wakes for each batch).
  // Tallied, it parks until the subtree's end and takes its tally: one
  // hand-over, however many runs (the search's first walk would pass on every
  // run of the search one by one, while the threads whose subtrees it reaches
  // later wait for room in their queues).
  bool consume(Task& t, Dpor& d, std::size_t e, Sink& sink, bool top) {
    if (tallied_) {
      if (!wait_end(t, top)) return false;
      if (top) runs_ahead_ += t.tally.executions + t.tally.redundant;
      if (!sink.take_tally(std::move(t.tally), t.cut)) {
        std::lock_guard<std::mutex> g(lock_);
        drop(t);
        return false;
      }
      if (t.error) std::rethrow_exception(t.error);
      apply(t, d, e);
      return true;
    }
    Runs runs;
    for (;;) {
      {
        std::unique_lock<std::mutex> g(t.lock);
        auto ready = [&] { return pool_->stopping() || !t.runs.empty() || t.state == Task::State::finished; };
        if (!ready()) {
          const auto since = std::chrono::steady_clock::now();
          t.taker.park_until(g, ready);
          if (top) add_waiting(std::chrono::steady_clock::now() - since);
        }
        if (pool_->stopping()) return false;
        if (t.runs.empty()) break;  // finished
        runs.swap(t.runs);
        t.kept = 0;
        t.maker.wake();
      }
      if (top) runs_ahead_ += runs.size();
      const auto passing_since = std::chrono::steady_clock::now();
      const bool passed = sink.take_all(runs);
      if (top) passing_ += std::chrono::steady_clock::now() - passing_since;  // one walk only: no lock
      if (!passed) {
        std::lock_guard<std::mutex> g(lock_);
        drop(t);
        return false;
      }
      runs.clear();
    }
    if (t.error) std::rethrow_exception(t.error);  // set before `finished`, seen under t.lock
    apply(t, d, e);
    return true;
  }

  // Parks until task `t` has ended. false: the search stops.
  bool wait_end(Task& t, bool top) {
    std::unique_lock<std::mutex> g(t.lock);
    auto ended = [&] { return pool_->stopping() || t.state == Task::State::finished; };
    if (!ended()) {
      const auto since = std::chrono::steady_clock::now();
      t.taker.park_until(g, ended);
      if (top) add_waiting(std::chrono::steady_clock::now() - since);
    }
    return !pool_->stopping();
  }

  // The effect of task `t`'s subtree, ended, on nodes 0..e of `d`.
  static void apply(Task& t, Dpor& d, std::size_t e) {
    for (std::size_t k = 0; k <= e; ++k) {
      Dpor::Node& n = d.stack_[k];
      Effect& m = t.after[k];
      n.backtrack.insert(m.backtrack);
      n.sleep = std::move(m.sleep);
      if (!n.sleep.empty()) d.kept_asleep_ = true;  // (it may hold one)
      n.shapes = std::move(m.shapes);
    }
  }

  // While fewer tasks are queued than the idle threads plus `stock` (so a
  // thread that ends its task finds the next one waiting): hands out the
  // branches the walk will take next, as far as the backtrack entries known
  // now tell, the shallowest first, at nodes deep enough above the last
  // run's end.
  void spawn(const Dpor& d, std::size_t floor, std::vector<std::vector<TaskPtr>>& spawned,
             const std::vector<std::uint64_t>& order, std::uint64_t& serial) {
    if (s_.jobs < 2) return;
    const auto& stack = d.stack_;
    if (stack.size() <= floor) return;
    // Nodes above `high` have split_above thread decisions below them on the
    // stack (those between its nodes included, Dpor::Nodes).
    const auto decisions = [](const Dpor::Node& n) { return n.step + (n.kind == ChoiceKind::thread ? 1 : 0); };
    const std::size_t made = decisions(stack[stack.size() - 1]);
    std::size_t high = stack.size();
    while (high > floor && made - decisions(stack[high - 1]) < s_.split_above) --high;
    if (high <= floor) return;
    if (queued_.load(std::memory_order_relaxed) >= pool_->idle() + s_.stock) return;  // (after every run of every walk: no lock)
    std::size_t queued = 0;  // (a task leaves `queued` under the lock; counting them without it is close enough)
    for (const auto& at : spawned)
      for (const TaskPtr& t : at) queued += t->state == Task::State::queued;
    if (queued >= s_.offered) return;
    if (spawned.size() < high) spawned.resize(high);
    std::vector<TaskPtr> fresh;
    upcoming(d, floor, high, [&](std::size_t node, unsigned chosen, const Dpor::Alternatives& done) {
      std::vector<TaskPtr>& at = spawned[node];
      const auto it = std::find_if(at.begin(), at.end(), [&](const TaskPtr& t) {
        return t->prefix[node].chosen == chosen;
      });
      const std::size_t p = thread_above(stack, node);
      if (it != at.end()) {
        if (p == none || (*it)->prefix[p].done == done) return true;  // handed out already
        {
          std::lock_guard<std::mutex> g(lock_);
          queued -= (*it)->state == Task::State::queued;
          drop(**it);
        }
        at.erase(it);
      }
      TaskPtr t = new_task();
      t->root = node;
      t->prefix.assign(stack.begin(), stack.begin() + static_cast<std::ptrdiff_t>(node + 1));
      for (Dpor::Node& n : t->prefix) n.backtrack.clear();
      t->prefix[node].chosen = chosen;
      if (p != none) t->prefix[p].done = done;
      t->order = order;
      t->order.push_back(std::numeric_limits<std::uint64_t>::max() - node);  // deeper first, as the walk
      t->order.push_back(serial++);
      at.push_back(t);
      fresh.push_back(std::move(t));
      return ++queued < s_.offered;
    });
    if (fresh.empty()) return;
    {
      std::lock_guard<std::mutex> g(lock_);
      for (TaskPtr& t : fresh) queue_.insert(t);
      changed();
    }
    for (std::size_t k = 0; k < fresh.size(); ++k) pool_->offered();
  }

  // The branches next() would take at nodes low..high-1 of `d`'s stack, the
  // shallowest first and at one node in its order, if no run added a
  // backtrack entry: calls branch(node, choice, done set of the node's thread
  // node then) until it returns false.
  template <class Branch>
  static void upcoming(const Dpor& d, std::size_t low, std::size_t high, Branch&& branch) {
    const auto& stack = d.stack_;
    for (std::size_t k = low; k < std::min(high, stack.size()); ++k) {
      const Dpor::Node& n = stack[k];
      unsigned chosen = n.chosen;
      if (n.kind == ChoiceKind::thread) {
        Dpor::Alternatives done = n.done;
        done.insert(chosen);
        if (done.includes(n.backtrack)) continue;  // nothing left to take here
        while (const auto next = d.following(n, chosen, done)) {
          chosen = *next;
          if (!branch(k, chosen, done)) return;
          done.insert(chosen);
        }
      } else {
        static const Dpor::Alternatives nothing;
        const std::size_t parent = thread_above(stack, k);
        while (const auto next = d.following(n, chosen, n.done)) {
          chosen = *next;
          if (!branch(k, chosen, parent == none ? nothing : stack[parent].done)) return;
        }
      }
    }
  }

  // Drops the tasks a walk handed out at nodes `from` and below. (The search's
  // lock is contended: it is taken only when there is a task to drop.)
  void drop_from(const std::vector<std::vector<TaskPtr>>& spawned, std::size_t from) {
    const auto at = spawned.begin() + static_cast<std::ptrdiff_t>(std::min(from, spawned.size()));
    if (std::all_of(at, spawned.end(), [](const std::vector<TaskPtr>& ts) { return ts.empty(); })) return;
    std::lock_guard<std::mutex> g(lock_);
    for (auto it = at; it != spawned.end(); ++it)
      for (const TaskPtr& t : *it) drop(*t);
  }

  // With lock_ held: nobody will take `t`'s runs.
  void drop(Task& t) {
    if (t.state == Task::State::queued) {
      for (auto it = queue_.begin(); it != queue_.end(); ++it)
        if (it->get() == &t) {
          queue_.erase(it);
          changed();
          break;
        }
    }
    std::lock_guard<std::mutex> g(t.lock);
    t.state = Task::State::dropped;
    t.runs.clear();
    t.kept = 0;
    t.maker.wake();
  }

  // A task's walk hands its runs to the walk that will take them: queued,
  // or, where the search's runs are tallied (tallied_), added to the task's
  // tally (its own runs, and the tallies of the subtrees it took over).
  struct Buffer final : Sink {
    SubtreeSearch& s;
    Task& t;
    Buffer(SubtreeSearch& search, Task& task) : s(search), t(task) {}
    bool go_on() override {
      if (s.tallied_) return !s.pool_->stopping() && t.state != Task::State::dropped;
      std::unique_lock<std::mutex> g(t.lock);
      wait_for_room(g);
      return !s.pool_->stopping() && t.state != Task::State::dropped;
    }
    bool take(const RunResult& r, bool redundant) override {
      if (s.tallied_) {
        if (r.cut) {  // (the search stops at it: take_tally)
          t.cut = true;
          return false;
        }
        t.tally.add(r, redundant);
        return true;
      }
      Made m = made(r, redundant);  // r keeps its buffers for the walk's next run
      std::lock_guard<std::mutex> g(t.lock);
      if (t.state == Task::State::dropped) return false;
      t.kept += m.run != nullptr;
      t.runs.push_back(std::move(m));
      if (t.runs.size() % kBatch == 0) t.taker.wake();
      return true;
    }
    bool take_all(Runs& runs) override {
      if (s.s_.slim)
        for (Made& m : runs)
          if (m.run && !m.redundant && !first(*m.run)) m.run->log = ChoiceLog{};
      std::unique_lock<std::mutex> g(t.lock);
      wait_for_room(g);
      if (s.pool_->stopping() || t.state == Task::State::dropped) return false;
      for (Made& m : runs) {
        t.kept += m.run != nullptr;
        t.runs.push_back(std::move(m));
      }
      t.taker.wake();
      return true;
    }
    bool take_tally(Tally&& later, bool cut) override {
      t.tally.add(std::move(later));
      t.cut = cut;
      return !cut;
    }

   private:
    // What the explorer may still use of a run (explorer.cpp), copied: of a
    // redundant run its decisions; of another its outcome, findings and
    // fingerprint, and its log (the witness) only if it is the first here of
    // its outcome or of one of its findings: a later one is never the first of
    // the whole search. So many more runs fit in the buffer, and the run
    // itself keeps its buffers for the walk's next run (no allocation there).
    Made made(const RunResult& r, bool redundant) {
      if (!s.s_.slim) return {redundant, 0, std::make_unique<RunResult>(r)};
      if (redundant) return {true, r.scheduling_decisions, nullptr};
      auto kept = std::make_unique<RunResult>();
      kept->scheduling_decisions = r.scheduling_decisions;
      kept->completed = r.completed;
      kept->outcome = r.outcome;
      kept->bad = r.bad;
      kept->findings = r.findings;
      kept->finding_keys = r.finding_keys;
      kept->finding_hashes = r.finding_hashes;
      kept->fingerprint = r.fingerprint;
      if (first(r)) kept->log = r.log;
      return {false, 0, std::move(kept)};
    }
    // Is `r` the first run here of its outcome or of one of its findings?
    bool first(const RunResult& r) {
      bool is = r.completed && seen.insert("outcome " + r.outcome.text()).second;
      for (const std::string& k : r.finding_keys) is |= seen.insert("finding " + k).second;
      return is;
    }
    std::unordered_set<std::string> seen;  // outcomes (their text) and findings (key) of the runs taken

    // With t.lock held: parks until the walk that takes the runs made room
    // (or will take none).
    void wait_for_room(std::unique_lock<std::mutex>& g) {
      t.maker.park_until(g, [&] {
        return s.pool_->stopping() || t.state == Task::State::dropped ||
               (t.runs.size() < kBuffered && t.kept < kKept);
      });
    }
  };

  // A task, new, or one whose last holder let it go, made new but for the
  // buffers of its nodes and order: a subtree's copy of the nodes above it
  // then allocates nothing, where each node's containers were allocated
  // anew, and freed on another thread (the walk that took the subtree over).
  TaskPtr new_task() {
    Task* t = nullptr;
    {
      std::lock_guard<std::mutex> g(spare_lock_);
      if (!spare_.empty()) {
        t = spare_.back();
        spare_.pop_back();
      } else {
        t = tasks_.emplace_back(std::make_unique<Task>()).get();
      }
    }
    return TaskPtr(t, [this](Task* done) { recycle(*done); });
  }
  // Task `t`, let go by its last holder, made new but for the nodes' and
  // order's buffers (emptied), to be taken again. (Made anew, not field by
  // field: a field added to Task is new here too.)
  void recycle(Task& t) {
    Dpor::Nodes prefix = std::move(t.prefix);
    std::vector<std::uint64_t> order = std::move(t.order);
    t.~Task();
    new (&t) Task;
    prefix.clear();
    order.clear();
    t.prefix = std::move(prefix);
    t.order = std::move(order);
    std::lock_guard<std::mutex> g(spare_lock_);
    spare_.push_back(&t);
  }

  // With lock_ held, after queue_ changed.
  void changed() { queued_.store(queue_.size(), std::memory_order_relaxed); }
  void add_waiting(std::chrono::steady_clock::duration waited) {
    std::lock_guard<std::mutex> g(lock_);
    stats_.waiting += std::chrono::duration<double>(waited).count();
  }

  // The pool's source: a walk of the first queued subtree, if any.
  fiber::WorkerPool::Body next_task() {
    TaskPtr t;
    {
      std::lock_guard<std::mutex> g(lock_);
      if (queue_.empty()) return {};
      t = *queue_.begin();
      queue_.erase(queue_.begin());
      t->state = Task::State::running;
      changed();
    }
    return [this, t] { make(*t); };
  }

  // Walks the subtree of `t` on a stack of this thread's own.
  void make(Task& t) {
    Buffer buffer(*this, t);
    Dpor d(s_.preemption_bound, o_.memory_model != "sc", s_.jobs >= 2);
    std::exception_ptr error;
    try {
      d.stack_.assign(t.prefix);
      d.kept_asleep_ = true;  // (its nodes may hold one)
      walk(d, t.root + 1, buffer, t.order);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> g(t.lock);
    if (t.state == Task::State::dropped) return;
    t.error = error;
    const std::size_t above = std::min(t.root + 1, d.stack_.size());  // (all of them, but after a throw)
    t.after.reserve(above);
    for (std::size_t k = 0; k < above; ++k) {
      Dpor::Node& n = d.stack_[k];
      t.after.push_back({std::move(n.backtrack), std::move(n.sleep), std::move(n.shapes)});
    }
    t.state = Task::State::finished;
    t.taker.wake();
  }

  const models::Model& m_;
  const models::Config& c_;
  const RunOptions& o_;
  const DporSearch& s_;

  // Every task made, and those to take again (spare_lock_ is taken last:
  // nothing is taken while it is held). (Before the queue: the tasks it
  // holds at the end go back to spare_ as it is destroyed.)
  std::vector<std::unique_ptr<Task>> tasks_;
  std::mutex spare_lock_;
  std::vector<Task*> spare_;

  fiber::WorkerPool* pool_ = nullptr;  // with jobs > 1, while search() runs
  bool tallied_ = false;  // the runs of a subtree walked on another thread reach the sink as one tally
  std::mutex lock_;  // guards the queue and stats_
  std::set<TaskPtr, Sooner> queue_;
  std::atomic<std::size_t> queued_ = 0;  // queue_.size(), to read without the lock
  SearchStats stats_;
  std::atomic<std::uint64_t> runs_on_workers_{0}, runs_ahead_{0}, taken_over_{0};
  std::chrono::steady_clock::duration passing_{};  // the search's first walk's only
};

SearchStats dpor_search(const models::Model& m, const models::Config& c, const RunOptions& o, const DporSearch& s,
                        const std::function<bool()>& go_on,
                        const std::function<bool(const RunResult&, bool redundant)>& take,
                        const std::function<bool(Tally&&, bool cut)>& take_tally) {
  return SubtreeSearch(m, c, o, s).search(go_on, take, take_tally);
}

}  // namespace scopesim
