// The sampling strategies' loop: run k of random or PCT sampling, in order,
// on one thread or made ahead on several with the same runs.
#pragma once
#include <cstdint>
#include <functional>

#include "sim/engine/execution.hpp"

namespace scopesim {

struct SamplingSearch {
  bool pct = false;  // else uniformly random
  std::uint64_t seed = 1;
  unsigned pct_depth = 3;
  std::uint64_t runs = 1000;
  unsigned jobs = 1;  // threads that make runs
};

// Hands runs 0, 1, ... of the sampling to `take`, in that order. Run k is
// seeded by (seed, k); under PCT its change points spread over the longest
// run before it. `go_on` is asked before each run and `take` after it; either
// stops by returning false. What reaches `take` is the same for every number of jobs.
void sampling_search(const models::Model& m, const models::Config& c, const RunOptions& o, const SamplingSearch& s,
                     const std::function<bool()>& go_on, const std::function<bool(const RunResult&)>& take);

}  // namespace scopesim
