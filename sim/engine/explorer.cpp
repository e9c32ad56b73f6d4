#include "sim/engine/explorer.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "sim/engine/dpor_search.hpp"
#include "sim/engine/sampling_search.hpp"
#include "sim/engine/strategies.hpp"

namespace scopesim {

namespace {
// The checks before and after every run for what stops the exploration
// mostly find nothing: what they find is done out of line, so that they save
// no registers for it.
// `x` stopped, for `why`.
[[gnu::noinline]] void stop_by(Exploration& x, const char* why) { x.stopped_by = why; }
// Has more than `limit` seconds passed since `start`?
[[gnu::noinline]] bool past(std::chrono::steady_clock::time_point start, double limit) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit;
}
}  // namespace

bool Exploration::bad() const {
  for (const auto& o : outcomes)
    if (o.bad) return true;
  return !findings.empty();
}

Exploration explore(const models::Model& m, const models::Config& c, const ExploreOptions& o) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  Exploration x;
  Tally tally;
  const std::uint64_t unbounded = ~std::uint64_t{0};
  const std::uint64_t max_exec = o.max_executions ? o.max_executions : (o.mode == Mode::exhaustive ? unbounded : 1000);
  // Every strategy's take of a run: true to go on.
  auto over_memory = [&] {
    if (o.max_kept_bytes == 0 || tally.kept_bytes() <= o.max_kept_bytes) return false;
    stop_by(x, "memory-limit");
    return true;
  };
  auto record = [&](const RunResult& r, bool redundant) {
    if (tally.add(r, redundant) && o.stop_at_first) {
      stop_by(x, "stop-at-first");
      return false;
    }
    return !over_memory();
  };
  // Progress now and then: where the runs taken passed a multiple of 256.
  std::uint64_t shown = 0;
  auto show = [&](std::uint64_t runs) {
    if (o.progress && runs / 256 != shown / 256) o.progress(tally.executions);
    shown = runs;
  };
  auto out_of_time = [&] {
    return o.time_limit > 0 && past(start, o.time_limit);
  };
  auto interrupted = [&] { return o.interrupt != nullptr && o.interrupt->load(std::memory_order_relaxed); };
  // Every strategy's stops before a run: the time limit, an interrupt.
  auto stop_now = [&] {
    if (out_of_time())
      stop_by(x, "time-limit");
    else if (interrupted())
      stop_by(x, "interrupt");
    else
      return false;
    return true;
  };

  // A run long enough to outlast the time limit or an interrupt ends there,
  // abandoned: it is not taken, and the search stops before the next. (The
  // runs take o.run itself where neither can come: no copy of it.)
  std::optional<RunOptions> cut_run;
  if (o.time_limit > 0 || o.interrupt != nullptr) {
    cut_run = o.run;
    cut_run->cut = [&] { return out_of_time() || interrupted(); };
  }
  const RunOptions& run = cut_run ? *cut_run : o.run;

  if (o.mode == Mode::exhaustive) {
    // (Where nothing stops the search before its end, no max-executions, no
    // time limit and no interrupt, the check before each run asks nothing.)
    const bool stoppable = max_exec != unbounded || o.time_limit > 0 || o.interrupt != nullptr;
    auto go_on = [&] {
      if (!stoppable) return true;
      if (tally.executions >= max_exec) {
        stop_by(x, "max-executions");
        return false;
      }
      return !stop_now();
    };
    auto take = [&](const RunResult& r, bool redundant) {
      if (r.cut) return !stop_now();  // (a cut run is taken by no strategy: stop_now() names why)
      if (!record(r, redundant)) return false;
      show(tally.executions + tally.redundant);
      return true;
    };
    // Where no run is counted to (no max-executions, no stop-at-first) and no
    // time limit stops the search, the runs of a subtree walked on another
    // thread come tallied there. (A tally comes at its subtree's end: at a
    // time limit the runs of the subtrees not ended would be lost, where runs
    // passed on one by one reach the explorer up to the search's frontier.)
    auto add_tally = [&](Tally&& t, bool cut) {
      if (!go_on()) return false;
      tally.add(std::move(t));
      show(tally.executions + tally.redundant);
      if (over_memory()) return false;
      return !cut || !stop_now();
    };
    std::function<bool(Tally&&, bool)> take_tally;
    if (max_exec == unbounded && !o.stop_at_first && o.time_limit == 0) take_tally = std::ref(add_tally);
    // (The search's functions refer to these closures: none is copied to the heap.)
    x.sharing = dpor_search(m, c, run, DporSearch{o.preemption_bound, std::max(o.jobs, 1u)}, std::ref(go_on),
                            std::ref(take), take_tally);
    x.complete = x.stopped_by.empty() && o.preemption_bound < 0;
    if (o.preemption_bound >= 0 && x.stopped_by.empty()) x.stopped_by = "preemption-bound";
  } else {
    auto go_on = [&] { return !stop_now(); };
    auto take = [&](const RunResult& r) {
      if (r.cut) return !stop_now();
      if (!record(r, false)) return false;
      show(tally.executions);
      return true;
    };
    sampling_search(m, c, run, SamplingSearch{o.mode == Mode::pct, o.seed, o.pct_depth, max_exec, std::max(o.jobs, 1u)},
                    go_on, take);
  }
  x.outcomes.reserve(tally.outcomes.size());
  for (auto& [text, s] : tally.outcomes) x.outcomes.push_back(std::move(s));
  x.findings = std::move(tally.findings);
  x.executions = tally.executions;
  x.redundant = tally.redundant;
  x.decisions = tally.decisions;
  x.distinct = tally.distinct();
  x.seconds = std::chrono::duration<double>(clock::now() - start).count();
  return x;
}

RunResult replay(const models::Model& m, const models::Config& c, const RunOptions& o, const ChoiceLog& log,
                 const std::vector<std::string>& texts) {
  ReplayChooser ch(log, texts);
  RunResult r = run_once(m, c, o, ch);
  if (!ch.error().empty()) throw ReplayDivergence(ch.error());
  const std::size_t n = std::min(r.log.size(), log.size());
  for (std::size_t k = 0; k < n; ++k) {
    const Decision& a = log[k];
    const Decision& b = r.log[k];
    if (a.kind != b.kind || a.alternatives != b.alternatives || a.key != b.key)
      throw ReplayDivergence("decision " + std::to_string(k) + " (" + std::string(decision_text(texts, k)) +
                             ") diverges: the run made " + std::string(name(b.kind)) + " decision '" +
                             std::string(decision_text(r.texts, k)) + "'");
  }
  if (r.log.size() != log.size())
    throw ReplayDivergence("the schedule has " + std::to_string(log.size()) + " decisions but the run made " +
                           std::to_string(r.log.size()));
  return r;
}

}  // namespace scopesim
