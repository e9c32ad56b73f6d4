#include "sim/engine/choice_log.hpp"

namespace scopesim {

std::string_view name(ChoiceKind k) {
  switch (k) {
    case ChoiceKind::thread: return "thread";
    case ChoiceKind::read: return "read";
    case ChoiceKind::coherence: return "coherence";
    case ChoiceKind::dispatch: return "dispatch";
  }
  return "?";
}

bool commute(const StepShape& a, const StepShape& b) {
  return a.commutes != 0 && a.commutes == b.commutes && a.addr == b.addr && !a.global && !b.global;
}

// Two steps of different threads are dependent when swapping them could
// change what either sees: the same location with a write, two fence.sc
// (their run-time order synchronizes), or a host operation (launch,
// synchronize). Arrivals at a barrier commute: only its completion, which
// joins every participant (Step::joins), orders anything. So do two RMWs of
// one family whose results are unused (commute()): what a later reader of the
// location could tell from their order, the explorer checks per run (Dpor).
bool dependent(const StepShape& a, const StepShape& b) {
  if (a.global || b.global) return true;
  if (commute(a, b)) return false;
  if (a.addr != 0 && a.addr == b.addr && (a.writes || b.writes)) return true;
  if (a.fence_sc && b.fence_sc) return true;
  return false;
}

std::string log_token(const ChoiceLog& log) {
  // "v1:" then the index of every decision that had more than one alternative,
  // in order, as base-36 digits separated by '.'.
  std::string t = "v1:";
  bool first = true;
  for (const Decision& d : log) {
    if (d.alternatives <= 1) continue;
    if (!first) t += '.';
    first = false;
    unsigned v = d.index;
    std::string digits;
    do {
      const unsigned r = v % 36;
      digits.insert(digits.begin(), static_cast<char>(r < 10 ? '0' + r : 'a' + (r - 10)));
      v /= 36;
    } while (v != 0);
    t += digits;
  }
  return t;
}

}  // namespace scopesim
