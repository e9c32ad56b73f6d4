#include "sim/engine/tally.hpp"

#include <cstddef>
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
  if (r.completed) {
    r.outcome.write_text(text_);
    const std::size_t at = place_of(text_);
    if (!holds(at, text_)) {
      // (Room for a few at once: an exploration mostly sees more than one.)
      if (outcomes.empty()) {
        outcomes.reserve(4);
        texts_.reserve(4);
      }
      texts_.insert(texts_.begin() + static_cast<std::ptrdiff_t>(at), text_);
      outcomes.emplace(outcomes.begin() + static_cast<std::ptrdiff_t>(at), r.outcome, r.bad, 0, r.log);
    }
    ++outcomes[at].count;
    text = &text_;
  }
  for (std::size_t k = 0; k < r.findings.size(); ++k) {
    const std::size_t at = finding_of(r.finding_keys[k]);
    if (at == findings.size()) {
      finding_keys_.push_back(r.finding_keys[k]);
      // (Room for the run's findings left, at once: a run that shows new findings mostly shows several.)
      if (findings.size() == findings.capacity()) findings.reserve(2 * findings.size() + (r.findings.size() - k));
      findings.emplace_back(r.findings[k], 0, r.log, text ? *text : std::string());
    }
    ++findings[at].count;
  }
  return r.bad || !r.findings.empty();
}

void Tally::add(Tally&& later) {
  executions += later.executions;
  redundant += later.redundant;
  decisions += later.decisions;
  fingerprints_.insert(std::move(later.fingerprints_));
  // (Both sorted: merged in one pass.)
  std::vector<OutcomeSummary> both;
  std::vector<std::string> both_texts;
  both.reserve(outcomes.size() + later.outcomes.size());
  both_texts.reserve(both.capacity());
  auto take = [&](Tally& t, std::size_t& k) {
    both.push_back(std::move(t.outcomes[k]));
    both_texts.push_back(std::move(t.texts_[k]));
    ++k;
  };
  std::size_t a = 0, b = 0;
  while (a < outcomes.size() || b < later.outcomes.size()) {
    if (b == later.outcomes.size() || (a < outcomes.size() && TextOrder{}(texts_[a], later.texts_[b]))) {
      take(*this, a);
    } else if (a == outcomes.size() || TextOrder{}(later.texts_[b], texts_[a])) {
      take(later, b);
    } else {
      outcomes[a].count += later.outcomes[b++].count;
      take(*this, a);
    }
  }
  outcomes = std::move(both);
  texts_ = std::move(both_texts);
  for (std::size_t k = 0; k < later.findings.size(); ++k) {
    FindingSummary& f = later.findings[k];
    const std::size_t at = finding_of(later.finding_keys_[k]);
    if (at == findings.size()) {
      finding_keys_.push_back(std::move(later.finding_keys_[k]));
      findings.push_back(std::move(f));
    } else {
      findings[at].count += f.count;
    }
  }
  later = Tally{};
}

}  // namespace scopesim
