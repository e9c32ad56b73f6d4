// One choice log: every source of nondeterminism in a run — which thread runs
// next, which write a read returns, where a write falls in coherence, which
// block is dispatched next — is one typed Decision. Strategies choose; the log
// records; a schedule file is the log plus a header; replay feeds it back.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/model/memory_model.hpp"

namespace scopesim {

enum class ChoiceKind : std::uint8_t { thread, read, coherence, dispatch };
std::string_view name(ChoiceKind k);

// What a scheduled step does to shared state, for independence checks.
struct StepShape {
  std::uintptr_t addr = 0;  // location touched (0: none)
  bool reads = false;
  bool writes = false;
  bool fence_sc = false;
  // fence.sc: its scope (as the memory model gives it) and its thread's
  // placement; two fence.sc are ordered only when morally strong (sc_ordered()).
  Scope sc_scope = Scope::sys;
  Placement where;
  bool barrier = false;      // arrives at a block barrier / syncwarp
  std::uint32_t block = 0;   // the block of a barrier arrival
  bool global = false;       // host operations: dependent with everything
  // An RMW whose result its thread discarded, of an operation that commutes
  // (docs/architecture.md, "Commuting RMWs"): its family (operation, type,
  // scope, and the block for cta scope), else 0. Known only once the step ran.
  std::uint64_t commutes = 0;
  // A spin wait (it touches no location: docs/architecture.md, "A spin wait is
  // no read"): the location whose newer write it waits for, else 0.
  std::uintptr_t waits = 0;
  bool operator==(const StepShape&) const = default;
};
// Two steps that would be dependent as accesses of one location but commute:
// RMWs of one family whose results are unused.
inline bool commute(const StepShape& a, const StepShape& b) {
  return a.commutes != 0 && a.commutes == b.commutes && a.addr == b.addr && !a.global && !b.global;
}
// Two fence.sc whose run-time order is part of the execution: morally strong
// ones (semantics.md, "Morally strong pair": each one's scope includes the
// other's thread). Others synchronize nothing with each other. (Asked of
// every pair the explorer's race walk meets, few of them two fence.sc: that
// is asked inline, the scopes out of line.)
bool sc_ordered_far(const StepShape& a, const StepShape& b);
inline bool sc_ordered(const StepShape& a, const StepShape& b) {
  return a.fence_sc && b.fence_sc && sc_ordered_far(a, b);
}
// Two steps of different threads are dependent when swapping them could
// change what either sees: the same location with a write, two morally
// strong fence.sc (their run-time order synchronizes; others are unordered), or a host operation (launch,
// synchronize). Arrivals at a barrier commute: only its completion, which
// joins every participant (Step::joins), orders anything. So do two RMWs of
// one family whose results are unused (commute()): what a later reader of the
// location could tell from their order, the explorer checks per run (Dpor).
inline bool dependent(const StepShape& a, const StepShape& b) {
  if (a.global || b.global) return true;
  if (commute(a, b)) return false;
  if (a.addr != 0 && a.addr == b.addr && (a.writes || b.writes)) return true;
  return sc_ordered(a, b);
}

// The next step of each thread, by its id, where the run keeps it: in the
// thread's own record, the records of the run's threads a stride apart. A
// thread choice point reads its alternatives' steps there, copying none;
// valid until the run adds a thread.
class NextSteps {
 public:
  NextSteps() = default;
  // The steps at `step` in each of the records from `first`.
  template <class Record>
  NextSteps(const Record* first, StepShape Record::*step)
      : first_(reinterpret_cast<const char*>(&(first->*step))), stride_(sizeof(Record)) {}
  const StepShape& of(std::uint64_t thread) const {
    return *reinterpret_cast<const StepShape*>(first_ + thread * stride_);
  }

 private:
  const char* first_ = nullptr;
  std::size_t stride_ = 0;
};

// A point where the run needs a decision. `keys` identify the alternatives
// stably (a thread id; a write as writer<<32|event; a coherence slot; a block).
struct ChoicePoint {
  ChoiceKind kind = ChoiceKind::thread;
  ThreadId actor = 0;                 // the thread acting (read/coherence) or running last (thread)
  std::vector<std::uint64_t> keys;
  NextSteps next;                     // thread choices: the next step of each thread (shape())
  std::vector<std::size_t> made;      // read choices: 1 + the step that made each write (0: initial)
  unsigned picks = 1;                 // dispatch: blocks dispatched together, this one included
  // Dispatch choices: the threads of each alternative's block (first id, count).
  std::vector<std::pair<ThreadId, std::uint32_t>> members;
  // Thread choices: the step run since the previous thread choice, as it
  // turned out (whether an RMW's result is used shows only after it ran),
  // where the run keeps it (null before the run's first step).
  const StepShape* previous = nullptr;
  // Thread choices: the next step of alternative k.
  const StepShape& shape(std::size_t k) const { return next.of(keys[k]); }
};

// A decision: a trivial type (no member initializers; Decision{} is zero), so
// that a log, copied whole as a witness, is copied as bytes. Its text, where
// one is needed, is kept beside the log (decision_text()).
struct Decision {
  ChoiceKind kind;
  unsigned index;      // which alternative
  unsigned alternatives;
  std::uint64_t key;   // the chosen alternative's key
};
static_assert(std::is_trivial_v<Decision>);
using ChoiceLog = std::vector<Decision>;

// Decision k's text among `texts`, "" where there is none. Texts are
// human-readable (thread, operation, location, value, source line), formatted
// only where RunOptions::keep_trace; kept beside a log, one per decision of
// it, or none.
inline std::string_view decision_text(const std::vector<std::string>& texts, std::size_t k) {
  return k < texts.size() ? std::string_view(texts[k]) : std::string_view();
}

// A strategy: sees only the choice point, returns an index.
class Chooser {
 public:
  virtual ~Chooser() = default;
  virtual unsigned choose(const ChoicePoint& p) = 0;
  // Abandon the run (sleep-set or preemption bound, a replay that does not
  // fit): the run stops early, at its next thread decision. (A flag the
  // strategy sets, not a call: the run asks it at every thread decision.)
  bool abandon() const { return abandoned_; }
  // The run's first choices, known before it starts (a search replaying the
  // prefix of the branch it takes): the decisions that ask the strategy take
  // them in order without asking; choose() is asked from the next one on.
  const std::vector<unsigned>& prefix() const { return prefix_; }

 protected:
  bool abandoned_ = false;
  std::vector<unsigned> prefix_;
};

// The compact one-line form of a log: "v1:" then the base-36 index of every
// decision that had more than one alternative, '.'-separated; given the key
// of the launch it ran (report::launch_key), then '@' and that key, so that
// a replay can tell a token printed for another launch.
std::string log_token(const ChoiceLog& log, std::string_view launch = {});

// A token read back: the indexes of the decisions that had a choice (feeding
// them to those decisions, and index 0 to every other, re-runs the witness),
// and its launch key ("" in a token without one).
struct Token {
  std::vector<unsigned> indexes;
  std::string launch;
};
// Throws std::invalid_argument naming what is wrong with the text.
Token parse_token(std::string_view token);

}  // namespace scopesim
