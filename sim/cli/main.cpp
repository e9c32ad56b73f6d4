// The `scopesim` command: list, explore, check and replay shipped models.
// Exit codes, for every subcommand: 0 = nothing bad (explore, replay) / every
// verdict as expected (check); 1 = a bad outcome or finding (explore, replay) /
// some verdict not as expected (check); 2 = usage or input error, printed as
// one line on stderr (and, under --json, as a JSON object on stdout:
// report_error()). No exception leaves main. Output on stdout is a pure
// function of the options (times only in text, or in JSON with --times).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/model.hpp"
#include "sim/cli/input.hpp"
#include "sim/cli/interrupt.hpp"
#include "sim/cli/litmus_command.hpp"
#include "sim/cli/schedule_writer.hpp"
#include "sim/cli/search_options.hpp"
#include "sim/engine/explorer.hpp"
#include "sim/engine/schedule_file.hpp"
#include "sim/engine/strategies.hpp"
#include "sim/model/memory_model.hpp"
#include "sim/report/report.hpp"
#include "sim/cli/command.hpp"

namespace fs = std::filesystem;
using namespace scopesim;
using namespace scopesim::cli;

namespace {

constexpr int kClean = 0;
constexpr int kBad = 1;
constexpr int kError = 2;

// Explores one model at one launch and writes a schedule for each bad outcome and finding.
struct Explored {
  Exploration e;
  std::vector<report::Artifact> outcome_schedules, finding_schedules;
  std::vector<std::string> paths() const {
    std::vector<std::string> v;
    for (auto* list : {&outcome_schedules, &finding_schedules})
      for (const report::Artifact& a : *list)
        if (!a.path.empty()) v.push_back(a.path);
    return v;
  }
};

// Explores `m` with a progress line on stderr (`label`: Progress) and Ctrl-C
// (`interrupt`) stopping the search, then writes a schedule for each witness.
Explored explore_and_record(const models::Model& m, const models::Config& c, ExploreOptions o, ScheduleWriter& w,
                            const Output& out, const Interrupt& interrupt, const std::string& label) {
  Explored x;
  {
    Progress progress(out, label);  // (its line erased before any schedule's warning)
    o.progress = progress.callback();
    o.interrupt = interrupt.flag();
    x.e = explore(m, c, o);
  }
  for (const OutcomeSummary& s : x.e.outcomes)
    x.outcome_schedules.push_back(s.bad ? w.write(m, c, o.run, s.witness.log()) : report::Artifact{});
  for (const FindingSummary& s : x.e.findings) x.finding_schedules.push_back(w.write(m, c, o.run, s.witness.log()));
  return x;
}

bool bad(const Exploration& e) {
  if (!e.findings.empty()) return true;
  return std::any_of(e.outcomes.begin(), e.outcomes.end(), [](const OutcomeSummary& o) { return o.bad; });
}

// ---- subcommands ----

int cmd_list(bool json) {
  auto ms = sorted_models();
  if (json)
    print_json(report::list_json(ms));
  else
    fmt::print("{}", report::list_text(ms));
  return kClean;
}

int cmd_explore(const std::string& name, const Settings& s, const Output& out) {
  const models::Model& m = find_model(name);
  check_memory_model(s.memory_model);
  const models::Config c = launch_of(m, s);
  ExploreOptions o = explore_options(s);
  with_config(o, c);
  ScheduleWriter w(out);
  Explored x;
  {
    const Interrupt interrupt;
    x = explore_and_record(m, c, o, w, out, interrupt, m.name);
  }
  report::ExploreReport r{&m, c, o, &x.e, x.outcome_schedules, x.finding_schedules};
  if (out.json)
    print_json(report::explore_json(r, out.times));
  else if (!out.quiet)
    fmt::print("{}", report::explore_text(r));
  return bad(x.e) ? kBad : kClean;
}

// The options of an `also` entry, spelled as on the command line, over the check's own.
Settings also_settings(const models::Model& m, const models::AlsoCheck& a, const Settings& base,
                       models::Config& config) {
  Settings s = base;
  s.resident_opt = nullptr;
  CLI::App app("also");
  add_search_options(app, s, true);
  try {
    app.parse(a.options, false);
  } catch (const CLI::ParseError& e) {
    throw UsageError("model " + m.name + ": cannot use its options '" + a.options + "': " + one_line(e.what()));
  }
  check_memory_model(s.memory_model);
  if (s.resident_opt && s.resident_opt->count() > 0) config.resident_blocks = s.resident_blocks;
  s.resident_opt = nullptr;
  return s;
}

int cmd_check(const std::vector<std::string>& names, const Settings& s, const Output& out) {
  check_memory_model(s.memory_model);
  std::vector<const models::Model*> ms;
  if (names.empty()) {
    ms = sorted_models();
  } else {
    std::set<std::string> seen;
    for (const std::string& n : names)
      if (seen.insert(n).second) ms.push_back(&find_model(n));
  }

  struct Job {
    std::string options;
    models::Config config;
    models::Expectation expect;
    Settings settings;
    std::string label(const models::Model& m) const { return options.empty() ? m.name : m.name + " " + options; }
  };
  // Every job is resolved before anything runs: a bad option fails fast.
  std::vector<std::pair<const models::Model*, std::vector<Job>>> plan;
  std::size_t total = 0;  // explorations planned
  for (const models::Model* m : ms) {
    std::vector<Job> jobs{{"", m->quick.value_or(m->chapter), m->expect, s}};  // quick: exhaustive runs finish
    for (const models::AlsoCheck& a : m->also) {
      models::Config c = a.config;
      Settings as = also_settings(*m, a, s, c);
      jobs.push_back({a.options, c, a.expect, as});
    }
    total += jobs.size();
    plan.emplace_back(m, std::move(jobs));
  }

  ScheduleWriter w(out);
  std::vector<report::VerdictRow> rows;
  Interrupt interrupt;  // stops the search it lands in; the models after it are not explored
  std::size_t stopped = 0;  // explorations the interrupt stopped (one at most)
  for (auto& [m, jobs] : plan) {
    for (const Job& j : jobs) {
      if (interrupt.requested()) break;
      ExploreOptions o = explore_options(j.settings);
      with_config(o, j.config);
      Explored x;
      try {
        x = explore_and_record(*m, j.config, o, w, out, interrupt, j.label(*m));
      } catch (const std::exception& e) {
        // One model failing to run is its own row, not the end of the table.
        report::Verdict v;
        v.expected = report::verdict_words(j.expect.bad_outcome_permitted, j.expect.required,
                                           !j.expect.exact_findings);
        v.found = "error";
        v.status = report::Status::mismatch;
        v.note = "exploration failed: " + one_line(e.what());
        rows.push_back({m->name, j.options, j.config, v, {}});
        continue;
      }
      stopped += x.e.stopped_by == "interrupt";
      report::VerdictRow row{m->name, j.options, j.config, report::judge(*m, j.expect, x.e), x.paths()};
      // The model states how many distinct executions an exhaustive search finds.
      if (j.options.empty() && m->exhaustive_executions != 0 && o.mode == Mode::exhaustive && x.e.complete &&
          o.run.memory_model == "ptx" && o.preemption_bound < 0 && x.e.distinct != m->exhaustive_executions) {
        std::string n = fmt::format("found {} distinct executions; the model states {}", x.e.distinct,
                                    m->exhaustive_executions);
        row.verdict.note = row.verdict.note.empty() ? n : row.verdict.note + "; " + n;
      }
      rows.push_back(std::move(row));
    }
  }

  std::vector<std::string> not_run;  // after Ctrl-C: the explorations after the stopped one
  if (interrupt.requested() && rows.size() < total) {
    report_left_out(rows.size() - stopped, total,
                    stopped ? fmt::format("explorations done and {} stopped", stopped) : "explorations done");
    std::size_t k = 0;
    for (const auto& [m, jobs] : plan)
      for (const Job& j : jobs)
        if (k++ >= rows.size()) not_run.push_back(j.label(*m));
  }
  if (out.json)
    print_json(report::verdicts_json(rows, out.times, not_run));
  else if (!out.quiet)
    fmt::print("{}", report::verdict_table(rows, true, not_run));
  // (An exploration not run confirms nothing: exit 0 says every verdict was.)
  bool all = rows.size() == total &&
             std::all_of(rows.begin(), rows.end(), [](const report::VerdictRow& r) { return r.verdict.match(); });
  return all ? kClean : kBad;
}

int cmd_replay(const std::string& file, bool json) {
  if (is_token(file) && !fs::exists(file))
    throw UsageError("'" + file + "' is a token, not a schedule file: replay it with 'scopesim replay MODEL --token "
                     "TOKEN' and the exploration's launch options");
  Schedule s;
  try {
    s = parse_schedule(read_text(file));
  } catch (const ScheduleError& e) {
    throw UsageError(file + ": " + one_line(e.what()));
  }
  const ScheduleHeader& h = s.header;
  if (std::none_of(models::registry().begin(), models::registry().end(),
                   [&](const models::Model& x) { return x.name == h.model; }))
    throw UsageError(file + ": unknown model '" + h.model + "' (see 'scopesim list'); the schedule of a litmus "
                     "test replays with 'scopesim litmus TEST.litmus --replay " + file + "'");
  const models::Model& m = find_model(h.model);
  if (h.source_hash != source_hash(m))
    throw UsageError(file + ": recorded for another version of " + m.source + ", or for another model (source hash " +
                     h.source_hash + ", " + m.name + "'s in this scopesim " + source_hash(m) + ")");
  {
    std::vector<std::string> names = memory_model_names();
    if (std::find(names.begin(), names.end(), h.memory_model) == names.end())
      throw UsageError(file + ": the schedule's memory model '" + h.memory_model + "' is none of this scopesim's (" +
                       fmt::format("{}", fmt::join(names, ", ")) + ")");
  }
  // The schedule names the whole launch: grid, block, resident blocks and parameters.
  if (const std::string why = models::misfit(m, h.config); !why.empty())
    throw UsageError(fmt::format("{}: the schedule's launch <<<{},{}>>> is none of {}: {}", file, h.config.grid,
                                 h.config.block, m.name, why));
  RunOptions ro;
  ro.memory_model = h.memory_model;
  ro.resident_blocks = h.config.resident_blocks;
  ro.max_steps = h.max_steps;
  ro.keep_trace = true;
  RunResult r;
  try {
    r = replay(m, h.config, ro, s.log, s.texts);
  } catch (const ReplayDivergence& e) {
    throw UsageError("replay diverged: " + one_line(e.what()));
  }

  return print_replay(m, r, h, file, json);
}

// Replays a token of explore's output: the launch and run options are the
// caller's, as a token names only the decisions.
int cmd_replay_token(const std::string& model, const std::string& token, const Settings& s, bool json) {
  const models::Model& m = find_model(model);
  check_memory_model(s.memory_model);
  const models::Config c = launch_of(m, s);
  Token t;
  try {
    t = parse_token(token);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--token: " + one_line(e.what()));
  }
  const std::string key = report::launch_key(m, c, s.memory_model, s.max_steps);
  if (!t.launch.empty() && t.launch != key)
    throw UsageError(fmt::format("the token was printed for another launch or other options of {} (launch key {}; "
                                 "{} with {}, memory model {}, max-steps {} is {}): give replay the launch and options "
                                 "explore ran with (--quick, --grid, --block, --param, --resident-blocks, --model, "
                                 "--max-steps)",
                                 m.name, t.launch, m.name, report::launch_text(c), s.memory_model, s.max_steps, key));
  RunOptions ro;
  ro.memory_model = s.memory_model;
  ro.resident_blocks = c.resident_blocks;
  ro.max_steps = s.max_steps;
  ro.keep_trace = true;
  TokenChooser chooser(std::move(t.indexes));
  const RunResult r = run_once(m, c, ro, chooser);
  if (const std::string error = chooser.error(); !error.empty())
    throw UsageError(fmt::format("the token does not fit {} at {}: {} (explore's launch and options must be "
                                 "given too)",
                                 m.name, report::launch_text(c), error));
  if (json) {
    nlohmann::json j = report::trace_json(m, r, key);
    j["token"] = token;
    print_json(j);
  } else {
    fmt::print("{}", report::trace_text(m, r));
  }
  return replay_exit_code(r);
}

int run_cli(int argc, char** argv) {
  CLI::App app(
      "scopesim explores CUDA kernels under the PTX scoped memory model: it runs every shipped model under "
      "every schedule and memory-model choice (or a random or PCT sample), reports the outcomes that violate "
      "the model's postcondition and the findings (races, barrier divergence, deadlock, non-termination), and "
      "writes a schedule file for each that `scopesim replay` reproduces.\n\n"
      "Exit codes: 0 = nothing bad found / every verdict as expected; 1 = a bad outcome or finding / a verdict "
      "not as expected; 2 = usage or input error (one line on stderr; with --json also {\"error\": MESSAGE} on "
      "stdout).",
      "scopesim");
  // --json anywhere before "--", even where the arguments do not parse: an error is JSON too.
  for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i)
    if (std::strcmp(argv[i], "--json") == 0) errors_as_json(true);
  app.require_subcommand(1, 1);
  app.set_version_flag("--version", "scopesim 0.1.0");

  bool list_json = false;
  CLI::App* list = app.add_subcommand(
      "list",
      "List every shipped model, sorted by name, with its expected verdict (ok; bad = a bad outcome is "
      "permitted; race, deadlock, ... = findings that must appear; +* = other findings allowed) and a "
      "one-line summary.");
  list->add_flag("--json", list_json,
                 "Print JSON: name, summary, invariant, launch (the chapter's), quick launch (null: none), parameters, "
                 "expectations, and the distinct executions an exhaustive search finds at the quick launch, else the "
                 "chapter's (exhaustive_executions_at; null: not stated)");

  std::string explain_name;
  bool explain_json = false;
  CLI::App* xp = app.add_subcommand(
      "explain",
      "Describe one model: its launch, the scope-and-order invariant it relies on (or breaks), what a bad "
      "outcome means, the verdict it is expected to get, and the command that shows it. Exit 0, or 2 for an "
      "unknown model.");
  xp->add_option("MODEL", explain_name, "The model to explain (see 'scopesim list')")->required();
  xp->add_flag("--json", explain_json, "Print JSON (as one entry of 'scopesim list --json')");

  std::string model_name;
  Settings ex_settings;
  Output ex_out;
  CLI::App* ex = app.add_subcommand(
      "explore",
      "Explore one model (MODEL, as `scopesim list` names it) at its chapter launch configuration: every "
      "schedule and every write a read may return under the memory model (--model, default ptx), or a random "
      "or PCT sample (--mode). Prints the outcomes with their counts, marks the bad ones, lists the findings "
      "with threads and source positions, and writes a schedule file and a one-line token for each bad outcome "
      "and finding. Exit 0: nothing bad found; 1: a bad outcome or finding; 2: usage or input error.");
  ex->add_option("MODEL", model_name, "The model to explore (see 'scopesim list')")->required();
  add_search_options(*ex, ex_settings, true);
  add_launch_options(*ex, ex_settings);
  add_output_options(*ex, ex_out);

  std::vector<std::string> check_names;
  Settings ck_settings;
  Output ck_out;
  CLI::App* ck = app.add_subcommand(
      "check",
      "Explore every shipped model (or the MODELs named) at its quick launch configuration (its chapter one "
      "if it has none) and at each "
      "further configuration it names, judge what was found against what the model is expected to show, and "
      "print the verdict table: model, expected, found, match, executions, time. A search that did not "
      "complete proves only presence: a verdict that needs absence is then 'incomplete', never a match. "
      "Writes a schedule file for every bad outcome and finding. Exit 0: every verdict as expected; 1: some "
      "not; 2: usage or input error.");
  ck->add_option("MODEL", check_names, "Models to check (default: every model)");
  add_search_options(*ck, ck_settings, false);
  add_output_options(*ck, ck_out);

  std::string replay_file;
  bool replay_json = false;
  CLI::App* rp = app.add_subcommand(
      "replay",
      "Replay a schedule file written by explore or check: the run takes every decision from the file and "
      "prints its trace, outcome and findings, byte for byte the same each time. A file whose header does not "
      "match this scopesim (format version, model, source, memory model, launch) is refused with a one-line "
      "reason; a replay that diverges names the first decision that does not fit. With --token, replays the "
      "one-line token explore printed instead: FILE is then the model, and the launch and run options must be "
      "those of the exploration (--quick, --grid, --block, --param, --resident-blocks, --model, --max-steps). "
      "Exit 0: the reproduced run is clean; 1: it shows a bad outcome or finding; 2: the file or token cannot "
      "be replayed or did not reproduce.");
  rp->add_option("FILE", replay_file, "The schedule file (with --token: the model)")->required()->check(not_empty());
  rp->add_flag("--json", replay_json, "Print JSON: trace, outcome, findings, token");
  std::string replay_token;
  Settings rp_settings;
  CLI::Option* token_opt = rp->add_option("--token", replay_token,
                                          "Replay this token of explore's output (v1:...) of the model FILE")
                               ->check(not_empty());
  add_launch_options(*rp, rp_settings);
  rp_settings.resident_opt = rp->add_option("--resident-blocks", rp_settings.resident_blocks,
                                            "With --token: blocks resident at once (0: every block)")
                                 ->check(whole(0, std::numeric_limits<unsigned>::max()));
  rp->add_option("--model", rp_settings.memory_model, "With --token: the memory model (default ptx)");
  rp->add_option("--max-steps", rp_settings.max_steps, "With --token: steps per thread (default 20000)")
      ->check(whole(1));

  const cli::Command commands[] = {cli::add_litmus_command(app), cli::add_gpu_command(app),
                                   cli::add_compare_command(app), cli::add_bench_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') {  // (CLI11 says a subcommand is required)
      std::string names;
      for (const CLI::App* c : app.get_subcommands([](const CLI::App*) { return true; }))
        names += (names.empty() ? "" : ", ") + c->get_name();
      const std::string what = fmt::format("unknown command '{}': the commands are {}", argv[1], names);
      report_error(fmt::format("scopesim: {} (see 'scopesim --help')", what), what);
      return kError;
    }
    std::string where = app.get_subcommands().empty() ? "scopesim --help"
                                                      : "scopesim " + app.get_subcommands()[0]->get_name() + " --help";
    report_error(fmt::format("scopesim: {} (see '{}')", e.what(), where), e.what());
    return kError;
  }

  try {
    if (*list) return cmd_list(list_json);
    if (*xp) {
      const models::Model& m = find_model(explain_name);
      if (explain_json)
        print_json(report::list_json({&m})[0]);
      else
        fmt::print("{}", report::explain_text(m));
      return kClean;
    }
    if (*ex) return cmd_explore(model_name, ex_settings, ex_out);
    if (*ck) return cmd_check(check_names, ck_settings, ck_out);
    if (*rp) {
      if (token_opt->count() > 0) return cmd_replay_token(replay_file, replay_token, rp_settings, replay_json);
      const std::vector<CLI::Option*> given = rp->get_options([](const CLI::Option* o) { return o->count() > 0; });
      const bool launch_given = std::any_of(given.begin(), given.end(), [](const CLI::Option* o) {
        return o->get_name() != "--json" && o->get_name() != "FILE";
      });
      if (launch_given) throw UsageError("a schedule file names its launch and options: they go with --token only");
      return cmd_replay(replay_file, replay_json);
    }
    for (const cli::Command& c : commands)
      if (*c.app) return c.run();
  } catch (const UsageError& e) {
    report_error(std::string("scopesim: ") + e.what(), e.what());
    return kError;
  }
  return kError;
}

}  // namespace

// A report that did not reach stdout (a full disk, a closed pipe) is an
// error, never exit 0: the output is flushed and checked before exit.
int flushed(int code) {
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return code;
  fmt::print(stderr, "scopesim: cannot write the output: {}\n", std::strerror(errno));
  return kError;
}

int main(int argc, char** argv) {
  try {
    return flushed(run_cli(argc, argv));
  } catch (const std::exception& e) {
    report_error(std::string("scopesim: error: ") + e.what(), e.what());
  } catch (...) {
    report_error("scopesim: error: unknown exception", "unknown exception");
  }
  return kError;
}
