// The verdict of a litmus test: explore its model and judge the condition
// over the permitted outcomes (condition.hpp, `holds`); a test can hang when
// some execution deadlocks or may not terminate. A test in which a thread
// faults in some execution (divides by zero, names a barrier outside 0..15,
// accesses memory out of bounds) has no verdict: that execution's final
// state is not the program's.
#pragma once
#include <memory>
#include <optional>

#include "sim/engine/explorer.hpp"
#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

struct Verdict {
  // Meaningful only when no thread faulted (`fault` empty).
  bool holds = false;
  // A complete search proves the verdict; so does a witness (exists) or a
  // counterexample (forall, ~exists) found by an incomplete one. A search
  // with an execution cut at the step bound is not complete.
  bool proved = false;
  // Some execution ran past the step bound (a non-termination finding): a
  // thread may never terminate, and that execution's end is unknown.
  bool past_step_bound = false;
  bool can_hang = false;
  Exploration exploration;
  std::optional<std::size_t> witness;      // index in exploration.outcomes of the first bad outcome
  std::optional<std::size_t> hang;         // index in exploration.findings of the first hang
  std::optional<std::size_t> fault;        // index in exploration.findings of the first fault
};

bool is_hang(FindingKind k);
bool is_fault(FindingKind k);  // a thread faulted: the run did not run the program to its end
Verdict judge(const models::Model& m, Quantifier q, const ExploreOptions& o);

}  // namespace scopesim::litmus
