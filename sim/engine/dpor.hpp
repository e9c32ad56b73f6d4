// The exhaustive strategy: stateless DPOR with sleep sets over the choice log.
// A Chooser: the explorer runs the model with it, hands each finished run to
// analyse(), and asks next() for the following branch. A run replays the
// stack's choices as its prefix (begin_run(), Chooser::prefix()), and asks
// choose() only past them.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/vector.hpp>

#include "sim/core/reused.hpp"
#include "sim/engine/execution.hpp"

namespace scopesim {

// ---- exhaustive: stateless DPOR with sleep sets over the choice log ----
//
// The search is a depth-first walk over decisions. Value decisions (read-from,
// coherence slot) explore every alternative; a block dispatch the first, and
// the others once a run shows a waiting block that is not isolated
// (note_dispatch_order()). Thread decisions
// explore only the threads DPOR puts in the node's backtrack set: after each
// run, every pair of dependent steps of different threads that are not ordered
// by the run's happens-before adds, at the earlier step's node, a thread that
// starts the reversal (initial()).
// Sleep sets skip threads whose step commutes with everything explored since.
//
// Reads-from sleep: a read does not decide what it returns by running before
// or after a write it need not see (semantics.md, "A read may return"): it
// chooses among the writes its view allows. So a sleeping thread whose next
// step is a read (a load or an RMW) stays half asleep when another thread
// writes its location: it
// may run, and reading a write made since it fell asleep is new. Returning an
// older write repeats the execution explored when it ran first (the write only
// added a candidate: coherence insertions only hide, never reveal, older
// writes; and a read of an older write commutes with the write), unless a spin
// wait later counted the writes that existed at that read, or an RMW's write
// went where it did not go when it ran first (placed_elsewhere()): repeats()
// decides after the run, which is then counted as redundant. Once neither can
// happen any more (its thread wrote since, and the read is no RMW that a
// later write could still place elsewhere: settled_repeat()), the run is
// abandoned at its next thread decision instead of made to its end.
// Under a memory model whose reads return only the latest write (sc), a read
// does choose by running after a write: both rules are off there.
//
// A write that waits behind loads (write_moves_back()): a run in which a
// thread done at a node later writes, behind only steps independent of the
// write, loads of its location and spin waits that woke to a newer write,
// repeats the run below that thread's branch with the write moved back; it
// is counted as redundant (off under sc and under a preemption bound).
//
// Commuting RMWs (docs/architecture.md, "Commuting RMWs"): two RMWs of one
// family whose results are unused (StepShape::commutes, known once a step
// ran: a node's shapes are replaced by the steps as they turned out) leave the
// same value in either order, and nothing but a reader of their location can
// tell which came first: a later load that does not see both (through
// barriers and waits: joins) may return the earlier one. So they are
// independent unless the run has such a witness: analyse() treats the pair
// as a race then, and wakes a thread the rule kept asleep (Sleeper::kept)
// when its location is read while it sleeps.
class Dpor final : public Chooser {
 public:
  // `predicts`: a search on several threads, which predicts subtrees by
  // the next steps of alternatives not taken yet (Node::shapes).
  Dpor(int preemption_bound, bool reads_choose, bool predicts = false)
      : bound_(preemption_bound), reads_choose_(reads_choose), predicts_(predicts) {
    stack_.adopt(std::move(kept_.stack));
    adopt(thread_nodes_, kept_.thread_nodes);
    adopt(done_nodes_, kept_.done_nodes);
    adopt(dispatch_nodes_, kept_.dispatch_nodes);
    adopt(prefix_, kept_.prefix);
  }
  ~Dpor() override {
    kept_.stack = stack_.release();
    kept_.thread_nodes = std::move(thread_nodes_);
    kept_.done_nodes = std::move(done_nodes_);
    kept_.dispatch_nodes = std::move(dispatch_nodes_);
    kept_.prefix = std::move(prefix_);
    kept().push_back(std::move(own_kept_));
  }
  Dpor(const Dpor&) = delete;
  Dpor& operator=(const Dpor&) = delete;

  // A thread asleep at a node, with its next step. `since`: the step from
  // which it sleeps; a half-asleep thread may run and read only a write made
  // at step `since` or later.
  struct Sleeper {
    StepShape shape;
    std::size_t since = 0;
    bool half = false;
    // The node where it first stayed asleep only because its RMW commutes
    // with the step taken before (npos: none): it wakes there if a reader of
    // its location could tell their order.
    std::size_t kept = npos;
    bool operator==(const Sleeper&) const = default;
  };
  static constexpr std::size_t npos = ~std::size_t{0};
  // A set of a node's alternatives, by their index in its keys: a bit each,
  // in words of 64, the first inline (most nodes have fewer alternatives;
  // what the others need, and what is seldom asked, is out of line). The
  // last word beyond it is never zero, so that equal sets are equal.
  class Alternatives {
   public:
    bool count(std::size_t k) const { return k < 64 ? (first_ >> k & 1) != 0 : count_far(k); }
    void insert(std::size_t k) {
      if (k < 64)
        first_ |= std::uint64_t{1} << k;
      else
        insert_far(k);
    }
    // Alternatives 0..n-1 (every one of a node with n).
    [[gnu::noinline]] void insert_all(std::size_t n) {
      for (std::size_t k = 0; k < n; ++k) insert(k);
    }
    [[gnu::noinline]] void insert(const Alternatives& o) {
      first_ |= o.first_;
      for (std::size_t k = 64; k < 64 * (1 + o.rest_.size()); ++k)
        if (o.count(k)) insert(k);
    }
    bool empty() const { return first_ == 0 && rest_.empty(); }
    // Is alternative k all it holds?
    bool just(std::size_t k) const { return k < 64 && first_ == std::uint64_t{1} << k && rest_.empty(); }
    // empty() and just() of the set of a node with n alternatives, which
    // holds no word beyond the first where n <= 64 (only an alternative
    // past 63 makes one, and clear() drops them).
    bool empty(std::size_t n) const { return first_ == 0 && (n <= 64 || rest_.empty()); }
    bool just(std::size_t k, std::size_t n) const {
      return k < 64 && first_ == std::uint64_t{1} << k && (n <= 64 || rest_.empty());
    }
    // Is every alternative of `o` in this set?
    bool includes(const Alternatives& o) const {
      return (o.first_ & ~first_) == 0 && (o.rest_.empty() || includes_far(o));
    }
    // Does it hold every alternative of a node with n (it holds no other)?
    // (Without counting them for the most, fewer than 64: a count is a call
    // where the build targets no popcnt instruction.)
    bool holds_all(std::size_t n) const { return n < 64 ? first_ == (std::uint64_t{1} << n) - 1 : size() == n; }
    std::size_t size() const {
      std::size_t n = static_cast<std::size_t>(std::popcount(first_));
      for (const std::uint64_t w : rest_) n += static_cast<std::size_t>(std::popcount(w));
      return n;
    }
    // The first alternative in the set from k on (npos: none).
    std::size_t next(std::size_t k) const {
      if (k < 64) {
        const std::uint64_t bits = first_ & (~std::uint64_t{0} << k);
        if (bits != 0) return static_cast<std::size_t>(std::countr_zero(bits));
        k = 64;
      }
      return rest_.empty() ? npos : next_far(k);
    }
    void clear() {
      first_ = 0;
      rest_.clear();
    }
    // clear() of the set of a node with n alternatives.
    void clear(std::size_t n) {
      first_ = 0;
      if (n > 64) rest_.clear();
    }
    bool operator==(const Alternatives&) const = default;

   private:
    [[gnu::noinline]] bool count_far(std::size_t k) const {
      return k / 64 <= rest_.size() && (rest_[k / 64 - 1] >> (k % 64) & 1) != 0;
    }
    [[gnu::noinline]] void insert_far(std::size_t k) {
      if (k / 64 > rest_.size()) rest_.resize(k / 64, 0);
      rest_[k / 64 - 1] |= std::uint64_t{1} << (k % 64);
    }
    [[gnu::noinline]] bool includes_far(const Alternatives& o) const {
      for (std::size_t w = 0; w < o.rest_.size(); ++w)
        if ((o.rest_[w] & ~(w < rest_.size() ? rest_[w] : 0)) != 0) return false;
      return true;
    }
    [[gnu::noinline]] std::size_t next_far(std::size_t k) const {  // (k >= 64)
      for (std::size_t w = k / 64; w <= rest_.size(); ++w) {
        const std::uint64_t bits = rest_[w - 1] & (w == k / 64 ? ~std::uint64_t{0} << (k % 64) : ~std::uint64_t{0});
        if (bits != 0) return w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      }
      return npos;
    }
    std::uint64_t first_ = 0;  // alternatives 0..63
    // 64 on, a word per 64. (Its size kept as such: empty(), asked of most
    // sets, is one load.)
    boost::container::vector<std::uint64_t> rest_;
  };

  // A node but its shapes (Node).
  struct NodeFields {
    ChoiceKind kind;
    // (Its size kept as such: asked of every node the search passes, it is
    // one load.)
    boost::container::vector<std::uint64_t> keys;
    // Of a value node only (banned to picks; a thread node's are never read:
    // see Node::clear()). Per alternative (bytes, not bits: asked at every
    // node the run passes; their sizes kept as such, as that of keys).
    boost::container::vector<std::uint8_t> banned;   // dispatch: orders of a set already explored in increasing order
    boost::container::vector<std::uint8_t> suspect;  // read of a half-asleep thread: older writes (see repeats())
    std::size_t since = 0;      // read of a half-asleep thread: the step from which it sleeps
    // Dispatch: the threads of each alternative's block (first id, count).
    std::vector<std::pair<ThreadId, std::uint32_t>> members;
    unsigned picks = 1;  // dispatch: blocks dispatched together (ChoicePoint::picks)
    unsigned chosen = 0;
    // The thread decisions the run made before this node's (a thread node's:
    // the index of the step taken here).
    std::size_t step = 0;
    std::size_t call = 0;  // its decision's place among those that ask the strategy (Chooser::prefix())
    Alternatives backtrack, done;  // dispatch: backtrack holds the blocks to dispatch here
    boost::container::flat_map<std::uint64_t, Sleeper> sleep;  // asleep threads
    int preemptions = 0;                     // before this node (counted under a bound only)
    std::uint64_t actor = 0;
  };

  struct Node : NodeFields {
    // Thread decisions: each alternative's next step, the taken ones' as
    // they turned out (each noted before it is read: the sleep sets of the
    // node's later branches read only those; of a node of one alternative
    // none is read, and its next node takes the step from the run). A
    // search that predicts (Dpor(predicts)) notes the step as each run makes
    // it, for the subtrees it hands out; any other notes it once, from the
    // last run of the branch, when next() takes the node's next branch
    // (note_taken(): the node's step is the same in every run of a branch
    // but for a value node of that step, and the last run made it). Those of
    // the others, as they were when the node was made,
    // are read only by the parallel search (SubtreeSearch: its predicted
    // done sets), so only a search that predicts keeps
    // them; elsewhere they are left as they were. Value decisions: none is
    // read. Only the first keys.size() are the node's: the vector only grows
    // (what an earlier node here left past them, or in a value node, is
    // never read), so that a node resizes it only when it has more
    // alternatives than any node here before, and where a step is first
    // noted (as the node is made in a search that predicts, else in
    // note_taken(): most nodes note none). A copy (a subtree's task,
    // SubtreeSearch) carries the node's own only: a stack that once held a
    // wider node (another exploration's on this thread: Kept) would
    // otherwise copy, node by node, what no one reads.
    std::vector<StepShape> shapes;

    Node() = default;
    Node(Node&&) = default;
    Node& operator=(Node&&) = default;
    Node(const Node& o) : NodeFields(o), shapes(o.shapes.begin(), o.own_end()) {}
    Node& operator=(const Node& o) {
      NodeFields::operator=(o);
      shapes.assign(o.shapes.begin(), o.own_end());
      return *this;
    }
    // Back to a new node, its containers keeping their capacity: every field
    // but kind, keys, shapes, step, call and actor, which add_node()
    // overwrites (keys and shapes left as they were, so that a node of the
    // arity of the one before it here resizes nothing; shapes: see there)
    // and those of a value node only (banned to picks), which choose_value()
    // clears (clear_value(): bans and suspects; a node that reads since,
    // members or picks sets them when made): a thread node, most nodes,
    // leaves them as they were. (Its keys are still those of the node it was,
    // whose sets are cleared.)
    void clear() {
      chosen = 0;
      backtrack.clear(keys.size());
      done.clear(keys.size());
      sleep.clear();
      preemptions = 0;
    }
    void clear_value() {
      banned.clear();
      suspect.clear();
    }

   private:
    std::vector<StepShape>::const_iterator own_end() const {
      return shapes.begin() + static_cast<std::ptrdiff_t>(std::min(shapes.size(), keys.size()));
    }
  };

  // The search's stack of nodes. A popped node stays in its place above the
  // top, so that the node pushed there next reuses its containers (moving a
  // node to a spare list and back cost some 190 instructions a new node).
  // A thread decision of one runnable thread that inherits no sleeper (most
  // of them: see choose()) has no node: it has no other branch, nothing
  // sleeps there, and a race with its step adds no backtrack entry (its
  // thread is the only one there). The run still takes its decision in the
  // prefix (0), and thread_nodes_ has npos for its step.
  using Nodes = Reused<Node>;

  // `run`: where the engine makes the run (its steps so far are read while it runs).
  void begin_run(const RunResult& run) {
    const std::size_t nodes = stack_.size();
    const Node* const branch = nodes > 0 ? &stack_[nodes - 1] : nullptr;  // the top node, where next() took a branch
    repeated_ = 0;  // the steps of the run before that begin before the branch
    if (branch != nullptr) {
      repeated_ = branch->step;
      if (repeated_ > 0 && branch->kind != ChoiceKind::thread) --repeated_;  // the branch is in that step
    }
    run_ = &run;
    abandoned_ = false;
    in_place_ = false;
    // The run replays the stack, each node's choice its prefix (Chooser::
    // prefix()): what choose() notes of a node the run passes is noted of
    // these here, in the order the run passes them. The nodes below the top
    // are the run before's, with its choices (next() changed only the top):
    // what it noted of them holds, but for the half-asleep thread (sleep
    // sets change between runs), noted again. (A search's first run, or a
    // subtree's on its copy of the stack, notes every node.)
    const std::size_t kept = nodes > 0 && call_ >= nodes ? nodes - 1 : 0;  // (the branch's, where not 0)
    if (kept == 0) {  // (next() keeps them from run to run)
      done_nodes_.clear();
      for (std::size_t i = 0; i < nodes; ++i)
        if (stack_[i].kind == ChoiceKind::thread && !stack_[i].done.empty()) done_nodes_.push_back(i);
    }
    // (note_passing() makes those of the nodes from `kept`; the run before
    // passed node `kept`, so this shortens the list: by erase(), which is
    // inlined, where resize() is a call.)
    thread_nodes_.erase(thread_nodes_.begin() + static_cast<std::ptrdiff_t>(kept > 0 ? branch->step : 0),
                        thread_nodes_.end());
    while (!dispatch_nodes_.empty() && dispatch_nodes_.back() >= kept) dispatch_nodes_.pop_back();
    while (!suspects_.empty() && suspects_.back().node >= kept) suspects_.pop_back();
    plain_ = bound_ < 0 && suspects_.empty();
    while (!inserting_.empty() && inserting_.back().first >= kept) inserting_.pop_back();
    // Before the top: the half-asleep thread of the last thread decision (if
    // it has a node), the burst of the dispatch nodes after it (those before
    // the top with no thread decision between).
    half_.on = false;
    burst_.on = false;
    if (!thread_nodes_.empty() && thread_nodes_.back() != npos) note_half(stack_[thread_nodes_.back()]);
    std::size_t burst = kept;
    while (burst > 0 && stack_[burst - 1].kind != ChoiceKind::thread && stack_[burst - 1].step == thread_nodes_.size())
      --burst;
    for (std::size_t i = burst; i < kept; ++i) note_burst(stack_[i]);
    // The prefix: each node's choice in its place, 0 (the one thread) in
    // those between. (The run before's holds up to the top's place. Only
    // places it held already are cleared: those it grows by are 0, and the
    // top's is set, so that most runs clear none.)
    const std::size_t filled = kept > 0 ? std::min(prefix_.size(), branch->call) : 0;
    const std::size_t places = nodes > 0 ? branch->call + 1 : 0;
    const std::size_t held = std::min(prefix_.size(), places > 0 ? places - 1 : 0);
    if (filled < held)
      std::fill(prefix_.begin() + static_cast<std::ptrdiff_t>(filled), prefix_.begin() + static_cast<std::ptrdiff_t>(held),
                0u);
    prefix_.resize(places);
    for (std::size_t i = nodes; i-- > 0 && stack_[i].call >= filled;) prefix_[stack_[i].call] = stack_[i].chosen;
    for (std::size_t i = kept; i < nodes; ++i) {
      const Node& n = stack_[i];
      if (thread_nodes_.size() < n.step) thread_nodes_.resize(n.step, npos);  // (the steps of no node before it)
      note_passing(i, n);
      if (n.kind == ChoiceKind::thread) {
        note_half(n);
      } else {
        note_inserting(i, n);
        note_burst(n);
        note_suspect(i, n);
      }
    }
    call_ = nodes;
    asked_ = prefix_.size();
  }

  // Asked past the prefix only: a new node, or a thread decision with none.
  // Most thread decisions have one runnable thread and inherit no sleeper
  // (the one before has none, and no done thread): in a search with no
  // bound and no suspect read, that thread runs, with nothing to check or
  // note, and no node (Nodes). Those are taken here; a node is made out of
  // line (choose_thread(), choose_value()).
  unsigned choose(const ChoicePoint& p) override {
    if (p.kind != ChoiceKind::thread) return choose_value(p);
    const std::size_t before = note_previous(p);
    if (p.keys.size() == 1 && plain_ &&
        (before == npos || (stack_[before].sleep.empty() && stack_[before].done.empty()))) {
      ++asked_;
      thread_nodes_.emplace_back(npos);  // (inlined, where push_back() was a call)
      half_.on = false;
      burst_.on = false;
      return 0;
    }
    return choose_thread(p, before);
  }

  // Does the finished run repeat an explored execution? It does when a
  // half-asleep thread read an older write, no spin wait of it counted the
  // writes that existed then, and, for an RMW, its write went where it went
  // when it ran first (the things the earlier run may differ in; see
  // placed_elsewhere()).
  bool repeats(const RunResult& r) {
    if (in_place_) return true;  // see waited_in_place()
    for (const auto& [node, s, since] : suspects_)
      if (s >= r.steps.size() || (!r.steps[s].counted && !placed_elsewhere(r.steps, s, since))) return true;
    // (A run with no done node above it, most of them, has no write to move
    // back: asked inline, before the call.)
    return reads_choose_ && bound_ < 0 && r.completed && !done_nodes_.empty() && write_moves_back(r.steps);
  }

  // Race analysis of a finished run: adds backtrack points.
  //
  // The steps a run repeats of the run analysed before it (those before the
  // branch next() took) are the same steps: what is a function of a step and
  // the steps before it is kept of them (their threads and columns, their
  // locations and earlier steps, coherence insertions), and the sleepers
  // they woke are woken. They have the same clocks and add the backtrack
  // points they added then; only what later steps tell of a step (Told) may
  // differ. So the race walk resumes at the first step that is new or was
  // told otherwise, from the per-step clocks kept of the run before (the
  // per-thread clocks there are rebuilt from them).
  //
  // `cut` (RunOptions::cut: a time limit, an interrupt), asked every 256
  // steps walked: true stops the analysis there, and analyse() returns
  // false; the search then stops, its state left for no later run (the
  // race walk of a launch of thousands of threads can take seconds).
  bool analyse(const RunResult& r, const std::function<bool()>& cut = {}) {
    const std::size_t n = std::min(r.steps.size(), thread_nodes_.size());
    if (predicts_ && n > 0 && thread_nodes_[n - 1] != npos) {  // the last step as it turned out (choose()
                                                               // noted each earlier one at the next
                                                               // thread decision: Node::shapes)
      Node& node = stack_[thread_nodes_[n - 1]];
      if (node.keys.size() > 1) node.shapes[node.chosen] = r.steps[n - 1].shape;
    }
    const std::size_t same = std::min({repeated_, analysed_, n});  // the steps repeated, with what is kept of them
    if (kept_.held < n) [[unlikely]]
      hold(n);
    // 1 + the highest thread a step names, of the runs of the search analysed
    // so far (those of the steps the run repeats among them): every use of
    // it (buffers' sizes, per-thread tables) takes a bound.
    std::size_t threads = same > 0 ? kept_.threads : 0;
    Columns& columns = kept_.columns;
    std::vector<std::size_t>& first = kept_.first_step;  // per thread: its first step (npos: none)
    std::vector<ThreadId>& stepped = kept_.stepped;      // the threads with one, in its order
    // Those whose first step the run does not repeat have none yet.
    std::size_t stepping = kept_.stepping;
    std::size_t sized = first.size();  // (first, columns.of, stepped and spawn grow together)
    while (stepping > 0 && first[stepped[stepping - 1]] >= same) {
      const ThreadId t = stepped[--stepping];
      first[t] = npos;
      columns.of[t] = 0;
    }
    // The step that spawned each thread (StepClocks): the race walk notes
    // those of the steps the run does not repeat as it passes them. (A
    // search's first run clears what the search before on this thread left,
    // the threads it starts with included.)
    std::vector<std::size_t>& spawn = kept_.spawn;
    if (same == 0) std::fill(spawn.begin(), spawn.end(), 0);
    Locations& places = kept_.places;
    Earlier earlier(r.steps, same, places, kept_.earlier);  // (before the steps from `same` are numbered again)
    places.resume(same, n);
    // One pass over the steps the run does not repeat: the threads they name,
    // the threads' first steps, their locations and earlier steps; then one
    // for the sleepers their reads wake (in most searches no sleeper was ever
    // kept so, kept_asleep_: none).
    // (A thread a step learns has ended, so a step before named it: its
    // spawn. A wait at a kernel's end learns every thread of the kernel.)
    const Step* const steps = r.steps.data();  // (not resized by the analysis)
    // The steps that read, ascending: those before `same` are the run
    // before's, each later one listed as the pass meets it.
    std::size_t* const reads = grown(kept_.reads, n);
    std::size_t reading = kept_.reading;
    while (reading > 0 && reads[reading - 1] >= same) --reading;
    // (`threads` counts a step's thread at its first step: one whose first
    // step the run repeats was counted when that step was analysed.)
    for (std::size_t j = same; j < n; ++j) {
      const Step& s = steps[j];
      reads[reading] = j;
      reading += s.shape.reads;
      if (s.listed) [[unlikely]] {
        for (ThreadId t : s.joins) threads = std::max<std::size_t>(threads, t + 1);
        for (const ThreadRun& run : s.spawned) threads = std::max<std::size_t>(threads, run.first + run.count);
        if (sized < threads) sized = hold_threads(threads);
      }
      if (s.thread >= sized) [[unlikely]]  // (seldom: the buffers are kept from search to search)
        sized = hold_threads(std::max<std::size_t>(threads, s.thread + 1));
      if (first[s.thread] == npos) {
        threads = std::max<std::size_t>(threads, s.thread + 1);
        first[s.thread] = j;
        stepped[stepping] = s.thread;
        columns.of[s.thread] = static_cast<std::uint32_t>(stepping++);
      }
      earlier.link(j, s.shape, places.number(s.shape, j));
    }
    if (kept_asleep_)
      for (std::size_t j = same; j < n; ++j) wake_commuting_sleepers(steps[j].shape, j);
    kept_.stepping = stepping;
    kept_.threads = threads;
    kept_.reading = reading;
    std::size_t rows_kept = same;  // the steps whose clock rows are kept
    // The rows kept of the run before keep their layout while the width does.
    if (same == 0 || stepping > columns.width) {
      columns.width = stepping;
      rows_kept = 0;
    }
    structural_kept_ = std::min(structural_kept_, rows_kept);
    structural_made_ = false;
    // Witnesses, and the structural clocks they read, are made when the race
    // walk first meets two steps that commute unordered: most runs with
    // commuting RMWs have no such pair among the steps walked.
    std::optional<Witnesses> witnesses;
    if (!dispatch_nodes_.empty()) note_dispatch_order(r, n, threads, earlier);
    // What later steps tell of each step (Told), in one pass over the run: a
    // step's own bits where it is met, and what a read tells of an earlier
    // step then: that the write an RMW read is an RMW's source (the RMW goes
    // right after its source in the list, so where the list put that write
    // beside a racing one decides which side of it the RMW falls on), and
    // that a load is no longer its thread's only one of its location (run
    // earlier, with fewer writes to choose from, a spin wait may repeat it).
    // A step that reads nothing tells nothing, and is told only that an RMW
    // read its write: the pass meets the reads alone, over bytes cleared
    // first. (A read tells only of an earlier step: step j's is written
    // where it is met, before any later step changes it.)
    std::vector<Told>& now = kept_.told_now;
    std::fill_n(grown(now, n), n, Told{0});
    // Per location and column, tagged with this analysis (Kept::reader): an
    // entry of an earlier one reads as none, so the table is not cleared.
    std::vector<std::uint64_t>& reader = kept_.reader;
    if (reader.size() < places.count() * columns.width) reader.resize(places.count() * columns.width);
    if (++kept_.reader_tag == 0) [[unlikely]]  // (the tags wrapped: none may read as this one's)
      untag(reader);
    {
      // (The vectors' data as pointers: a byte stored through `told` may
      // alias anything, so the vectors' own would be loaded again after each.)
      Told* const told = now.data();
      std::uint64_t* const read_by = reader.data();
      const std::uint64_t tag = std::uint64_t{kept_.reader_tag} << 32;
      const std::size_t* const place = places.of.data();
      const std::uint32_t* const column = columns.of.data();
      const std::size_t width = columns.width;
      for (std::size_t k = 0; k < reading; ++k) {
        const std::size_t j = reads[k];
        const Step& s = steps[j];
        Told t = static_cast<Told>((s.counted ? told_counted : 0) | (s.respun ? told_respun : 0));
        if (s.shape.addr != 0) {
          std::uint64_t& one = read_by[place[j] * width + column[s.thread]];
          if ((one & ~std::uint64_t{several}) != tag) {  // none yet
            one = tag | (j + 1);
            t |= told_only_load;
          } else if (static_cast<std::uint32_t>(one) != several) {
            told[static_cast<std::uint32_t>(one) - 1] &= static_cast<Told>(~told_only_load);
            one = tag | several;
          }
        }
        if (s.shape.writes && s.reads_from != Step::unknown && s.reads_from > 0 && s.reads_from <= n)
          told[s.reads_from - 1] |= told_rmw_source;
        told[j] = t;
      }
    }
    // The first step whose races are walked: the first this run does not
    // repeat, or of which later steps told otherwise, or whose races with
    // commuting RMWs rested on a reader this run does not repeat (or on there
    // being none that could tell their order: on every later step).
    std::size_t from = first_difference(now.data(), kept_.told.data(), rows_kept);
    kept_.told.swap(now);
    const std::vector<Told>& told = kept_.told;  // (this run's, kept)
    std::vector<std::pair<std::size_t, std::size_t>>& rested = kept_.rested;  // the steps walked that asked, ascending
    for (const auto& [j, on] : rested)
      if (j >= from || on > same) {
        from = std::min(from, j);
        break;
      }
    while (!rested.empty() && rested.back().first >= from) rested.pop_back();
    // Vector clocks of an entry per thread that takes a step (the last known
    // step + 1 of each), in buffers kept from run to run (StepClocks: the
    // walk makes step j's as it walks j, and reads only earlier steps'
    // besides). cj: the row that holds step j's clock but its own entry
    // (StepClocks::clock()), its own once something is joined into it.
    StepClocks clocks(kept_.step_clocks, r.steps, n, columns, spawn, threads, from);
    std::vector<std::size_t>& races = kept_.races;  // per step: its unordered dependent earlier steps (empty between)
    races.clear();
    // (In stretches of 256 steps, `cut` asked between them: no test of it in
    // the walk of a step.)
    for (std::size_t stretch = from; stretch < n; stretch += 256) {
      if (stretch != from && cut && cut()) [[unlikely]]
        return false;
      const std::size_t stretch_end = std::min(n, stretch + 256);
      for (std::size_t j = stretch; j < stretch_end; ++j) {
        const Step& sj = steps[j];
        const std::uint32_t* cj = clocks.begin_learning(sj, j);
        // A write placed last hides nothing only until another write of its
        // location is placed: one placed after it may get an edge from it (a
        // write of the reader's own thread that went after it, say), and a write
        // before the end hides through that edge. So it hides nothing from step
        // j only while no write of j's location came between them
        // (Earlier::written_between(), asked only of such a pair).
        std::size_t rests = 0;  // 1 + the reader the witnesses of j's commuting races rested on (npos: all)
        bool raced = false;     // races holds j's (asked of a flag: the vector's ends are loaded anew after each store)
        // A long walk (a loop's steps of one location) stops where it meets
        // only ordered steps (StepClocks::ordered_below()), asked once it is
        // long: the candidates come latest first, and j's clock only grows.
        std::size_t walked = 0, ordered = 0;
        for (Earlier::Cursor c = earlier.before(j, sj.shape); c;) {
          const std::size_t i = c.next();
          if (++walked >= kLongWalk) [[unlikely]] {
            if (walked == kLongWalk) ordered = clocks.ordered_below(cj, j, stepped.data(), stepping, first.data());
            if (i < ordered) break;
            ++walked_long_;
          }
          const Step& si = steps[i];
          if (si.thread == sj.thread) continue;
          // Ordered: j's clock knows step i or a later step of i's thread, so
          // all that clock knew (clocks only grow by joins of whole rows): no
          // race, and a join would change nothing.
          if (clocks.of(cj, si.thread) >= i + 1) continue;
          if (!dependent(si.shape, sj.shape)) {
            if (!commute(si.shape, sj.shape)) [[likely]]
              continue;
            const std::size_t teller = tell_order(witnesses, r.steps, n, threads, i, j);
            rests = std::max(rests, teller);
            if (teller == npos) continue;
          }
          // A write before a load that need not see it (reads-from, not the
          // interleaving, decides what the load returns): the load, run first,
          // could return only writes it may return now (so too after a write
          // placed before the end, when no write is hidden from the load only
          // through one its thread does not know). Ordered only when it
          // reads from it; never a race to reverse. So too a store before an
          // RMW (its write goes right after the write it read, in either
          // order), and an RMW before a load its thread makes once (a spin
          // that re-reads may wait when run first; so too a load its thread
          // re-read at spin-assume's key, Step::respun); not an RMW before an RMW:
          // run first, the later one's write is new to the earlier one's read.
          // Two stores the later of which was offered a coherence slot before
          // the earlier: run the other way round, the earlier is offered a slot
          // before the later in turn; the coherence decision already explores
          // both orders, so the run-time order is no race to reverse. Nor is
          // that of a weak store and a later store coherence leaves unordered
          // with it (semantics.md, "Coherence is partial"): no edge either way,
          // so their order is no part of the execution; reads choose by edges
          // alone, and no write can take a slot before a weak one, so this
          // order offers later writes every slot the other would. Unless an
          // RMW read the weak store's write: it goes right after it, so before
          // the later store in this order and after it in the other.
          if (reads_choose_ &&
              (store_may_precede(si, sj, i) || (unordered_stores(si, sj, i) && !(told[i] & told_rmw_source))))
            continue;
          if (reads_choose_ && read_after_write(si, sj) && !sj.counted && !sj.respun &&
              (!si.shape.reads || (told[j] & told_only_load) != 0) &&
              (!sj.hidden_by_unknown || (!inserted(si, i) && !earlier.written_between(steps, i, j)))) {
            if (sj.reads_from == i + 1) cj = clocks.join(j, i);
            continue;
          }
          races.push_back(i);
          raced = true;
          cj = clocks.join(j, i);
        }
        if (rests != 0) [[unlikely]]
          rested.emplace_back(j, rests);
        if (raced) [[unlikely]]  // (most steps have none)
          reverse_races(r.steps, j, clocks, cj);
        clocks.advance(sj, j);
      }
    }
    analysed_ = n;
    in_place_ = !dispatch_nodes_.empty() && waited_in_place(r, n);
    return true;
  }
  // The race walk of a step asks StepClocks::ordered_below() once it has
  // met this many candidates.
  static constexpr std::size_t kLongWalk = 64;
  // The candidates the race walks of every analysis so far went on to past
  // the first kLongWalk of a step (tests: a loop whose steps are ordered is
  // walked in time linear in its length).
  std::uint64_t walked_long() const { return walked_long_; }
  // Grows analyse()'s per-thread buffers (first_step, columns, stepped and
  // spawn, which grow together) to hold `threads` threads; their size.
  // (Out of line: seldom past an OS thread's first searches.)
  [[gnu::noinline]] std::size_t hold_threads(std::size_t threads) {
    kept_.first_step.resize(threads, npos);
    kept_.columns.of.resize(threads, 0);
    kept_.stepped.resize(threads);
    kept_.spawn.resize(threads, 0);
    return threads;
  }
  // Kept::reader with no entry of an earlier analysis, its tag 1 (after the
  // tags wrapped). (Out of line: once in 2^32 analyses.)
  [[gnu::noinline]] void untag(std::vector<std::uint64_t>& reader) {
    std::fill(reader.begin(), reader.end(), 0);
    kept_.reader_tag = 1;
  }
  // Grows the buffers Kept::held tells of to hold n steps. (Out of line:
  // seldom past an OS thread's first searches.)
  [[gnu::noinline]] void hold(std::size_t n) {
    kept_.places.of.resize(n);
    kept_.earlier.links.resize(n);
    kept_.earlier.last.resize(n);
    kept_.held = n;
  }
  // What the steps after a step tell of it that the race walk reads: whether
  // a spin wait counted or re-read its read (Step::counted, respun), whether
  // it is its thread's only load of its location, whether an RMW read its
  // write. The same for a repeated step, its races are those found before.
  // A bit each, in a byte made in one pass over every step of every run,
  // compared whole with the run before's, and read by the race walk.
  using Told = std::uint8_t;
  static constexpr Told told_counted = 1, told_respun = 2, told_only_load = 4, told_rmw_source = 8;
  // The first k < n where a[k] and b[k] differ (n: none). Compared eight at
  // a time: most runs repeat a long prefix told the same. (Out of line: the
  // analysis around it keeps its registers.)
  [[gnu::noinline]] static std::size_t first_difference(const Told* a, const Told* b, std::size_t n) {
    static_assert(sizeof(Told) == 1);
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8) {
      std::uint64_t x, y;
      std::memcpy(&x, a + k, 8);
      std::memcpy(&y, b + k, 8);
      if (x != y) break;  // (found below)
    }
    while (k < n && a[k] == b[k]) ++k;
    return k;
  }
  // Kept::reader: a location's reads by a thread so far, none, one (1 + its
  // step) or several, in the low 32 bits (steps are numbered in 32 bits, as in
  // the clocks); the high 32 bits tag the analysis that wrote it.
  static constexpr std::uint32_t several = ~std::uint32_t{0};

  // Steps that may share a location: dependent() needs an address, commute()
  // a family (and equal addresses: commuting RMWs of none, if any, are
  // listed together).
  static bool located(const StepShape& s) { return s.addr != 0 || s.commutes != 0; }
  // The locations of a run's steps (their addresses, none included where
  // located()), numbered in the order first touched, so that what analyse()
  // keeps per location is a vector, not a map.
  struct Locations {
    // Per step, of the first numbered(): its location's number (npos: not
    // located()). (Grown with the other per-step buffers: Kept::held.)
    std::vector<std::size_t> of;
    std::size_t count() const { return places_.size(); }
    std::size_t numbered() const { return numbered_; }  // the steps of the run (resume())
    // For a run of n steps, of which those before `same` are the run's
    // before (numbered then: the locations they touched first keep their
    // numbers), before the steps from `same` on are numbered (number()).
    void resume(std::size_t same, std::size_t n) {
      while (!places_.empty() && places_.back().first >= same) {
        const std::uintptr_t a = places_.back().addr;
        if (direct(a))
          near_[a / 4] = 0;
        else
          numbers_.erase(a);
        places_.pop_back();
      }
      if (places_.size() <= kFew) numbers_.clear();
      numbered_ = n;
    }
    // Step j, doing `s`, after the steps before it: its location's number.
    std::size_t number(const StepShape& s, std::size_t j) { return of[j] = located(s) ? find(s.addr, j) : npos; }

   private:
    // Addresses are offsets in the run's simulated memory: the aligned ones
    // of its first kNear bytes are numbered in a table (1 + the number, 0:
    // none yet), the others looked up in order while there are at most
    // kFew, in a map from then on. The table covers the first `covered_`
    // bytes, grown (to a power of two) when an address past them is first
    // numbered: made whole at once, its clear cost each OS thread's first
    // search some 65000 instructions, where a litmus test's touches a few
    // hundred bytes.
    static constexpr std::size_t kNear = std::size_t{1} << 16;
    static constexpr std::size_t kFew = 16;
    bool direct(std::uintptr_t addr) const { return addr < covered_ && addr % 4 == 0; }
    // The number of `addr`, touched by step j.
    std::size_t find(std::uintptr_t addr, std::size_t j) {
      if (!direct(addr) && !covers(addr)) [[unlikely]]
        return find_far(addr, j);
      std::uint32_t& k = near_[addr / 4];
      if (k == 0) [[unlikely]] {  // (the first step of the location)
        add(addr, j);
        k = static_cast<std::uint32_t>(places_.size());
      }
      return k - 1;
    }
    // Does the table, grown if `addr` is near and past it, cover `addr`?
    [[gnu::noinline]] bool covers(std::uintptr_t addr) {
      if (addr >= kNear || addr % 4 != 0) return false;
      covered_ = std::bit_ceil(addr + 4);
      near_.resize(covered_ / 4, 0);
      return true;
    }
    // find() for an address not direct: out of line, so that find() itself
    // is inlined.
    [[gnu::noinline]] std::size_t find_far(std::uintptr_t addr, std::size_t j) {
      if (places_.size() <= kFew) {
        const auto it =
            std::find_if(places_.begin(), places_.end(), [addr](const Place& p) { return p.addr == addr; });
        if (it != places_.end()) return static_cast<std::size_t>(it - places_.begin());
        add(addr, j);
        if (places_.size() > kFew)
          for (std::size_t k = 0; k < places_.size(); ++k) numbers_.emplace(places_[k].addr, k);
        return places_.size() - 1;
      }
      const auto [it, fresh] = numbers_.try_emplace(addr, places_.size());
      if (fresh) add(addr, j);
      return it->second;
    }
    void add(std::uintptr_t addr, std::size_t j) { places_.push_back({addr, j}); }
    // A location: its address, and the step that touched it first.
    struct Place {
      std::uintptr_t addr;
      std::size_t first;
    };
    std::vector<Place> places_;  // by number
    std::size_t numbered_ = 0;
    std::vector<std::uint32_t> near_;  // per aligned address under covered_
    std::uintptr_t covered_ = 0;
    // Asked only of addresses not direct (those of direct ones, copied in
    // with the rest past kFew, are never read, nor erased with their place).
    boost::container::flat_map<std::uintptr_t, std::size_t> numbers_;
  };

  // The earlier steps that may be dependent with a step, or commute with it
  // (dependent(), commute()), latest first: of a host operation every step;
  // else the host operations, the steps of its location and, for a fence.sc,
  // the other fence.sc. Any other pair is neither, so analyse() visits only
  // these, in the order it would meet them going down from the step.
  class Earlier {
   public:
    // A step's links: 1 + the previous step of its location, host operation,
    // fence.sc (0: none). A step not located() has no step of its location:
    // same 0.
    struct Link {
      std::size_t same, host, fence;
    };
    // (Each holds a run's steps at least: Kept::held.)
    struct Buffers {
      std::vector<Link> links;        // per step
      // Per location: 1 + its last step so far (0: none, as for every number
      // past the locations numbered).
      std::vector<std::size_t> last;
    };
    // Over the run's steps, of which those before `same` are the run's
    // before (their links kept, and the per-location ones of the steps since
    // forgotten, from `places` as the run before numbered them); each later
    // step linked in order (link()).
    Earlier(const std::vector<Step>& steps, std::size_t same, const Locations& places, Buffers& b) {
      // Each location's last step back to the last before `same` (to none
      // for a location first touched since, which may be numbered anew; for
      // every location the run before numbered, where it repeats no step).
      if (same == 0)
        std::fill_n(b.last.begin(), places.count(), 0);
      else
        for (std::size_t j = places.numbered(); j-- > same;)
          if (places.of[j] != npos) b.last[places.of[j]] = b.links[j].same;
      links_ = b.links.data();  // (read of the run's steps only)
      last_ = b.last.data();  // (n steps touch at most n locations; those not touched yet have none)
      if (same > 0) {
        const StepShape& s = steps[same - 1].shape;
        host_ = s.global ? same : links_[same - 1].host;
        fence_ = s.fence_sc ? same : links_[same - 1].fence;
      }
    }
    // Step j, doing `s`, after the steps before it, of location `at` (npos:
    // not located()).
    void link(std::size_t j, const StepShape& s, std::size_t at) {
      Link& l = links_[j];
      l.host = host_;
      l.fence = fence_;
      if (s.global) host_ = j + 1;
      if (s.fence_sc) fence_ = j + 1;
      if (at == npos) {
        l.same = 0;
        return;
      }
      std::size_t& last = last_[at];
      l.same = last;
      last = j + 1;
    }
    // Yields the candidates below step j, the latest first.
    class Cursor {
     public:
      Cursor(std::size_t all, std::size_t same, std::size_t host, std::size_t fence, const Link* links)
          : all_(all), same_(same), host_(host), fence_(fence), others_(all | host | fence), links_(links) {}
      explicit operator bool() const { return (same_ | others_) != 0; }
      std::size_t next() {
        if (others_ == 0) [[likely]] {  // (most: the steps of one location, before any host operation)
          const std::size_t k = same_;
          same_ = links_[k - 1].same;
          return k - 1;
        }
        const std::size_t k = std::max({all_, same_, host_, fence_});  // 1 + the step
        if (all_ == k) --all_;
        if (same_ == k) same_ = links_[k - 1].same;
        if (host_ == k) host_ = links_[k - 1].host;
        if (fence_ == k) fence_ = links_[k - 1].fence;
        others_ = all_ | host_ | fence_;
        return k - 1;
      }

     private:
      std::size_t all_, same_, host_, fence_;
      std::size_t others_;  // all_ | host_ | fence_
      const Link* links_;
    };
    // Is a step between steps i < j of one location a write? (Steps of no
    // address have none; a location's steps are linked, latest first, down
    // to i.)
    bool written_between(const Step* steps, std::size_t i, std::size_t j) const {
      if (steps[j].shape.addr == 0) return false;
      for (std::size_t k = links_[j].same; k > i + 1; k = links_[k - 1].same)
        if (steps[k - 1].shape.writes) return true;
      return false;
    }
    // (Step j doing `s`.)
    Cursor before(std::size_t j, const StepShape& s) const {
      if (s.global) [[unlikely]]
        return Cursor(j, 0, 0, 0, links_);
      const Link& l = links_[j];
      return Cursor(0, l.same, l.host, s.fence_sc ? l.fence : 0, links_);
    }

   private:
    Link* links_;        // Buffers::links, grown (not resized while the Earlier is used)
    std::size_t* last_;  // Buffers::last, grown
    std::size_t host_ = 0, fence_ = 0;  // 1 + the last host operation, fence.sc so far (0: none)
  };

  // `to` as a copy of `from`. Where their sizes differ, by assign(), a call
  // that sizes `to` and copies at once (resize() would fill what the copy
  // then overwrites); else (most often, for a reused node, the size is the
  // one `to` had) copied whole in place: vector::operator= is out of line,
  // and checks size and capacity anew. One or two elements (most decisions
  // have one or two alternatives) are assigned, not copied by a call to
  // memmove. (Copied between their data, as pointers: one memmove, where
  // the iterators of vectors of two kinds are copied element by element.)
  template <class To, class From>
  static void overwrite(To& to, const From& from) {
    const auto* const f = from.data();
    if (to.size() != from.size()) {
      to.assign(f, f + from.size());
      return;
    }
    if (from.size() > 2) {
      std::copy(f, f + from.size(), to.data());
      return;
    }
    if (from.size() == 2) to[1] = from[1];
    if (!from.empty()) to[0] = from[0];
  }

  // `to` empty, with the buffer of `from` (kept from the search before).
  template <class T>
  static void adopt(std::vector<T>& to, std::vector<T>& from) {
    to = std::move(from);
    to.clear();
  }

  // A clock's entry for each thread that takes a step in the run (its
  // column): only a step's thread ever gets a nonzero entry, or is looked up.
  struct Columns {
    std::vector<std::uint32_t> of;  // per thread
    std::size_t width = 0;
  };
  // `v`, grown to n elements at least; its data (which stays where it is
  // while the caller's pass does not resize it: held as a pointer, not
  // loaded through the vector at every use).
  template <class T>
  static T* grown(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
  }
  // A buffer whose every element is written before it is read: it grows
  // (the first searches on an OS thread) by a copy of what it held only, its
  // new elements left as they are (default-initialized), not filled as well.
  template <class T>
  using Unfilled = boost::container::vector<T>;
  template <class T>
  static T* grown(Unfilled<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n, boost::container::default_init);
    return v.data();
  }
  // Rows of vector clocks of one width in a buffer kept by the caller, left
  // as they are: each row is written before it is read. (The buffer and the
  // columns stay as they are while the Clocks are used.)
  class Clocks {
   public:
    Clocks(Unfilled<std::uint32_t>& buf, std::size_t rows, const Columns& columns)
        : buf_(grown(buf, rows * columns.width)), width_(columns.width), of_(columns.of.data()) {}
    std::uint32_t* row(std::size_t k) { return buf_ + k * width_; }
    const std::uint32_t* row(std::size_t k) const { return buf_ + k * width_; }
    // The entry of `row` for thread t (a thread that takes a step).
    std::uint32_t& of(std::uint32_t* row, ThreadId t) const { return row[of_[t]]; }
    std::uint32_t of(const std::uint32_t* row, ThreadId t) const { return row[of_[t]]; }
    // (A store only where an entry grows: not vectorized, which for the few
    // columns of most runs costs more than it saves.)
    void join(std::uint32_t* a, const std::uint32_t* b) const {
      for (std::size_t k = 0; k < width_; ++k)
        if (a[k] < b[k]) a[k] = b[k];
    }
    void clear(std::uint32_t* a) const { std::fill(a, a + width_, 0u); }
    void copy(std::uint32_t* a, const std::uint32_t* b) const {
      if (a != b) std::copy(b, b + width_, a);
    }

   private:
    std::uint32_t* buf_;
    std::size_t width_;
    const std::uint32_t* of_;
  };

  // The vector clocks of a run's steps, made by a pass over them in order:
  // step j's is its thread's clock after it (program order, and what the
  // pass joins into it). Most steps only add their own entry to their
  // thread's clock, so a step has a row of its own (Clocks) only where the
  // pass joins something into its clock (own()), or where other threads'
  // clocks become its own (a barrier's completion, a spawn: share()); any
  // other step's clock is the row of a step before it (or zero) with its
  // own entry (base). Each thread's clock is that of the step that last set
  // it (its own, a barrier completion naming it, a spawn of it), or zero.
  // A clock is joined into another only when that one does not know its
  // step already (knowing it, it holds all that clock does: clocks grow
  // only by joins of whole clocks), and its row only when that one does not
  // know the row's step: so a wait that learns many threads whose clocks
  // share a row (a kernel's start, a barrier) joins that row once, and
  // their own entries.
  class StepClocks {
   public:
    // A step is named by 1 + its number here, 0 naming none: row k is step
    // k - 1's, row 0 zeros (the clock of none).
    struct Buffers {
      // (Each element is written before it is read: Unfilled.)
      Unfilled<std::uint32_t> rows;  // Clocks
      Unfilled<std::size_t> base;  // per step k: the step whose row holds its clock but its own entry
      Unfilled<std::size_t> set;   // per thread: the step whose clock is its
    };
    // Over the run's first n steps, of its first `threads` threads; the
    // clocks of the steps before `from` are made (the run before's), and the
    // pass resumes at `from`. `spawn`: per thread, 1 + the step that spawned
    // it (0: none), for those the steps before `from` spawn (the pass notes
    // those of the steps from `from` on). A thread's clock there is that of
    // its spawn but where a step before `from` set it since (its spawn names
    // it first), so a kernel's start, which spawns every thread of the
    // kernel, is not gone over again. (The entry of any other thread, spawned
    // from `from` on or not at all, is never read before its spawn sets it.)
    [[gnu::always_inline]] StepClocks(Buffers& b, const std::vector<Step>& steps, std::size_t n, const Columns& columns,
                                      std::vector<std::size_t>& spawn, std::size_t threads, std::size_t from)
        : rows_(b.rows, n + 1, columns),
          base_(grown(b.base, n + 1)),
          set_(grown(b.set, threads)),
          spawn_(spawn),
          steps_(steps.data()) {
      if (from == 0) {  // (nothing else writes them: a pass from a later step, of the same width, finds them so)
        base_[0] = 0;
        rows_.clear(rows_.row(0));
      }
      std::copy(spawn.begin(), spawn.begin() + static_cast<std::ptrdiff_t>(threads), set_);
      for (std::size_t j = 0; j < from; ++j) {
        set_[steps_[j].thread] = j + 1;
        if (steps_[j].listed) [[unlikely]]
          for (ThreadId t : steps_[j].joins) set_[t] = j + 1;
      }
    }
    // Step j, doing `s`, begins: its clock is its thread's (but its own
    // entry), and its thread's clock is its from now on.
    void begin(const Step& s, std::size_t j) {
      std::size_t& k = set_[s.thread];
      base_[j + 1] = base_[k];
      k = j + 1;
    }
    // The row that holds step k's clock but its own entry.
    const std::uint32_t* clock(std::size_t k) const { return rows_.row(base_[k + 1]); }
    // The entry for thread t of `c`, a row.
    std::uint32_t of(const std::uint32_t* c, ThreadId t) const { return rows_.of(c, t); }
    // Does step k's clock know step i?
    bool knows(std::size_t k, std::size_t i) const {
      const ThreadId t = steps_[i].thread;
      return t == steps_[k].thread ? i <= k : of(clock(k), t) >= i + 1;
    }
    // Step j's own row (made the first time it is asked: a copy of its
    // clock, with its own entry), to join into.
    std::uint32_t* own(std::size_t j) {
      std::uint32_t* c = rows_.row(j + 1);
      if (base_[j + 1] != j + 1) {
        rows_.copy(c, clock(j));
        rows_.of(c, steps_[j].thread) = static_cast<std::uint32_t>(j + 1);
        base_[j + 1] = j + 1;
      }
      return c;
    }
    // Joins step i's clock into that of step j (begun, after it): into
    // j's own row, which it returns. (Out of line: few steps of the race
    // walk join one, so that its step loop keeps its registers.)
    [[gnu::noinline]] const std::uint32_t* join(std::size_t j, std::size_t i) {
      std::uint32_t* c = own(j);
      join_set(c, i + 1);
      return c;
    }
    // Joins the clock of each thread of `runs` into `c`, the own row of the
    // step being made. (A wait learns many threads, neighbours in a run
    // often sharing a clock, the row of a barrier or a kernel's start: such
    // a clock is joined once for them all, the scan passing over the
    // neighbours that share it.)
    void join(std::uint32_t* c, const std::vector<ThreadRun>& runs) const {
      for (const ThreadRun& run : runs)
        for (const std::size_t *k = set_ + run.first, *end = k + run.count; k != end;) {
          const std::size_t shared = *k;
          join_set(c, shared);
          if (++k != end && *k == shared)  // (a run of one, as a stream operation's, asks no more)
            k = std::find_if(k + 1, end, [shared](std::size_t other) { return other != shared; });
        }
    }
    // Thread t's clock is step j's (which has its own row).
    void share(ThreadId t, std::size_t j) { set_[t] = j + 1; }
    // Step j, doing `s` (begun), by synchronization: before it, a wait
    // learns what the threads it waited for did, one way (Step::learns: they
    // learn nothing back, a later waiter on them must not learn this one);
    // after it, a barrier's completion joins the clocks of every participant
    // (Step::joins), and its clock is then that of the participants and of
    // the new threads of a spawn (Step::spawned). (Most steps do neither,
    // and list nothing, Step::listed: that is asked inline; a join, out of
    // line.)
    void learn(const Step& s, std::size_t j) {
      if (s.listed && !s.learns.empty()) [[unlikely]]
        learn_waited(j);
    }
    // begin() and learn(), for the race walk: the row that then holds step
    // j's clock but its own entry (clock(j)).
    const std::uint32_t* begin_learning(const Step& s, std::size_t j) {
      std::size_t& k = set_[s.thread];
      const std::size_t b = base_[k];
      base_[j + 1] = b;
      k = j + 1;
      if (!s.listed || s.learns.empty()) [[likely]]
        return rows_.row(b);
      learn_waited(j);
      return clock(j);
    }
    void advance(const Step& s, std::size_t j) {
      if (s.listed && (!s.joins.empty() || !s.spawned.empty())) [[unlikely]]
        advance_far(j);
    }
    // Below which step every step of a thread other than step j's is ordered
    // before j (begun, its clock's row `c`), or is none: the least entry of
    // `c` over the threads with an unordered step before j. A thread whose
    // clock is set at a step j's clock knows (its last step, a barrier's
    // completion or its spawn; 1 + it at most the entry) has none; nor has
    // one whose first step is not before j. (`stepped`: the first `stepping`
    // threads to take a step; `first`: per thread, its first step. Out of
    // line: asked of long walks alone.)
    [[gnu::noinline]] std::size_t ordered_below(const std::uint32_t* c, std::size_t j, const ThreadId* stepped,
                                                std::size_t stepping, const std::size_t* first) const {
      const ThreadId t = steps_[j].thread;
      std::size_t below = npos;
      for (std::size_t k = 0; k < stepping; ++k) {
        const ThreadId u = stepped[k];
        const std::uint32_t known = of(c, u);
        if (u == t || first[u] >= j || set_[u] <= known) continue;
        below = std::min<std::size_t>(below, known);
      }
      return below;
    }

   private:
    // Step j, a wait, learns. One that learns one thread whose clock is a
    // row of its own that knows step j's clock already (the row's step knows
    // the step of j's; a host waiting for the one operation it started
    // since) takes that row as the one that holds its clock but its own
    // entry: no copy, no join. (Inline: this case, half the waits, makes no
    // call; the join is a call of its own.)
    [[gnu::always_inline]] void learn_waited(std::size_t j) {
      const std::vector<ThreadRun>& runs = steps_[j].learns;
      if (runs.size() == 1 && runs[0].count == 1) {
        const std::size_t k = set_[runs[0].first];  // (1 + the step whose clock it learns)
        const std::size_t b = base_[j + 1];
        if (k != 0 && base_[k] == k && (b == 0 || rows_.of(rows_.row(k), steps_[b - 1].thread) >= b)) {
          base_[j + 1] = k;
          return;
        }
      }
      learn_joined(j);
    }
    [[gnu::noinline]] void learn_joined(std::size_t j) { join(own(j), steps_[j].learns); }
    [[gnu::noinline]] void advance_far(std::size_t j) {
      const Step& s = steps_[j];
      std::uint32_t* c = own(j);
      for (ThreadId t : s.joins) join_set(c, set_[t]);
      for (ThreadId t : s.joins) share(t, j);
      for (const ThreadRun& run : s.spawned) {  // (a grid at once)
        std::fill_n(set_ + run.first, run.count, j + 1);
        std::fill_n(spawn_.begin() + run.first, run.count, j + 1);
      }
    }
    // Joins the clock of step k - 1 (k = 0: none) into `c`, unless `c`
    // knows that step already.
    void join_set(std::uint32_t* c, std::size_t k) const {
      if (k == 0) return;
      const ThreadId t = steps_[k - 1].thread;
      if (rows_.of(c, t) >= k) return;
      const std::size_t b = base_[k];
      if (b != 0 && rows_.of(c, steps_[b - 1].thread) < b) join_row(c, b);
      rows_.of(c, t) = static_cast<std::uint32_t>(k);
    }
    void join_row(std::uint32_t* c, std::size_t k) const { rows_.join(c, rows_.row(k)); }
    Clocks rows_;  // the rows of the steps that have one
    std::size_t* base_;  // (Buffers::base, grown: the pass does not resize it)
    std::size_t* set_;   // (Buffers::set, grown)
    std::vector<std::size_t>& spawn_;
    const Step* steps_;  // (the run's, not resized while the clocks are used)
  };

  // Clocks by program order and synchronization only (StepClocks::learn(),
  // advance()): what Witnesses and isolated() ask, of the run's first n
  // steps, made at most once an analysis, and only in one that asks. A
  // clock is a function of its step and those before, so those of the steps
  // every run since repeats are those made before (structural_kept_: while
  // the clock width keeps, as analyse() keeps its step clocks), and the pass
  // resumes after them. (It may be made in the middle of the race walk: it
  // notes in the spawn list what the walk notes there for the same steps,
  // and the walk's clocks read that list only when made.)
  const StepClocks& structural(const std::vector<Step>& steps, std::size_t n, std::size_t threads) {
    if (!structural_made_) {
      StepClocks& clocks =
          structural_.emplace(kept_.structural, steps, n, kept_.columns, kept_.spawn, n ? threads : 0, structural_kept_);
      for (std::size_t j = structural_kept_; j < n; ++j) {
        const Step& s = steps[j];
        clocks.begin(s, j);
        clocks.learn(s, j);
        clocks.advance(s, j);
      }
      structural_kept_ = n;
      structural_made_ = true;
    }
    return *structural_;
  }

  // The readers of each location that could tell the order of two commuting
  // RMWs of it that ran before them: any step that reads it and is not itself
  // such an RMW, unless barriers and waits (joins) order both RMWs before it,
  // so that it sees both (semantics.md, "Barriers"; host synchronization).
  class Witnesses {
   public:
    struct Buffers {
      std::vector<std::size_t> next_reader;  // per step: 1 + the next reader of its location (0: none)
      std::vector<std::size_t> next;         // per location: 1 + its next reader so far (0: none)
    };
    // Over the first n steps, with their structural clocks (structural()).
    Witnesses(const std::vector<Step>& steps, std::size_t n, const StepClocks& joined, const Locations& places,
              Buffers& b)
        : steps_(steps), next_reader_(b.next_reader), joined_(joined) {
      b.next_reader.assign(n, 0);
      b.next.assign(n ? places.count() : 0, 0);
      for (std::size_t j = n; j-- > 0;) {
        const StepShape& s = steps[j].shape;
        if (s.addr == 0) continue;
        std::size_t& next = b.next[places.of[j]];
        b.next_reader[j] = next;
        if (reader(s)) next = j + 1;
      }
    }
    // Could a step after commuting RMW steps i < j tell their order? 1 +
    // the first that could (the answer rests on the steps up to it), else
    // npos (it rests on every later step).
    std::size_t teller(std::size_t i, std::size_t j) {
      for (std::size_t k = next_reader_[j]; k != 0; k = next_reader_[k - 1])
        if (!(sees(k - 1, i) && sees(k - 1, j))) return k;
      return npos;
    }

   private:
    static bool reader(const StepShape& s) { return s.reads && s.addr != 0 && s.commutes == 0; }
    bool sees(std::size_t k, std::size_t i) const { return joined_.knows(k, i); }
    const std::vector<Step>& steps_;
    const std::vector<std::size_t>& next_reader_;
    const StepClocks& joined_;  // per step: the steps joined before it (a reader's tells what it sees)
  };

  // Isolated blocks (docs/architecture.md, "Blocks that wait for a slot"):
  // the order in which blocks waiting for a free slot are dispatched is no
  // part of an execution when each of them is isolated: every step of its
  // threads that is dependent with a step of a thread outside the block and
  // taken after the dispatch node (the steps before it are the same whatever
  // the node dispatches) is ordered with it by program order, barriers,
  // spawns and waits alone (not by reads-from or the interleaving), and every
  // block ends. Then a block behaves the same whenever it runs, and nothing
  // else sees it but through those waits. A run where some block waiting at
  // dispatch node d is not isolated, or that did not end, makes d dispatch
  // every block it may.
  void note_dispatch_order(const RunResult& r, std::size_t n, std::size_t threads, const Earlier& earlier) {
    for (const std::size_t at : dispatch_nodes_) {
      Node& d = stack_[at];
      if (d.backtrack.holds_all(d.keys.size())) continue;
      if (!r.completed || !isolated(r.steps, n, threads, earlier, d, d.step))
        d.backtrack.insert_all(d.keys.size());
    }
  }
  // Are the blocks waiting at dispatch node `d` isolated in the run's first n
  // steps, from step `from` (the first after the node) on?
  bool isolated(const std::vector<Step>& steps, std::size_t n, std::size_t threads, const Earlier& earlier,
                const Node& d, std::size_t from) {
    if (d.members.size() != d.keys.size()) return false;
    // Per thread of the run's steps: the waiting block it is of (npos: none).
    // (A block's threads are numbered together: filled block by block, not
    // asked of every block at every step.)
    std::vector<std::size_t>& block = kept_.member;
    block.assign(threads, npos);
    for (std::size_t k = 0; k < d.members.size(); ++k) {
      const auto [first, count] = d.members[k];
      for (std::size_t t = first; t < std::min<std::size_t>(threads, std::size_t{first} + count); ++t) block[t] = k;
    }
    for (std::size_t j = from; j < n; ++j) {
      const std::size_t bj = block[steps[j].thread];
      for (Earlier::Cursor at = earlier.before(j, steps[j].shape); at;) {
        const std::size_t i = at.next();
        if (i < from) break;  // (latest first: the rest are before the node too)
        const std::size_t bi = block[steps[i].thread];
        if (bi == bj) continue;  // (the same block, or neither in one)
        const StepShape& a = steps[i].shape;
        const StepShape& b = steps[j].shape;
        if (!dependent(a, b) && !commute(a, b)) continue;
        // (Two steps of other threads with no step between that synchronizes
        // are ordered by no structural clock: none is made for them.)
        if (!structural_made_ && !synchronizes(steps, i, j)) return false;
        if (!structural(steps, n, threads).knows(j, i)) return false;
      }
    }
    return true;
  }
  // Does a step from i to j synchronize (Step::learns, joins, spawned)? The
  // structural clock of a step knows a step of another thread only through
  // such a step between them (a learn at the later one included, a barrier
  // completion or spawn at the earlier one included).
  static bool synchronizes(const std::vector<Step>& steps, std::size_t i, std::size_t j) {
    for (std::size_t k = i; k <= j; ++k)
      if (!steps[k].learns.empty() || !steps[k].joins.empty() || !steps[k].spawned.empty()) return true;
    return false;
  }

  // Dispatched in another block's place (docs/architecture.md, "Blocks that
  // wait for a slot"): a run that completed, in which dispatch node d gave
  // the slot to block b while a block a that d dispatched in an earlier
  // branch (a lower alternative, not banned) waited, repeats an execution of
  // a's branch when
  // - a was dispatched later (step `from` on) into the slot of a block other
  //   than b, while b still ran (a step of b comes after), and a takes a step;
  // - b's steps before then commute with every later step of the other
  //   threads before then, or are loads that may still read what they read
  //   after such a write (moves_past()).
  // Then giving d's slot to a, running a's steps where they ran, and b's
  // steps before `from` right after a's dispatch, into the slot a took, is a
  // run of a's branch with the same reads-from, coherence and fence.sc order:
  // the dispatches in between see the same slots taken (a and b hold theirs
  // until after `from`), and no step of another thread learns anything of b.
  bool waited_in_place(const RunResult& r, std::size_t n) const {
    if (!r.completed || bound_ >= 0) return false;  // (a bounded search does not explore every branch whole)
    for (const std::size_t at : dispatch_nodes_) {
      const Node& d = stack_[at];
      if (d.members.size() != d.keys.size()) continue;
      for (unsigned a = 0; a < d.chosen; ++a)
        if (!is_banned(d, a) && waited_in_place(r, n, d, a)) return true;
    }
    return false;
  }
  bool waited_in_place(const RunResult& r, std::size_t n, const Node& d, unsigned a) const {
    const auto in = [](const std::pair<ThreadId, std::uint32_t>& block, ThreadId t) {
      return t >= block.first && t - block.first < block.second;
    };
    const auto& ma = d.members[a];
    const auto& mb = d.members[d.chosen];
    std::size_t ka = 0;  // a's dispatch in the log
    while (ka < r.log.size() && !(r.log[ka].kind == ChoiceKind::dispatch && r.log[ka].key == d.keys[a])) ++ka;
    if (ka == r.log.size()) return false;
    std::size_t from = 0;  // the steps that began before it
    while (from < n && r.steps[from].decision < ka) ++from;
    if (from > 0 && in(mb, r.steps[from - 1].thread)) return false;  // b's step may have freed the slot
    bool a_runs = false, b_runs = false;
    for (std::size_t j = from; j < n; ++j) {
      a_runs |= in(ma, r.steps[j].thread);
      b_runs |= in(mb, r.steps[j].thread);
    }
    if (!a_runs || !b_runs) return false;
    for (std::size_t s = 0; s < from; ++s) {
      if (!in(mb, r.steps[s].thread)) continue;
      for (std::size_t u = s + 1; u < from; ++u) {
        const Step& other = r.steps[u];
        if (in(mb, other.thread)) continue;
        for (const ThreadRun& run : other.learns)
          if (run.meets({mb.first, mb.second})) return false;
        for (ThreadId t : other.joins)
          if (in(mb, t)) return false;
        if ((dependent(r.steps[s].shape, other.shape) || commute(r.steps[s].shape, other.shape)) &&
            !moves_past(r.steps, n, s, u, from))
          return false;
      }
    }
    return true;
  }
  // May load s, taken before step u of another thread that writes its
  // location, be taken after it (and after every step before `from`) and
  // read what it read? When u was placed last in coherence (not inserted)
  // and s may read the same after it (reads_the_same_after()), and the
  // side conditions of this rule hold. Only a load its thread makes first of that
  // location, so no spin-assume skips a write at it (which more writes
  // could change). A spin wait that counted the writes there (Step::counted)
  // must be the thread's next step, blocked (no shape), and the read the
  // thread makes once woken (its next step) must return a write made before
  // `from` other than s's, with no step of another thread dependent with it
  // between `from` and it: run after u, the re-read does not wait but
  // returns that write at once, with the thread in the state it was in.
  bool moves_past(const std::vector<Step>& steps, std::size_t n, std::size_t s, std::size_t u, std::size_t from) const {
    const Step& load = steps[s];
    const StepShape& l = load.shape;
    if (!reads_choose_ || !placed_last(steps[u].shape, !inserted(steps[u], u)) || !reads_the_same_after(load, steps[u].shape))
      return false;
    for (std::size_t k = 0; k < s; ++k)
      if (steps[k].thread == load.thread && steps[k].shape.reads && steps[k].shape.addr == l.addr) return false;
    if (!load.counted) return true;
    auto next = [&](std::size_t k) {
      while (++k < n && steps[k].thread != load.thread) {
      }
      return k;
    };
    const std::size_t wait = next(s);
    if (wait >= from || steps[wait].shape.waits == 0) return false;
    const std::size_t woken = next(wait);
    if (woken >= n) return false;
    const Step& re = steps[woken];
    if (!re.shape.reads || re.shape.writes || re.shape.addr != l.addr || re.counted || re.reads_from == Step::unknown ||
        re.reads_from == load.reads_from || re.reads_from > from)
      return false;
    for (std::size_t k = from; k < woken; ++k)
      if (steps[k].thread != load.thread && (dependent(steps[k].shape, re.shape) || commute(steps[k].shape, re.shape)))
        return false;
    return true;
  }

  // A step that reads a location while a thread sleeps whose commuting RMW of
  // it the rule kept asleep: the reader might have told the order of that RMW
  // and the one it stayed asleep behind, so it wakes where it was kept. For
  // step k, doing `reader` (the steps the run repeats woke theirs when the
  // run before was analysed).
  // (Most steps wake none: asked inline, the rest out of line.)
  void wake_commuting_sleepers(const StepShape& reader, std::size_t k) {
    if (reader.reads && reader.addr != 0 && reader.commutes == 0 && thread_nodes_[k] != npos &&
        !stack_[thread_nodes_[k]].sleep.empty())
      wake_commuting_sleepers_far(reader, stack_[thread_nodes_[k]]);
  }
  [[gnu::noinline]] void wake_commuting_sleepers_far(const StepShape& reader, const Node& node) {
    std::vector<std::pair<std::uint64_t, std::size_t>> wake;  // (thread, node)
    for (const auto& [q, s] : node.sleep)
      if (s.kept != npos && s.shape.addr == reader.addr && s.shape.commutes != 0) wake.emplace_back(q, s.kept);
    for (const auto& [q, at] : wake) {
      Node& kept = stack_[at];
      kept.sleep.erase(q);
      const auto k = std::find(kept.keys.begin(), kept.keys.end(), q);
      if (k != kept.keys.end()) kept.backtrack.insert(static_cast<std::size_t>(k - kept.keys.begin()));
    }
  }

  // Moves to the next unexplored branch below the first `floor` nodes; false
  // when none is left there (the search is complete, for floor 0).
  bool next(std::size_t floor = 0) {
    while (stack_.size() > floor) {
      Node& top = stack_.back();
      // A node of one alternative (most are: a thread decision with one
      // runnable thread), or a thread node whose backtrack set holds its
      // choice alone, with no done thread, has no other branch, and is no
      // done node.
      const std::size_t alternatives = top.keys.size();
      if ((alternatives == 1 || (top.kind == ChoiceKind::thread && top.backtrack.just(top.chosen, alternatives))) &&
          top.done.empty(alternatives)) {
        stack_.pop_back();
        continue;
      }
      const bool listed = top.kind == ChoiceKind::thread && !top.done.empty(alternatives);  // (the last of done_nodes_)
      if (top.kind == ChoiceKind::thread) top.done.insert(top.chosen);
      if (const unsigned k = following_at(top, top.chosen, top.done); k != no_branch) {
        if (top.kind == ChoiceKind::thread) {
          if (!listed) done_nodes_.push_back(stack_.size() - 1);
          if (!predicts_ && top.step < run_->steps.size()) note_taken(top, run_->steps[top.step].shape);
        }
        top.chosen = k;
        return true;
      }
      if (listed) done_nodes_.pop_back();
      stack_.pop_back();
    }
    return false;
  }

  // The branch next() takes at `n` after `chosen`, with `done` explored there
  // (thread nodes): the lowest backtrack thread not done and allowed; the next
  // alternative not banned (value nodes). nullopt: none left.
  std::optional<unsigned> following(const Node& n, unsigned chosen, const Alternatives& done) const {
    const unsigned k = following_at(n, chosen, done);
    return k != no_branch ? std::optional<unsigned>(k) : std::nullopt;
  }

 private:
  // Thread decision p: the node of the thread decision before, if it has
  // one (npos: none), where, in a search that predicts, the step since (the
  // run has made it), as it turned out, is noted if the node has other
  // alternatives (Node::shapes). (Before a node replayed, it is the step the
  // node above noted when it was made: a node's choice changes only with the
  // nodes below it gone.)
  std::size_t note_previous(const ChoicePoint& p) {
    if (thread_nodes_.empty() || thread_nodes_.back() == npos) [[likely]]
      return npos;
    Node& parent = stack_[thread_nodes_.back()];
    if (predicts_ && parent.keys.size() > 1) parent.shapes[parent.chosen] = *p.previous;
    return thread_nodes_.back();
  }
  // Notes that the step of thread node n's choice turned out `taken`
  // (Node::shapes). (Out of line: once a branch, in a search that predicts
  // nothing.)
  [[gnu::noinline]] static void note_taken(Node& n, const StepShape& taken) {
    if (n.shapes.size() < n.keys.size()) n.shapes.resize(n.keys.size());
    n.shapes[n.chosen] = taken;
  }
  // The node of the decision at `p`, the run's i-th, added. (Inlined in
  // choose_thread() and choose_value(), each one call with one frame.)
  [[gnu::always_inline]] Node& add_node(const ChoicePoint& p, std::size_t i) {
    Node& n = stack_.add();
    n.kind = p.kind;
    overwrite(n.keys, p.keys);
    n.step = thread_nodes_.size();
    n.call = asked_++;
    note_passing(i, n);
    n.actor = p.actor;
    return n;
  }
  // choose() for a thread decision that has a node (`before`: the node of
  // the thread decision before, npos if it has none): out of line.
  [[gnu::noinline]] unsigned choose_thread(const ChoicePoint& p, std::size_t before) {
    const std::size_t i = call_++;
    Node& n = add_node(p, i);
    // (n is stack_[i]: no node is added before the return.)
    const Node* parent = before != npos ? &stack_[before] : nullptr;
    const std::size_t count = n.keys.size();
    if (predicts_ && count > 1) {  // (a node of one alternative has no shapes read: Node::shapes)
      if (n.shapes.size() < count) n.shapes.resize(count);
      for (std::size_t k = 0; k < p.keys.size(); ++k) n.shapes[k] = p.shape(k);
    }
    // Sleep set: inherited from the previous thread node, minus threads whose
    // next step is dependent with the step taken there.
    if (parent != nullptr) {
      if (bound_ >= 0) n.preemptions = parent->preemptions + preempts(*parent, parent->chosen);
      if (!parent->sleep.empty() || !parent->done.empty()) inherit_sleep(n, *parent, *p.previous, i);
    }
    if (!plain_ && settled_repeat()) {  // (plain_: no suspect read to settle)
      abandoned_ = true;  // every way on repeats an explored execution
      return 0;
    }
    // First choice: keep running the same thread when it may, else the lowest.
    int pick = -1;
    if (count == 1) {
      if (admits(n, 0)) pick = 0;
    } else {
      // (The keys are distinct threads, in id order: the search for the
      // actor stops at the first key not below it.)
      std::size_t actor = 0;
      while (actor < count && n.keys[actor] < p.actor) ++actor;
      if (actor < count && n.keys[actor] == p.actor && admits(n, actor)) pick = static_cast<int>(actor);
      for (std::size_t k = 0; k < count && pick < 0; ++k)
        if (admits(n, k)) pick = static_cast<int>(k);
    }
    if (pick < 0) {
      abandoned_ = true;  // every enabled thread sleeps: this run repeats an explored one
      return 0;
    }
    n.chosen = static_cast<unsigned>(pick);
    n.backtrack.insert(n.chosen);
    return static_cast<unsigned>(pick);
  }

  // The sleep set of thread node n (the run's i-th) inherited from its
  // parent, which has a sleeper or a done thread; `taken`: the parent's step,
  // as it turned out. (Out of line: most thread nodes inherit none.)
  [[gnu::noinline]] void inherit_sleep(Node& n, const Node& parent, const StepShape& taken, std::size_t i) {
    const std::uint64_t taken_thread = parent.keys[parent.chosen];
    // How thread q, asleep at the parent with `s`, sleeps here: not at all
    // (it wakes), as there, half asleep, or kept asleep (Sleeper::kept).
    enum class Sleeps { not_at_all, as_there, half, kept };
    auto sleeps = [&](std::uint64_t q, const Sleeper& s) {
      if (q == taken_thread) return Sleeps::not_at_all;
      // A spin wait touches no location, but a write there after it wakes
      // the waiter, whose read may then return the old write once more;
      // run before the wait, the write leaves the re-read nothing to wait
      // for, and spin-assume keeps it from the old write: so it wakes.
      if (taken.waits != 0 && s.shape.writes && s.shape.addr == taken.waits) return Sleeps::not_at_all;
      if (dependent(s.shape, taken))
        return reads_choose_ && only_writes_what_it_reads(taken, s.shape) ? Sleeps::half : Sleeps::not_at_all;
      return commute(s.shape, taken) && s.kept == npos ? Sleeps::kept : Sleeps::as_there;
    };
    // `s`, a sleeper of the parent, as it sleeps here (`how`).
    auto sleep_here = [&](Sleeper& s, Sleeps how) {
      if (how == Sleeps::half) {
        s.half = true;
      } else if (how == Sleeps::kept) {
        s.kept = i;
        kept_asleep_ = true;
      }
    };
    // The parent's sleepers that stay, in their order, before any other
    // (n's sleep set is empty: Node::clear()), each added at the end.
    for (const auto& [q, asleep] : parent.sleep)
      if (const Sleeps how = sleeps(q, asleep); how != Sleeps::not_at_all)
        sleep_here(n.sleep.emplace_hint(n.sleep.end(), q, asleep)->second, how);
    // A thread done at the parent sleeps from there, even if it ran
    // there half asleep since an earlier step: every run of it from the
    // parent was explored, so the later `since` holds (and where a commuting
    // RMW was first kept asleep, the earlier node, stays).
    for (std::size_t at = parent.done.next(0); at != npos; at = parent.done.next(at + 1)) {
      const std::uint64_t q = parent.keys[at];
      Sleeper s{parent.shapes[at], parent.step, false};
      const Sleeps how = sleeps(q, s);
      if (how == Sleeps::not_at_all) continue;
      sleep_here(s, how);
      const auto [it, fresh] = n.sleep.emplace(q, s);
      if (!fresh) it->second = Sleeper{s.shape, s.since, s.half, std::min(s.kept, it->second.kept)};
    }
  }
  // choose() for a value decision: out of line, so that thread decisions,
  // most of them, pass through a smaller frame.
  [[gnu::noinline]] unsigned choose_value(const ChoicePoint& p) {
    const std::size_t i = call_++;
    Node& n = add_node(p, i);
    n.clear_value();
    // The read of a half-asleep thread: older writes are suspect.
    if (p.kind == ChoiceKind::read && half_.on && half_.thread == p.actor && p.made.size() == p.keys.size()) {
      n.suspect.resize(p.keys.size());
      n.since = half_.since;
      for (std::size_t k = 0; k < p.keys.size(); ++k) n.suspect[k] = p.made[k] <= half_.since ? 1 : 0;
    }
    half_.on = false;
    if (p.kind == ChoiceKind::dispatch) ban_dispatch_orders(n, p);
    while (is_banned(n, n.chosen) && n.chosen + 1 < n.keys.size()) ++n.chosen;  // (most ban none: asked first)
    if (p.kind == ChoiceKind::dispatch) {
      n.members = p.members;
      n.picks = p.picks;
      n.backtrack.insert(n.chosen);
    }
    note_burst(n);
    note_suspect(i, n);
    note_inserting(i, n);
    return n.chosen;
  }

  // following(), its branch as an alternative's index (no_branch: none),
  // which next() keeps in a register where an optional went through memory.
  // (Most often, at a thread node, every backtrack thread is done, and a
  // read or coherence node, which bans none, goes on to the next: that is
  // asked inline, the rest out of line.)
  static constexpr unsigned no_branch = ~0u;
  unsigned following_at(const Node& n, unsigned chosen, const Alternatives& done) const {
    if (n.kind == ChoiceKind::thread && done.includes(n.backtrack)) return no_branch;
    if (n.kind == ChoiceKind::read || n.kind == ChoiceKind::coherence)
      return chosen + 1 < n.keys.size() ? chosen + 1 : no_branch;
    return following_far(n, chosen, done);
  }
  // following_at() past its inline cases: a thread node's, or a dispatch node's.
  [[gnu::noinline]] unsigned following_far(const Node& n, unsigned chosen, const Alternatives& done) const {
    if (n.kind == ChoiceKind::thread) {
      for (std::size_t k = n.backtrack.next(0); k != npos; k = n.backtrack.next(k + 1))
        if (!done.count(k) && allowed(n, k)) return static_cast<unsigned>(k);
      return no_branch;
    }
    unsigned k = chosen + 1;
    while (k < n.keys.size() && (is_banned(n, k) || !n.backtrack.count(k))) ++k;
    return k < n.keys.size() ? k : no_branch;
  }

  // The parallel search (dpor_search.cpp) walks subtrees on copies of the
  // stack. It relies on this: the runs below a branch at node e, until next()
  // comes back to e, read of nodes 0..e only the choices, the parts of each
  // node fixed when it was made (keys, bans, suspects and their since,
  // picks, preemptions, actor),
  // the sleep sets (a run may wake a sleeper there), the done sets (fixed
  // above the last thread node at or above e; write_moves_back()), and, at
  // that node, the done set and the steps of the done threads as
  // they turned out (the sleep set of the next node); they change there only
  // backtrack sets (adding), sleep sets (waking) and the steps taken (as they
  // turned out).
  friend class SubtreeSearch;

  // Does `taken` conflict with the sleeping step `s` only as a write to the
  // location `s` reads (a load, or an RMW)? Then `s` may still read what it
  // could read before `taken`, in the execution explored already; only newer
  // writes are new. An RMW that reads an older write writes the same value
  // in the same place (right after the write it read) either way.
  // (Here and below, what a step does is asked before sc_ordered(), which is
  // out of line for two fence.sc: those the flags rule out ask it no more.)
  static bool only_writes_what_it_reads(const StepShape& taken, const StepShape& s) {
    if (taken.global || s.global || !s.reads || !taken.writes || sc_ordered(taken, s)) return false;
    return taken.addr == s.addr;
  }
  // Is step `r` a read (its read-from known) of what the earlier step `w`
  // writes, such that `w`, run after `r`, could read nothing new: a load, or
  // an RMW after a store?
  static bool read_after_write(const Step& w, const Step& r) {
    const StepShape& a = w.shape;
    const StepShape& b = r.shape;
    if (a.global || b.global || (a.reads && b.writes) || !a.writes || !b.reads || sc_ordered(a, b)) return false;
    return a.addr == b.addr && r.reads_from != Step::unknown;
  }
  // Is step `w2` a store that was offered a coherence slot before the write
  // of the earlier store `w1` (step `i`)?
  static bool store_may_precede(const Step& w1, const Step& w2, std::size_t i) {
    const StepShape& a = w1.shape;
    const StepShape& b = w2.shape;
    if (a.global || b.global || a.reads || b.reads || !a.writes || !b.writes || sc_ordered(a, b)) return false;
    return a.addr == b.addr && std::find(w2.precedes.begin(), w2.precedes.end(), i + 1) != w2.precedes.end();
  }
  // Are steps `w1` (step `i`) and the later `w2` stores, `w1`'s write weak and
  // left unordered with `w2`'s by coherence (Step::unordered)?
  static bool unordered_stores(const Step& w1, const Step& w2, std::size_t i) {
    const StepShape& a = w1.shape;
    const StepShape& b = w2.shape;
    if (a.global || b.global || a.reads || b.reads || !a.writes || !b.writes || sc_ordered(a, b)) return false;
    return a.addr == b.addr && std::find(w2.unordered.begin(), w2.unordered.end(), i + 1) != w2.unordered.end();
  }
  // Remembers the half-asleep thread chosen at thread node `n`, whose read
  // (the next read decision of that thread) must return a newer write.
  void note_half(const Node& n) {
    if (n.kind != ChoiceKind::thread || n.sleep.empty()) return;
    auto it = n.sleep.find(n.keys[n.chosen]);
    if (it != n.sleep.end() && it->second.half) half_ = {true, static_cast<ThreadId>(n.keys[n.chosen]), it->second.since};
  }
  // Blocks dispatched together (one fill of free slots) start as a set: their
  // order is not observable, so only increasing orders are explored.
  void ban_dispatch_orders(Node& n, const ChoicePoint& p) const {
    const bool continues = burst_.on && burst_.picks == p.picks + 1;
    n.banned.assign(n.keys.size(), 0);
    bool any = false;
    for (std::size_t k = 0; k < n.keys.size(); ++k) {
      const bool too_few_after = n.keys.size() - 1 - k < p.picks - 1;  // keys ascend
      n.banned[k] = too_few_after || (continues && n.keys[k] < burst_.block) ? 1 : 0;
      any |= !n.banned[k];
    }
    if (!any) n.banned.clear();
  }
  // A write that took a coherence slot before the end of the list may hide
  // older writes from a reader; one placed last hides nothing (until another
  // write of its location is placed: see the race walk). (An RMW's slot,
  // right after the write it read, is no decision: it precedes the writes it
  // was placed before, Step::precedes.) It hides one only from a load from
  // which some write is hidden through a write its thread does not know
  // (Step::hidden_by_unknown): otherwise the load, run first, could still
  // return only writes it may return now. Did step i, doing `s`, take such
  // a slot? (Asked of few steps: those read after, by the race walk and
  // waited_in_place().)
  bool inserted(const Step& s, std::size_t i) const {
    if (s.shape.reads && s.shape.writes && !s.precedes.empty()) return true;
    return std::any_of(inserting_.begin(), inserting_.end(), [i](const auto& e) { return e.second == i; });
  }
  // A coherence decision that took a slot before the end of the list: the
  // step it is in (the one after the last thread decision) inserted its write.
  // Of node i, `n`. (Most value nodes note neither: that is asked inline, the
  // noting out of line.)
  void note_inserting(std::size_t i, const Node& n) {
    if (n.kind == ChoiceKind::coherence && n.chosen != 0 && !thread_nodes_.empty()) note_inserting_far(i);
  }
  [[gnu::noinline]] void note_inserting_far(std::size_t i) { inserting_.emplace_back(i, thread_nodes_.size() - 1); }
  // A read of a half-asleep thread that returns an older write (Node::suspect),
  // at node i, `n`.
  void note_suspect(std::size_t i, const Node& n) {
    if (n.chosen < n.suspect.size() && n.suspect[n.chosen] != 0) note_suspect_far(i);
  }
  [[gnu::noinline]] void note_suspect_far(std::size_t i) {
    suspects_.push_back(Suspect{i, thread_nodes_.size() - 1, stack_[i].since});
    plain_ = false;
  }
  // Would step s, an RMW, have been placed elsewhere in the list had it run
  // before the RMWs of its location that other threads ran since it fell
  // asleep (from step `since`)? An RMW goes right after the later of the
  // write it read and the last write its thread knows (semantics.md,
  // "Atomicity"), whatever else follows there. So when it reads an older
  // write, it goes before an RMW that another thread placed at the same spot
  // since; run first, it went after it. Their order is then an edge when the
  // two are morally strong, or else, with no edge between them, still where a
  // later write goes beside them: an RMW that reads one of them goes right
  // after it, so on the other side of the other; a strong store morally
  // strong with both may take a slot between them. Whether the two spots are
  // one is known only to the memory model: an RMW of another thread since,
  // of another source, makes the read new; one of the same source (the two
  // are then not morally strong: atomicity lets no two such read one write)
  // does when the run writes the location once more from `since` on.
  // `steps`: the run's steps so far; `open`: not placed elsewhere yet, but a
  // later write to the location would make it so.
  struct Placement {
    bool elsewhere = false, open = false;
  };
  static Placement placement(std::span<const Step> steps, std::size_t s, std::size_t since) {
    const Step& r = steps[s];
    auto rmw = [&](const Step& k) { return k.shape.reads && k.shape.writes && k.shape.addr == r.shape.addr; };
    if (!rmw(r) || r.reads_from == Step::unknown) return {};
    bool shared = false, further = false;
    for (std::size_t k = since; k < steps.size(); ++k) {
      if (k == s || !steps[k].shape.writes || steps[k].shape.addr != r.shape.addr) continue;
      if (k < s && steps[k].thread != r.thread && rmw(steps[k])) {
        if (steps[k].reads_from != r.reads_from) return {true, false};
        shared = true;
      } else {
        further = true;
      }
    }
    return {shared && further, shared && !further};
  }
  static bool placed_elsewhere(std::span<const Step> steps, std::size_t s, std::size_t since) {
    return placement(steps, s, since).elsewhere;
  }
  // Is the run, as far as it has gone, sure to repeat an explored execution
  // however it goes on (repeats() true at its end)? It is when a suspect read
  // is settled (no spin wait can count it: Step::settled) and its RMW, if it
  // is one, can no longer be placed elsewhere. Then it is abandoned here, as a
  // run whose enabled threads all sleep is: what it would still do is what
  // the explored execution it repeats did.
  bool settled_repeat() const {
    const std::size_t made = thread_nodes_.size() - 1;  // the steps before this thread decision
    if (suspects_.empty() || run_ == nullptr || run_->steps.size() < made) return false;
    const std::span<const Step> steps(run_->steps.data(), made);
    for (const auto& [node, s, since] : suspects_) {
      if (s >= made || !steps[s].settled || steps[s].counted) continue;
      const Placement p = placement(steps, s, since);
      if (!p.elsewhere && !p.open) return true;
    }
    return false;
  }
  // A write that could have run first (docs/architecture.md, "A write that
  // waits behind loads"): does the run repeat the one explored when a thread
  // done at thread node k ran there? It does when that thread's next step, a
  // write placed last (it hides nothing), runs later behind steps it is
  // independent of and loads of its location only, none of them a spin wait
  // that mattered: each load counted by a wait before the write, and each such
  // wait, for that location, woken to read a newer write. Moved back to node
  // k, the write leaves every load its read and every step its result, and
  // the waits it made are gone (a newer write was there to read); the
  // execution is that of a run below the done branch, explored before. Off
  // under sc (a load returns the latest write) and under a preemption bound
  // (the moved run may need more preemptions).
  // One pass over the nodes, each done thread's next step x kept (found by
  // searching on from the node: the searches for one thread never overlap)
  // with what is known of the steps between: every step from the node that
  // first asked up to `ok` may be passed, and `bad` (once found) may not, so
  // that x moves back to no node at or above it. So each step is visited at
  // most twice per done thread asked about (to find its next step, and to be
  // checked against it), not once per node and thread. (Only the nodes with
  // a done thread are visited: done_nodes_.)
  bool write_moves_back(const std::vector<Step>& steps) {
    const std::size_t n = std::min(steps.size(), thread_nodes_.size());
    std::vector<Behind>& behind = kept_.behind;
    behind.clear();
    for (const std::size_t i : done_nodes_) {
      const Node& node = stack_[i];
      const std::size_t k = node.step;
      if (k >= n) break;
      for (std::size_t at = node.done.next(0); at != npos; at = node.done.next(at + 1)) {
        if (at == node.chosen) continue;
        const std::uint64_t q = node.keys[at];
        auto b = std::find_if(behind.begin(), behind.end(), [q](const Behind& e) { return e.thread == q; });
        if (b == behind.end()) b = behind.insert(behind.end(), Behind{q});
        if (b->x < k || b->x == npos) {  // (npos: not searched yet)
          std::size_t x = k;
          while (x < steps.size() && steps[x].thread != q) ++x;
          *b = Behind{q, x, k, npos, x < steps.size() && movable_write(steps[x])};
        }
        if (!b->movable || (b->bad != npos && b->bad >= k)) continue;  // (none after k, or blocked)
        b->ok = std::max(b->ok, k);
        while (b->ok < b->x && moves_back_past(steps, b->ok, b->x)) ++b->ok;
        if (b->ok == b->x) return true;
        b->bad = b->ok;
      }
    }
    return false;
  }
  // A done thread asked about, its next step x (from the last node that
  // searched: steps.size() if none), whether x is a write that may move at
  // all, and how far x moves back: past every step up to `ok` (from the
  // node that asked), not past `bad` (npos: none found).
  struct Behind {
    std::uint64_t thread = 0;
    std::size_t x = npos;
    std::size_t ok = 0;
    std::size_t bad = npos;
    bool movable = false;
  };
  // Is step x a write that hides nothing where it is, so may move back
  // (see write_moves_back())?
  static bool movable_write(const Step& x) { return placed_last(x.shape, x.precedes.empty()); }
  // May step x, a movable write, run before step j (of another thread),
  // with the same execution (see write_moves_back())?
  static bool moves_back_past(const std::vector<Step>& steps, std::size_t j, std::size_t x) {
    const StepShape& w = steps[x].shape;
    const ThreadId q = steps[x].thread;
    const Step& s = steps[j];
    if (names(s.joins, q) || learns(s, q)) return false;
    if (s.shape.waits != 0) return s.shape.waits == w.addr && s.woke_to_newer;
    if (!dependent(s.shape, w) && !commute(s.shape, w)) return true;
    if (!reads_the_same_after(s, w)) return false;
    return !s.counted || (s.counted_by != Step::unknown && s.counted_by < x);
  }
  // Does step s learn what thread q did (Step::learns)?
  static bool learns(const Step& s, ThreadId q) {
    return std::any_of(s.learns.begin(), s.learns.end(), [q](const ThreadRun& run) { return run.has(q); });
  }
  static bool names(const std::vector<ThreadId>& threads, ThreadId q) {
    return std::find(threads.begin(), threads.end(), q) != threads.end();
  }
  // The query both "A write that waits behind loads" and "Waiting in another
  // block's place" rest on (semantics.md, "A read may return"): a load, run
  // after a write of its location by another thread that coherence placed
  // last, may still return what it returned: its thread's view is the same,
  // and a write placed last hides no write from it (an edge out of a write
  // needs a write after it). Neither may be a host operation or a fence.sc
  // (whose order with others is part of the execution), and the load's
  // read-from must be known. What a spin wait made of the load (it counted
  // the writes there) is each rule's own side condition.
  static bool placed_last(const StepShape& w, bool hides_nothing) {
    return hides_nothing && w.writes && w.addr != 0 && !w.global && !w.fence_sc;
  }
  static bool reads_the_same_after(const Step& load, const StepShape& w) {
    const StepShape& l = load.shape;
    return l.reads && !l.writes && l.addr == w.addr && !l.global && !l.fence_sc && load.reads_from != Step::unknown;
  }
  void note_burst(const Node& n) {
    if (n.kind == ChoiceKind::dispatch) burst_ = {true, n.keys[n.chosen], n.picks};
  }
  // The run passes node i, `n` (its kind and step set), with the steps
  // before n's noted: a thread node is a step's, a dispatch node with a
  // choice is noted for note_dispatch_order().
  void note_passing(std::size_t i, const Node& n) {
    if (n.kind == ChoiceKind::thread) {
      thread_nodes_.push_back(i);
      half_.on = false;
      burst_.on = false;
    }
    if (n.kind == ChoiceKind::dispatch && n.keys.size() > 1) dispatch_nodes_.push_back(i);
  }
  static bool is_banned(const Node& n, std::size_t k) { return k < n.banned.size() && n.banned[k] != 0; }
  int preempts(const Node& n, std::size_t k) const {
    if (n.keys[k] == n.actor) return 0;
    return std::find(n.keys.begin(), n.keys.end(), n.actor) != n.keys.end() ? 1 : 0;
  }
  // May alternative k of thread node n run: not asleep (half asleep at
  // most), within the preemption bound? (A node with no sleeper in a search
  // with no bound, most of them, is answered inline.)
  bool allowed(const Node& n, std::size_t k) const { return (n.sleep.empty() && bound_ < 0) || allowed_far(n, k); }
  [[gnu::noinline]] bool allowed_far(const Node& n, std::size_t k) const {
    const Sleeper* half;
    return may_run(n, k, half);
  }
  // allowed() for choose_thread(), which runs k if it may: a half-asleep
  // thread is noted as note_half() would, from the same look-up of its
  // sleeper.
  bool admits(const Node& n, std::size_t k) { return (n.sleep.empty() && bound_ < 0) || admits_far(n, k); }
  [[gnu::noinline]] bool admits_far(const Node& n, std::size_t k) {
    const Sleeper* half;
    if (!may_run(n, k, half)) return false;
    if (half != nullptr) half_ = {true, static_cast<ThreadId>(n.keys[k]), half->since};
    return true;
  }
  // allowed_far(), with k's sleeper where it sleeps half (else null).
  bool may_run(const Node& n, std::size_t k, const Sleeper*& half) const {
    half = nullptr;
    auto it = n.sleep.find(n.keys[k]);
    if (it != n.sleep.end()) {
      if (!it->second.half) return false;
      half = &it->second;
    }
    return bound_ < 0 || n.preemptions + preempts(n, k) <= bound_;
  }
  // The thread that reverses race (i, j) at i's node: an initial of the steps
  // after i that do not happen after it, up to j (source-DPOR). j's thread
  // when none of them happens before j (cj: the row that holds j's clock,
  // whose own entry is not asked); else the thread of the first, which must
  // run first for j to run before i. Adding j's
  // thread there instead may add a thread asleep at the node, whose first
  // step is not j's, and the reversal is never explored (under sc, where a
  // read cannot choose an older write instead).
  static ThreadId initial(const std::vector<Step>& steps, std::size_t i, std::size_t j, const StepClocks& clocks,
                          const std::uint32_t* cj) {
    const ThreadId ti = steps[i].thread, tj = steps[j].thread;
    ThreadId first = tj;
    bool any = false;
    for (std::size_t k = i + 1; k < j; ++k) {
      const ThreadId tk = steps[k].thread;
      if (tk == ti || clocks.of(clocks.clock(k), ti) >= i + 1) continue;  // happens after i
      if (!any) first = tk;
      any = true;
      if (tk == tj || clocks.of(cj, tk) >= k + 1) return first;
    }
    return tj;
  }
  // Witnesses::teller() of commuting steps i < j, of the run's first n
  // steps, its `threads` threads, the witnesses made in `w` if not yet.
  // (Out of line: few pairs ask, and the race walk keeps its registers.)
  [[gnu::noinline]] std::size_t tell_order(std::optional<Witnesses>& w, const std::vector<Step>& steps, std::size_t n,
                                           std::size_t threads, std::size_t i, std::size_t j) {
    if (!w) w.emplace(steps, n, structural(steps, n, threads), kept_.places, kept_.witnesses);
    return w->teller(i, j);
  }
  // Adds the backtrack points that reverse step j's races (Kept::races,
  // emptied), `cj` the row that holds j's clock. (Out of line: few steps
  // race, and the race walk keeps its registers.)
  [[gnu::noinline]] void reverse_races(const std::vector<Step>& steps, std::size_t j, const StepClocks& clocks,
                                       const std::uint32_t* cj) {
    for (const std::size_t i : kept_.races)  // (a step of no node has no other thread to add)
      if (thread_nodes_[i] != npos) add_backtrack(thread_nodes_[i], initial(steps, i, j, clocks, cj));
    kept_.races.clear();
  }
  void add_backtrack(std::size_t node, ThreadId t) {
    Node& n = stack_[node];
    const auto k = std::find(n.keys.begin(), n.keys.end(), t);
    if (k != n.keys.end())
      n.backtrack.insert(static_cast<std::size_t>(k - n.keys.begin()));
    else
      n.backtrack.insert_all(n.keys.size());  // t was not enabled there: try them all
  }

  int bound_;
  // Buffers kept from run to run and, on each OS thread, from one search to
  // the next (kept(), passed on whole by pointer, not moved member by
  // member): their capacity carries over, and from one run of a
  // search to the next what analyse() keeps of the steps the next run
  // repeats (analysed_: the step clocks, told, reads, rested, threads,
  // first_step, stepped, spawn, places, earlier;
  // structural_kept_: the structural clocks).
  struct Kept {
    std::vector<Node> stack;  // the last search's nodes (Nodes::release())
    // The last search's lists of nodes and prefix (their capacity: adopt())
    std::vector<std::size_t> thread_nodes, done_nodes, dispatch_nodes;
    std::vector<unsigned> prefix;
    StepClocks::Buffers step_clocks;  // analyse()'s
    std::vector<Told> told;      // analyse()'s, per step
    std::vector<Told> told_now;  // (a run's, made beside the run before's, then swapped with it)
    Unfilled<std::size_t> reads;  // analyse()'s: the steps that read, ascending
    std::size_t reading = 0;      // (their number)
    // analyse(): the steps whose races with commuting RMWs asked Witnesses,
    // and 1 + the reader the answers rested on (npos: every later step)
    std::vector<std::pair<std::size_t, std::size_t>> rested;
    std::vector<std::size_t> races;  // analyse(): the races of one step
    std::vector<std::uint64_t> reader;  // analyse()'s, per location and column (Dpor::several)
    std::uint32_t reader_tag = 0;       // the tag of the last analysis's entries there (never 0 but before the first)
    Locations places;
    Witnesses::Buffers witnesses;
    Earlier::Buffers earlier;
    StepClocks::Buffers structural;  // structural()'s
    std::vector<std::size_t> member;
    Columns columns;  // analyse()'s, for the run's threads
    std::vector<std::size_t> first_step;
    std::size_t threads = 0;  // analyse()'s
    // The steps that places.of and earlier's links and last hold at least
    // (they only grow: hold()), so that an analysis asks one size.
    std::size_t held = 0;
    std::vector<ThreadId> stepped;  // analyse()'s: the threads with a first step, in its order
    std::vector<std::size_t> spawn;  // analyse()'s, per thread: 1 + the step that spawned it (0: none)
    std::size_t stepping = 0;       // (their number)
    std::vector<Behind> behind;  // write_moves_back()'s, per thread
  };
  // This thread's, one set per search that ended on it since none took
  // them: a thread of the parallel search walks several subtrees at once
  // (each parked while it waits for another's runs), each search on a set
  // of its own; a thread has as many as it ever walked at once.
  static std::vector<std::unique_ptr<Kept>>& kept() {
    thread_local std::vector<std::unique_ptr<Kept>> k;
    return k;
  }
  static std::unique_ptr<Kept> take_kept() {
    std::vector<std::unique_ptr<Kept>>& all = kept();
    if (all.empty()) return std::make_unique<Kept>();
    std::unique_ptr<Kept> k = std::move(all.back());
    all.pop_back();
    return k;
  }
  std::unique_ptr<Kept> own_kept_ = take_kept();
  Kept& kept_ = *own_kept_;
  Nodes stack_;
  std::vector<std::size_t> thread_nodes_;  // per step of the run: its thread node (npos: none, Nodes)
  std::vector<std::size_t> done_nodes_;  // the thread nodes on the stack with a done thread, ascending (next())
  std::size_t call_ = 0;  // the nodes the run passed so far (after it, those the run before passed)
  std::size_t asked_ = 0;  // the decisions of the run so far that asked the strategy (Node::call)
  std::size_t repeated_ = 0;  // the steps of the run analysed last that this run repeats (begin_run())
  std::size_t analysed_ = 0;  // the steps of the run analysed last whose clocks and Told are kept (Kept)
  std::uint64_t walked_long_ = 0;  // walked_long()
  std::size_t structural_kept_ = 0;         // the steps whose structural() clocks are kept (Kept)
  bool structural_made_ = false;            // structural() made its clocks in this analysis
  std::optional<StepClocks> structural_;   // those clocks (while structural_made_)
  const RunResult* run_ = nullptr;  // the run being made (begin_run())
  bool reads_choose_;  // may a read return a write older than the latest? (not under sc)
  bool predicts_;      // keeps every alternative's next step (Node::shapes)
  // A half-asleep thread running now, and its `since` (none while not `on`:
  // a flag, cleared by a store at each thread decision, where an optional's
  // reset() tests it first; so too burst_).
  struct Half {
    bool on = false;
    ThreadId thread = 0;
    std::size_t since = 0;
  } half_;
  // Steps whose read is suspect in this run: the read's node, its step and its `since`.
  struct Suspect {
    std::size_t node, step, since;
  };
  std::vector<Suspect> suspects_;
  bool plain_ = bound_ < 0;  // no bound, and no suspect read (suspects_ empty): asked at every thread decision
  std::vector<std::size_t> dispatch_nodes_;  // dispatch nodes with a choice in this run
  // Steps of this run that took a coherence slot before the end: the coherence node, and the step.
  std::vector<std::pair<std::size_t, std::size_t>> inserting_;
  bool in_place_ = false;  // this run repeats one where a block waited in another's place (waited_in_place())
  // A sleeper kept asleep by the commuting-RMW rule (Sleeper::kept) may be
  // on the stack: set when one is, or when sleep sets are copied in (a
  // subtree's stack, what a subtree left), never cleared within a search.
  bool kept_asleep_ = false;
  // The last block dispatched in this step, and its picks (none while not `on`).
  struct Burst {
    bool on = false;
    std::uint64_t block = 0;
    unsigned picks = 1;
  } burst_;
};

}  // namespace scopesim
