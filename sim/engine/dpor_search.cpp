#include "sim/engine/dpor_search.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "sim/engine/dpor.hpp"

namespace scopesim {

namespace {

constexpr std::size_t none = ~std::size_t{0};

// Nodes one run added to the stack, as it made them; never changed after.
// A speculative run copies the nodes above its branch from these.
struct Segment {
  std::shared_ptr<const Segment> above;  // holds the nodes before `first`
  std::size_t first = 0;
  std::vector<Dpor::Node> nodes;
};

// A branch the search is expected to take, and the run below it. The run is
// the one the sequential search makes there when, at that time, the choices
// on the stack are `path` and the done set of node `parent` (the last thread
// node at or above the branch) is `done`: only those parts of the stack that
// change are read by a run (dpor.hpp, at SpeculativeSearch).
struct Task {
  std::size_t node = 0;         // the branch node
  std::vector<unsigned> path;   // choices at nodes 0..node
  std::size_t parent = none;
  std::set<std::uint64_t> done;
  std::shared_ptr<const Segment> segment;  // holds node `node`
  std::size_t root_node = 0;               // the branch on the search's stack this run hangs below
  unsigned root_choice = 0;
  std::uint64_t serial = 0;                // tie-break in the queue
  enum class State : std::uint8_t { queued, running, finished, cancelled } state = State::queued;
  // The run, and what it adds to the search.
  RunResult run;
  bool redundant = false;
  std::vector<std::pair<std::size_t, std::set<std::uint64_t>>> added;  // backtrack entries at nodes 0..node
  std::vector<Dpor::Node> nodes;                                       // made below the branch
  std::shared_ptr<const Segment> made;                                 // the same, for other runs to copy
  std::vector<std::shared_ptr<Task>> children;  // runs made ahead below this one's nodes
  std::exception_ptr error;
};
using TaskPtr = std::shared_ptr<Task>;

// The search takes deeper branches first, and at one node the lower choices;
// the runs below a branch after it.
struct Sooner {
  bool operator()(const TaskPtr& a, const TaskPtr& b) const {
    if (a->root_node != b->root_node) return a->root_node > b->root_node;
    if (a->root_choice != b->root_choice) return a->root_choice < b->root_choice;
    if (a->node != b->node) return a->node > b->node;
    if (a->path.back() != b->path.back()) return a->path.back() < b->path.back();
    return a->serial < b->serial;
  }
};

}  // namespace

// The sequential DPOR search stays the one source of truth: it takes every
// branch in its order and applies every run's analysis itself. Runs below the
// branches it will take next are made ahead on worker threads, each on its own
// copy of the stack; a run is used only when the branch the search reaches is
// the one predicted (same node, choice, and done set of the node's thread),
// else made again. So every run, every count and every witness is the
// sequential search's for any number of jobs.
class SpeculativeSearch {
 public:
  SpeculativeSearch(const models::Model& m, const models::Config& c, const RunOptions& o, const DporSearch& s)
      : m_(m), c_(c), o_(o), s_(s), dpor_(s.preemption_bound, o.memory_model != "sc"),
        ahead_(8 * std::size_t{s.jobs}) {}

  ~SpeculativeSearch() {
    {
      std::lock_guard<std::mutex> g(lock_);
      stopping_ = true;
    }
    work_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  void search(const std::function<bool()>& go_on, const std::function<bool(const RunResult&, bool)>& take) {
    if (!go_on()) return;
    dpor_.begin_run();
    RunResult first = run_once(m_, c_, o_, dpor_);
    dpor_.analyse(first);
    const bool redundant = first.abandoned || dpor_.repeats(first);
    auto root = std::make_shared<Segment>();
    root->nodes = dpor_.stack_;
    segment_of_.assign(dpor_.stack_.size(), root);
    tasks_at_.assign(dpor_.stack_.size(), {});
    for (unsigned k = 1; k < s_.jobs; ++k) workers_.emplace_back([this] { work(); });
    predict();
    if (!take(first, redundant)) return;
    Dpor own(s_.preemption_bound, o_.memory_model != "sc");
    while (dpor_.next()) {
      const std::size_t e = dpor_.stack_.size() - 1;
      for (std::size_t k = e + 1; k < tasks_at_.size(); ++k)
        for (const TaskPtr& t : tasks_at_[k]) cancel(t);
      tasks_at_.resize(e + 1);
      segment_of_.resize(e + 1);
      if (!go_on()) return;
      static const std::set<std::uint64_t> nothing;
      const std::size_t parent = thread_above(dpor_.stack_, e);
      TaskPtr t = expect(e, dpor_.stack_[e].chosen, parent == none ? nothing : dpor_.stack_[parent].done);
      std::erase(tasks_at_[e], t);
      finish(t, own);
      if (t->error) std::rethrow_exception(t->error);
      for (auto& [k, threads] : t->added) dpor_.stack_[k].backtrack.insert(threads.begin(), threads.end());
      for (Dpor::Node& n : t->nodes) dpor_.stack_.push_back(std::move(n));
      segment_of_.resize(dpor_.stack_.size(), t->made);
      tasks_at_.resize(dpor_.stack_.size());
      for (const TaskPtr& c : t->children) tasks_at_[c->node].push_back(c);
      predict();
      if (!take(t->run, t->redundant)) return;
    }
  }

 private:
  // The last thread node at or above `node`, none if there is none.
  static std::size_t thread_above(const std::vector<Dpor::Node>& stack, std::size_t node) {
    for (std::size_t k = node + 1; k-- > 0;)
      if (stack[k].kind == ChoiceKind::thread) return k;
    return none;
  }

  // The branches next() would take at nodes `low` and below of `d`'s stack,
  // in its order, if no run added a backtrack entry: calls
  // branch(node, choice, done set of the node's thread node) until it returns false.
  template <class Branch>
  static void upcoming(const Dpor& d, std::size_t low, Branch&& branch) {
    static const std::set<std::uint64_t> nothing;
    const auto& stack = d.stack_;
    for (std::size_t k = stack.size(); k-- > low;) {
      const Dpor::Node& n = stack[k];
      unsigned chosen = n.chosen;
      if (n.kind == ChoiceKind::thread) {
        if (std::none_of(n.backtrack.begin(), n.backtrack.end(),
                         [&](std::uint64_t q) { return q != n.keys[chosen] && !n.done.count(q); }))
          continue;  // nothing left to take here
        std::set<std::uint64_t> done = n.done;
        done.insert(n.keys[chosen]);
        while (const auto next = d.following(n, chosen, done)) {
          chosen = *next;
          if (!branch(k, chosen, done)) return;
          done.insert(n.keys[chosen]);
        }
      } else {
        const std::size_t parent = thread_above(stack, k);
        while (const auto next = d.following(n, chosen, n.done)) {
          chosen = *next;
          if (!branch(k, chosen, parent == none ? nothing : stack[parent].done)) return;
        }
      }
    }
  }

  // A run below choice `chosen` at node `node` of `stack`, `done` explored at
  // the node's thread node, its nodes above held by `segment`.
  static TaskPtr branch_of(const std::vector<Dpor::Node>& stack, std::size_t node, unsigned chosen,
                           const std::set<std::uint64_t>& done, std::shared_ptr<const Segment> segment) {
    auto t = std::make_shared<Task>();
    t->node = node;
    t->path.reserve(node + 1);
    for (std::size_t k = 0; k < node; ++k) t->path.push_back(stack[k].chosen);
    t->path.push_back(chosen);
    t->parent = thread_above(stack, node);
    t->done = done;
    t->segment = std::move(segment);
    t->root_node = node;
    t->root_choice = chosen;
    return t;
  }

  // Makes sure a run is made (or being made) for choice `chosen` at node
  // `node` with `done` explored at the node's thread node; returns it.
  TaskPtr expect(std::size_t node, unsigned chosen, const std::set<std::uint64_t>& done) {
    std::vector<TaskPtr>& at = tasks_at_[node];
    for (auto it = at.begin(); it != at.end(); ++it) {
      if ((*it)->path.back() != chosen) continue;
      if ((*it)->done == done) return *it;
      cancel(*it);
      at.erase(it);
      break;
    }
    TaskPtr t = branch_of(dpor_.stack_, node, chosen, done, segment_of_[node]);
    at.push_back(t);
    {
      std::lock_guard<std::mutex> g(lock_);
      t->serial = ++serial_;
      queue_.insert(t);
    }
    work_.notify_one();
    return t;
  }

  // Runs ahead: the next `ahead_` branches next() would take if no run
  // before them added a backtrack entry.
  void predict() {
    std::size_t listed = 0;
    upcoming(dpor_, 0, [&](std::size_t node, unsigned chosen, const std::set<std::uint64_t>& done) {
      expect(node, chosen, done);
      return ++listed < ahead_;
    });
  }

  void cancel(const TaskPtr& t) {
    std::lock_guard<std::mutex> g(lock_);
    drop(t);
  }
  // With lock_ held: `t` and the runs made ahead below it will not be taken.
  void drop(const TaskPtr& t) {
    if (t->state == Task::State::queued) queue_.erase(t);
    t->state = Task::State::cancelled;
    for (const TaskPtr& c : t->children) drop(c);
    t->children.clear();
  }

  // Waits for the run of `t`, or makes it here when no worker has started it.
  void finish(const TaskPtr& t, Dpor& own) {
    std::unique_lock<std::mutex> g(lock_);
    if (t->state == Task::State::queued) {
      queue_.erase(t);
      t->state = Task::State::running;
      g.unlock();
      make(*t, own);
      return;
    }
    done_.wait(g, [&] { return t->state == Task::State::finished; });
  }

  void work() {
    Dpor own(s_.preemption_bound, o_.memory_model != "sc");
    std::unique_lock<std::mutex> g(lock_);
    for (;;) {
      work_.wait(g, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      TaskPtr t = *queue_.begin();
      queue_.erase(queue_.begin());
      t->state = Task::State::running;
      g.unlock();
      make(*t, own);
      g.lock();
    }
  }

  // Makes the run of `t` on `own`, a worker's copy of the stack.
  void make(Task& t, Dpor& own) {
    std::vector<TaskPtr> children;
    try {
      align(t, own);
      own.begin_run();
      RunResult r = run_once(m_, c_, o_, own);
      own.analyse(r);
      t.redundant = r.abandoned || own.repeats(r);
      auto& stack = own.stack_;
      for (std::size_t k = 0; k <= t.node; ++k)
        if (!stack[k].backtrack.empty()) {
          t.added.emplace_back(k, std::move(stack[k].backtrack));
          stack[k].backtrack.clear();
        }
      const auto below = stack.begin() + static_cast<std::ptrdiff_t>(t.node + 1);
      auto made = std::make_shared<Segment>();
      made->above = t.segment;
      made->first = t.node + 1;
      made->nodes.assign(below, stack.end());
      t.made = std::move(made);
      // The first branches below this run, made ahead in turn (used once it is).
      upcoming(own, t.node + 1, [&](std::size_t node, unsigned chosen, const std::set<std::uint64_t>& done) {
        TaskPtr c = branch_of(stack, node, chosen, done, t.made);
        c->root_node = t.root_node;
        c->root_choice = t.root_choice;
        children.push_back(std::move(c));
        return children.size() < kChildren;
      });
      t.nodes.assign(std::make_move_iterator(below), std::make_move_iterator(stack.end()));
      stack.resize(t.node + 1);
      r.steps = {};
      r.trace = {};
      t.run = std::move(r);
    } catch (...) {
      t.error = std::current_exception();
      own.stack_.clear();
    }
    std::lock_guard<std::mutex> g(lock_);
    if (t.state != Task::State::running) return;
    t.state = Task::State::finished;
    if (queue_.size() < ahead_)
      for (TaskPtr& c : children) {
        c->serial = ++serial_;
        queue_.insert(c);
        t.children.push_back(std::move(c));
      }
    work_.notify_all();
    done_.notify_all();
  }

  // Brings `own`'s stack to the branch of `t`. A node is the same node as
  // long as the choices above it are (the search never takes a path twice),
  // so the nodes `own` holds from an earlier run are kept up to the first
  // choice that differs; the rest are copied from the segments.
  static void align(const Task& t, Dpor& own) {
    auto& stack = own.stack_;
    std::size_t same = 0;  // choices above node `same` agree
    const std::size_t common = std::min(stack.size(), t.node + 1);
    while (same < common && same < t.node && stack[same].chosen == t.path[same]) ++same;
    std::size_t keep = std::min(common, same + 1);  // nodes 0..keep-1 are the task's nodes
    stack.resize(keep);
    std::vector<const Segment*> chain;  // the segments that hold nodes keep..t.node, deepest first
    for (const Segment* s = t.segment.get(); s != nullptr; s = s->above.get()) {
      chain.push_back(s);
      if (s->first <= keep) break;
    }
    std::size_t at = chain.size() - 1;
    for (std::size_t k = keep; k <= t.node; ++k) {
      while (at > 0 && chain[at - 1]->first <= k) --at;
      stack.push_back(chain[at]->nodes[k - chain[at]->first]);
      stack.back().backtrack.clear();
    }
    for (std::size_t k = std::min(same, t.node); k <= t.node; ++k) stack[k].chosen = t.path[k];
    if (t.parent != none) stack[t.parent].done = t.done;
  }

  const models::Model& m_;
  const models::Config& c_;
  const RunOptions& o_;
  const DporSearch& s_;
  Dpor dpor_;  // the search
  const std::size_t ahead_;                    // runs made ahead: branches listed, and most queued
  static constexpr std::size_t kChildren = 4;  // runs made ahead below one run
  std::vector<std::shared_ptr<const Segment>> segment_of_;  // per node of the stack
  std::vector<std::vector<TaskPtr>> tasks_at_;             // per node: runs made ahead below it
  std::uint64_t serial_ = 0;

  std::mutex lock_;  // guards queue_, stopping_ and every Task::state
  std::condition_variable work_, done_;
  std::set<TaskPtr, Sooner> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

void dpor_search(const models::Model& m, const models::Config& c, const RunOptions& o, const DporSearch& s,
                 const std::function<bool()>& go_on, const std::function<bool(const RunResult&, bool redundant)>& take) {
  if (s.jobs > 1) {
    SpeculativeSearch(m, c, o, s).search(go_on, take);
    return;
  }
  Dpor dpor(s.preemption_bound, o.memory_model != "sc");
  do {
    if (!go_on()) return;
    dpor.begin_run();
    RunResult r = run_once(m, c, o, dpor);
    dpor.analyse(r);
    if (!take(r, r.abandoned || dpor.repeats(r))) return;
  } while (dpor.next());
}

}  // namespace scopesim
