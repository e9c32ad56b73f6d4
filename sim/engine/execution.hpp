// One run of a model: the host program and every simulated GPU thread as
// fibers, each dialect operation an event through the door, every decision
// taken from a Chooser and recorded in the choice log. The run owns the
// simulated memory arena, barriers, block residency, spin detection and
// deadlock detection; memory-model rules stay in the MemoryModel.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/model.hpp"
#include "sim/core/outcome.hpp"
#include "sim/engine/choice_log.hpp"

namespace scopesim {

struct RunOptions {
  std::string memory_model = "ptx";
  unsigned resident_blocks = 0;         // 0: every block resident
  std::uint64_t max_steps = 20000;      // per thread; past it: non-termination
  // CPU seconds a thread may run local code between two of its events (a
  // loop over locals alone never reaches one): past it the run stops at a
  // limit of the simulator (SimulatorLimit). 0: none.
  double local_time_limit = 10;
  bool keep_trace = true;               // record the text trace and the decisions' texts
  // Asked every 256 events of a run (a time limit, an interrupt): true ends
  // the run there, abandoned, so that a long run does not outlast either.
  std::function<bool()> cut;
};

// A position in the kernel source, resolved to text ("publish.cpp:31").
struct Finding {
  FindingKind kind;
  std::string message;                 // one line, names threads and positions
  std::vector<std::string> threads;    // "b0.t32", "host"
  std::vector<std::string> where;      // "models/publish/publish.cpp:31"
  std::string key() const;             // identity for de-duplication across runs
  // The hash a key is looked up by (RunResult::finding_hashes).
  static std::uint64_t hash_key(std::string_view key) { return std::hash<std::string_view>{}(key); }
};

// Threads of consecutive ids [first, first + count): what a wait learns and
// what a step spawns are listed by such runs, not thread by thread, since a
// kernel's end learns its whole grid and its start spawns it, one run each
// (so a reader's work is by runs, not by threads).
struct ThreadRun {
  ThreadId first = 0;
  std::uint32_t count = 0;
  bool has(ThreadId t) const { return t >= first && t - first < count; }
  // Has it a thread of `o`?
  bool meets(const ThreadRun& o) const {
    return count != 0 && o.count != 0 && first < o.first + o.count && o.first < first + count;
  }
  bool operator==(const ThreadRun&) const = default;
};

// One scheduled step, for the explorer's dependence analysis.
struct Step {
  ThreadId thread = 0;
  StepShape shape;
  std::size_t decision = 0;            // index in the log of the thread decision before it
  std::vector<ThreadId> joins;         // barrier, warp collective: these threads' clocks merge
  // Synchronize, kernel end, a stream operation's start: this step's thread
  // learns everything these ended threads did (one way: they learn nothing).
  // Each run is nonempty.
  std::vector<ThreadRun> learns;
  // Enqueue, kernel start: the threads this step started (an operation's
  // thread, a kernel's grid). Each run is nonempty.
  std::vector<ThreadRun> spawned;
  std::size_t reads_from = unknown;    // a load or RMW in its step: 1 + the step whose write it read (0: initial)
  static constexpr std::size_t unknown = ~std::size_t{0};
  // A spin wait of its thread counted the writes that existed when this step
  // read (semantics.md, spin-assume): then when it read, not only what, matters.
  bool counted = false;
  // A read that no spin wait of its thread can count any more (`counted` is
  // final): its thread has since written, passed a barrier or ended.
  bool settled = false;
  // A load its thread read again at the same program point, in the same
  // local state and with no shared state changed (spin-assume's key): run
  // before a write it did not read, the re-read may wait for that write and
  // then return the old one once more (an execution of its own).
  bool respun = false;
  std::size_t counted_by = unknown;    // the (last) spin wait that counted them
  // A spin wait (a step that blocked and read nothing; its shape names only
  // the location it waits on, StepShape::waits): whether the read made once
  // woken returned a write other than the one it waited past (then only when
  // it read, not what, depended on the wait).
  bool woke_to_newer = false;
  // A load: a write it may not return is hidden from it only through a write
  // its thread does not know (Readable::hidden_by_unknown).
  bool hidden_by_unknown = false;
  // Invariant: unless set, joins, learns, spawned, precedes and unordered are
  // empty (the run sets it where it fills one; most steps fill none).
  bool listed = false;
  // A store: the earlier steps (1 + index) whose writes a coherence slot it
  // was offered comes before (semantics.md, "Strong writes choose a coherence slot").
  // An RMW: those its one slot, right after the write it read, comes before.
  std::vector<std::size_t> precedes;
  // A store: the earlier steps (1 + index) whose weak writes coherence leaves
  // unordered with its write (MemoryModel::write): no edge either way.
  std::vector<std::size_t> unordered;
  // Back to a new Step of `t`, doing `s`, taken at decision `d`, its vectors
  // keeping their capacity (a run reuses the steps of the run before it in
  // the same RunResult): every field above. (Inline: a run starts one at
  // every thread decision.)
  [[gnu::always_inline]] void start(ThreadId t, const StepShape& s, std::size_t d) {
    thread = t;
    shape = s;
    decision = d;
    if (listed) {
      joins.clear();
      learns.clear();
      spawned.clear();
      precedes.clear();
      unordered.clear();
      listed = false;
    }
    reads_from = unknown;
    counted = false;
    settled = false;
    respun = false;
    counted_by = unknown;
    woke_to_newer = false;
    hidden_by_unknown = false;
  }
};

struct RunResult {
  bool completed = false;     // every thread ended (an outcome exists)
  bool abandoned = false;     // the strategy stopped it (redundant run), or RunOptions::cut did
  bool cut = false;           // RunOptions::cut ended it: the search stops
  Outcome outcome;
  bool bad = false;           // postcondition violated
  std::vector<Finding> findings;
  std::vector<std::string> finding_keys;  // Finding::key() of each of findings
  std::vector<std::uint64_t> finding_hashes;  // Finding::hash_key() of each of finding_keys
  ChoiceLog log;
  std::vector<std::string> texts;  // with RunOptions::keep_trace, one per decision of log; else none
  std::vector<Step> steps;
  std::vector<std::string> trace;  // one line per event
  std::uint64_t fingerprint = 0;   // reads-from, coherence, fence.sc order
  std::uint64_t scheduling_decisions = 0;  // thread decisions in the log
  // Which run filled it (a number no other run had; 0: none, or one that
  // ended early): a run into a RunResult its own run before filled may leave
  // in place what is there already. Travels with the contents when moved.
  std::uint64_t filled_by = 0;
};

// A run that reached a limit of the simulator, not of the model: the system
// would not map another fiber stack (a launch of more threads than it allows),
// simulated memory or the heap ran out. No finding and no outcome of such a
// run would be the model's, so run_once throws this instead.
struct SimulatorLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

RunResult run_once(const models::Model& m, const models::Config& c, const RunOptions& o, Chooser& chooser);
// The same into `into`, whose buffers it keeps: a search makes its runs into one RunResult.
void run_once(const models::Model& m, const models::Config& c, const RunOptions& o, Chooser& chooser, RunResult& into);

}  // namespace scopesim
