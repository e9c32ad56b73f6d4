// The exhaustive search's loop: the runs DPOR (dpor.hpp) asks for, in its
// order, on one thread or speculatively on several with the same runs in the
// same order.
#pragma once
#include <functional>

#include "sim/engine/execution.hpp"

namespace scopesim {

struct DporSearch {
  int preemption_bound = -1;  // -1: none
  unsigned jobs = 1;          // threads that run executions
};

// Hands every run of the exhaustive search to `take`, in the order of the
// sequential search, with whether it is redundant (cut short by the sleep
// sets, or repeating an explored execution). `go_on` is asked before each run
// and `take` after it; either stops the search by returning false. With
// jobs > 1 runs are made ahead on other threads; what reaches `take` (and how
// many times `go_on` is asked) is the same for every number of jobs.
void dpor_search(const models::Model& m, const models::Config& c, const RunOptions& o, const DporSearch& s,
                 const std::function<bool()>& go_on, const std::function<bool(const RunResult&, bool redundant)>& take);

}  // namespace scopesim
