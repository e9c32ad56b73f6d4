// The exhaustive search's loop: the runs DPOR (dpor.hpp) asks for, in its
// order, on one thread or with subtrees walked ahead on several, with the same
// runs in the same order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>

#include "sim/engine/execution.hpp"
#include "sim/engine/tally.hpp"

namespace scopesim {

struct DporSearch {
  int preemption_bound = -1;  // -1: none
  unsigned jobs = 1;          // threads that run executions
  // With jobs > 1: while a thread has no task, or fewer than `stock` wait
  // beyond those the idle threads will take, subtrees are handed over at
  // nodes with at least `split_above` thread decisions below them on the
  // stack, at most `offered` waiting per walk (docs/performance-history.md:
  // tuned on histogram.plain_rmw). None changes what reaches `take`.
  std::size_t split_above = 12;
  std::size_t offered = 4;
  // A walk that reaches a branch it handed out before a thread started it
  // walks it itself (false: waits for a thread to; tests).
  bool take_back = true;
  // A run made on another thread reaches `take` with only what the explorer
  // uses of it (dpor_search.cpp, Buffer::made): of a redundant run its
  // decisions; the log only of the first run of an outcome or finding there.
  // false: whole (tests).
  bool slim = true;
  std::size_t stock = 2;  // (see split_above)
};

// How the work of a search with jobs > 1 was shared out; depends on timing,
// never on what reaches `take`.
struct SearchStats {
  std::size_t taken_over = 0;    // subtrees walked on other threads and taken over
  std::uint64_t runs_ahead = 0;  // runs made on other threads and taken
  std::uint64_t runs_lost = 0;   // runs made on other threads and thrown away (a copy that
                                 // disagreed, a stopped search)
  double waiting = 0;            // seconds walks waited for a subtree's runs
  double passing = 0;            // seconds the search's first walk passed a subtree's runs on
  // Seconds the threads slept for want of a subtree, summed over them: before
  // their first, between, after their last (fiber::WorkerPool::IdleTime).
  double idle_start = 0, idle_between = 0, idle_end = 0;
};

// Hands every run of the exhaustive search to `take`, in the order of the
// sequential search, with whether it is redundant (cut short by the sleep
// sets, or repeating an explored execution). `go_on` is asked before each run
// and `take` after it; either stops the search by returning false. With
// jobs > 1 subtrees are walked ahead on other threads (dpor_search.cpp); what
// reaches `take` (and how many times `go_on` is asked) is the same for every
// number of jobs. Given `take_tally`, the runs of such a subtree reach it
// instead, as one tally (after the runs before them, and asked `go_on` once),
// with whether its last run was cut (RunOptions::cut): where the search need
// not stop at a run (no max-executions, no stop-at-first) nor at a moment (a
// time limit), the runs then reach the caller's tally as they would have one
// by one.
SearchStats dpor_search(const models::Model& m, const models::Config& c, const RunOptions& o, const DporSearch& s,
                        const std::function<bool()>& go_on,
                        const std::function<bool(const RunResult&, bool redundant)>& take,
                        const std::function<bool(Tally&&, bool cut)>& take_tally = {});

}  // namespace scopesim
