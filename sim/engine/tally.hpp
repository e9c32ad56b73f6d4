// What an exploration keeps of its runs: the counts, the distinct executions
// (by fingerprint), and each outcome and finding with its count and the first
// run that showed it (the witness). Runs are added in the search's order; a
// tally of a later stretch of runs, made elsewhere (a subtree walked on
// another thread), adds to it as those runs would have one by one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/execution.hpp"
#include "sim/engine/fingerprint_set.hpp"

namespace scopesim {

struct OutcomeSummary {
  Outcome outcome;
  bool bad = false;
  std::uint64_t count = 0;
  ChoiceLog witness;
};

struct FindingSummary {
  Finding finding;
  std::uint64_t count = 0;
  ChoiceLog witness;
  std::string witness_outcome;  // outcome of the witness run ("" if it never ended)
};

class Tally {
 public:
  // The next run: `redundant` if the search found it so (cut short by the
  // sleep sets, or repeating an explored execution), else explored. true: it
  // is explored and bad (a bad outcome or a finding).
  bool add(const RunResult& r, bool redundant);
  // The runs of `later`, which come after those added so far.
  void add(Tally&& later);

  std::uint64_t executions = 0;  // runs explored
  std::uint64_t redundant = 0;
  std::uint64_t decisions = 0;   // scheduling decisions over every run
  std::uint64_t distinct() const { return fingerprints_.size(); }
  // Of explored runs: by outcome text; and in order of first appearance.
  std::map<std::string, OutcomeSummary> outcomes;
  std::vector<FindingSummary> findings;

 private:
  FingerprintSet fingerprints_;  // an unended run's marked apart
  std::map<std::string, std::size_t> finding_at_;   // a finding's key: its place in `findings`
};

}  // namespace scopesim
