#include "sim/litmus/verdict.hpp"

namespace scopesim::litmus {

bool is_hang(FindingKind k) {
  return k == FindingKind::deadlock || k == FindingKind::non_termination || k == FindingKind::possible_non_termination;
}

bool is_fault(FindingKind k) { return k == FindingKind::kernel_fault || k == FindingKind::out_of_bounds; }

Verdict judge(const models::Model& m, Quantifier q, const ExploreOptions& o) {
  Verdict v;
  v.exploration = explore(m, m.chapter, o);
  bool satisfies = false, violates = false;
  for (std::size_t i = 0; i < v.exploration.outcomes.size(); ++i) {
    const OutcomeSummary& s = v.exploration.outcomes[i];
    const bool c = s.outcome.i(condition_name) != 0;
    satisfies |= c;
    violates |= !c;
    if (s.bad && !v.witness) v.witness = i;
  }
  v.holds = holds(q, satisfies, violates);
  for (std::size_t i = 0; i < v.exploration.findings.size(); ++i) {
    const FindingKind k = v.exploration.findings[i].finding.kind;
    if (is_hang(k)) {
      v.can_hang = true;
      if (!v.hang) v.hang = i;
    }
    if (is_fault(k) && !v.fault) v.fault = i;
    v.past_step_bound |= k == FindingKind::non_termination;
  }
  v.proved = !v.fault && ((v.exploration.complete && !v.past_step_bound) || v.witness.has_value());
  return v;
}

}  // namespace scopesim::litmus
