// A generated litmus program as the simulator sees it: its model (to_model),
// its launch, and what an exploration found in the terms the oracles speak:
// the set of final states (registers and locations, the condition left out)
// and the findings.
#pragma once
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/api/scopesim.hpp"
#include "sim/engine/choice_log.hpp"
#include "sim/litmus/program.hpp"
#include "tests/properties/litmus_gen.hpp"

namespace scopesim::props {

using OutcomeSet = std::set<std::string>;

struct Simulated {
  std::shared_ptr<const litmus::Program> program;
  models::Model model;
  Launch launch;

  explicit Simulated(const Spec& s) : program(std::make_shared<const litmus::Program>(build(s))) {
    model = litmus::to_model(program);
    launch.grid = model.chapter.grid;
    launch.block = model.chapter.block;
  }
};

// "P0:r0=1 x=2": an outcome's text without the condition's value.
inline std::string final_state(const Outcome& o) {
  std::string s;
  for (const Observed& v : o.values()) {
    if (v.name == litmus::condition_name) continue;
    if (!s.empty()) s += ' ';
    s += v.name + "=" + format_value(v.type, v.bits);
  }
  return s;
}

inline OutcomeSet final_states(const Report& r) {
  OutcomeSet out;
  for (const OutcomeSummary& o : r.outcomes()) out.insert(final_state(o.outcome));
  return out;
}

inline std::set<std::string> finding_keys(const std::vector<FindingSummary>& fs) {
  std::set<std::string> out;
  for (const FindingSummary& f : fs) out.insert(f.finding.key());
  return out;
}

inline bool racy(const Report& r) { return r.has(FindingKind::data_race) || r.has(FindingKind::scoped_race); }

// Exhaustive searches stop at this many runs: a program that needs more is
// discarded (the properties require complete searches), which keeps the suite's
// time bounded whatever rapidcheck generates.
inline constexpr std::uint64_t max_runs = 4000;

inline Options with_model(const std::string& memory_model, Mode mode = Mode::exhaustive) {
  Options o;
  o.mode = mode;
  o.run.memory_model = memory_model;
  if (mode == Mode::exhaustive) o.max_executions = max_runs;
  return o;
}

inline Report explore(const Simulated& s, const Options& o = with_model("ptx")) {
  return scopesim::explore(s.model, s.launch, o);
}

// Discards the case (rapidcheck's RC_PRE) when the search hit its bound.
inline void require_complete(const Report& r) {
  if (!r.complete()) RC_TAG("discarded: more than max_runs executions");
  RC_PRE(r.complete());
}

// The outcomes of `a` that `b` lacks, each with the token of its witness in `a`.
inline std::string missing(const Report& a, const OutcomeSet& b) {
  std::ostringstream out;
  for (const OutcomeSummary& o : a.outcomes())
    if (!b.count(final_state(o.outcome)))
      out << "  " << final_state(o.outcome) << "   token " << log_token(o.witness.log()) << "\n";
  return out.str();
}

inline std::string listing(const OutcomeSet& s) {
  std::string out;
  for (const std::string& o : s) out += "  " + o + "\n";
  return out;
}

}  // namespace scopesim::props
