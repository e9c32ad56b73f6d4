// `scopesim litmus FILE...`: each PTX litmus test is parsed, turned into a
// model (sim/litmus) and explored; the condition's verdict follows from the
// permitted outcomes (condition.hpp, `holds`). With --liveness, a test can
// hang when some execution deadlocks or may not terminate. --expect and
// --expect-liveness compare with verdict files in the corpus's csv format;
// --known lists documented disagreements (docs/conformance.md), which are
// reported but do not fail, while a listed one that now agrees does.
// --emit-cuda writes each test as a model of the GPU harness; --gpu puts the
// harness's histograms beside the permitted outcomes (litmus_gpu.hpp).
// --print, --emit-cuda and --replay each do one thing instead of running the
// tests, and refuse the options only a run reads. Ctrl-C stops the search of
// the test it lands in (incomplete, as at a time limit), reports it and runs
// no later file.
// Exit: 0 = every test ran (and agreed, with --expect; sound, with --gpu);
// 1 = a test is unsupported, a thread faults or runs past the step bound, a
// test disagrees, cannot be confirmed by an incomplete search, shows a
// forbidden outcome on the GPU, or was not run after Ctrl-C; 2 = malformed
// input or usage error.
#include "sim/cli/litmus_command.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "sim/cli/input.hpp"
#include "sim/cli/interrupt.hpp"
#include "sim/cli/litmus_gpu.hpp"
#include "sim/cli/schedule_writer.hpp"
#include "sim/cli/search_options.hpp"
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

// ---- verdict files ----

// Paths in verdict files name a file by its trailing path components; when
// several name it, the longest (most specific) one is the file's.
template <class V>
std::optional<V> most_specific(const std::map<std::string, V>& by_path, const std::string& file) {
  const std::string f = fs::path(file).lexically_normal().generic_string();
  auto names = [&f](const std::string& rel) {
    return f == rel || (f.size() > rel.size() && f.compare(f.size() - rel.size(), rel.size(), rel) == 0 &&
                        f[f.size() - rel.size() - 1] == '/');
  };
  std::optional<V> found;
  std::size_t longest = 0;
  for (const auto& [rel, v] : by_path)
    if (names(rel) && (!found || rel.size() > longest)) {
      found = v;
      longest = rel.size();
    }
  return found;
}

// `path,verdict` lines; paths start with `litmus/PTX/` (dropped). A path
// has one verdict: a second line giving it the other one is an error.
struct VerdictFile {
  std::string path;
  std::map<std::string, bool> verdict;  // relative path -> condition holds / test terminates
  std::optional<bool> find(const std::string& file) const { return most_specific(verdict, file); }
};

std::string strip_prefix(std::string p) {
  const std::string prefix = "litmus/PTX/";
  if (p.compare(0, prefix.size(), prefix) == 0) p = p.substr(prefix.size());
  return p;
}

VerdictFile read_verdicts(const std::string& path) {
  VerdictFile v;
  v.path = path;
  std::map<std::string, int> first_line;  // relative path -> the line that gave its verdict
  std::istringstream in(read_text(path));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::size_t comma = line.rfind(',');
    const std::string val = comma == std::string::npos ? "" : line.substr(comma + 1);
    if (comma == std::string::npos || (val != "0" && val != "1"))
      throw UsageError(fmt::format("{}:{}: expected 'path,0' or 'path,1'", path, n));
    const std::string rel = strip_prefix(line.substr(0, comma));
    if (const auto [it, fresh] = v.verdict.emplace(rel, val == "1"); !fresh && it->second != (val == "1"))
      throw UsageError(fmt::format("{}:{}: {} is given {} here and {} on line {}: a test has one verdict", path, n,
                                   rel, val, it->second ? 1 : 0, first_line[rel]));
    first_line.emplace(rel, n);
  }
  return v;
}

// Documented disagreements: `path,check,reason` with check safety, liveness or unsupported.
struct Known {
  std::map<std::string, std::map<std::string, std::string>> reason;  // check -> relative path -> reason
  std::optional<std::string> find(const std::string& file, const std::string& check) const {
    const auto it = reason.find(check);
    return it == reason.end() ? std::nullopt : most_specific(it->second, file);
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
      throw UsageError(fmt::format("{}:{}: expected 'path,safety|liveness|unsupported,reason'", path, n));
    k.reason[check][strip_prefix(line.substr(0, a))] = line.substr(b + 1);
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
  std::string gpu, gpu_markdown;
  std::string replay;
  Settings search;  // what each test's search explores (sim/cli/search_options.hpp)
  Output out;       // --schedules, --no-schedules
  std::vector<std::string> given;  // the options on the command line, by name ("--print", "FILE")
};

// ---- one test ----

// incomplete: the search proved nothing (no witness, not exhaustive), so it
// neither confirms nor contradicts the expectation.
enum class Agreement { none, agrees, documented, disagrees, stale, incomplete };

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
  std::string fault;        // the first fault's finding ("" when no thread faulted): then no verdict
  bool holds = false;
  bool proved = true;       // complete search, or the verdict has a witness
  bool past_step_bound = false;  // an execution ran past the step bound: a thread may not terminate
  bool can_hang = false;
  Exploration e;
  std::string witness_schedule, witness_token;
  std::string hang_schedule, hang_token;
  std::string fault_schedule, fault_token;
  Check safety, live;
};

class Runner {
 public:
  // `interrupt`: set by Ctrl-C (sim/cli/interrupt.hpp), it stops the search of the test running then.
  Runner(const Options& o, const std::atomic<bool>* interrupt) : o_(o), interrupt_(interrupt) {}

  Result run(const std::string& file, const std::string& text, std::shared_ptr<const Program> p) {
    Result r;
    r.file = file;
    r.name = p->name;
    r.condition = litmus::print(p->condition);
    const models::Model m = litmus::to_model(p);
    ExploreOptions eo = explore_options();
    eo.interrupt = interrupt_;
    const litmus::Verdict v = litmus::judge(m, p->condition.quantifier, eo);
    r.holds = v.holds;
    r.proved = v.proved;
    r.past_step_bound = v.past_step_bound;
    r.can_hang = v.can_hang;
    r.e = v.exploration;
    const std::string hash = text_hash(text);
    if (v.fault) {
      const FindingSummary& f = r.e.findings[*v.fault];
      r.fault = report::finding_line(f.finding);
      r.fault_token = log_token(f.witness.log());
      r.fault_schedule = write_schedule(m, hash, eo.run, f.witness.log());
    } else if (v.witness) {
      const ChoiceLog& w = r.e.outcomes[*v.witness].witness.log();
      r.witness_token = log_token(w);
      r.witness_schedule = write_schedule(m, hash, eo.run, w);
    }
    if (v.hang && o_.liveness) {
      const ChoiceLog& w = r.e.findings[*v.hang].witness.log();
      r.hang_token = log_token(w);
      r.hang_schedule = write_schedule(m, hash, eo.run, w);
    }
    return r;
  }

  ExploreOptions explore_options() const { return cli::explore_options(o_.search); }

 private:
  // <dir>/litmus.<test>.<n>.schedule, with the hash of the listing.
  std::string write_schedule(const models::Model& m, const std::string& hash, const RunOptions& run,
                             const ChoiceLog& witness) {
    return writer_.write(m, m.chapter, run, witness, hash).path;
  }

  const Options& o_;
  const std::atomic<bool>* interrupt_;
  // ("ptx.", the name of no family of shipped models: a test named as a shipped litmus.* model is, its
  // schedules and that model's would otherwise share their names, and one command's remove the other's.)
  ScheduleWriter writer_{o_.out, "ptx."};
};

// ---- comparison with verdict files ----

// `found`: what the simulator found, none when it has no verdict (a thread
// faulted); `proved`: a complete search or a witness backs it.
void compare(Check& c, std::optional<bool> expected, std::optional<bool> found, bool proved, const Known& known,
             const std::string& file, const std::string& check) {
  c.expected = expected;
  if (!expected) return;
  if (found && !proved) {
    c.agreement = Agreement::incomplete;
    return;
  }
  const auto why = known.find(file, check);
  if (expected == found) {
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
    case Agreement::incomplete: return "incomplete";
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
  if (!r.fault.empty())
    s += "  verdict:   faulted: " + r.fault;
  else
    s += fmt::format("  verdict:   {}{}", r.holds ? "holds" : "does not hold",
                     r.proved            ? ""
                     : r.past_step_bound ? " (not proved: an execution ran past the step bound)"
                                         : " (search incomplete: not proved)");
  if (r.safety.expected)
    s += fmt::format("  [expected: {}; {}]", *r.safety.expected ? "holds" : "does not hold",
                     agreement_word(r.safety.agreement));
  s += "\n";
  s += fmt::format("  outcomes ({} execution(s){}):\n", r.e.executions,
                   r.e.complete               ? ", complete"
                   : !r.e.stopped_by.empty() ? ", stopped by " + r.e.stopped_by
                                              : "");
  for (const OutcomeSummary& os : r.e.outcomes)
    s += fmt::format("    {}{}  ({}x)\n", outcome_text(os.outcome),
                     os.outcome.i(litmus::condition_name) != 0 ? "  [condition]" : "", os.count);
  if (!r.fault_token.empty())
    s += fmt::format("  fault: token {}{}\n", r.fault_token, r.fault_schedule.empty() ? "" : ", schedule " + r.fault_schedule);
  if (!r.witness_token.empty()) {
    const bool exists = r.condition.rfind("exists", 0) == 0;
    s += fmt::format("  {}: token {}{}\n", exists ? "witness" : "counterexample", r.witness_token,
                     r.witness_schedule.empty() ? "" : ", schedule " + r.witness_schedule);
  }
  if (o.liveness) {
    // "terminates" is absence of a hang: only a complete search proves it.
    s += fmt::format("  liveness:  {}", r.can_hang     ? "can hang"
                                         : r.e.complete ? "terminates"
                                                        : "terminates (search incomplete: not proved)");
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
  if (!r.fault.empty()) {
    j["fault"] = {{"finding", r.fault}, {"token", r.fault_token}, {"schedule", r.fault_schedule}};
  } else {
    j["holds"] = r.holds;
    j["proved"] = r.proved;
  }
  j["executions"] = r.e.executions;
  j["complete"] = r.e.complete;
  j["stopped_by"] = r.e.stopped_by;
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

// One FILE argument: its program, or why it cannot run (unsupported), or why
// it cannot be read as a litmus test at all (error: malformed or unreadable).
struct Loaded {
  std::string file, text;
  std::shared_ptr<const Program> program;  // null when `error` is set
  std::string unsupported;
  std::string error;  // one line, "FILE:LINE: what is wrong"
};

// The error of one file, on stderr after what stdout has so far; the others go on.
void report_file_error(const std::string& what) {
  std::fflush(stdout);
  fmt::print(stderr, "scopesim: {}\n", one_line(what));
}

// For --print and --emit-cuda, which write no verdict: why a test is left out.
void report_unsupported(const Loaded& t) { report_file_error(t.file + ": unsupported: " + t.unsupported); }

// ---- the GPU cross-check ----

// The test's GPU histogram (if the results have its line) beside its
// permitted outcomes, and the outcomes sc permits (what is not weak).
LitmusGpuTest compare_with_gpu(const Loaded& t, const Result& r, const std::map<std::string, report::GpuResult>& gpu,
                               const std::string& gpu_file, ExploreOptions eo) {
  LitmusGpuTest c;
  c.file = t.file;
  c.condition = r.condition;
  c.holds = r.holds;
  models::Model m = litmus::to_model(t.program);
  m.name = litmus::gpu_model_name(t.file);
  const auto g = gpu.find(m.name);
  std::optional<report::GpuResult> line;
  if (g != gpu.end()) {
    try {
      line = with_condition(g->second, *t.program, gpu_file);
    } catch (const std::exception& e) {
      throw UsageError(one_line(e.what()));
    }
  }
  c.comparison = report::compare(m, r.e, line ? &*line : nullptr, nullptr);
  eo.run.memory_model = "sc";
  for (const OutcomeSummary& os : explore(m, m.chapter, eo).outcomes) c.sc.insert(os.outcome.text());
  return c;
}

std::vector<Loaded> load(const Options& o) {
  std::vector<Loaded> v;
  for (const std::string& f : o.files) {
    Loaded l;
    l.file = f;
    try {
      l.text = read_text(f);
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
      l.error = one_line(e.what());
    } catch (const UsageError& e) {
      l.error = one_line(e.what());
    }
    v.push_back(std::move(l));
  }
  return v;
}

// DIR/<directory>/<stem>.cu for each supported test (its harness model,
// sim/litmus/cuda.hpp) and DIR/all.cu including them all, in the order given.
// A name that cannot be written is refused before any file is.
int emit_cuda(const Options& o, const std::vector<Loaded>& tests) {
  int rc = 0;
  std::map<std::string, std::string> by_name;  // harness model name -> file
  struct Chosen {
    const Loaded* test;
    std::string name;  // the harness model's
    fs::path rel;      // its source, relative to DIR
  };
  std::vector<Chosen> chosen;
  for (const Loaded& t : tests) {
    if (!t.error.empty()) {
      report_file_error(t.error);
      rc = 2;
      continue;
    }
    if (!t.unsupported.empty()) {
      report_unsupported(t);
      rc = std::max(rc, 1);
      continue;
    }
    const std::string name = litmus::gpu_model_name(t.file);
    std::string space;  // the test's namespace in the unit: names that differ only in punctuation collide
    for (char c : name) space += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (auto [it, fresh] = by_name.emplace(space, t.file); !fresh)
      throw UsageError(fmt::format("{} and {} have the same GPU model name {}", it->second, t.file, name));
    fs::path rel = fs::path(name).lexically_relative("litmus");
    rel += ".cu";
    rel = rel.lexically_normal();
    // gpu_model_name never leads out of "litmus/": nothing is written outside DIR.
    if (rel.empty() || rel.is_absolute() || *rel.begin() == "..")
      throw UsageError(fmt::format("{}: its GPU model name {} does not name a file inside {}", t.file, name, o.emit_cuda));
    if (!litmus::includable(rel.generic_string()))
      throw UsageError(fmt::format("{}: its CUDA file {} cannot be included by all.cu (a '\"', a backslash or a "
                                   "control character in its name): rename the test's file or directory",
                                   t.file, rel.generic_string()));
    chosen.push_back({&t, name, rel});
  }
  std::vector<std::string> sources;
  for (const auto& [t, name, rel] : chosen) {
    const fs::path cu = fs::path(o.emit_cuda) / rel;
    fs::create_directories(cu.parent_path());
    std::ofstream out(cu, std::ios::binary | std::ios::trunc);
    out << litmus::cuda_source(*t->program, name);
    if (!out) throw UsageError("cannot write " + cu.string());
    sources.push_back(rel.generic_string());
    fmt::print("{}\n", cu.string());
  }
  fs::create_directories(o.emit_cuda);
  const fs::path unit = fs::path(o.emit_cuda) / "all.cu";
  std::ofstream out(unit, std::ios::binary | std::ios::trunc);
  out << litmus::cuda_unit(sources);
  if (!out) throw UsageError("cannot write " + unit.string());
  fmt::print("{}\n", unit.string());
  return rc;
}

int replay_schedule(const Options& o, const Loaded& t) {
  if (!t.error.empty()) throw UsageError(t.error);
  if (!t.unsupported.empty()) throw UsageError(t.file + ": unsupported: " + t.unsupported);
  if (is_token(o.replay) && !fs::exists(o.replay))
    throw UsageError("'" + o.replay + "' is a token, not a schedule file: --replay takes the schedule file the "
                     "exploration wrote (--schedules)");
  Schedule s;
  try {
    s = parse_schedule(read_text(o.replay));
  } catch (const ScheduleError& e) {
    throw UsageError(o.replay + ": " + one_line(e.what()));
  }
  const models::Model m = litmus::to_model(t.program);
  const ScheduleHeader& h = s.header;
  if (h.model != m.name) throw UsageError(o.replay + ": the schedule is of '" + h.model + "', not " + m.name);
  if (h.source_hash != text_hash(t.text))
    throw UsageError(o.replay + ": recorded for another version of " + t.file + " (text hash " + h.source_hash +
                     ", the file's " + text_hash(t.text) + ")");
  check_memory_model(h.memory_model);
  // A litmus test has one launch: the schedule must name it.
  if (!(h.config == m.chapter))
    throw UsageError(fmt::format("{}: the schedule's launch <<<{},{}>>> (resident blocks {}, {} parameter(s)) is "
                                 "not the test's <<<{},{}>>>",
                                 o.replay, h.config.grid, h.config.block, h.config.resident_blocks,
                                 h.config.params.size(), m.chapter.grid, m.chapter.block));
  RunOptions ro;
  ro.memory_model = s.header.memory_model;
  ro.max_steps = s.header.max_steps;
  ro.keep_trace = true;
  RunResult r;
  try {
    r = replay(m, m.chapter, ro, s.log, s.texts);
  } catch (const ReplayDivergence& e) {
    throw UsageError("replay diverged: " + one_line(e.what()));
  }
  return print_replay(m, r, h, o.replay, o.json);
}

// --print, --emit-cuda and --replay each do one thing and stop: one at a
// time, and with no option that only a run of the tests reads (a search
// option, a verdict file, the GPU's results, a schedule directory), which
// would be dropped unread. (--no-schedules asks for what each of them does.)
void check_mode(const Options& o) {
  static const std::map<std::string, std::string> modes{{"--print", "prints each test back as a listing"},
                                                        {"--emit-cuda", "writes each test as CUDA"},
                                                        {"--replay", "replays one schedule"}};
  const auto given = [&o](const std::string& name) {
    return std::find(o.given.begin(), o.given.end(), name) != o.given.end();
  };
  if (o.json && (given("--print") || given("--emit-cuda")))
    throw UsageError("--json does not apply to --print or --emit-cuda, which write listings and CUDA files");
  for (const auto& [mode, what] : modes) {
    if (!given(mode)) continue;
    for (const std::string& other : o.given)
      if (other != mode && other != "FILE" && other != "--json" && other != "--no-schedules")
        throw UsageError(fmt::format("{} and {} cannot be combined: {} {} and stops, so {} would be ignored", mode,
                                     other, mode, what, other));
  }
}

// A verdict file that names none of the tests given is the wrong file: no
// test would be compared. One that names some of them compares those.
void check_names_some(const std::optional<VerdictFile>& v, const char* option, const std::vector<Loaded>& tests) {
  if (!v) return;
  std::size_t n = 0;
  bool named = false;
  for (const Loaded& t : tests)
    if (t.error.empty()) {
      ++n;
      named |= v->find(t.file).has_value();
    }
  if (n > 0 && !named) throw UsageError(fmt::format("{} {} names none of the {} test(s) run", option, v->path, n));
}

int run(const Options& o) {
  check_mode(o);
  check_memory_model(o.search.memory_model);
  std::optional<VerdictFile> safety, live;
  if (!o.expect.empty()) safety = read_verdicts(o.expect);
  if (!o.expect_liveness.empty()) live = read_verdicts(o.expect_liveness);
  const Known known = o.known.empty() ? Known{} : read_known(o.known);
  std::map<std::string, report::GpuResult> gpu;
  if (!o.gpu.empty()) {
    try {
      gpu = report::parse_gpu_results(read_text(o.gpu), o.gpu);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      throw UsageError(one_line(e.what()));  // names the file and line
    }
  }
  if (!o.gpu_markdown.empty() && o.gpu.empty()) throw UsageError("--gpu-markdown needs --gpu");
  const std::vector<Loaded> tests = load(o);
  check_names_some(safety, "--expect", tests);
  check_names_some(live, "--expect-liveness", tests);
  if (!o.emit_cuda.empty()) return emit_cuda(o, tests);
  if (!o.replay.empty()) {
    if (tests.size() != 1) throw UsageError("--replay takes exactly one litmus FILE");
    return replay_schedule(o, tests[0]);
  }
  if (o.print) {
    int rc = 0;
    for (const Loaded& t : tests) {
      if (!t.error.empty()) {
        report_file_error(t.error);
        rc = 2;
      } else if (!t.unsupported.empty()) {
        report_unsupported(t);
        rc = std::max(rc, 1);
      } else {
        fmt::print("{}", litmus::print(*t.program));
      }
    }
    return rc;
  }

  Options opts = o;
  opts.liveness = o.liveness || live.has_value();
  const Interrupt interrupt;  // stops the search it lands in; the files after it are not run
  Runner runner(opts, interrupt.flag());
  const auto start = std::chrono::steady_clock::now();
  nlohmann::json all = nlohmann::json::array();
  bool failed = false, malformed = false;
  struct Tally {
    int compared = 0, agree = 0, documented = 0, disagree = 0, incomplete = 0, unsupported = 0,
        unsupported_documented = 0;
  } ts, tl;
  std::vector<LitmusGpuTest> compared;
  std::vector<std::string> unsupported;
  std::size_t ran = 0;  // tests reported (the one Ctrl-C stopped among them)
  std::vector<std::string> not_run;  // after Ctrl-C
  for (const Loaded& t : tests) {
    if (interrupt.requested()) {
      if (t.error.empty()) not_run.push_back(t.file);
      continue;
    }
    if (!t.error.empty()) {
      report_file_error(t.error);
      malformed = true;
      if (o.json) all.push_back({{"file", t.file}, {"error", t.error}});
      continue;
    }
    Result r;
    if (!t.unsupported.empty()) {
      r.file = t.file;
      r.name = t.program->name;
      r.unsupported = t.unsupported;
      unsupported.push_back(litmus::gpu_model_name(t.file));
      const bool documented = known.find(t.file, "unsupported").has_value();
      failed |= !documented;
      // Counted by every check that expects a verdict of the test, or by every check when none does.
      const bool expected = (safety && safety->find(t.file)) || (live && live->find(t.file));
      for (auto [vf, tally] : {std::pair{&safety, &ts}, std::pair{&live, &tl}})
        if (*vf && (!expected || (*vf)->find(t.file)))
          ++(documented ? tally->unsupported_documented : tally->unsupported);
    } else {
      r = runner.run(t.file, t.text, t.program);
      if (!o.gpu.empty()) compared.push_back(compare_with_gpu(t, r, gpu, o.gpu, runner.explore_options()));
      failed |= !r.fault.empty() || r.past_step_bound;
      const std::optional<bool> holds = r.fault.empty() ? std::optional<bool>(r.holds) : std::nullopt;
      if (safety) compare(r.safety, safety->find(t.file), holds, r.proved, known, t.file, "safety");
      // A hang found is proved by its schedule; "terminates" only by a complete search.
      if (live) compare(r.live, live->find(t.file), !r.can_hang, r.can_hang || r.e.complete, known, t.file, "liveness");
      for (auto [c, tally] : {std::pair{&r.safety, &ts}, std::pair{&r.live, &tl}}) {
        if (c->agreement == Agreement::none) continue;
        ++tally->compared;
        if (c->agreement == Agreement::agrees) ++tally->agree;
        if (c->agreement == Agreement::documented) ++tally->documented;
        if (c->agreement == Agreement::disagrees || c->agreement == Agreement::stale) {
          ++tally->disagree;
          failed = true;
        }
        if (c->agreement == Agreement::incomplete) {
          ++tally->incomplete;
          failed = true;  // not confirmed
        }
      }
    }
    ++ran;
    if (o.json)
      all.push_back(json_report(r, opts));
    else
      fmt::print("{}", text_report(r, opts));
    std::fflush(stdout);
  }
  // Not every test ran: exit 0 would say they did.
  if (!not_run.empty()) {
    failed = true;
    report_left_out(ran, ran + not_run.size(), "test(s) run");
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto tally_text = [](const char* what, const Tally& t) {
    return fmt::format("{}: {} compared, {} agree, {} documented disagreement(s), {} new disagreement(s), "
                       "{} incomplete; {} unsupported ({} documented)",
                       what, t.compared, t.agree, t.documented, t.disagree, t.incomplete,
                       t.unsupported + t.unsupported_documented, t.unsupported_documented);
  };
  if (o.json) {
    nlohmann::json j;
    j["tests"] = all;
    if (!not_run.empty()) j["not_run"] = not_run;
    if (!o.gpu.empty()) j["gpu"] = litmus_gpu_json(compared);
    print_json(j);
  } else {
    if (safety) fmt::print("{}\n", tally_text("safety", ts));
    if (live) fmt::print("{}\n", tally_text("liveness", tl));
    fmt::print("{} test(s) in {:.1f} s\n", ran, secs);
  }
  if (!o.gpu.empty()) {
    bool unsound = false;
    for (const LitmusGpuTest& c : compared) unsound |= !c.comparison.unsound.empty();
    failed |= unsound;
    if (!o.gpu_markdown.empty()) {
      std::ofstream out(o.gpu_markdown, std::ios::binary | std::ios::trunc);
      out << litmus_gpu_markdown(compared, unsupported, "scopesim litmus --gpu " + o.gpu + " --gpu-markdown " + o.gpu_markdown +
                                               " FILE...");
      if (!out) throw UsageError("cannot write " + o.gpu_markdown);
    } else if (!o.json) {
      fmt::print("{}", litmus_gpu_text(compared));
    }
  }
  return malformed ? 2 : failed ? 1 : 0;
}

}  // namespace

Command add_litmus_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "litmus",
      "Run PTX litmus tests (the Dat3M corpus syntax) on the simulator: for each FILE, explore every execution "
      "under the memory model and print whether the final condition holds, the permitted outcomes over the "
      "condition's registers and locations, and the witness (exists) or counterexample (forall, ~exists) as a "
      "schedule file and token. --liveness also reports whether some execution can hang. Ctrl-C stops the "
      "search of the test running (reported as stopped by interrupt, its search incomplete) and runs no later "
      "FILE; a second Ctrl-C ends at once. Exit 0: every test ran (and agreed with --expect/--expect-liveness); "
      "1: a test is unsupported, a thread faults (no verdict) or runs past the step bound, a test disagrees or, "
      "its search being incomplete, cannot be confirmed ('incomplete'), or Ctrl-C left tests not run; 2: "
      "malformed input or usage error.");
  sub->add_option("FILE", o->files, "Litmus files")->required();
  sub->add_flag("--liveness", o->liveness, "Also report whether some execution can hang (deadlock, non-termination)");
  sub->add_option("--expect", o->expect,
                  "Compare the verdicts with a csv file 'path,0|1' (1: the condition holds); it must name some of "
                  "the tests, each path once")
      ->check(not_empty());
  sub->add_option("--expect-liveness", o->expect_liveness,
                  "Compare liveness with a csv file 'path,0|1' (1: every execution terminates); implies --liveness")
      ->check(not_empty());
  sub->add_option("--known", o->known,
                  "Documented disagreements, 'path,safety|liveness|unsupported,reason' per line")
      ->check(not_empty());
  sub->add_flag("--json", o->json, "Print JSON instead of text (no times); not with --print or --emit-cuda");
  sub->add_flag("--print", o->print,
                "Print each test back as a litmus listing, then stop (an unsupported test is named on stderr, exit "
                "1); with no other option");
  sub->add_option("--emit-cuda", o->emit_cuda,
                  "Write each test as a model of the GPU harness, DIR/<directory>/<test>.cu, and DIR/all.cu "
                  "including them all (gpu/litmus/generate.sh), then stop (an unsupported test is named on stderr, "
                  "exit 1); with no other option")
      ->check(not_empty());
  sub->add_option("--gpu", o->gpu,
                  "Compare each test's permitted outcomes with the GPU histograms of its generated model (JSON lines "
                  "of gpu/run-all.sh with SCOPESIM_GPU_SUITE=litmus); an outcome the GPU showed that the simulator "
                  "forbids is a soundness failure (exit 1)")
      ->check(not_empty());
  sub->add_option("--gpu-markdown", o->gpu_markdown, "With --gpu: write the comparison as Markdown to FILE")
      ->check(not_empty());
  sub->add_option("--replay", o->replay,
                  "Replay a schedule written for the (single) FILE and print its trace; with no other option but "
                  "--json")
      ->check(not_empty());
  add_search_options(*sub, o->search, false);
  add_schedule_options(*sub, o->out);
  return {sub, [o, sub] {
    try {
      for (const CLI::Option* opt : sub->get_options([](const CLI::Option* x) { return x->count() > 0; }))
        o->given.push_back(opt->get_name());
      return run(*o);
    } catch (const std::exception& e) {
      report_error(std::string("scopesim: ") + e.what(), e.what());
      return 2;
    }
  }};
}

}  // namespace scopesim::cli
