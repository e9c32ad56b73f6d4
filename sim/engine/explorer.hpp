// Many runs of one model: exhaustive (DPOR with sleep sets over the choice
// log), random and PCT strategies, with bounds. Collects the permitted
// outcomes and the findings, each with the log of the first run that showed it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/dpor_search.hpp"
#include "sim/engine/execution.hpp"
#include "sim/engine/tally.hpp"

namespace scopesim {

enum class Mode : std::uint8_t { exhaustive, random, pct };

// PCT's depth d places d-1 priority change points in a run: past a few
// thousand steps a run has no room for more, and the bug depth of a real
// protocol is a handful.
inline constexpr unsigned kMaxPctDepth = 1000;

// ExploreOptions::max_kept_bytes unless set otherwise: 2 GiB.
inline constexpr std::uint64_t kDefaultKeptBytes = std::uint64_t{2048} << 20;

struct ExploreOptions {
  Mode mode = Mode::exhaustive;
  std::uint64_t seed = 1;
  unsigned pct_depth = 3;            // 1 to kMaxPctDepth
  std::uint64_t max_executions = 0;  // 0: exhaustive = unbounded, random/pct = 1000
  double time_limit = 0;             // seconds, 0: none
  int preemption_bound = -1;         // -1: none
  bool stop_at_first = false;        // stop at the first bad outcome or finding
  // Bytes the outcomes and findings kept may take (Tally::kept_bytes())
  // before the search stops, "memory-limit", as at a time limit; 0: none. (A search of millions
  // of distinct outcomes keeps a witness for each: without a bound it runs
  // until the machine's memory is gone.)
  std::uint64_t max_kept_bytes = kDefaultKeptBytes;
  // Threads that make runs. The result is the same for every number (the
  // runs are taken in the order of one thread; max-executions and
  // stop-at-first count in it); only a time limit, or the memory limit (a
  // subtree's runs tallied on another thread are added whole), stops at a
  // moment that varies.
  unsigned jobs = 1;
  RunOptions run;
  std::function<void(std::uint64_t executions)> progress;  // called now and then
  // Set from elsewhere (the command's SIGINT handler): the search stops before
  // its next run, as at a time limit, with what it found so far.
  const std::atomic<bool>* interrupt = nullptr;
};

struct Exploration {
  std::vector<OutcomeSummary> outcomes;  // sorted by outcome text
  std::vector<FindingSummary> findings;  // in order of first appearance
  std::uint64_t executions = 0;          // runs explored to the end (or to a deadlock/fault)
  std::uint64_t distinct = 0;            // distinct by reads-from, coherence, fence.sc order
  std::uint64_t redundant = 0;           // runs cut short by the sleep sets or found to repeat one
  std::uint64_t decisions = 0;           // scheduling (thread) decisions over every run
  bool complete = false;                 // exhaustive and not stopped by a bound
  std::string stopped_by;  // "", "max-executions", "time-limit", "memory-limit", "stop-at-first", "interrupt"
  double seconds = 0;
  SearchStats sharing;  // exhaustive: how the work was shared by --jobs (varies with timing; not reported)
  bool bad() const;
};

Exploration explore(const models::Model& m, const models::Config& c, const ExploreOptions& o);

// Replays a log: decisions are taken from it and checked against what the run
// offers. Throws ReplayDivergence naming the first decision that does not fit
// (with its text among `texts`, the log's: see decision_text()).
struct ReplayDivergence : std::runtime_error {
  using std::runtime_error::runtime_error;
};
RunResult replay(const models::Model& m, const models::Config& c, const RunOptions& o, const ChoiceLog& log,
                 const std::vector<std::string>& texts = {});

}  // namespace scopesim
