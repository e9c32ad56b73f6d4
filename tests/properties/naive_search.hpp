// The naive unreduced enumeration: a depth-first walk over every alternative
// of every decision (thread, read, coherence, dispatch), one run_once per
// leaf, with no dependence analysis, sleep sets or bounds. It shares nothing
// with the explorer's DPOR, so it is the reference the reduced exhaustive
// search is compared against.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine/execution.hpp"

namespace scopesim::props {

class NaiveSearch final : public Chooser {
 public:
  unsigned choose(const ChoicePoint& p) override {
    const std::size_t i = at_++;
    if (i == path_.size()) path_.push_back({0, static_cast<unsigned>(p.keys.size())});
    return path_[i].chosen;
  }

  // Runs every schedule; `visit` sees each run. False when more than
  // `max_runs` runs would be needed (the walk stops there).
  bool run_all(const models::Model& m, const models::Config& c, const RunOptions& o, std::uint64_t max_runs,
               const std::function<void(const RunResult&)>& visit) {
    path_.clear();
    for (std::uint64_t runs = 0;; ++runs) {
      if (runs == max_runs) return false;
      at_ = 0;
      const RunResult r = run_once(m, c, o, *this);
      path_.resize(at_);  // a run decides the same way as far as the path goes
      visit(r);
      while (!path_.empty() && path_.back().chosen + 1 >= path_.back().alternatives) path_.pop_back();
      if (path_.empty()) return true;
      ++path_.back().chosen;
    }
  }

 private:
  struct Node {
    unsigned chosen;
    unsigned alternatives;
  };
  std::vector<Node> path_;
  std::size_t at_ = 0;
};

}  // namespace scopesim::props
