// A witness's one-line token (log_token, choice_log.hpp) read back: "v1:"
// then the base-36 index of every decision that had more than one
// alternative, '.'-separated. Feeding those indexes to the decisions with a
// choice, and index 0 to every other, re-runs the witness.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/choice_log.hpp"

namespace scopesim {

// Throws std::invalid_argument naming what is wrong with the text.
std::vector<unsigned> parse_token(std::string_view token);

// A strategy that takes every choice from a token. When the run offers a
// choice the token cannot fill, it abandons the run and names why in error().
class TokenChooser final : public Chooser {
 public:
  explicit TokenChooser(std::vector<unsigned> indexes) : indexes_(std::move(indexes)) {}
  unsigned choose(const ChoicePoint& p) override;
  bool abandon() const override { return !error_.empty(); }
  // "" when every choice fitted and every index of the token was used.
  std::string error() const;

 private:
  std::vector<unsigned> indexes_;
  std::size_t next_ = 0;
  std::string error_;
};

}  // namespace scopesim
