// The verdict of a litmus test: explore its model and judge the condition
// over the permitted outcomes (condition.hpp, `holds`); a test can hang when
// some execution deadlocks or may not terminate.
#pragma once
#include <memory>
#include <optional>

#include "sim/engine/explorer.hpp"
#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

struct Verdict {
  bool holds = false;
  // A complete search proves the verdict; so does a witness (exists) or a
  // counterexample (forall, ~exists) found by an incomplete one.
  bool proved = false;
  bool can_hang = false;
  Exploration exploration;
  std::optional<std::size_t> witness;      // index in exploration.outcomes of the first bad outcome
  std::optional<std::size_t> hang;         // index in exploration.findings of the first hang
};

bool is_hang(FindingKind k);
Verdict judge(const models::Model& m, Quantifier q, const ExploreOptions& o);

}  // namespace scopesim::litmus
