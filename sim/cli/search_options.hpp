// The options that decide what a search explores and how its results are
// written, shared by `explore` and `check` (and the litmus command): one
// definition, so the subcommands cannot drift apart.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "models/model.hpp"
#include "sim/engine/explorer.hpp"

namespace scopesim::cli {

struct Settings {
  std::string mode = "exhaustive";
  std::uint64_t seed = 1;
  unsigned depth = 3;
  std::uint64_t max_executions = 0;
  double time_limit = 0;
  std::uint64_t memory_limit = kDefaultKeptBytes >> 20;  // MB, 0: none
  int preemption_bound = -1;
  bool stop_at_first = false;
  unsigned resident_blocks = 0;
  CLI::Option* resident_opt = nullptr;  // set when --resident-blocks was offered
  std::uint64_t max_steps = 20000;
  double local_time_limit = 10;
  std::string memory_model = "ptx";
  unsigned jobs = 1;
  // explore only: the launch, when not the model's chapter one.
  bool quick = false;
  unsigned grid = 0, block = 0;  // 0: the model's
  std::vector<std::string> params;  // "name=value"
};

// The launch `explore` runs: the model's chapter (or quick) configuration
// with --grid, --block, --param and --resident-blocks applied.
models::Config launch_of(const models::Model& m, const Settings& s);

// Options that change what is explored. `launch`: --resident-blocks and --stop-at-first too.
void add_search_options(CLI::App& app, Settings& s, bool launch);
// The launch: --quick, --grid, --block, --param (launch_of applies them).
void add_launch_options(CLI::App& app, Settings& s);

ExploreOptions explore_options(const Settings& s);

// Takes the launch's resident-block limit into the run options.
void with_config(ExploreOptions& o, const models::Config& c);

// How results are written.
struct Output {
  bool json = false;
  bool times = false;
  bool quiet = false;
  bool progress = false;
  std::string schedules = "scopesim-schedules";
  bool no_schedules = false;
};

void add_output_options(CLI::App& app, Output& out);
// --schedules and --no-schedules alone (add_output_options includes them).
void add_schedule_options(CLI::App& app, Output& out);

// Progress on stderr while one search (ExploreOptions::progress), or a
// command's sequence of them, runs: with --progress, a line a second; else,
// when stderr is a terminal and the report is not --quiet, one line kept up
// to date once the work has run two seconds, and erased when the Progress
// ends; else nothing. Only stderr: stdout is the same for the same options.
class Progress {
 public:
  Progress(const Output& out, std::string label);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // For ExploreOptions::progress; valid while this Progress lives.
  std::function<void(std::uint64_t)> callback();
  // What the command is doing now: shown when a line is due, and before the
  // executions of each search from then on.
  void doing(std::string_view what);
  // Erases the line kept up to date, if shown (before stdout is written).
  void clear();

 private:
  enum class Mode { off, lines, live };
  void show(std::uint64_t executions);
  bool due();  // a line is to be shown now (then counted as shown)
  void print(std::string line);
  Mode mode_ = Mode::off;
  std::string label_;
  std::chrono::steady_clock::time_point start_, last_;
  bool shown_ = false;  // a live line is on the terminal
  std::string doing_;   // (doing())
  std::chrono::steady_clock::time_point doing_since_;  // when doing() was last called, else start_
};

}  // namespace scopesim::cli
