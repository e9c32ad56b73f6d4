// A strategy for the properties' own runs: every decision uniformly at random
// from a seed (std::mt19937_64 is the same sequence on every platform).
#pragma once
#include <cstdint>
#include <random>

#include "sim/engine/choice_log.hpp"

namespace scopesim::props {

class RandomChooser final : public Chooser {
 public:
  explicit RandomChooser(std::uint64_t seed) : rng_(seed) {}
  unsigned choose(const ChoicePoint& p) override { return static_cast<unsigned>(rng_() % p.keys.size()); }

 private:
  std::mt19937_64 rng_;
};

}  // namespace scopesim::props
