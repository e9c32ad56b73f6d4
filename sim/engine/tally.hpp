// What an exploration keeps of its runs: the counts, the distinct executions
// (by fingerprint), and each outcome and finding with its count and the first
// run that showed it (the witness). Runs are added in the search's order; a
// tally of a later stretch of runs, made elsewhere (a subtree walked on
// another thread), adds to it as those runs would have one by one.
#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/list_index.hpp"
#include "sim/engine/execution.hpp"
#include "sim/engine/fingerprint_set.hpp"

namespace scopesim {

// The log of the run that first showed an outcome or a finding: one copy a
// run, shared by all it showed first. (One each made a run of thousands of
// steps that shows thousands of findings, a litmus test of that many lines,
// cost memory and time in the square of its length.)
class Witness {
 public:
  Witness() = default;
  explicit Witness(const ChoiceLog& log) : log_(std::make_shared<const ChoiceLog>(log)) {}
  const ChoiceLog& log() const { return log_ ? *log_ : none(); }

 private:
  static const ChoiceLog& none() {
    static const ChoiceLog empty;
    return empty;
  }
  std::shared_ptr<const ChoiceLog> log_;
};

struct OutcomeSummary {
  Outcome outcome;
  bool bad = false;
  std::uint64_t count = 0;
  Witness witness;
};

struct FindingSummary {
  Finding finding;
  std::uint64_t count = 0;
  Witness witness;
  std::string witness_outcome;  // outcome of the witness run ("" if it never ended)
};

// Outcome texts in std::string's order (byte by byte, unsigned; a prefix
// first), compared eight bytes at a time: the call of memcmp that
// std::string's comparison makes cost more than texts as short.
struct TextOrder {
  bool operator()(const std::string& a, const std::string& b) const {
    const std::size_t n = std::min(a.size(), b.size());
    if (n >= 8) {
      // (The last eight overlap the eight before, which are alike there.)
      for (std::size_t k = 0;; k += 8) {
        k = std::min(k, n - 8);
        if (const std::uint64_t x = eight(a, k), y = eight(b, k); x != y) return x < y;
        if (k == n - 8) break;
      }
    } else {
      for (std::size_t k = 0; k < n; ++k)
        if (a[k] != b[k]) return static_cast<unsigned char>(a[k]) < static_cast<unsigned char>(b[k]);
    }
    return a.size() < b.size();
  }
  // Bytes [k, k + 8) of `s` as a number that orders as they do.
  static std::uint64_t eight(const std::string& s, std::size_t k) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + k, 8);
    if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
    return w;
  }
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
  // The bytes its outcomes and findings keep, roughly: each one's texts and
  // values, each witness's log once (a run's is shared by all it showed
  // first), and a fixed share for each record. (Counted from
  // what is kept, not from the allocator: the same runs count the same on
  // every machine and for every --jobs.)
  std::uint64_t kept_bytes() const { return kept_bytes_; }
  // Of explored runs: by outcome text; and in order of first appearance.
  std::map<std::string, OutcomeSummary, TextOrder> outcomes;
  std::vector<FindingSummary> findings;

 private:
  static std::uint64_t bytes_of(const ChoiceLog& log);
  static std::uint64_t bytes_of(const std::string& text, const OutcomeSummary& o);
  static std::uint64_t bytes_of(const std::string& key, const FindingSummary& f);
  std::uint64_t kept_bytes_ = 0;
  FingerprintSet fingerprints_;  // an unended run's marked apart
  // Each finding's key and its hash (Finding::hash_key()), by its place in `findings`.
  std::vector<std::string> finding_keys_;
  std::vector<std::uint64_t> finding_hashes_;
  ListIndex key_index_;  // of finding_keys_
  // The place in `findings` of the finding of `key` (of hash `hash`), or findings.size().
  std::size_t finding_of(const std::string& key, std::uint64_t hash) {
    return key_index_.find_text(
        finding_keys_.size(), key, hash, [&](std::size_t i) -> const std::string& { return finding_keys_[i]; },
        [&](std::size_t i) { return finding_hashes_[i]; });
  }
};

}  // namespace scopesim
