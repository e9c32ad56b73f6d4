// Properties of the simulator itself over randomly generated litmus programs
// (litmus_gen.hpp): replay, exhaustive ⊇ sampled, the sequential-consistency
// oracle, monotonicity, race-free programs being SC, and the soundness of the
// explorer's reduction against a naive enumeration. A failing property prints
// the shrunk program as a litmus listing and the token of the offending run.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "sim/api/rapidcheck.hpp"
#include "tests/properties/known_exceptions.hpp"
#include "tests/properties/litmus_gen.hpp"
#include "tests/properties/naive_search.hpp"
#include "tests/properties/ptx_axioms.hpp"
#include "tests/properties/random_chooser.hpp"
#include "tests/properties/sc_interleavings.hpp"
#include "tests/properties/simulated.hpp"

namespace scopesim::props {
namespace {

std::string kinds_text(const std::vector<FindingKind>& ks) {
  std::string s;
  for (FindingKind k : ks) s += std::string(s.empty() ? "" : ", ") + std::string(name(k));
  return s.empty() ? "none" : s;
}

// ---- replay ----

// A run's log, fed back through the engine's replay and through the one-line
// token, makes the same decisions, so the run is the same: identical trace,
// outcome, findings and execution fingerprint.
RC_GTEST_PROP(SimulatorProperties, EveryRunReplaysToTheSameTraceAndOutcome, ()) {
  const Simulated s(*gen_spec());
  const std::string memory_model = *rc::gen::element<std::string>("ptx", "sc");
  RunOptions ro;
  ro.memory_model = memory_model;
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  for (std::uint64_t k = 0; k < 8; ++k) {
    RandomChooser ch(seed + k);
    const RunResult first = run_once(s.model, s.launch, ro, ch);
    const std::string token = log_token(first.log);
    RC_LOG() << "run " << k << " token " << token << "\n";
    const RunResult again = replay(s.model, s.launch, ro, first.log);
    Options o = with_model(memory_model);
    const RunResult by_token = replay(s.model, s.launch, token, o);
    for (const RunResult* r : {&again, &by_token}) {
      RC_ASSERT(r->trace == first.trace);
      RC_ASSERT(r->completed == first.completed);
      RC_ASSERT(r->outcome == first.outcome);
      RC_ASSERT(r->fingerprint == first.fingerprint);
      RC_ASSERT(r->findings.size() == first.findings.size());
      for (std::size_t f = 0; f < first.findings.size(); ++f) RC_ASSERT(r->findings[f].key() == first.findings[f].key());
    }
  }
}

// ---- exhaustive ⊇ sampled ----

// Random and PCT runs take decisions the exhaustive search also enumerates, so
// every outcome and finding they meet is in the exhaustive result.
RC_GTEST_PROP(SimulatorProperties, ExhaustiveFindsEveryOutcomeThatSamplingFinds, ()) {
  const Spec spec = *gen_spec();
  const Simulated s(spec);
  const std::string memory_model = *rc::gen::element<std::string>("ptx", "sc");
  const Report all = explore(s, with_model(memory_model));
  require_complete(all);
  const OutcomeSet exhaustive = final_states(all);
  const std::set<std::string> findings = finding_keys(all.findings());
  for (Mode mode : {Mode::random, Mode::pct}) {
    Options o = with_model(memory_model, mode);
    o.seed = *rc::gen::inRange<std::uint64_t>(1, 1000);
    o.max_executions = 40;
    const Report sampled = explore(s, o);
    const std::string extra = missing(sampled, exhaustive);
    if (!extra.empty()) RC_FAIL("sampling (" + std::string(mode == Mode::random ? "random" : "pct") + ") found outcomes the exhaustive search does not:\n" + extra);
    for (const FindingSummary& f : sampled.findings())
      if (!findings.count(f.finding.key()))
        RC_FAIL("sampling found '" + f.finding.message + "', exhaustive search did not; token " + log_token(f.witness.log()));
  }
}

// ---- SC oracle ----

// Under --model sc the simulator's outcome set is exactly the set of final
// states of the interleavings of the program's instructions.
RC_GTEST_PROP(SimulatorProperties, ScModelEqualsBruteForceInterleavings, ()) {
  const Spec spec = *gen_spec();
  const Simulated s(spec);
  const Report r = explore(s, with_model("sc"));
  require_complete(r);
  const OutcomeSet sim = final_states(r);
  const OutcomeSet oracle = ScInterleavings(spec).outcomes();
  if (sim != oracle)
    RC_FAIL("--model sc outcomes differ from the interleavings'\nsimulator only:\n" + missing(r, oracle) +
            "interleavings:\n" + listing(oracle));
}

// ---- monotonicity ----

// One step up the order or scope lattice of one instruction: weak → relaxed
// (any scope), relaxed → acquire (loads) / release (stores) / acquire or
// release (RMWs) → acq_rel, fence.acq_rel → fence.sc, cta → gpu → sys.
// False when the instruction is already at the top.
bool strengthen(Ins& i, unsigned how, Scope scope) {
  const bool order = how % 2 == 0;
  if (i.kind == Kind::bar) return false;
  if (!order || (i.sem != Sem::weak && i.kind != Kind::fence && i.sem == Sem::acq_rel) ||
      (i.kind == Kind::fence && i.sem == Sem::sc) || (i.kind == Kind::ld && i.sem == Sem::acquire) ||
      (i.kind == Kind::st && i.sem == Sem::release)) {
    // widen the scope
    if (i.sem == Sem::weak && i.kind != Kind::fence) return false;
    if (i.scope == Scope::sys) return false;
    i.scope = i.scope == Scope::cta ? Scope::gpu : Scope::sys;
    return true;
  }
  switch (i.sem) {
    case Sem::weak: i.sem = Sem::relaxed; i.scope = scope; return true;
    case Sem::relaxed:
      i.sem = i.kind == Kind::ld ? Sem::acquire : i.kind == Kind::st ? Sem::release : (how % 4 == 0 ? Sem::acquire : Sem::release);
      return true;
    case Sem::acquire:
    case Sem::release: i.sem = Sem::acq_rel; return true;
    case Sem::acq_rel: i.sem = Sem::sc; return i.kind == Kind::fence;
    case Sem::sc: return false;
  }
  return false;
}

// Strengthening an order or widening a scope only adds synchronization,
// observation, coherence edges and atomicity, each of which only removes
// candidate executions: the stronger program's outcomes are among the weaker's.
RC_GTEST_PROP(SimulatorProperties, StrengtheningNeverAddsOutcomes, ()) {
  const Spec weak = *gen_spec();
  Spec strong = weak;
  const auto t = *rc::gen::inRange<std::size_t>(0, strong.threads.size());
  RC_PRE(!strong.threads[t].code.empty());
  const auto k = *rc::gen::inRange<std::size_t>(0, strong.threads[t].code.size());
  const auto how = *rc::gen::inRange(0u, 4u);
  RC_PRE(strengthen(strong.threads[t].code[k], how, *gen_scope()));
  RC_LOG() << "stronger program:\n" << litmus::print(build(strong));
  const Report rw = explore(Simulated(weak));
  const Report rs = explore(Simulated(strong));
  require_complete(rw);
  require_complete(rs);
  const std::string extra = missing(rs, final_states(rw));
  if (!extra.empty()) {
    OutcomeSet added;
    const OutcomeSet weaker = final_states(rw);
    for (const std::string& o : final_states(rs))
      if (!weaker.count(o)) added.insert(o);
    const Simulated w(weak);
    if (PtxAxioms::fits(*w.program) && racy_programs_lack_outcomes(racy(rw), added, PtxAxioms(*w.program).outcomes())) {
      RC_TAG("known exception: RacyProgramsLackOutcomes");
      return;
    }
    RC_FAIL("the stronger program has outcomes the weaker one does not:\n" + extra);
  }
}

// SC permits a subset of what PTX permits (every SC execution is a PTX one).
RC_GTEST_PROP(SimulatorProperties, ScOutcomesArePtxOutcomes, ()) {
  const Simulated s(*gen_spec());
  const Report sc = explore(s, with_model("sc"));
  const Report ptx = explore(s, with_model("ptx"));
  require_complete(sc);
  require_complete(ptx);
  const std::string extra = missing(sc, final_states(ptx));
  if (!extra.empty()) RC_FAIL("--model sc has outcomes --model ptx does not:\n" + extra);
}

// ---- race-free means SC ----

// DRF-SC for the C++ discipline: a program whose strong accesses are all
// seq_cst (lowered as fence.sc.S before ld.acquire / st.relaxed / atom.acquire)
// and whose fences are fence.sc, in which the model finds no data race and no
// scoped race, has only SC outcomes. (Relaxed or acquire/release atomics are
// left out: race-free SB with relaxed atomics permits a non-SC outcome.)
RC_GTEST_PROP(SimulatorProperties, RaceFreeSeqCstProgramsHaveOnlyScOutcomes, ()) {
  GenOptions g;
  g.sequentially_consistent = true;
  g.max_threads = 3;  // every seq_cst access is a fence.sc, and DPOR orders every pair of them
  g.max_code = 3;
  const Spec spec = *gen_spec(g);
  const Simulated s(spec);
  const Report ptx = explore(s, with_model("ptx"));
  require_complete(ptx);
  RC_PRE(!racy(ptx));
  const OutcomeSet sc = ScInterleavings(spec).outcomes();
  const std::string extra = missing(ptx, sc);
  if (!extra.empty()) RC_FAIL("a race-free program has non-SC outcomes:\n" + extra + "SC outcomes:\n" + listing(sc));
}

// ---- reduction is sound ----

// The explorer's reduced search (DPOR with sleep sets) finds exactly the
// outcomes and findings of the naive walk over every alternative of every
// decision, on programs small enough to walk naively. Findings are compared
// by identity (kind, threads, positions), which implies their kinds.
RC_GTEST_PROP(SimulatorProperties, ReducedSearchFindsWhatTheNaiveEnumerationFinds, ()) {
  GenOptions g;
  g.max_threads = 3;
  g.max_code = 2;
  g.max_locations = 2;
  const Simulated s(*gen_spec(g));
  const std::string memory_model = *rc::gen::element<std::string>("ptx", "sc");
  const Report reduced = explore(s, with_model(memory_model));
  require_complete(reduced);

  RunOptions ro;
  ro.memory_model = memory_model;
  ro.keep_trace = false;
  OutcomeSet naive;
  std::map<std::string, std::string> naive_findings;  // key -> token
  std::map<std::string, std::string> witness;         // outcome -> token
  NaiveSearch search;
  const bool complete = search.run_all(s.model, s.launch, ro, 20000, [&](const RunResult& r) {
    if (r.completed && witness.try_emplace(final_state(r.outcome), log_token(r.log)).second) naive.insert(final_state(r.outcome));
    for (const Finding& f : r.findings) naive_findings.try_emplace(f.key(), log_token(r.log));
  });
  RC_PRE(complete);

  const OutcomeSet found = final_states(reduced);
  std::string diff;
  for (const auto& [o, token] : witness)
    if (!found.count(o)) diff += "  outcome only the naive walk finds: " + o + "   token " + token + "\n";
  diff += [&] {
    std::string only;
    for (const OutcomeSummary& o : reduced.outcomes())
      if (!naive.count(final_state(o.outcome)))
        only += "  outcome only the reduced search finds: " + final_state(o.outcome) + "   token " + log_token(o.witness.log()) + "\n";
    return only;
  }();
  const std::set<std::string> keys = finding_keys(reduced.findings());
  for (const auto& [k, token] : naive_findings)
    if (!keys.count(k)) diff += "  finding only the naive walk finds: " + k + "   token " + token + "\n";
  for (const FindingSummary& f : reduced.findings())
    if (!naive_findings.count(f.finding.key()))
      diff += "  finding only the reduced search finds: " + f.finding.key() + "   token " + log_token(f.witness.log()) + "\n";
  if (!diff.empty())
    RC_FAIL("--model " + memory_model + ": the reduced search (" + std::to_string(reduced.executions()) +
            " runs) and the naive walk disagree (finding kinds: reduced " + kinds_text(reduced.finding_kinds()) + ")\n" + diff);
}

}  // namespace
}  // namespace scopesim::props
