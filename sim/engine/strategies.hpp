// The sampling strategies (uniform random, PCT) and the replay of a log or a
// token, each a Chooser for one run.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/execution.hpp"

namespace scopesim {

// A decision reaches the strategy when it chooses a thread or has alternatives.
inline bool asks_strategy(ChoiceKind k, std::size_t alternatives) {
  return k == ChoiceKind::thread || alternatives > 1;
}

// Deterministic random numbers, the same on every platform.
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  unsigned below(std::size_t n) { return static_cast<unsigned>(next() % n); }
};

// ---- random: every decision uniformly at random ----
class RandomChooser final : public Chooser {
 public:
  explicit RandomChooser(std::uint64_t seed) : rng_{seed} {}
  unsigned choose(const ChoicePoint& p) override { return rng_.below(p.keys.size()); }

 private:
  SplitMix rng_;
};

// ---- PCT (probabilistic concurrency testing): random thread priorities,
// d-1 random priority-change points; values chosen at random. ----
class PctChooser final : public Chooser {
 public:
  PctChooser(std::uint64_t seed, unsigned depth, std::uint64_t expected_steps) : rng_{seed}, depth_(depth) {
    for (unsigned k = 1; k < depth_; ++k) change_.push_back(1 + rng_.next() % std::max<std::uint64_t>(expected_steps, 1));
  }
  unsigned choose(const ChoicePoint& p) override {
    if (p.kind != ChoiceKind::thread) return rng_.below(p.keys.size());
    ++steps_;
    for (std::size_t k = 0; k < change_.size(); ++k)
      if (change_[k] == steps_) priority_[p.actor] = static_cast<std::int64_t>(k);  // below every initial priority
    unsigned best = 0;
    std::int64_t best_pri = -1;
    for (std::size_t k = 0; k < p.keys.size(); ++k) {
      auto it = priority_.find(p.keys[k]);
      if (it == priority_.end())
        it = priority_.emplace(p.keys[k], static_cast<std::int64_t>(depth_ + rng_.next() % 1000000)).first;
      if (it->second > best_pri) {
        best_pri = it->second;
        best = static_cast<unsigned>(k);
      }
    }
    return best;
  }

 private:
  SplitMix rng_;
  unsigned depth_;
  std::vector<std::uint64_t> change_;
  std::map<std::uint64_t, std::int64_t> priority_;
  std::uint64_t steps_ = 0;
};

// ---- replay: decisions from a log, checked against what the run offers ----
class ReplayChooser final : public Chooser {
 public:
  // `texts`: the log's (decision_text()), for the message of one that does not fit.
  ReplayChooser(const ChoiceLog& log, const std::vector<std::string>& texts) : log_(log), texts_(texts) {}
  unsigned choose(const ChoicePoint& p) override {
    while (at_ < log_.size() && !asks_strategy(log_[at_].kind, log_[at_].alternatives)) ++at_;
    if (!error_.empty()) return 0;
    if (at_ >= log_.size()) {
      error_ = "the run needs a " + std::string(name(p.kind)) + " decision after the schedule's last one";
      abandoned_ = true;
      return 0;
    }
    const Decision& d = log_[at_];
    const std::size_t here = at_++;
    const auto it = std::find(p.keys.begin(), p.keys.end(), d.key);
    const unsigned offered = static_cast<unsigned>(it - p.keys.begin());
    if (d.kind != p.kind || d.alternatives != p.keys.size() || it == p.keys.end() || offered != d.index) [[unlikely]] {
      misfit(p, here, offered);
      return 0;
    }
    return offered;
  }
  const std::string& error() const { return error_; }

 private:
  // Decision `here` of the log does not fit choice point `p`, of whose keys
  // its key is the `offered`th (p.keys.size(): none): the run is abandoned,
  // error() says why. (Out of line: choose() runs on a fiber's stack, which
  // its texts' temporaries would deepen at every decision.)
  [[gnu::noinline, gnu::cold]] void misfit(const ChoicePoint& p, std::size_t here, unsigned offered) {
    const Decision& d = log_[here];
    std::string why;
    if (d.kind != p.kind || d.alternatives != p.keys.size())
      why = "the run offers a " + std::string(name(p.kind)) + " decision with " + std::to_string(p.keys.size()) +
            " alternative(s)";
    else if (offered == p.keys.size())
      why = "the run offers no alternative with key " + std::to_string(d.key);
    else
      why = "key " + std::to_string(d.key) + " is alternative " + std::to_string(offered) + " of the run's, not " +
            std::to_string(d.index);
    const std::string_view text = decision_text(texts_, here);
    error_ = "decision " + std::to_string(here) + " (" + std::string(name(d.kind)) + " " +
             std::to_string(d.index) + "/" + std::to_string(d.alternatives) + " key " + std::to_string(d.key) +
             (text.empty() ? "" : ": " + std::string(text)) + ") does not fit: " + why;
    abandoned_ = true;
  }

  const ChoiceLog& log_;
  const std::vector<std::string>& texts_;
  std::size_t at_ = 0;
  std::string error_;
};

// ---- token: every choice from a token (parse_token) ----
// When the run offers a choice the token cannot fill, it abandons the run and
// names why in error().
class TokenChooser final : public Chooser {
 public:
  explicit TokenChooser(std::vector<unsigned> indexes) : indexes_(std::move(indexes)) {}
  unsigned choose(const ChoicePoint& p) override {
    if (p.keys.size() <= 1 || !error_.empty()) return 0;
    if (next_ == indexes_.size()) {
      error_ = "the run needs a " + std::string(name(p.kind)) + " decision after the token's last one (" +
               std::to_string(indexes_.size()) + ")";
      abandoned_ = true;
      return 0;
    }
    const unsigned i = indexes_[next_++];
    if (i >= p.keys.size()) {
      error_ = "decision " + std::to_string(next_) + " of the token chooses alternative " + std::to_string(i) +
               " of a " + std::string(name(p.kind)) + " decision that has " + std::to_string(p.keys.size());
      abandoned_ = true;
      return 0;
    }
    return i;
  }
  // "" when every choice fitted and every index of the token was used.
  std::string error() const {
    if (!error_.empty()) return error_;
    if (next_ != indexes_.size())
      return "the token has " + std::to_string(indexes_.size()) + " decisions but the run made " +
             std::to_string(next_);
    return "";
  }

 private:
  std::vector<unsigned> indexes_;
  std::size_t next_ = 0;
  std::string error_;
};

}  // namespace scopesim
