#include "sim/litmus/verdict.hpp"

namespace scopesim::litmus {

bool is_hang(FindingKind k) {
  return k == FindingKind::deadlock || k == FindingKind::non_termination || k == FindingKind::possible_non_termination;
}

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
  v.proved = v.exploration.complete || v.witness.has_value();
  for (std::size_t i = 0; i < v.exploration.findings.size(); ++i)
    if (is_hang(v.exploration.findings[i].finding.kind)) {
      v.can_hang = true;
      if (!v.hang) v.hang = i;
    }
  return v;
}

}  // namespace scopesim::litmus
