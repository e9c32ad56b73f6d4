// `scopesim litmus FILE...`: each PTX litmus test is parsed, turned into a
// model (sim/litmus) and explored; the condition's verdict follows from the
// permitted outcomes (condition.hpp, `holds`). With --liveness, a test can
// hang when some execution deadlocks or may not terminate. --expect and
// --expect-liveness compare with verdict files in the corpus's csv format;
// --known lists documented disagreements (docs/conformance.md), which are
// reported but do not fail, while a listed one that now agrees does.
// Exit: 0 = every test ran (and agreed, with --expect); 1 = a test is
// unsupported or disagrees; 2 = malformed input or usage error.
#include "sim/cli/litmus_command.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "sim/engine/explorer.hpp"
#include "sim/engine/schedule_file.hpp"
#include "sim/litmus/cuda.hpp"
#include "sim/litmus/parser.hpp"
#include "sim/litmus/verdict.hpp"
#include "sim/model/memory_model.hpp"
#include "sim/report/report.hpp"

namespace scopesim::cli {

namespace {

namespace fs = std::filesystem;
using litmus::Program;

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

// Identifies the listing a schedule was recorded for (FNV-1a 64 of its text).
std::string listing_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

// ---- verdict files ----

// `path,verdict` lines; paths start with `litmus/PTX/` (dropped) and name a
// file by its trailing path components.
struct VerdictFile {
  std::map<std::string, bool> verdict;  // relative path -> condition holds / test terminates
  std::optional<bool> find(const std::string& file) const {
    const std::string f = fs::path(file).lexically_normal().generic_string();
    for (const auto& [rel, v] : verdict)
      if (f == rel || (f.size() > rel.size() && f.compare(f.size() - rel.size(), rel.size(), rel) == 0 &&
                       f[f.size() - rel.size() - 1] == '/'))
        return v;
    return std::nullopt;
  }
};

std::string strip_prefix(std::string p) {
  const std::string prefix = "litmus/PTX/";
  if (p.compare(0, prefix.size(), prefix) == 0) p = p.substr(prefix.size());
  return p;
}

VerdictFile read_verdicts(const std::string& path) {
  VerdictFile v;
  std::istringstream in(read_text(path));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::size_t comma = line.rfind(',');
    const std::string val = comma == std::string::npos ? "" : line.substr(comma + 1);
    if (comma == std::string::npos || (val != "0" && val != "1"))
      throw InputError(fmt::format("{}:{}: expected 'path,0' or 'path,1'", path, n));
    v.verdict[strip_prefix(line.substr(0, comma))] = val == "1";
  }
  return v;
}

// Documented disagreements: `path,check,reason` with check safety, liveness or unsupported.
struct Known {
  std::map<std::pair<std::string, std::string>, std::string> reason;  // (relative path, check) -> reason
  std::optional<std::string> find(const std::string& file, const std::string& check) const {
    const std::string f = fs::path(file).lexically_normal().generic_string();
    for (const auto& [key, why] : reason) {
      const std::string& rel = key.first;
      if (key.second == check &&
          (f == rel || (f.size() > rel.size() && f.compare(f.size() - rel.size(), rel.size(), rel) == 0 &&
                        f[f.size() - rel.size() - 1] == '/')))
        return why;
    }
    return std::nullopt;
  }
};

Known read_known(const std::string& path) {
  Known k;
  std::istringstream in(read_text(path));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::size_t a = line.find(','), b = a == std::string::npos ? a : line.find(',', a + 1);
    const std::string check = b == std::string::npos ? "" : line.substr(a + 1, b - a - 1);
    if (b == std::string::npos || (check != "safety" && check != "liveness" && check != "unsupported"))
      throw InputError(fmt::format("{}:{}: expected 'path,safety|liveness|unsupported,reason'", path, n));
    k.reason[{strip_prefix(line.substr(0, a)), check}] = line.substr(b + 1);
  }
  return k;
}

// ---- options ----

struct Options {
  std::vector<std::string> files;
  bool liveness = false;
  std::string expect, expect_liveness, known;
  bool json = false;
  bool print = false;
  std::string emit_cuda;
  std::string replay;
  std::string mode = "exhaustive";
  std::uint64_t seed = 1;
  unsigned depth = 3;
  std::uint64_t max_executions = 0;
  double time_limit = 0;
  std::uint64_t max_steps = 20000;
  std::string memory_model = "ptx";
  std::string schedules = "scopesim-schedules";
  bool no_schedules = false;
};

// ---- one test ----

enum class Agreement { none, agrees, documented, disagrees, stale };

struct Check {
  std::optional<bool> expected;
  Agreement agreement = Agreement::none;
  std::string reason;  // documented disagreement
};

struct Result {
  std::string file;
  std::string name;
  std::string unsupported;  // "" when it ran
  std::string condition;
  bool holds = false;
  bool proved = true;       // complete search, or the verdict has a witness
  bool can_hang = false;
  Exploration e;
  std::string witness_schedule, witness_token;
  std::string hang_schedule, hang_token;
  Check safety, live;
};

class Runner {
 public:
  explicit Runner(const Options& o) : o_(o) {}

  Result run(const std::string& file, const std::string& text, std::shared_ptr<const Program> p) {
    Result r;
    r.file = file;
    r.name = p->name;
    r.condition = litmus::print(p->condition);
    const models::Model m = litmus::to_model(p);
    const ExploreOptions eo = explore_options();
    const litmus::Verdict v = litmus::judge(m, p->condition.quantifier, eo);
    r.holds = v.holds;
    r.proved = v.proved;
    r.can_hang = v.can_hang;
    r.e = v.exploration;
    const std::string hash = listing_hash(text);
    if (v.witness) {
      const ChoiceLog& w = r.e.outcomes[*v.witness].witness;
      r.witness_token = log_token(w);
      r.witness_schedule = write_schedule(m, hash, eo.run, w);
    }
    if (v.hang && o_.liveness) {
      const ChoiceLog& w = r.e.findings[*v.hang].witness;
      r.hang_token = log_token(w);
      r.hang_schedule = write_schedule(m, hash, eo.run, w);
    }
    return r;
  }

  ExploreOptions explore_options() const {
    ExploreOptions eo;
    eo.mode = report::parse_mode(o_.mode).value_or(Mode::exhaustive);
    eo.seed = o_.seed;
    eo.pct_depth = o_.depth;
    eo.max_executions = o_.max_executions;
    eo.time_limit = o_.time_limit;
    eo.run.memory_model = o_.memory_model;
    eo.run.max_steps = o_.max_steps;
    eo.run.keep_trace = false;
    return eo;
  }

 private:
  // Replays the witness for its trace hash, outcome and findings and writes
  // <dir>/<test>.schedule (overwritten by the next run of the same test).
  std::string write_schedule(const models::Model& m, const std::string& hash, const RunOptions& run,
                             const ChoiceLog& witness) {
    if (o_.no_schedules) return "";
    RunOptions ro = run;
    ro.keep_trace = true;
    const RunResult r = replay(m, m.chapter, ro, witness);
    Schedule s;
    s.header.model = m.name;
    s.header.source_hash = hash;
    s.header.memory_model = run.memory_model;
    s.header.config = m.chapter;
    s.header.max_steps = run.max_steps;
    s.header.outcome = r.completed ? r.outcome.text() : "";
    for (const Finding& f : r.findings) s.header.findings.push_back(report::finding_line(f));
    s.header.trace_hash = trace_hash(r.trace);
    s.log = r.log;  // the witness with its decisions' texts
    std::string stem = m.name;
    for (char& c : stem)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+')) c = '_';
    const unsigned n = ++written_[stem];
    fs::create_directories(o_.schedules);
    const fs::path path = fs::path(o_.schedules) / fmt::format("litmus.{}.{}.schedule", stem, n);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << format_schedule(s);
    if (!out) throw InputError("cannot write " + path.string());
    return path.string();
  }

  const Options& o_;
  std::map<std::string, unsigned> written_;
};

// ---- comparison with verdict files ----

void compare(Check& c, std::optional<bool> expected, bool found, const Known& known, const std::string& file,
             const std::string& check) {
  c.expected = expected;
  if (!expected) return;
  const auto why = known.find(file, check);
  if (*expected == found) {
    c.agreement = why ? Agreement::stale : Agreement::agrees;
  } else {
    c.agreement = why ? Agreement::documented : Agreement::disagrees;
    if (why) c.reason = *why;
  }
}

std::string_view agreement_word(Agreement a) {
  switch (a) {
    case Agreement::none: return "";
    case Agreement::agrees: return "agrees";
    case Agreement::documented: return "documented disagreement";
    case Agreement::disagrees: return "DISAGREES";
    case Agreement::stale: return "AGREES BUT IS LISTED AS A DOCUMENTED DISAGREEMENT";
  }
  return "";
}

std::string outcome_text(const Outcome& o) {
  std::string s;
  for (const Observed& v : o.values())
    if (v.name != litmus::condition_name) s += (s.empty() ? "" : " ") + v.name + "=" + format_value(v.type, v.bits);
  return s.empty() ? "(no values)" : s;
}

std::string text_report(const Result& r, const Options& o) {
  std::string s = fmt::format("{} ({})\n", r.name, r.file);
  if (!r.unsupported.empty()) {
    s += "  verdict:   unsupported: " + r.unsupported + "\n";
    return s;
  }
  s += "  condition: " + r.condition + "\n";
  s += fmt::format("  verdict:   {}{}", r.holds ? "holds" : "does not hold",
                   r.proved ? "" : " (search incomplete: not proved)");
  if (r.safety.expected)
    s += fmt::format("  [expected: {}; {}]", *r.safety.expected ? "holds" : "does not hold",
                     agreement_word(r.safety.agreement));
  s += "\n";
  s += fmt::format("  outcomes ({} execution(s){}):\n", r.e.executions, r.e.complete ? ", complete" : "");
  for (const OutcomeSummary& os : r.e.outcomes)
    s += fmt::format("    {}{}  ({}x)\n", outcome_text(os.outcome),
                     os.outcome.i(litmus::condition_name) != 0 ? "  [condition]" : "", os.count);
  if (!r.witness_token.empty()) {
    const bool exists = r.condition.rfind("exists", 0) == 0;
    s += fmt::format("  {}: token {}{}\n", exists ? "witness" : "counterexample", r.witness_token,
                     r.witness_schedule.empty() ? "" : ", schedule " + r.witness_schedule);
  }
  if (o.liveness) {
    s += fmt::format("  liveness:  {}", r.can_hang ? "can hang" : "terminates");
    if (r.live.expected)
      s += fmt::format("  [expected: {}; {}]", *r.live.expected ? "terminates" : "can hang",
                       agreement_word(r.live.agreement));
    s += "\n";
    if (!r.hang_token.empty())
      s += fmt::format("  hang: token {}{}\n", r.hang_token, r.hang_schedule.empty() ? "" : ", schedule " + r.hang_schedule);
  }
  for (const FindingSummary& f : r.e.findings) s += "  finding: " + report::finding_line(f.finding) + "\n";
  if (!r.safety.reason.empty()) s += "  documented: " + r.safety.reason + "\n";
  if (!r.live.reason.empty()) s += "  documented (liveness): " + r.live.reason + "\n";
  return s;
}

nlohmann::json json_check(const Check& c) {
  nlohmann::json j;
  j["expected"] = *c.expected;
  j["agreement"] = std::string(agreement_word(c.agreement));
  if (!c.reason.empty()) j["documented"] = c.reason;
  return j;
}

nlohmann::json json_report(const Result& r, const Options& o) {
  nlohmann::json j;
  j["file"] = r.file;
  j["name"] = r.name;
  if (!r.unsupported.empty()) {
    j["unsupported"] = r.unsupported;
    return j;
  }
  j["condition"] = r.condition;
  j["holds"] = r.holds;
  j["proved"] = r.proved;
  j["executions"] = r.e.executions;
  j["complete"] = r.e.complete;
  nlohmann::json outs = nlohmann::json::array();
  for (const OutcomeSummary& os : r.e.outcomes)
    outs.push_back({{"outcome", outcome_text(os.outcome)},
                    {"satisfies", os.outcome.i(litmus::condition_name) != 0},
                    {"count", os.count}});
  j["outcomes"] = outs;
  if (!r.witness_token.empty()) j["witness"] = {{"token", r.witness_token}, {"schedule", r.witness_schedule}};
  if (o.liveness) {
    j["can_hang"] = r.can_hang;
    if (!r.hang_token.empty()) j["hang"] = {{"token", r.hang_token}, {"schedule", r.hang_schedule}};
  }
  nlohmann::json fs = nlohmann::json::array();
  for (const FindingSummary& f : r.e.findings) fs.push_back(report::finding_line(f.finding));
  j["findings"] = fs;
  if (r.safety.expected) j["safety"] = json_check(r.safety);
  if (r.live.expected) j["liveness"] = json_check(r.live);
  return j;
}

// ---- the command ----

struct Loaded {
  std::string file, text;
  std::shared_ptr<const Program> program;
  std::string unsupported;
};

std::vector<Loaded> load(const Options& o) {
  std::vector<Loaded> v;
  for (const std::string& f : o.files) {
    Loaded l;
    l.file = f;
    l.text = read_text(f);
    try {
      auto p = std::make_shared<Program>(litmus::parse(l.text, f));
      l.unsupported = p->unsupported();
      l.program = std::move(p);
    } catch (const litmus::Unsupported& e) {
      const std::string what = e.what();
      const std::size_t at = what.find("unsupported: ");
      l.unsupported = at == std::string::npos ? what : what.substr(at + 13) + " (" + what.substr(0, at - 2) + ")";
      auto p = std::make_shared<Program>();
      p->name = fs::path(f).stem().string();
      l.program = std::move(p);
    } catch (const litmus::ParseError& e) {
      throw InputError(e.what());
    }
    v.push_back(std::move(l));
  }
  return v;
}

int emit_cuda(const Options& o, const std::vector<Loaded>& tests) {
  fs::create_directories(o.emit_cuda);
  int rc = 0;
  for (const Loaded& t : tests) {
    if (!t.unsupported.empty()) {
      fmt::print(stderr, "scopesim: {}: unsupported: {}\n", t.file, t.unsupported);
      rc = 1;
      continue;
    }
    std::string stem = fs::path(t.file).stem().string();
    for (char& c : stem)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+')) c = '_';
    const fs::path cu = fs::path(o.emit_cuda) / (stem + ".cu"), meta = fs::path(o.emit_cuda) / (stem + ".json");
    std::ofstream(cu, std::ios::binary | std::ios::trunc) << litmus::cuda_source(*t.program);
    nlohmann::json j = litmus::cuda_metadata(*t.program);
    j["source"] = cu.filename().string();
    std::ofstream(meta, std::ios::binary | std::ios::trunc) << j.dump(2) << "\n";
    if (!o.json) fmt::print("{}\n{}\n", cu.string(), meta.string());
  }
  return rc;
}

int replay_schedule(const Options& o, const Loaded& t) {
  if (!t.unsupported.empty()) throw InputError(t.file + ": unsupported: " + t.unsupported);
  Schedule s;
  try {
    s = parse_schedule(read_text(o.replay));
  } catch (const ScheduleError& e) {
    throw InputError(o.replay + ": " + one_line(e.what()));
  }
  const models::Model m = litmus::to_model(t.program);
  if (s.header.model != m.name) throw InputError("schedule is for '" + s.header.model + "', not " + m.name);
  if (s.header.source_hash != listing_hash(t.text))
    throw InputError("schedule was recorded for a different version of " + t.file);
  RunOptions ro;
  ro.memory_model = s.header.memory_model;
  ro.max_steps = s.header.max_steps;
  ro.keep_trace = true;
  RunResult r;
  try {
    r = replay(m, m.chapter, ro, s.log);
  } catch (const ReplayDivergence& e) {
    throw InputError("replay diverged: " + one_line(e.what()));
  }
  if (o.json)
    fmt::print("{}\n", report::trace_json(m, r).dump(2));
  else
    fmt::print("{}", report::trace_text(m, r));
  const std::string outcome = r.completed ? r.outcome.text() : "";
  if (outcome != s.header.outcome || trace_hash(r.trace) != s.header.trace_hash)
    throw InputError("replay of " + o.replay + " did not reproduce it");
  return ((r.completed && r.bad) || !r.findings.empty()) ? 1 : 0;
}

int run(const Options& o) {
  {
    const std::vector<std::string> names = memory_model_names();
    if (std::find(names.begin(), names.end(), o.memory_model) == names.end())
      throw InputError("unknown memory model '" + o.memory_model + "'");
  }
  std::optional<VerdictFile> safety, live;
  if (!o.expect.empty()) safety = read_verdicts(o.expect);
  if (!o.expect_liveness.empty()) live = read_verdicts(o.expect_liveness);
  const Known known = o.known.empty() ? Known{} : read_known(o.known);
  const std::vector<Loaded> tests = load(o);
  if (!o.emit_cuda.empty()) return emit_cuda(o, tests);
  if (!o.replay.empty()) {
    if (tests.size() != 1) throw InputError("--replay takes exactly one litmus FILE");
    return replay_schedule(o, tests[0]);
  }
  if (o.print) {
    for (const Loaded& t : tests)
      if (t.unsupported.empty()) fmt::print("{}", litmus::print(*t.program));
    return 0;
  }

  Options opts = o;
  opts.liveness = o.liveness || live.has_value();
  Runner runner(opts);
  const auto start = std::chrono::steady_clock::now();
  nlohmann::json all = nlohmann::json::array();
  bool failed = false;
  struct Tally {
    int compared = 0, agree = 0, documented = 0, disagree = 0, unsupported = 0, unsupported_documented = 0;
  } ts, tl;
  for (const Loaded& t : tests) {
    Result r;
    if (!t.unsupported.empty()) {
      r.file = t.file;
      r.name = t.program->name;
      r.unsupported = t.unsupported;
      const bool listed = known.find(t.file, "unsupported").has_value();
      for (auto [vf, tally] : {std::pair{&safety, &ts}, std::pair{&live, &tl}})
        if (*vf && (*vf)->find(t.file)) {
          ++(listed ? tally->unsupported_documented : tally->unsupported);
          failed |= !listed;
        }
      if (!safety && !live) failed = true;
    } else {
      r = runner.run(t.file, t.text, t.program);
      if (safety) compare(r.safety, safety->find(t.file), r.holds && r.proved, known, t.file, "safety");
      if (live) compare(r.live, live->find(t.file), !r.can_hang, known, t.file, "liveness");
      for (auto [c, tally] : {std::pair{&r.safety, &ts}, std::pair{&r.live, &tl}}) {
        if (c->agreement == Agreement::none) continue;
        ++tally->compared;
        if (c->agreement == Agreement::agrees) ++tally->agree;
        if (c->agreement == Agreement::documented) ++tally->documented;
        if (c->agreement == Agreement::disagrees || c->agreement == Agreement::stale) {
          ++tally->disagree;
          failed = true;
        }
      }
    }
    if (o.json)
      all.push_back(json_report(r, opts));
    else
      fmt::print("{}", text_report(r, opts));
    std::fflush(stdout);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto tally_text = [](const char* what, const Tally& t) {
    return fmt::format("{}: {} compared, {} agree, {} documented disagreement(s), {} new disagreement(s); "
                       "{} unsupported ({} documented)",
                       what, t.compared, t.agree, t.documented, t.disagree, t.unsupported + t.unsupported_documented,
                       t.unsupported_documented);
  };
  if (o.json) {
    nlohmann::json j;
    j["tests"] = all;
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else {
    if (safety) fmt::print("{}\n", tally_text("safety", ts));
    if (live) fmt::print("{}\n", tally_text("liveness", tl));
    fmt::print("{} test(s) in {:.1f} s\n", tests.size(), secs);
  }
  return failed ? 1 : 0;
}

}  // namespace

Command add_litmus_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "litmus",
      "Run PTX litmus tests (the Dat3M corpus syntax) on the simulator: for each FILE, explore every execution "
      "under the memory model and print whether the final condition holds, the permitted outcomes over the "
      "condition's registers and locations, and the witness (exists) or counterexample (forall, ~exists) as a "
      "schedule file and token. --liveness also reports whether some execution can hang. Exit 0: every test "
      "ran (and agreed with --expect/--expect-liveness); 1: a test is unsupported or disagrees; 2: malformed "
      "input or usage error.");
  sub->add_option("FILE", o->files, "Litmus files")->required();
  sub->add_flag("--liveness", o->liveness, "Also report whether some execution can hang (deadlock, non-termination)");
  sub->add_option("--expect", o->expect, "Compare the verdicts with a csv file 'path,0|1' (1: the condition holds)");
  sub->add_option("--expect-liveness", o->expect_liveness,
                  "Compare liveness with a csv file 'path,0|1' (1: every execution terminates); implies --liveness");
  sub->add_option("--known", o->known,
                  "Documented disagreements, 'path,safety|liveness|unsupported,reason' per line");
  sub->add_flag("--json", o->json, "Print JSON instead of text (no times)");
  sub->add_flag("--print", o->print, "Print each test back as a litmus listing, then stop");
  sub->add_option("--emit-cuda", o->emit_cuda,
                  "Write DIR/<test>.cu (a __device__ litmus_instance function) and DIR/<test>.json, then stop");
  sub->add_option("--replay", o->replay, "Replay a schedule written for the (single) FILE and print its trace");
  sub->add_option("--mode", o->mode, "Search strategy: exhaustive (default), random or pct")
      ->check(CLI::IsMember({"exhaustive", "random", "pct"}));
  sub->add_option("--seed", o->seed, "Seed of the random and pct strategies (default 1)");
  sub->add_option("--depth", o->depth, "Bug depth of the pct strategy (default 3)")->check(CLI::PositiveNumber);
  sub->add_option("--max-executions", o->max_executions, "Stop after N executions per test (0: no bound)");
  sub->add_option("--time-limit", o->time_limit, "Stop each test after SECONDS (0: none)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-steps", o->max_steps, "Steps per thread before non-termination (default 20000)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--model", o->memory_model, "Memory model: ptx (default), sc or scope-blind");
  sub->add_option("--schedules", o->schedules, "Directory for schedule files (default scopesim-schedules)");
  sub->add_flag("--no-schedules", o->no_schedules, "Write no schedule files (tokens are still printed)");
  return {sub, [o] {
    try {
      return run(*o);
    } catch (const std::exception& e) {
      std::fflush(stdout);
      fmt::print(stderr, "scopesim: {}\n", one_line(e.what()));
      return 2;
    }
  }};
}

}  // namespace scopesim::cli
