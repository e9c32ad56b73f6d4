#include "sim/engine/tally.hpp"

#include <cstddef>
#include <optional>
#include <tuple>
#include <unordered_set>
#include <utility>

namespace scopesim {

bool Tally::add(const RunResult& r, bool redundant_run) {
  decisions += r.scheduling_decisions;
  if (redundant_run) {
    ++redundant;
    return false;
  }
  ++executions;
  fingerprints_.insert(r.fingerprint ^ (r.completed ? 0 : 0x5bd1e995ULL));
  const std::string* text = nullptr;  // the outcome's, made once
  // The run's log, copied once, for all the run shows first.
  std::optional<Witness> witness;
  auto shared_log = [&]() -> const Witness& {
    if (!witness) {
      witness.emplace(r.log);
      kept_bytes_ += bytes_of(witness->log());
    }
    return *witness;
  };
  if (r.completed) {
    // (Looked up by the text made into one string of the thread's, its
    // capacity kept from run to run and from tally to tally: only a new
    // outcome's is copied.)
    thread_local std::string made;
    r.outcome.write_text(made);
    auto it = outcomes.lower_bound(made);
    if (it == outcomes.end() || outcomes.key_comp()(made, it->first)) {
      it = outcomes.emplace_hint(it, std::piecewise_construct, std::forward_as_tuple(made),
                                 std::forward_as_tuple(r.outcome, r.bad, 0, shared_log()));
      kept_bytes_ += bytes_of(it->first, it->second);
    }
    ++it->second.count;
    text = &it->first;
  }
  for (std::size_t k = 0; k < r.findings.size(); ++k) {
    const std::size_t at = finding_of(r.finding_keys[k], r.finding_hashes[k]);
    if (at == findings.size()) {
      finding_keys_.push_back(r.finding_keys[k]);
      finding_hashes_.push_back(r.finding_hashes[k]);
      // (Room for the run's findings left, at once: a run that shows new findings mostly shows several.)
      if (findings.size() == findings.capacity()) findings.reserve(2 * findings.size() + (r.findings.size() - k));
      findings.emplace_back(r.findings[k], 0, shared_log(), text ? *text : std::string());
      kept_bytes_ += bytes_of(finding_keys_.back(), findings.back());
    }
    ++findings[at].count;
  }
  return r.bad || !r.findings.empty();
}

namespace {
// (A record's share: a map node or vector slot, a string's and a vector's
// heap blocks, the witness's control block.)
constexpr std::uint64_t kRecordBytes = 256;
}  // namespace

std::uint64_t Tally::bytes_of(const ChoiceLog& log) { return log.size() * sizeof(Decision); }

std::uint64_t Tally::bytes_of(const std::string& text, const OutcomeSummary& o) {
  return kRecordBytes + text.size() + o.outcome.values().size() * sizeof(Observed);
}

std::uint64_t Tally::bytes_of(const std::string& key, const FindingSummary& f) {
  std::uint64_t n = kRecordBytes + key.size() + f.finding.message.size() + f.witness_outcome.size();
  for (const std::string& t : f.finding.threads) n += t.size();
  for (const std::string& w : f.finding.where) n += w.size();
  return n;
}

void Tally::add(Tally&& later) {
  // (A witness's log counted once, as add() counts it where the run's first
  // new outcome or finding makes it: the runs that show nothing new here show
  // nothing first.)
  std::unordered_set<const ChoiceLog*> logs;
  auto count_log = [&](const Witness& w) {
    if (logs.insert(&w.log()).second) kept_bytes_ += bytes_of(w.log());
  };
  executions += later.executions;
  redundant += later.redundant;
  decisions += later.decisions;
  fingerprints_.insert(std::move(later.fingerprints_));
  for (auto& [text, o] : later.outcomes) {
    auto [it, fresh] = outcomes.try_emplace(text);
    if (fresh) {
      it->second = std::move(o);
      kept_bytes_ += bytes_of(it->first, it->second);
      count_log(it->second.witness);
    } else
      it->second.count += o.count;
  }
  for (std::size_t k = 0; k < later.findings.size(); ++k) {
    FindingSummary& f = later.findings[k];
    const std::size_t at = finding_of(later.finding_keys_[k], later.finding_hashes_[k]);
    if (at == findings.size()) {
      finding_keys_.push_back(std::move(later.finding_keys_[k]));
      finding_hashes_.push_back(later.finding_hashes_[k]);
      findings.push_back(std::move(f));
      kept_bytes_ += bytes_of(finding_keys_.back(), findings.back());
      count_log(findings.back().witness);
    } else {
      findings[at].count += f.count;
    }
  }
  later = Tally{};
}

}  // namespace scopesim
