// `scopesim bench`: the exploration-performance measures in one report, each a
// section that can be selected (--only) or left out (--skip):
//   exploration  how close exhaustive exploration comes to exploring each
//                distinct execution once, and what one scheduling decision
//                costs against one bare fiber switch measured in the same run;
//   first-bug    executions (and time) PCT needs to show each broken catalogue
//                model's bad outcome or finding, median over seeds;
//   chapter      exhaustive exploration of the chapter's large launches, with a
//                time limit;
//   scaling      exhaustive exploration against threads per block, as tables
//                and (--markdown) Mermaid charts;
//   parallel     one long exhaustive exploration with --jobs 1, 2, 4, ...:
//                speed-up, efficiency, and whether every result is the same.
// Then one table of the exploration-performance targets, each read off the
// section that measured it: the target, its goal, what was measured, met.
// Times vary from run to run; this command is the one place they are measured.
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/context/fiber.hpp>
#include <fmt/format.h>
#include <sys/resource.h>
#include <time.h>

#include "models/model.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/input.hpp"
#include "sim/cli/search_options.hpp"
#include "sim/engine/explorer.hpp"
#include "sim/fiber/start_threads.hpp"
#include "sim/report/report.hpp"

namespace scopesim::cli {

namespace {

// One exploration-performance target (docs/performance.md, "Where it stands"),
// as a section measured it. `met`: yes, no, or why it could not be told.
struct Target {
  std::string target, goal, measured, met;
};
std::string yes_no(bool b) { return b ? "yes" : "no"; }

struct BenchSettings {
  std::vector<std::string> models;
  unsigned repeat = 3;
  double min_time = 0.05;             // exploration: seconds of repeats per configuration and round, at least
  unsigned rounds = 3;                // exploration: rounds over every configuration
  std::vector<std::string> only, skip;
  double time_limit = 10;             // seconds per exploration in first-bug, chapter, scaling
  unsigned seeds = 20;                // first-bug: PCT seeds per model
  std::uint64_t max_executions = 10000;  // first-bug: executions per seed
  unsigned max_threads = 1024;        // scaling: the largest block
  unsigned max_jobs = 0;              // parallel: the most workers (0: the machine's hardware threads)
  unsigned parallel_block = 14;       // parallel: threads per block of the workload (two per bin)
  unsigned parallel_repeat = 1;       // parallel: rounds over every N; each N's median round is shown
  bool markdown = false;
  bool progress = false;              // --progress
  Progress* line = nullptr;           // what is being measured, on stderr (run_bench())
  std::vector<Target>* targets = nullptr;  // what the sections measured of the targets (run_bench())
};

// Nanoseconds per switch between two Boost.Context fibers that do nothing
// else: the floor under any step of a fiber-based simulator. The best of
// several trials: a trial the OS interrupted measures the machine's load.
double fiber_switch_ns() {
  namespace ctx = boost::context;
  constexpr long rounds = 200'000;
  constexpr int trials = 15;
  long n = 0;
  ctx::fiber f{[&n](ctx::fiber&& back) {
    for (;;) {
      ++n;
      back = std::move(back).resume();
    }
    return std::move(back);
  }};
  f = std::move(f).resume();  // first entry
  double best = 0;
  for (int t = 0; t < trials; ++t) {
    const auto start = std::chrono::steady_clock::now();
    for (long k = 0; k < rounds; ++k) f = std::move(f).resume();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double ns = s * 1e9 / (2.0 * rounds);  // each round switches there and back
    if (t == 0 || ns < best) best = ns;
  }
  return best;
}

// A table printed either aligned for a terminal or as a Markdown table.
class Table {
 public:
  Table(std::vector<std::string> header, std::string align) : header_(std::move(header)), align_(std::move(align)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(bool markdown) const {
    if (markdown) {
      line(header_, "| ", " | ", " |");
      std::vector<std::string> rule;
      for (char a : align_) rule.push_back(a == 'l' ? "---" : "---:");
      line(rule, "| ", " | ", " |");
      for (const auto& r : rows_) line(r, "| ", " | ", " |");
      return;
    }
    std::vector<std::size_t> w(header_.size());
    for (std::size_t c = 0; c < w.size(); ++c) {
      w[c] = header_[c].size();
      for (const auto& r : rows_) w[c] = std::max(w[c], r[c].size());
    }
    auto padded = [&](const std::vector<std::string>& r) {
      std::vector<std::string> out;
      for (std::size_t c = 0; c < r.size(); ++c)
        out.push_back(align_[c] == 'l' ? fmt::format("{:<{}}", r[c], w[c]) : fmt::format("{:>{}}", r[c], w[c]));
      return out;
    };
    line(padded(header_), "", "  ", "");
    for (const auto& r : rows_) line(padded(r), "", "  ", "");
  }

 private:
  static void line(const std::vector<std::string>& cells, const char* open, const char* sep, const char* close) {
    std::string s = open;
    for (std::size_t c = 0; c < cells.size(); ++c) s += (c ? sep : "") + cells[c];
    s += close;
    while (!s.empty() && s.back() == ' ') s.pop_back();
    fmt::print("{}\n", s);
  }
  std::vector<std::string> header_;
  std::string align_;  // one 'l' or 'r' per column
  std::vector<std::vector<std::string>> rows_;
};

// A section's title and table go to stdout once its measures are taken; the
// progress line on stderr is erased first (a terminal shows both).
void heading(const BenchSettings& s, const std::string& title) {
  s.line->clear();
  if (s.markdown)
    fmt::print("\n### {}\n\n", title);
  else
    fmt::print("\n== {}\n\n", title);
}
void print_table(const BenchSettings& s, const Table& t) {
  s.line->clear();
  t.print(s.markdown);
}

std::string launch(const models::Config& c) {
  std::string t = fmt::format("<<<{},{}>>>", c.grid, c.block);
  if (c.resident_blocks) t += fmt::format(" {} resident", c.resident_blocks);
  for (const auto& [name, value] : c.params) t += fmt::format(" {}={}", name, value);
  return t;
}

// The middle value (the upper of the two middle ones of an even count); 0 for none.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string seconds(double s) { return fmt::format("{:.2f}s", s); }
std::string milliseconds(double s) { return fmt::format("{:.1f}ms", s * 1e3); }

// A MODEL argument names a model or a family: "litmus" is every "litmus.*".
bool selects(const std::string& arg, const std::string& model) {
  return model == arg || model.rfind(arg + ".", 0) == 0;
}

const models::Model* find(const std::string& name) {
  for (const auto& m : models::registry())
    if (m.name == name) return &m;
  return nullptr;
}

ExploreOptions exhaustive(const models::Config& c, double time_limit) {
  ExploreOptions o;
  o.run.keep_trace = false;
  o.run.resident_blocks = c.resident_blocks;
  o.time_limit = time_limit;
  return o;
}

// ---- exploration: runs per distinct execution, cost per decision ----

// The most explorations --min-time adds for one configuration.
constexpr unsigned max_repeats = 100000;

struct Row {
  std::string name;
  const models::Model* model = nullptr;
  models::Config config;
  Exploration x;
  double seconds = 0;  // the least over the rounds of a round's median
};

void exploration_section(const BenchSettings& s) {
  std::vector<Row> rows;
  for (const auto& m : models::registry()) {
    if (!s.models.empty() &&
        std::none_of(s.models.begin(), s.models.end(), [&](const std::string& a) { return selects(a, m.name); }))
      continue;
    rows.push_back({m.name, &m, m.quick ? *m.quick : m.chapter, {}, 0});
    for (const auto& a : m.also) rows.push_back({m.name + " " + a.options, &m, a.config, {}, 0});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.name < b.name; });

  // Rounds over every configuration in turn, not the rounds of one
  // configuration together: a machine that runs slow for a few seconds (a
  // cloud host's virtual CPU at times: docs/performance-history.md, "slow stretches")
  // slows a stretch of configurations in one round, and each configuration
  // keeps its fastest round, as the fiber switch keeps its fastest trial
  // (fiber_switch_ns(), measured once a round).
  double fiber_ns = 0;
  for (unsigned round = 0; round < s.rounds; ++round) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      Row& r = rows[i];
      s.line->doing(fmt::format("exploration, round {} of {}: {} of {}, {}", round + 1, s.rounds, i + 1, rows.size(),
                                r.name));
      const ExploreOptions o = exhaustive(r.config, 0);
      if (round == 0) explore(*r.model, r.config, o);  // warm: source positions resolved, stacks mapped
      // At least --repeat explorations and --min-time seconds of them: the
      // median of a few explorations of tens of microseconds is noise.
      std::vector<double> times;
      double spent = 0;
      for (unsigned k = 0; k < s.repeat || (spent < s.min_time && k < max_repeats); ++k) {
        r.x = explore(*r.model, r.config, o);
        times.push_back(r.x.seconds);
        spent += r.x.seconds;
      }
      r.seconds = round == 0 ? median(times) : std::min(r.seconds, median(times));
    }
    const double ns = fiber_switch_ns();
    fiber_ns = round == 0 ? ns : std::min(fiber_ns, ns);
  }

  heading(s, "Exhaustive exploration at the quick configurations");
  Table t({"model", "explored", "distinct", "ratio", "redundant", "decisions", "time", "ns/decision"}, "lrrrrrrr");
  std::vector<double> per_decision;
  std::uint64_t explored = 0, distinct = 0;
  double worst = 0;
  for (const Row& r : rows) {
    const double ratio = r.x.distinct ? static_cast<double>(r.x.executions) / static_cast<double>(r.x.distinct) : 0;
    const double ns = r.x.decisions ? r.seconds * 1e9 / static_cast<double>(r.x.decisions) : 0;
    if (r.x.decisions) per_decision.push_back(ns);
    explored += r.x.executions;
    distinct += r.x.distinct;
    worst = std::max(worst, ratio);
    t.add({r.name, std::to_string(r.x.executions), std::to_string(r.x.distinct), fmt::format("{:.2f}", ratio),
           std::to_string(r.x.redundant), std::to_string(r.x.decisions), fmt::format("{:.4f}s", r.seconds),
           fmt::format("{:.0f}", ns)});
  }
  print_table(s, t);
  const double per_decision_median = median(per_decision);
  fmt::print("\n{} configurations: {} explored, {} distinct, worst ratio {:.2f}\n", rows.size(), explored, distinct,
             worst);
  const double ratio = fiber_ns > 0 ? per_decision_median / fiber_ns : 0;
  fmt::print("median cost per scheduling decision {:.0f} ns; one bare Boost.Context fiber switch {:.1f} ns; "
             "ratio {:.1f}x\n",
             per_decision_median, fiber_ns, ratio);
  s.targets->push_back({"explored / distinct, every configuration", "<= 1.05",
                        fmt::format("{} configuration{}: worst {:.2f} ({} explored, {} distinct)", rows.size(),
                                    rows.size() == 1 ? "" : "s", worst, explored, distinct),
                        yes_no(distinct > 0 && worst <= 1.05)});
  s.targets->push_back({"cost per scheduling decision", "<= 20x one fiber switch",
                        fmt::format("{:.0f} ns against {:.1f} ns: {:.1f}x", per_decision_median, fiber_ns, ratio),
                        yes_no(ratio > 0 && ratio <= 20)});
}

// ---- first-bug: PCT executions to the first bad outcome or finding ----

// A broken (✗) verdict: a bad outcome is permitted or findings are required.
bool broken(const models::Expectation& e) { return e.bad_outcome_permitted || !e.required.empty(); }

// The median of values `v` and `missing` more that count as larger than all
// (not found): nullopt where the median is one of those.
std::optional<double> median_of(std::vector<double> v, unsigned missing) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = (v.size() + missing) / 2;
  return mid < v.size() ? std::optional<double>(v[mid]) : std::nullopt;
}
// The same as text: `show` of it, or `none`.
std::string median_text(const std::vector<double>& v, unsigned missing, const std::function<std::string(double)>& show,
                        const std::string& none) {
  const std::optional<double> m = median_of(v, missing);
  return m ? show(*m) : none;
}

void first_bug_section(const BenchSettings& s) {
  heading(s, fmt::format("Time to first bug: PCT (depth 3), {} seeds, at most {} executions and {:g} s per seed",
                         s.seeds, s.max_executions, s.time_limit));
  Table t({"model", "launch", "found", "median executions", "max executions", "median time", "max time"},
          "llrrrrr");
  // Over every point: the least and largest median, the largest of any seed,
  // and the points whose median seed found nothing.
  unsigned points_measured = 0, medians_missing = 0;
  double least_median = HUGE_VAL, most_median = 0, most = 0;
  for (const auto& m : models::registry()) {
    if (m.name.rfind("litmus.", 0) == 0) continue;  // the catalogue: every model but the litmus corpus
    std::vector<std::pair<std::string, models::Config>> points;
    if (broken(m.expect)) points.push_back({m.name, m.chapter});
    for (const auto& a : m.also)
      if (broken(a.expect)) points.push_back({m.name + " " + a.options, a.config});
    for (const auto& [label, c] : points) {
      std::vector<double> execs, times;
      unsigned missing = 0;
      for (unsigned seed = 1; seed <= s.seeds; ++seed) {
        s.line->doing(fmt::format("first-bug: {}, seed {} of {}", label, seed, s.seeds));
        ExploreOptions o = exhaustive(c, s.time_limit);
        o.mode = Mode::pct;
        o.seed = seed;
        o.max_executions = s.max_executions;
        o.stop_at_first = true;
        const Exploration x = explore(m, c, o);
        if (x.stopped_by == "stop-at-first") {
          execs.push_back(static_cast<double>(x.executions));
          times.push_back(x.seconds);
        } else {
          ++missing;
        }
      }
      const auto whole = [](double v) { return fmt::format("{:.0f}", v); };
      if (const std::optional<double> m = median_of(execs, missing)) {
        least_median = std::min(least_median, *m);
        most_median = std::max(most_median, *m);
      } else {
        ++medians_missing;
      }
      ++points_measured;
      if (!execs.empty()) most = std::max(most, *std::max_element(execs.begin(), execs.end()));
      t.add({label, launch(c), fmt::format("{}/{}", execs.size(), s.seeds),
             median_text(execs, missing, whole, "not found"),
             execs.empty() ? "-" : whole(*std::max_element(execs.begin(), execs.end())),
             median_text(times, missing, milliseconds, "-"),
             times.empty() ? "-" : milliseconds(*std::max_element(times.begin(), times.end()))});
    }
  }
  print_table(s, t);
  s.targets->push_back(
      {"time to first bug, PCT", fmt::format("median of {} seed{} <= 10,000 executions", s.seeds, s.seeds == 1 ? "" : "s"),
       medians_missing > 0
           ? fmt::format("{} broken configurations: {} not found by the median seed", points_measured, medians_missing)
           : fmt::format("{} broken configurations: medians {:.0f}-{:.0f} executions, at most {:.0f}", points_measured,
                         least_median, most_median, most),
       yes_no(points_measured > 0 && medians_missing == 0 && most_median <= 10000)});
}

// ---- chapter: exhaustive at the chapter's large launches ----

// A model explored at its chapter launch, and the target's seconds for it.
struct ChapterLaunch {
  const char* model;
  double bound;
};

constexpr ChapterLaunch chapter_launches[] = {{"tile.barrier", 1},
                                              {"histogram.shared_atomic", 10},
                                              {"counter.global_atomic", 10},
                                              {"counter.hierarchical", 10}};

void chapter_section(const BenchSettings& s) {
  heading(s, fmt::format("Chapter configurations: exhaustive, at most {:g} s each", s.time_limit));
  Table t({"model", "launch", "explored", "distinct", "redundant", "search", "time"}, "llrrrlr");
  std::string measured;
  bool met = true;
  for (const auto& [name, bound] : chapter_launches) {
    const models::Model* m = find(name);
    if (m == nullptr) continue;
    s.line->doing(fmt::format("chapter: {} {}", name, launch(m->chapter)));
    ExploreOptions o = exhaustive(m->chapter, s.time_limit);
    o.progress = s.line->callback();
    const Exploration x = explore(*m, m->chapter, o);
    t.add({name, launch(m->chapter), std::to_string(x.executions), std::to_string(x.distinct),
           std::to_string(x.redundant), x.complete ? "complete" : "stopped by " + x.stopped_by, seconds(x.seconds)});
    met = met && x.complete && x.seconds < bound;
    measured += fmt::format("{}{} {}{}", measured.empty() ? "" : ", ", name, seconds(x.seconds),
                            x.complete ? "" : " (incomplete)");
  }
  print_table(s, t);
  s.targets->push_back({"chapter launches, exhaustively", "tile.barrier < 1 s, the others < 10 s", measured,
                        yes_no(!measured.empty() && met)});
}

// ---- scaling: exhaustive against threads per block ----

// A Mermaid xychart (renders in GitHub Markdown): one line per model.
void chart(const std::string& title, const std::string& y, const std::vector<unsigned>& xs,
           const std::vector<std::pair<std::string, std::vector<double>>>& lines) {
  double top = 0;
  for (const auto& l : lines)
    for (double v : l.second) top = std::max(top, v);
  std::string names;
  for (const auto& l : lines) names += (names.empty() ? "" : ", ") + l.first;
  fmt::print("\n```mermaid\nxychart-beta\n    title \"{} ({})\"\n    x-axis \"threads per block\" [", title, names);
  for (std::size_t k = 0; k < xs.size(); ++k) fmt::print("{}{}", k ? ", " : "", xs[k]);
  fmt::print("]\n    y-axis \"{}\" 0 --> {}\n", y, top > 0 ? fmt::format("{:g}", std::ceil(top * 1.05)) : "1");
  for (const auto& l : lines) {
    fmt::print("    line [");
    for (std::size_t k = 0; k < l.second.size(); ++k) fmt::print("{}{:g}", k ? ", " : "", l.second[k]);
    fmt::print("]\n");
  }
  fmt::print("```\n");
}

// A model the scaling section explores, and how its chapter launch becomes
// one of `threads` threads per block (`rule`: what that changes besides the
// block, in words, for --help; empty where nothing).
struct ScaledWorkload {
  const char* model;
  void (*at)(models::Config&, unsigned threads);
  const char* rule;
};

constexpr ScaledWorkload scaled_workloads[] = {
    {"tile.barrier", [](models::Config& c, unsigned threads) { c.block = threads; }, ""},
    // Its bins take one thread each to zero and flush: a block smaller than the
    // chapter's 8 bins counts into as many bins as it has threads.
    {"histogram.shared_atomic",
     [](models::Config& c, unsigned threads) {
       c.block = threads;
       if (threads < c.param("bins", 8)) c.params["bins"] = threads;
     },
     "below 8 threads with as many bins as threads"},
};

void scaling_section(const BenchSettings& s) {
  heading(s, fmt::format("Scaling: exhaustive against threads per block, at most {:g} s per point", s.time_limit));
  std::vector<unsigned> xs;
  for (unsigned n = 2; n <= s.max_threads; n *= 2) xs.push_back(n);
  // "bad": a bad outcome or a finding. A launch the kernel does not support
  // (models::misfit) is not explored; it plots as 0.
  Table t({"model", "threads", "explored", "distinct", "search", "bad", "time"}, "lrrrllr");
  std::vector<std::pair<std::string, std::vector<double>>> time_lines, explored_lines;
  unsigned points = 0, complete = 0;
  for (const ScaledWorkload& w : scaled_workloads) {
    const char* const name = w.model;
    const models::Model* m = find(name);
    if (m == nullptr) continue;
    std::vector<double> times, explored;
    for (unsigned n : xs) {
      models::Config c = m->chapter;
      w.at(c, n);
      ++points;
      if (const std::string why = models::misfit(*m, c); !why.empty()) {
        t.add({name, std::to_string(n), "-", "-", "does not fit: " + why, "-", "-"});
        times.push_back(0);
        explored.push_back(0);
        continue;
      }
      s.line->doing(fmt::format("scaling: {} at {} threads per block", name, n));
      ExploreOptions o = exhaustive(c, s.time_limit);
      o.progress = s.line->callback();
      const Exploration x = explore(*m, c, o);
      t.add({name, std::to_string(n) + (c.params.count("bins") ? fmt::format(" ({} bins)", c.param("bins", 0)) : ""),
             std::to_string(x.executions), std::to_string(x.distinct),
             x.complete ? "complete" : "stopped by " + x.stopped_by, x.bad() ? "yes" : "no", seconds(x.seconds)});
      complete += x.complete ? 1 : 0;
      times.push_back(std::round(x.seconds * 100) / 100);
      explored.push_back(static_cast<double>(x.executions));
    }
    time_lines.push_back({name, times});
    explored_lines.push_back({name, explored});
  }
  print_table(s, t);
  if (s.markdown && !xs.empty()) {
    chart("Exhaustive exploration time", "seconds", xs, time_lines);
    chart("Executions explored", "executions", xs, explored_lines);
  }
  s.targets->push_back({"scaling against threads per block", "2 ... 1024, every point complete",
                        fmt::format("{} of {} points complete, 2 ... {}", complete, points,
                                    xs.empty() ? 0u : xs.back()),
                        yes_no(points > 0 && complete == points && !xs.empty() && xs.back() >= 1024)});
}

// ---- parallel: one exploration with 1, 2, 4, ... jobs ----

// Seconds of CPU time every thread of this process has used so far.
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Context switches of every thread of this process so far: a thread blocked
// (sleeps: a lock, a condition variable) or taken off its CPU (preemptions).
struct Switches {
  long sleeps = 0, preemptions = 0;
};
Switches process_switches() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return {u.ru_nvcsw, u.ru_nivcsw};
}

// The workload: exhaustive, two threads racing on each bin (6 executions
// per bin, so 6^(block/2) in all). The default block of 14 (279936
// executions) takes some 20 s with one job on the 16-core GPU machine's host
// (revision 745d31b), the 10 s or more the measurement asks for; each block
// two threads larger or smaller multiplies or divides that by six (16 for a
// faster engine or machine).
constexpr const char* parallel_model = "histogram.plain_rmw";

// What the machine itself gives n threads: n threads each explore the same
// small workload with one job at once, independently; returns the work done
// per second against one thread alone, the sum of each thread's rate (n at
// best; less where the threads slow each other down: shared cores, caches,
// memory, the allocator). Each thread explores the workload once first (its
// fiber stacks mapped, its buffers grown, as the one alone was), and the timed
// explorations start together.
double machine_speedup(const models::Model& m, const models::Config& c, unsigned n, double alone) {
  std::vector<double> took(n);
  std::barrier start(static_cast<std::ptrdiff_t>(n));
  std::vector<std::thread> threads = fiber::start_threads(
      n, n,
      [&](std::size_t k) {
        explore(m, c, exhaustive(c, 0));
        start.arrive_and_wait();
        took[k] = explore(m, c, exhaustive(c, 0)).seconds;
      },
      [&](std::size_t started) {  // (the threads not started arrive no more: those waiting go on)
        for (std::size_t k = started; k < n; ++k) start.arrive_and_drop();
      });
  for (std::thread& t : threads) t.join();
  double rate = 0;
  for (double t : took) rate += t > 0 ? alone / t : 0;
  return rate;
}

void parallel_section(const BenchSettings& s) {
  const models::Model* m = find(parallel_model);
  if (m == nullptr) return;
  models::Config c = m->quick ? *m->quick : m->chapter;
  c.block = s.parallel_block;
  c.params["bins"] = s.parallel_block / 2;
  const unsigned most = s.max_jobs ? s.max_jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> jobs;
  for (unsigned n = 1; n < most; n *= 2) jobs.push_back(n);
  jobs.push_back(most);
  heading(s, fmt::format("Parallel exploration: {} {} exhaustively with --jobs N, on {} hardware threads{}",
                         parallel_model, launch(c), std::thread::hardware_concurrency(),
                         s.parallel_repeat > 1 ? fmt::format(" (the median of {} rounds)", s.parallel_repeat) : ""));
  // "same result": the --json of the exploration (outcomes, findings, counts,
  // witnesses; times left out) is byte-identical to the one of --jobs 1.
  {  // warm: the findings' source positions resolved, stacks mapped (at 4 threads, two per bin, the
     // increments race as at 6)
    models::Config warm = c;
    warm.block = 4;
    explore(*m, warm, exhaustive(warm, 0));
  }
  // Where efficiency goes: the CPU time of all threads (more than with one job:
  // the same work costs more), and how many threads were busy on average
  // (fewer than N: some asleep for want of a task); what the machine gives N independent one-job
  // explorations of a small workload (the speed-up no search can beat there)
  // and the speed-up against it; the threads' context switches (sleeps: each
  // hands a CPU back, and on a virtual machine a woken thread reaches one
  // late; preemptions: more threads runnable than CPUs, docs/performance-history.md,
  // "Eighth round"). How the work was shared: subtrees walked on
  // other threads and taken over, their runs (and those thrown away), and how long the search's own walk waited for a subtree's runs
  // and passed them on to the explorer (the rest of its time it made runs).
  // Where the threads were idle, in seconds summed over them: before their
  // first subtree, between subtrees, after their last.
  Table t({"jobs", "explored", "time", "speed-up", "efficiency", "same result", "CPU", "busy", "machine",
           "of machine", "sleeps", "preemptions", "subtrees", "runs ahead", "runs lost", "walk waited",
           "walk passed on", "idle at start", "idle between", "idle at end"},
          "rrrrrlrrrrrrrrrrrrrr");
  // The machine's workload: <<<1,12>>> (46656 executions, 5-9 s with one job
  // on the 16-core machine; <<<1,10>>>, under a second, read 9.9x-18.0x there at
  // 16 from one call to the next), or a smaller one under a smaller --parallel-block.
  models::Config small = c;
  small.block = std::min(12u, s.parallel_block > 4 ? s.parallel_block - 2 : 4u);
  small.params["bins"] = small.block / 2;
  std::vector<double> alone_times;
  for (int k = 0; k < 3; ++k) alone_times.push_back(explore(*m, small, exhaustive(small, 0)).seconds);
  const double alone = median(alone_times);
  // One measurement of the workload with n jobs.
  struct Measure {
    Exploration x;
    double cpu = 0;
    Switches switches;
    std::string json;
  };
  auto measure = [&](unsigned n, unsigned round) {
    s.line->doing(fmt::format("parallel: {} job{}{}", n, n == 1 ? "" : "s",
                              s.parallel_repeat > 1 ? fmt::format(", round {} of {}", round + 1, s.parallel_repeat) : ""));
    ExploreOptions o = exhaustive(c, 0);
    o.jobs = n;
    o.progress = s.line->callback();
    Measure r;
    const double cpu_before = process_cpu_seconds();
    const Switches switches_before = process_switches();
    r.x = explore(*m, c, o);
    r.cpu = process_cpu_seconds() - cpu_before;
    const Switches switches_after = process_switches();
    r.switches = {switches_after.sleeps - switches_before.sleeps,
                  switches_after.preemptions - switches_before.preemptions};
    r.json = report::explore_json(report::ExploreReport{m, c, o, &r.x, {}, {}}, false).dump();
    return r;
  };
  // Rounds over every N, so that a machine that speeds up or slows down
  // meanwhile (a shared host) weighs on every N alike; each N's round of
  // median time is shown, and "same result" holds only if every round's
  // --json is the first one's.
  std::vector<std::vector<Measure>> rounds(jobs.size());
  for (unsigned k = 0; k < s.parallel_repeat; ++k)
    for (std::size_t i = 0; i < jobs.size(); ++i) rounds[i].push_back(measure(jobs[i], k));
  double first_seconds = 0;
  Target target{"--jobs 16 on an exploration >= 10 s with one job", ">= 80 % efficiency, identical results", "", ""};
  bool all_identical = true;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    std::vector<Measure>& mine = rounds[i];
    std::sort(mine.begin(), mine.end(), [](const Measure& a, const Measure& b) { return a.x.seconds < b.x.seconds; });
    const Measure& median = mine[mine.size() / 2];
    const Exploration& x = median.x;
    const unsigned n = jobs[i];
    if (n == 1) first_seconds = x.seconds;
    const bool identical = std::all_of(mine.begin(), mine.end(), [&](const Measure& r) {
      return r.json == rounds[0].front().json;
    });
    const double speedup = x.seconds > 0 ? first_seconds / x.seconds : 0;
    if (n > 1) s.line->doing(fmt::format("parallel: what the machine gives {} independent explorations", n));
    const double machine = n == 1 ? 1.0 : machine_speedup(*m, small, n, alone);
    all_identical = all_identical && identical;
    if (i + 1 == jobs.size()) {  // the most jobs
      target.measured = fmt::format("{} jobs: {:.2f}x, {:.0f} % ({:.0f} % of the machine's {:.2f}x), one job {}; "
                                    "identical: {}",
                                    n, speedup, 100 * speedup / n, machine > 0 ? 100 * speedup / machine : 0,
                                    machine, seconds(first_seconds), all_identical ? "yes" : "NO");
      target.met = !all_identical                 ? "no"
                   : n < 16 || first_seconds < 10 ? "not measured (fewer than 16 jobs, or one job under 10 s)"
                                                  : yes_no(100 * speedup / n >= 80);
    }
    t.add({std::to_string(n), std::to_string(x.executions), seconds(x.seconds), fmt::format("{:.2f}x", speedup),
           fmt::format("{:.0f}%", 100 * speedup / n), identical ? "yes" : "NO", seconds(median.cpu),
           fmt::format("{:.1f}", x.seconds > 0 ? median.cpu / x.seconds : 0), fmt::format("{:.2f}x", machine),
           fmt::format("{:.0f}%", machine > 0 ? 100 * speedup / machine : 0), std::to_string(median.switches.sleeps),
           std::to_string(median.switches.preemptions), std::to_string(x.sharing.taken_over), std::to_string(x.sharing.runs_ahead),
           std::to_string(x.sharing.runs_lost), seconds(x.sharing.waiting),
           seconds(x.sharing.passing), seconds(x.sharing.idle_start), seconds(x.sharing.idle_between),
           seconds(x.sharing.idle_end)});
  }
  print_table(s, t);
  s.targets->push_back(target);
}

struct Section {
  const char* name;
  void (*run)(const BenchSettings&);
};
// In report order.
constexpr Section sections[] = {{"exploration", exploration_section},
                                {"first-bug", first_bug_section},
                                {"chapter", chapter_section},
                                {"scaling", scaling_section},
                                {"parallel", parallel_section}};

// The build the numbers come from: they change with the compiler, its
// optimization and the engine's profile (docs/performance.md).
std::string build_description() {
#if defined(__clang__)
  const std::string compiler = "Clang " __clang_version__;
#elif defined(__GNUC__)
  const std::string compiler = "GCC " __VERSION__;
#else
  const std::string compiler = "an unknown compiler";
#endif
  const std::string type = SCOPESIM_BENCH_BUILD_TYPE, pgo = SCOPESIM_BENCH_PGO;
  const char* engine = pgo == "use"        ? "optimized with its profile"
                       : pgo == "generate" ? "instrumented for a profile"
                                           : "without a profile";
  return fmt::format("build: {}, {}, engine {}; {} hardware threads", compiler, type.empty() ? "no build type" : type,
                     engine, std::thread::hardware_concurrency());
}

int run_bench(const BenchSettings& s) {
  for (const std::string& n : s.models)
    if (std::none_of(models::registry().begin(), models::registry().end(),
                     [&](const models::Model& m) { return selects(n, m.name); })) {
      fmt::print(stderr, "scopesim: unknown model '{}' (see 'scopesim list')\n", n);
      return 2;
    }
  std::set<std::string> known;
  for (const Section& sec : sections) known.insert(sec.name);
  for (const auto* list : {&s.only, &s.skip})
    for (const std::string& n : *list)
      if (!known.count(n)) {
        fmt::print(stderr, "scopesim: unknown bench section '{}' (exploration, first-bug, chapter, scaling, parallel)\n",
                   n);
        return 2;
      }
  fmt::print("{}\n", build_description());
  BenchSettings with_line = s;
  Progress line(Output{.progress = s.progress}, "bench");
  with_line.line = &line;
  std::vector<Target> targets;
  with_line.targets = &targets;
  for (const Section& sec : sections) {
    const bool wanted = s.only.empty() || std::find(s.only.begin(), s.only.end(), sec.name) != s.only.end();
    if (!wanted || std::find(s.skip.begin(), s.skip.end(), sec.name) != s.skip.end()) continue;
    sec.run(with_line);
  }
  heading(with_line, "Against the targets");
  Table t({"target", "goal", "measured", "met"}, "llll");
  for (const Target& g : targets) t.add({g.target, g.goal, g.measured, g.met});
  print_table(with_line, t);
  return 0;
}

// The names of `list`'s models, "a, b and c"; each followed by its rule in
// parentheses, where it has one.
template <typename Workload, std::size_t N>
std::string named(const Workload (&list)[N]) {
  std::string s;
  for (std::size_t i = 0; i < N; ++i) {
    s += i == 0 ? "" : i + 1 == N ? " and " : ", ";
    s += list[i].model;
    if constexpr (requires { list[i].rule; })
      if (*list[i].rule != '\0') s += fmt::format(" ({})", list[i].rule);
  }
  return s;
}

// bench's description, naming the models its sections run from their lists.
std::string description() {
  return fmt::format(
      "Measure exploration performance and print one report of sections: 'exploration' explores every shipped "
      "model (or the MODELs named) exhaustively at its quick configuration (else its chapter one) and at each "
      "further configuration it names: executions explored, distinct executions (by reads-from, coherence and "
      "fence.sc order), their ratio, runs found redundant, scheduling decisions, the median time of --repeat "
      "explorations (more, until they took --min-time seconds) in the fastest of --rounds rounds over every "
      "configuration, and the time per decision, then the median cost per scheduling decision against one bare "
      "Boost.Context fiber switch measured in the same rounds (the fastest); "
      "'first-bug' runs PCT on every broken catalogue model "
      "at its chapter configuration until the first bad outcome or finding, over --seeds seeds, and prints the "
      "median executions and time; 'chapter' explores the chapter's large launches of {} exhaustively; "
      "'scaling' explores {} exhaustively at 2, 4, ... threads per block; 'parallel' explores "
      "{} <<<1,--parallel-block>>> (two threads per bin) exhaustively with --jobs 1, 2, 4, ... "
      "up to --max-jobs and prints the speed-up, "
      "the efficiency and whether the result is the same as with one job. Last, 'Against the targets': each "
      "target beside what the sections run measured of it, met or not. Times vary from run to run. Exit 0; "
      "2: usage error.",
      named(chapter_launches), named(scaled_workloads),
      parallel_model);
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto s = std::make_shared<BenchSettings>();
  CLI::App* b = app.add_subcommand("bench", description());
  b->add_option("MODEL", s->models,
                "Models, or families such as 'litmus', of the 'exploration' section (default: every model)");
  b->add_option("--repeat", s->repeat,
                "Explorations per configuration in 'exploration', at least; the median time is shown (default 3)")
      ->check(whole(1, 1000));
  b->add_option("--min-time", s->min_time,
                "Seconds of explorations per configuration and round in 'exploration', at least: more repeats until "
                "then (default 0.05; 0: exactly --repeat)")
      ->check(between(0, 60));
  b->add_option("--rounds", s->rounds,
                "Rounds of 'exploration', each over every configuration in turn, then measuring the fiber switch; "
                "each configuration's time and the switch are their fastest round's (default 3)")
      ->check(whole(1, 9));
  CLI::Option* only = b->add_option("--only", s->only,
                                    "Run only this section: exploration, first-bug, chapter, scaling, parallel "
                                    "(repeatable)")
                          ->allow_extra_args(false);
  b->add_option("--skip", s->skip, "Leave out this section (repeatable)")->allow_extra_args(false)->excludes(only);
  b->add_option("--time-limit", s->time_limit,
                "Seconds per exploration in first-bug (per seed), chapter and scaling (per point) (default 10)")
      ->check(between(0.001, 1e6));
  b->add_option("--seeds", s->seeds, "PCT seeds per model in first-bug (default 20)")->check(whole(1, 10000));
  b->add_option("--max-executions", s->max_executions, "PCT executions per seed in first-bug (default 10000)")
      ->check(whole(1, std::uint64_t{1} << 40));
  b->add_option("--max-threads", s->max_threads, "Largest block in scaling (default 1024)")
      ->check(whole(2, 1024));
  b->add_option("--max-jobs", s->max_jobs, "Most workers in parallel (default: the machine's hardware threads)")
      ->check(whole(1, 1024));
  b->add_option("--parallel-block", s->parallel_block,
                "Threads per block of the parallel section's histogram.plain_rmw, two per bin: 4, 8, 10, 12, 14 or 16 "
                "(default 14: 279936 executions, about 20 s with one job on a 16-core server; 16: 1679616, six times "
                "that; 12: 46656, 10: 7776, 8: 1296)")
      ->check(CLI::IsMember(std::vector<unsigned>{4, 8, 10, 12, 14, 16}));
  b->add_option("--parallel-repeat", s->parallel_repeat,
                "Rounds of the parallel section, each over every N in turn; each N's median time is shown, with "
                "that round's other columns (default 1)")
      ->check(whole(1, 9));
  b->add_flag("--markdown", s->markdown, "Print Markdown tables and, for scaling, Mermaid xychart plots");
  b->add_flag("--progress", s->progress,
              "Print what is being measured to stderr every second (on a terminal, without it: one line kept up to "
              "date from the second second on)");
  return {b, [s] { return run_bench(*s); }};
}

}  // namespace scopesim::cli
