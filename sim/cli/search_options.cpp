#include "sim/cli/search_options.hpp"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "sim/cli/input.hpp"
#include "sim/report/report.hpp"

namespace scopesim::cli {

models::Config launch_of(const models::Model& m, const Settings& s) {
  if (s.quick && !m.quick) throw UsageError(m.name + " has no quick configuration; its chapter one is the only one");
  models::Config c = s.quick ? *m.quick : m.chapter;
  if (s.grid) c.grid = s.grid;
  if (s.block) c.block = s.block;
  std::set<std::string> given;
  for (const std::string& p : s.params) {
    const auto eq = p.find('=');
    long long v = 0;
    const char* begin = eq == std::string::npos ? nullptr : p.data() + eq + 1;
    const auto [end, ec] = begin ? std::from_chars(begin, p.data() + p.size(), v) : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (eq != 0 && eq != std::string::npos && ec == std::errc::result_out_of_range && end == p.data() + p.size())
      throw UsageError("--param " + p.substr(0, eq) + ": " + p.substr(eq + 1) + " is past the range of a 64-bit integer");
    if (eq == 0 || eq == std::string::npos || ec != std::errc{} || end != p.data() + p.size())
      throw UsageError("--param needs NAME=INTEGER, got '" + p + "'");
    if (!given.insert(p.substr(0, eq)).second)
      throw UsageError("--param " + p.substr(0, eq) + " is given twice");
    c.params[p.substr(0, eq)] = v;
  }
  if (s.resident_opt && s.resident_opt->count() > 0) c.resident_blocks = s.resident_blocks;
  // (The configuration's own parameters named too: a misfit may lie in one the user did not give.)
  if (const std::string why = models::misfit(m, c); !why.empty()) {
    std::string own;
    for (const auto& [name, value] : c.params)
      if (!given.count(name)) own += fmt::format("{}{}={}", own.empty() ? "" : ", ", name, value);
    throw UsageError(fmt::format("{} <<<{},{}>>>: {}{}", m.name, c.grid, c.block, why,
                                 own.empty() ? "" : " (" + own + ": the configuration's; --param NAME=INTEGER sets one)"));
  }
  return c;
}

void add_search_options(CLI::App& app, Settings& s, bool launch) {
  app.add_option("--mode", s.mode, "Search strategy: exhaustive (default), random or pct")
      ->check(CLI::IsMember({"exhaustive", "random", "pct"}));
  app.add_option("--seed", s.seed, "Seed of the random and pct strategies (default 1)")->check(whole(0));
  app.add_option("--depth", s.depth, "Bug depth of the pct strategy, 1 to 1000 (default 3)")
      ->check(whole(1, kMaxPctDepth));
  app.add_option("--max-executions", s.max_executions,
                 "Stop after N executions (0: exhaustive unbounded, random/pct 1000)")
      ->check(whole(0));
  app.add_option("--time-limit", s.time_limit, "Stop after SECONDS of exploring (0: none)")
      ->check(non_negative());
  app.add_option("--memory-limit", s.memory_limit,
                 "Stop once the outcomes and findings the search keeps (their texts and witness schedules) take MB "
                 "megabytes, as at a time limit: a search of millions of distinct outcomes would otherwise run until "
                 "the machine's memory is gone (default 2048, 0: none)")
      ->check(whole(0, std::uint64_t{1} << 40));
  app.add_option("--preemption-bound", s.preemption_bound, "Explore only schedules with at most N preemptions")
      ->check(whole(0, std::numeric_limits<int>::max()));
  app.add_option("--max-steps", s.max_steps, "Steps per thread before non-termination is reported (default 20000)")
      ->check(whole(1));
  app.add_option("--local-time-limit", s.local_time_limit,
                 "CPU seconds a thread may compute between two simulated operations before the run stops with an "
                 "error, as a loop over locals alone never ends (default 10, 0: none)")
      ->check(non_negative());
  app.add_option("--model", s.memory_model, "Memory model: ptx (default), sc or scope-blind");
  app.add_option("--jobs", s.jobs, "Threads that make runs; the same result for every N (default 1)")
      ->check(whole(1, 1024));
  if (launch) {
    app.add_flag("--stop-at-first", s.stop_at_first, "Stop at the first bad outcome or finding");
    s.resident_opt = app.add_option("--resident-blocks", s.resident_blocks,
                                    "Blocks resident at once; the rest wait for a free slot (0: every block)")
                         ->check(whole(0, std::numeric_limits<unsigned>::max()));
  }
}

void add_launch_options(CLI::App& app, Settings& s) {
  app.add_flag("--quick", s.quick, "Launch the model's quick configuration instead of its chapter one");
  app.add_option("--grid", s.grid, "Blocks in the grid (default: the model's)")->check(whole(1, 65535));
  app.add_option("--block", s.block, "Threads per block (default: the model's)")->check(whole(1, 1024));
  app.add_option("--param", s.params, "A model parameter, NAME=INTEGER (e.g. --param n=200); repeatable");
}

ExploreOptions explore_options(const Settings& s) {
  ExploreOptions o;
  o.mode = report::parse_mode(s.mode).value_or(Mode::exhaustive);
  o.seed = s.seed;
  o.pct_depth = s.depth;
  o.max_executions = s.max_executions;
  o.time_limit = s.time_limit;
  o.max_kept_bytes = s.memory_limit << 20;
  o.preemption_bound = s.preemption_bound;
  o.stop_at_first = s.stop_at_first;
  o.run.memory_model = s.memory_model;
  o.run.max_steps = s.max_steps;
  o.run.local_time_limit = s.local_time_limit;
  o.run.keep_trace = false;
  o.jobs = s.jobs;
  return o;
}

void with_config(ExploreOptions& o, const models::Config& c) { o.run.resident_blocks = c.resident_blocks; }


void add_output_options(CLI::App& app, Output& out) {
  app.add_flag("--json", out.json, "Print JSON instead of text (byte-identical for identical options)");
  app.add_flag("--times", out.times, "Put times in the JSON too (the text always has them)");
  CLI::Option* quiet = app.add_flag("--quiet", out.quiet, "Print no text report and no progress; the exit code tells the result");
  app.add_flag("--progress", out.progress,
               "Print the number of executions so far to stderr every second (on a terminal, without it: one line "
               "kept up to date from the search's second second on)")
      ->excludes(quiet);
  add_schedule_options(app, out);
}

void add_schedule_options(CLI::App& app, Output& out) {
  CLI::Option* dir = app.add_option("--schedules", out.schedules,
                                    "Directory for schedule files, <model>.<n>.schedule (default scopesim-schedules)")
                            ->check(not_empty());
  app.add_flag("--no-schedules", out.no_schedules, "Write no schedule files (tokens are still printed)")->excludes(dir);
}

Progress::Progress(const Output& out, std::string label)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), last_(start_), doing_since_(start_) {
  if (out.progress) {
    mode_ = Mode::lines;
  } else if (!out.quiet && isatty(STDERR_FILENO)) {
    const char* term = std::getenv("TERM");
    if (term == nullptr || std::string_view(term) != "dumb") mode_ = Mode::live;
  }
}

Progress::~Progress() { clear(); }

void Progress::clear() {
  if (!shown_) return;
  fmt::print(stderr, "\r\033[K");  // back to the start of the line, cleared
  std::fflush(stderr);
  shown_ = false;
}

std::function<void(std::uint64_t)> Progress::callback() {
  if (mode_ == Mode::off) return {};
  return [this](std::uint64_t n) { show(n); };
}

void Progress::show(std::uint64_t executions) {
  if (!due()) return;
  const std::string doing = doing_.empty() ? "" : doing_ + ": ";
  if (mode_ == Mode::lines) return print(fmt::format("{}{} executions so far", doing, executions));
  const double seconds = std::chrono::duration<double>(last_ - doing_since_).count();
  if (seconds < 1) return print(fmt::format("{}{} executions", doing, executions));
  print(fmt::format("{}{} executions in {:.0f} s ({:.0f}/s)", doing, executions, seconds,
                    static_cast<double>(executions) / seconds));
}

void Progress::doing(std::string_view what) {
  doing_ = what;
  doing_since_ = std::chrono::steady_clock::now();
  if (mode_ == Mode::off || !due()) return;
  print(fmt::format("{} ({:.0f} s)", doing_, std::chrono::duration<double>(last_ - start_).count()));
}

bool Progress::due() {
  using namespace std::chrono_literals;
  const auto now = std::chrono::steady_clock::now();
  if (mode_ == Mode::lines ? now - last_ < 1s : now - start_ < 2s || (shown_ && now - last_ < 250ms)) return false;
  last_ = now;
  return true;
}

void Progress::print(std::string line) {
  line = fmt::format("scopesim: {}: {}", label_, line);
  if (mode_ == Mode::lines) {
    fmt::print(stderr, "{}\n", line);
  } else {
    if (line.size() > 79) line.resize(79);  // one terminal line, so that \r returns to its start
    fmt::print(stderr, "\r{}\033[K", line);
    shown_ = true;
  }
  std::fflush(stderr);
}

}  // namespace scopesim::cli
