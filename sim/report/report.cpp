// Text and JSON rendering (report.hpp). Everything here is a pure function of
// its arguments; nothing reads clocks, the environment or the file system.
#include "sim/report/report.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "sim/core/text_hash.hpp"

namespace scopesim::report {
namespace {

using nlohmann::json;

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    s += v[i];
  }
  return s;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string seconds_text(double s) { return fmt::format("{:.2f}s", s); }

bool any_bad_outcome(const Exploration& e) {
  return std::any_of(e.outcomes.begin(), e.outcomes.end(), [](const OutcomeSummary& o) { return o.bad; });
}

// Distinct kinds, in the enumeration's order.
std::vector<FindingKind> kinds_of(const Exploration& e) {
  std::set<FindingKind> s;
  for (const FindingSummary& f : e.findings) s.insert(f.finding.kind);
  return {s.begin(), s.end()};
}

std::string kind_list(const std::vector<FindingKind>& ks) {
  std::vector<std::string> v;
  for (FindingKind k : ks) v.emplace_back(scopesim::name(k));
  return join(v, ", ");
}

json launch_json(const models::Config& c) {
  json j{{"grid", c.grid}, {"block", c.block}, {"resident_blocks", c.resident_blocks}};
  if (!c.params.empty()) j["params"] = c.params;
  return j;
}

json expect_json(const models::Expectation& x) {
  json req = json::array();
  for (FindingKind k : x.required) req.push_back(std::string(scopesim::name(k)));
  return json{{"bad_outcome_permitted", x.bad_outcome_permitted},
              {"required", req},
              {"exact_findings", x.exact_findings},
              {"words", verdict_words(x.bad_outcome_permitted, x.required, !x.exact_findings)}};
}

std::string search_text(const Exploration& e, Mode mode) {
  if (e.complete) return "complete";
  if (!e.stopped_by.empty())
    return fmt::format("stopped by {} (not complete: what was not found is not ruled out)", e.stopped_by);
  if (mode != Mode::exhaustive) return "sampled (not exhaustive: what was not found is not ruled out)";
  return "not complete (what was not found is not ruled out)";
}

std::string options_text(const ExploreOptions& o) {
  std::vector<std::string> v;
  if (o.mode != Mode::exhaustive) v.push_back(fmt::format("seed {}", o.seed));
  if (o.mode == Mode::pct) v.push_back(fmt::format("depth {}", o.pct_depth));
  if (o.max_executions) v.push_back(fmt::format("max-executions {}", o.max_executions));
  if (o.time_limit > 0) v.push_back(fmt::format("time-limit {}s", o.time_limit));
  if (o.max_kept_bytes != kDefaultKeptBytes)
    v.push_back(o.max_kept_bytes ? fmt::format("memory-limit {} MB", o.max_kept_bytes >> 20) : "no memory-limit");
  if (o.preemption_bound >= 0) v.push_back(fmt::format("preemption-bound {}", o.preemption_bound));
  if (o.stop_at_first) v.push_back("stop-at-first");
  v.push_back(fmt::format("max-steps {}", o.run.max_steps));
  return join(v, ", ");
}

const Artifact* at(const std::vector<Artifact>& v, std::size_t i) { return i < v.size() ? &v[i] : nullptr; }

void artifact_text(std::string& out, const Artifact* a, const ChoiceLog& witness, std::string_view launch,
                   std::string_view indent) {
  if (a && !a->path.empty()) out += fmt::format("{}schedule  {}\n", indent, a->path);
  if (a && !a->error.empty()) out += fmt::format("{}schedule  not written: {}\n", indent, a->error);
  out += fmt::format("{}token     {}\n", indent, log_token(witness, launch));
}

void artifact_json(json& j, const Artifact* a, const ChoiceLog& witness, std::string_view launch) {
  j["schedule"] = (a && !a->path.empty()) ? json(a->path) : json(nullptr);
  if (a && !a->error.empty()) j["schedule_error"] = a->error;
  j["token"] = log_token(witness, launch);
  j["decisions"] = witness.size();
}

}  // namespace

std::string_view mode_name(Mode m) {
  switch (m) {
    case Mode::exhaustive: return "exhaustive";
    case Mode::random: return "random";
    case Mode::pct: return "pct";
  }
  return "?";
}

std::optional<Mode> parse_mode(std::string_view s) {
  for (Mode m : {Mode::exhaustive, Mode::random, Mode::pct})
    if (mode_name(m) == s) return m;
  return std::nullopt;
}

std::string launch_text(const models::Config& c) {
  std::string s = fmt::format("<<<{},{}>>>", c.grid, c.block);
  if (c.resident_blocks == 0 || c.resident_blocks >= c.grid)
    s += ", every block resident";
  else
    s += ", " + plural(c.resident_blocks, "resident block", "resident blocks");
  for (const auto& [name, value] : c.params) s += fmt::format(", {}={}", name, value);
  return s;
}

std::string launch_key(const models::Model& m, const models::Config& c, std::string_view memory_model,
                       std::uint64_t max_steps) {
  std::string what =
      fmt::format("{}|{}|{}|{}|{}|{}|", m.name, c.grid, c.block, c.resident_blocks, memory_model, max_steps);
  for (const auto& [name, value] : c.params) what += fmt::format("{}={};", name, value);
  std::uint64_t h = hash_of(what);
  std::string key;
  for (int k = 0; k < 6; ++k, h /= 36) key += "0123456789abcdefghijklmnopqrstuvwxyz"[h % 36];
  return key;
}

std::string finding_line(const Finding& f) {
  std::string s = fmt::format("{}: {}", scopesim::name(f.kind), f.message);
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// ---- explore ----

std::string explore_text(const ExploreReport& r) {
  const models::Model& m = *r.model;
  const Exploration& e = *r.exploration;
  const std::string launch = launch_key(m, r.config, r.options.run.memory_model, r.options.run.max_steps);
  std::string out;
  out += fmt::format("model         {}\n", m.name);
  out += fmt::format("memory model  {}\n", r.options.run.memory_model);
  out += fmt::format("launch        {}\n", launch_text(r.config));
  out += fmt::format("mode          {} ({})\n", mode_name(r.options.mode), options_text(r.options));
  out += fmt::format("executions    {} explored, {} distinct, {} redundant\n", e.executions, e.distinct,
                     e.redundant);
  out += fmt::format("search        {}\n", search_text(e, r.options.mode));
  out += fmt::format("time          {}\n", seconds_text(e.seconds));

  out += fmt::format("\noutcomes ({})\n", e.outcomes.size());
  std::size_t width = 0, cwidth = 0;
  for (const OutcomeSummary& o : e.outcomes) {
    width = std::max(width, o.outcome.text().size());
    cwidth = std::max(cwidth, std::to_string(o.count).size());
  }
  for (std::size_t i = 0; i < e.outcomes.size(); ++i) {
    const OutcomeSummary& o = e.outcomes[i];
    std::string text = o.outcome.text();
    if (text.empty()) text = "(nothing observed)";
    std::string line = fmt::format("  {:<{}}  {:>{}}", text, width, o.count, cwidth);
    if (o.bad) line += fmt::format("  BAD: {}", m.bad_means);
    out += line + "\n";
    if (o.bad) artifact_text(out, at(r.outcome_schedules, i), o.witness.log(), launch, "      ");
  }
  if (e.outcomes.empty()) out += "  none: no run ended\n";

  out += fmt::format("\nfindings ({})\n", e.findings.size());
  for (std::size_t i = 0; i < e.findings.size(); ++i) {
    const FindingSummary& f = e.findings[i];
    out += "  " + finding_line(f.finding) + "\n";
    if (!f.finding.threads.empty()) out += fmt::format("      threads   {}\n", join(f.finding.threads, ", "));
    if (!f.finding.where.empty()) out += fmt::format("      where     {}\n", join(f.finding.where, ", "));
    out += fmt::format("      seen in   {}; witness outcome: {}\n", plural(f.count, "execution", "executions"),
                       f.witness_outcome.empty() ? "none (the run did not end)" : f.witness_outcome);
    artifact_text(out, at(r.finding_schedules, i), f.witness.log(), launch, "      ");
  }

  const bool bad = any_bad_outcome(e);
  out += "\nresult        ";
  if (!bad && e.findings.empty())
    out += e.complete ? "nothing bad: no bad outcome, no finding\n" : "nothing bad found (search not complete)\n";
  else
    out += fmt::format("{}{}{}\n", bad ? "bad outcome" : "", bad && !e.findings.empty() ? " and " : "",
                       e.findings.empty() ? "" : plural(e.findings.size(), "finding", "findings"));
  // Several outcomes none of which is bad: correct, but not deterministic.
  if (!bad && e.outcomes.size() > 1)
    out += fmt::format("              the result depends on the schedule: {} different outcomes\n", e.outcomes.size());
  return out;
}

json explore_json(const ExploreReport& r, bool with_times) {
  const models::Model& m = *r.model;
  const Exploration& e = *r.exploration;
  const std::string launch = launch_key(m, r.config, r.options.run.memory_model, r.options.run.max_steps);
  json j;
  j["model"] = m.name;
  j["memory_model"] = r.options.run.memory_model;
  j["launch"] = launch_json(r.config);
  j["options"] = json{{"mode", std::string(mode_name(r.options.mode))},
                      {"seed", r.options.seed},
                      {"pct_depth", r.options.pct_depth},
                      {"max_executions", r.options.max_executions},
                      {"time_limit", r.options.time_limit},
                      {"memory_limit_mb", r.options.max_kept_bytes >> 20},
                      {"preemption_bound", r.options.preemption_bound},
                      {"stop_at_first", r.options.stop_at_first},
                      {"max_steps", r.options.run.max_steps}};
  j["executions"] = e.executions;
  j["distinct"] = e.distinct;
  j["redundant"] = e.redundant;
  j["complete"] = e.complete;
  j["stopped_by"] = e.stopped_by;
  j["bad_outcome"] = any_bad_outcome(e);
  j["bad"] = any_bad_outcome(e) || !e.findings.empty();
  j["bad_means"] = m.bad_means;
  json outcomes = json::array();
  for (std::size_t i = 0; i < e.outcomes.size(); ++i) {
    const OutcomeSummary& o = e.outcomes[i];
    json oj{{"outcome", o.outcome.text()}, {"bad", o.bad}, {"count", o.count}};
    artifact_json(oj, at(r.outcome_schedules, i), o.witness.log(), launch);
    outcomes.push_back(std::move(oj));
  }
  j["outcomes"] = std::move(outcomes);
  j["depends_on_schedule"] = !any_bad_outcome(e) && e.outcomes.size() > 1;
  json findings = json::array();
  for (std::size_t i = 0; i < e.findings.size(); ++i) {
    const FindingSummary& f = e.findings[i];
    json fj{{"kind", std::string(scopesim::name(f.finding.kind))},
            {"message", f.finding.message},
            {"threads", f.finding.threads},
            {"where", f.finding.where},
            {"count", f.count},
            {"witness_outcome", f.witness_outcome}};
    artifact_json(fj, at(r.finding_schedules, i), f.witness.log(), launch);
    findings.push_back(std::move(fj));
  }
  j["findings"] = std::move(findings);
  if (with_times) j["seconds"] = e.seconds;
  return j;
}

// ---- verdicts ----

std::string_view status_word(Status s) {
  switch (s) {
    case Status::match: return "yes";
    case Status::mismatch: return "NO";
    case Status::incomplete: return "incomplete";
  }
  return "?";
}

std::string_view short_name(FindingKind k) {
  switch (k) {
    case FindingKind::data_race: return "race";
    case FindingKind::scoped_race: return "scoped-race";
    case FindingKind::barrier_divergence: return "divergence";
    case FindingKind::deadlock: return "deadlock";
    case FindingKind::non_termination: return "nonterm";
    case FindingKind::possible_non_termination: return "maybe-nonterm";
    case FindingKind::out_of_bounds: return "out-of-bounds";
    case FindingKind::uninitialised_read: return "uninit";
    case FindingKind::kernel_fault: return "fault";
    case FindingKind::unsupported: return "unsupported";
  }
  return "?";
}

std::string verdict_words(bool bad_outcome, const std::vector<FindingKind>& kinds, bool others_allowed) {
  std::set<FindingKind> s(kinds.begin(), kinds.end());
  std::vector<std::string> w;
  if (bad_outcome) w.emplace_back("bad");
  for (FindingKind k : s) w.emplace_back(short_name(k));
  if (w.empty()) w.emplace_back("ok");
  if (others_allowed) w.emplace_back("*");
  return join(w, "+");
}

Verdict judge(const models::Model& m, const models::Expectation& x, const Exploration& e) {
  Verdict v;
  v.executions = e.executions;
  v.seconds = e.seconds;
  const bool found_bad = any_bad_outcome(e);
  const std::vector<FindingKind> found = kinds_of(e);
  const std::set<FindingKind> required(x.required.begin(), x.required.end());
  std::vector<FindingKind> missing, unexpected;
  for (FindingKind k : required)
    if (!std::binary_search(found.begin(), found.end(), k)) missing.push_back(k);
  if (x.exact_findings)
    for (FindingKind k : found)
      if (!required.count(k)) unexpected.push_back(k);

  v.expected = verdict_words(x.bad_outcome_permitted, x.required, !x.exact_findings);
  v.found = verdict_words(found_bad, found);

  // What was found that the expectation rules out: a mismatch however far the search went.
  std::vector<std::string> contra;
  if (found_bad && !x.bad_outcome_permitted) contra.push_back("a bad outcome (" + m.bad_means + ")");
  if (!unexpected.empty()) contra.push_back("unexpected " + kind_list(unexpected));
  // What the expectation asks for and was not found.
  std::vector<std::string> absent;
  if (!found_bad && x.bad_outcome_permitted) absent.push_back("no bad outcome (" + m.bad_means + ")");
  if (!missing.empty()) absent.push_back("no " + kind_list(missing));
  const bool needs_absence = !x.bad_outcome_permitted || x.exact_findings;
  const std::string how_far =
      e.stopped_by.empty() ? fmt::format("the search is not complete after {}",
                                         plural(e.executions, "execution", "executions"))
                           : fmt::format("the search stopped by {} after {}", e.stopped_by,
                                         plural(e.executions, "execution", "executions"));

  if (!contra.empty()) {
    v.status = Status::mismatch;
    v.note = "found " + join(contra, " and ");
    if (!absent.empty()) v.note += "; found " + join(absent, " and ");
  } else if (!absent.empty()) {
    v.status = e.complete ? Status::mismatch : Status::incomplete;
    v.note = "found " + join(absent, " and ");
    if (!e.complete) v.note += "; " + how_far;
  } else if (!e.complete && needs_absence) {
    v.status = Status::incomplete;
    v.note = how_far + ": it cannot rule out " +
             (!x.bad_outcome_permitted && x.exact_findings ? std::string("a bad outcome or other findings")
              : !x.bad_outcome_permitted                   ? std::string("a bad outcome")
                                                           : std::string("other findings"));
  } else {
    v.status = Status::match;
  }
  if (v.status == Status::incomplete) v.found = v.found == "ok" ? "incomplete" : v.found + " (incomplete)";
  return v;
}

std::string verdict_table(const std::vector<VerdictRow>& rows, bool with_times,
                          const std::vector<std::string>& not_run) {
  struct Cells {
    std::array<std::string, 6> c;
  };
  std::vector<Cells> table;
  table.push_back({{"model", "expected", "found", "match", "executions", "time"}});
  for (const VerdictRow& r : rows) {
    std::string label = r.options.empty() ? r.model : r.model + " " + r.options;
    table.push_back({{label, r.verdict.expected, r.verdict.found, std::string(status_word(r.verdict.status)),
                      std::to_string(r.verdict.executions), seconds_text(r.verdict.seconds)}});
  }
  const std::size_t columns = with_times ? 6 : 5;
  std::array<std::size_t, 6> w{};
  for (const Cells& row : table)
    for (std::size_t i = 0; i < columns; ++i) w[i] = std::max(w[i], row.c[i].size());
  std::string out;
  for (const Cells& row : table) {
    std::string line;
    for (std::size_t i = 0; i < columns; ++i) {
      if (i) line += "  ";
      const bool right = i >= 4;  // numbers
      line += right ? fmt::format("{:>{}}", row.c[i], w[i]) : fmt::format("{:<{}}", row.c[i], w[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  std::size_t ok = 0;
  std::vector<std::string> notes;
  for (const VerdictRow& r : rows) {
    if (r.verdict.match()) ++ok;
    if (!r.verdict.note.empty())
      notes.push_back(fmt::format("  {}{}: {}", r.model, r.options.empty() ? "" : " " + r.options, r.verdict.note));
  }
  if (!notes.empty()) out += "\n" + join(notes, "\n") + "\n";
  if (!not_run.empty()) out += "\nnot run (interrupted): " + join(not_run, ", ") + "\n";
  out += fmt::format("\n{} of {} as expected\n", ok, plural(rows.size() + not_run.size(), "verdict", "verdicts"));
  return out;
}

json verdicts_json(const std::vector<VerdictRow>& rows, bool with_times, const std::vector<std::string>& not_run) {
  json arr = json::array();
  bool all = not_run.empty();
  for (const VerdictRow& r : rows) {
    all = all && r.verdict.match();
    json j{{"model", r.model},
           {"options", r.options},
           {"launch", launch_json(r.config)},
           {"expected", r.verdict.expected},
           {"found", r.verdict.found},
           {"match", r.verdict.match()},
           {"status", std::string(status_word(r.verdict.status))},
           {"note", r.verdict.note},
           {"executions", r.verdict.executions},
           {"schedules", r.schedules}};
    if (with_times) j["seconds"] = r.verdict.seconds;
    arr.push_back(std::move(j));
  }
  json j{{"verdicts", arr}, {"all_as_expected", all}};
  if (!not_run.empty()) j["not_run"] = not_run;
  return j;
}

// ---- replay ----

std::string trace_text(const models::Model& m, const RunResult& r) {
  std::string out;
  for (const std::string& l : r.trace) out += l + "\n";
  if (r.completed)
    out += fmt::format("outcome: {}{}\n", r.outcome.text().empty() ? "(nothing observed)" : r.outcome.text(),
                       r.bad ? "  BAD: " + m.bad_means : "");
  else
    out += "outcome: none (the run did not end)\n";
  if (r.findings.empty()) out += "findings: none\n";
  for (const Finding& f : r.findings) {
    out += "finding: " + finding_line(f) + "\n";
    if (!f.threads.empty()) out += fmt::format("    threads  {}\n", join(f.threads, ", "));
    if (!f.where.empty()) out += fmt::format("    where    {}\n", join(f.where, ", "));
  }
  return out;
}

json trace_json(const models::Model& m, const RunResult& r, std::string_view launch) {
  json findings = json::array();
  for (const Finding& f : r.findings)
    findings.push_back(json{{"kind", std::string(scopesim::name(f.kind))},
                            {"message", f.message},
                            {"threads", f.threads},
                            {"where", f.where}});
  return json{{"model", m.name},
              {"trace", r.trace},
              {"completed", r.completed},
              {"outcome", r.completed ? json(r.outcome.text()) : json(nullptr)},
              {"bad_outcome", r.completed && r.bad},
              {"bad", (r.completed && r.bad) || !r.findings.empty()},
              {"findings", findings},
              {"decisions", r.log.size()},
              {"token", log_token(r.log, launch)}};
}

// ---- list ----

std::string list_text(const std::vector<const models::Model*>& ms) {
  std::size_t nw = 0, ew = 0;
  std::vector<std::string> words;
  for (const models::Model* m : ms) {
    words.push_back(verdict_words(m->expect.bad_outcome_permitted, m->expect.required, !m->expect.exact_findings));
    nw = std::max(nw, m->name.size());
    ew = std::max(ew, words.back().size());
  }
  std::string out;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {}", ms[i]->name, nw, words[i], ew, ms[i]->summary);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

namespace {
// One expectation in words: "a bad outcome is permitted; findings: data-race".
std::string expectation_text(const models::Expectation& x) {
  std::string s = x.bad_outcome_permitted ? "a bad outcome is permitted" : "no bad outcome";
  if (x.several_outcomes) s += ", more than one outcome (the result depends on the schedule)";
  std::vector<std::string> k;
  for (FindingKind f : x.required) k.emplace_back(scopesim::name(f));
  s += k.empty() ? "; no finding" : "; findings: " + join(k, ", ");
  if (!x.exact_findings) s += " (others may appear)";
  return s;
}

// Wraps `text` at `width` columns, every line after the first indented by `indent`.
std::string wrap(const std::string& text, std::size_t width, std::size_t indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}
}  // namespace

std::string explain_text(const models::Model& m) {
  constexpr std::size_t indent = 12, width = 96;
  auto field = [&](const char* name, const std::string& value) {
    return fmt::format("{:<{}}{}\n", name, indent, wrap(value, width - indent, indent));
  };
  std::string s = m.name + ": " + m.summary + "\n\n";
  s += field("launch", launch_text(m.chapter) + " (the chapter's)");
  if (m.quick) s += field("quick", launch_text(*m.quick) + " (for quick exhaustive runs; explore --quick)");
  for (const models::Parameter& p : m.parameters) s += field("parameter", p.name + " (--param " + p.name + "=N): " + p.meaning);
  s += field("invariant", m.invariant);
  s += field("bad means", m.bad_means.empty() ? "(no postcondition)" : m.bad_means);
  s += field("expected", expectation_text(m.expect));
  for (const models::AlsoCheck& a : m.also) s += field("with", a.options + ": " + expectation_text(a.expect));
  if (m.gpu_skip) s += field("GPU", std::string("not run by the GPU harness: ") + m.gpu_skip);
  const bool broken = m.expect.bad_outcome_permitted || !m.expect.required.empty();
  // Without a quick launch the chapter's is explored exhaustively already.
  s += field("show it", "scopesim explore " + m.name + (m.quick ? " --quick" : "") +
                            (broken && m.quick ? "   (or at the chapter launch: --mode pct --seed 1 --stop-at-first)"
                                               : ""));
  return s;
}

json list_json(const std::vector<const models::Model*>& ms) {
  json arr = json::array();
  for (const models::Model* m : ms) {
    json also = json::array();
    for (const models::AlsoCheck& a : m->also)
      also.push_back(json{{"options", a.options}, {"launch", launch_json(a.config)}, {"expect", expect_json(a.expect)}});
    json parameters = json::array();
    for (const models::Parameter& p : m->parameters) parameters.push_back(json{{"name", p.name}, {"meaning", p.meaning}});
    arr.push_back(json{{"name", m->name},
                       {"summary", m->summary},
                       {"invariant", m->invariant},
                       {"bad_means", m->bad_means},
                       {"launch", launch_json(m->chapter)},
                       {"quick", m->quick ? launch_json(*m->quick) : json(nullptr)},
                       {"parameters", parameters},
                       {"expect", expect_json(m->expect)},
                       {"also", also},
                       // At the quick launch if there is one, else the chapter's; null: not stated.
                       {"exhaustive_executions", m->exhaustive_executions != 0 ? json(m->exhaustive_executions)
                                                                               : json(nullptr)},
                       {"exhaustive_executions_at", m->quick ? "quick" : "launch"}});
  }
  return arr;
}

}  // namespace scopesim::report
