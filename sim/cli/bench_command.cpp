// `scopesim bench`: how close exhaustive exploration comes to exploring each
// distinct execution once, and what one scheduling decision costs against one
// bare fiber switch measured in the same process. Prints one table; times vary
// from run to run (this command is the one place they are measured).
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <boost/context/fiber.hpp>
#include <fmt/format.h>

#include "models/model.hpp"
#include "sim/cli/command.hpp"
#include "sim/engine/explorer.hpp"

namespace scopesim::cli {

namespace {

struct BenchSettings {
  std::vector<std::string> models;
  unsigned repeat = 3;
};

// Nanoseconds per switch between two Boost.Context fibers that do nothing
// else: the floor under any step of a fiber-based simulator.
double fiber_switch_ns() {
  namespace ctx = boost::context;
  constexpr long rounds = 1'000'000;
  long n = 0;
  ctx::fiber f{[&n](ctx::fiber&& back) {
    for (;;) {
      ++n;
      back = std::move(back).resume();
    }
    return std::move(back);
  }};
  f = std::move(f).resume();  // first entry
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k < rounds; ++k) f = std::move(f).resume();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s * 1e9 / (2.0 * rounds);  // each round switches there and back
}

struct Row {
  std::string name;
  Exploration x;
  double seconds = 0;  // median over repeats
};

int run_bench(const BenchSettings& s) {
  std::vector<std::pair<std::string, std::pair<const models::Model*, models::Config>>> todo;
  std::vector<std::string> unknown;
  for (const auto& m : models::registry()) {
    if (!s.models.empty() && std::find(s.models.begin(), s.models.end(), m.name) == s.models.end()) continue;
    todo.push_back({m.name, {&m, m.quick ? *m.quick : m.chapter}});
    for (const auto& a : m.also) todo.push_back({m.name + " " + a.options, {&m, a.config}});
  }
  for (const std::string& n : s.models)
    if (std::none_of(models::registry().begin(), models::registry().end(),
                     [&](const models::Model& m) { return m.name == n; })) {
      fmt::print(stderr, "scopesim: unknown model '{}' (see 'scopesim list')\n", n);
      return 2;
    }
  std::sort(todo.begin(), todo.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  std::vector<Row> rows;
  for (const auto& [label, mc] : todo) {
    ExploreOptions o;
    o.run.keep_trace = false;
    o.run.resident_blocks = mc.second.resident_blocks;
    explore(*mc.first, mc.second, o);  // warm: source positions resolved, stacks mapped
    std::vector<double> times;
    Row r{label, {}, 0};
    for (unsigned k = 0; k < s.repeat; ++k) {
      r.x = explore(*mc.first, mc.second, o);
      times.push_back(r.x.seconds);
    }
    std::sort(times.begin(), times.end());
    r.seconds = times[times.size() / 2];
    rows.push_back(std::move(r));
  }
  const double fiber_ns = fiber_switch_ns();

  std::size_t w = 5;
  for (const Row& r : rows) w = std::max(w, r.name.size());
  fmt::print("{:<{}}  {:>9}  {:>8}  {:>6}  {:>9}  {:>9}  {:>9}  {:>11}\n", "model", w, "explored", "distinct", "ratio",
             "redundant", "decisions", "time", "ns/decision");
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
    fmt::print("{:<{}}  {:>9}  {:>8}  {:>6.2f}  {:>9}  {:>9}  {:>8.4f}s  {:>11.0f}\n", r.name, w, r.x.executions,
               r.x.distinct, ratio, r.x.redundant, r.x.decisions, r.seconds, ns);
  }
  std::sort(per_decision.begin(), per_decision.end());
  const double median = per_decision.empty() ? 0 : per_decision[per_decision.size() / 2];
  fmt::print("\n{} configurations: {} explored, {} distinct, worst ratio {:.2f}\n", rows.size(), explored, distinct,
             worst);
  fmt::print("median cost per scheduling decision {:.0f} ns; one bare Boost.Context fiber switch {:.1f} ns; "
             "ratio {:.1f}x\n",
             median, fiber_ns, fiber_ns > 0 ? median / fiber_ns : 0);
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto s = std::make_shared<BenchSettings>();
  CLI::App* b = app.add_subcommand(
      "bench",
      "Explore every shipped model (or the MODELs named) exhaustively at its quick configuration (else its "
      "chapter one) and at each further configuration it names, and print one table: executions explored, "
      "distinct executions (by reads-from, coherence and fence.sc order), their ratio, runs found redundant, "
      "scheduling decisions, the median time of --repeat explorations and the time per decision; then the "
      "median cost per scheduling decision against one bare Boost.Context fiber switch measured in the same "
      "run. Times vary from run to run. Exit 0; 2: usage error.");
  b->add_option("MODEL", s->models, "Models to measure (default: every model)");
  b->add_option("--repeat", s->repeat, "Explorations per model; the median time is shown (default 3)")
      ->check(CLI::Range(1u, 1000u));
  return {b, [s] { return run_bench(*s); }};
}

}  // namespace scopesim::cli
