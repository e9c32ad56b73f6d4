#include "sim/engine/explorer.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "sim/engine/dpor_search.hpp"
#include "sim/engine/sampling_search.hpp"
#include "sim/engine/strategies.hpp"

namespace scopesim {

bool Exploration::bad() const {
  for (const auto& o : outcomes)
    if (o.bad) return true;
  return !findings.empty();
}

Exploration explore(const models::Model& m, const models::Config& c, const ExploreOptions& o) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  Exploration x;
  std::map<std::string, OutcomeSummary> outcomes;
  std::map<std::string, std::size_t> finding_at;
  std::unordered_set<std::uint64_t> fingerprints;
  const std::uint64_t max_exec =
      o.max_executions ? o.max_executions : (o.mode == Mode::exhaustive ? ~std::uint64_t{0} : 1000);

  auto record = [&](const RunResult& r) {
    ++x.executions;
    fingerprints.insert(r.fingerprint ^ (r.completed ? 0 : 0x5bd1e995ULL));
    if (r.completed) {
      auto [it, fresh] = outcomes.try_emplace(r.outcome.text());
      if (fresh) {
        it->second.outcome = r.outcome;
        it->second.bad = r.bad;
        it->second.witness = r.log;
      }
      ++it->second.count;
    }
    for (const Finding& f : r.findings) {
      auto [it, fresh] = finding_at.try_emplace(f.key(), x.findings.size());
      if (fresh) x.findings.push_back({f, 0, r.log, r.completed ? r.outcome.text() : std::string()});
      ++x.findings[it->second].count;
    }
    return o.stop_at_first && (r.bad || !r.findings.empty());
  };
  auto out_of_time = [&] {
    return o.time_limit > 0 && std::chrono::duration<double>(clock::now() - start).count() > o.time_limit;
  };
  auto interrupted = [&] { return o.interrupt != nullptr && o.interrupt->load(std::memory_order_relaxed); };
  // Every strategy's stops before a run: the time limit, an interrupt.
  auto stop_now = [&] {
    if (out_of_time())
      x.stopped_by = "time-limit";
    else if (interrupted())
      x.stopped_by = "interrupt";
    else
      return false;
    return true;
  };

  // A run long enough to outlast the time limit or an interrupt ends there,
  // abandoned: it is not taken, and the search stops before the next.
  RunOptions run = o.run;
  if (o.time_limit > 0 || o.interrupt != nullptr) run.cut = [&] { return out_of_time() || interrupted(); };

  if (o.mode == Mode::exhaustive) {
    auto go_on = [&] {
      if (x.executions >= max_exec) {
        x.stopped_by = "max-executions";
        return false;
      }
      return !stop_now();
    };
    auto take = [&](const RunResult& r, bool redundant) {
      if (r.cut) return !stop_now();  // (a cut run is taken by no strategy: stop_now() names why)
      x.decisions += r.scheduling_decisions;
      if (redundant) {
        ++x.redundant;
      } else if (record(r)) {
        x.stopped_by = "stop-at-first";
        return false;
      }
      if (o.progress && (x.executions + x.redundant) % 256 == 0) o.progress(x.executions);
      return true;
    };
    x.sharing = dpor_search(m, c, run, DporSearch{o.preemption_bound, std::max(o.jobs, 1u)}, go_on, take);
    x.complete = x.stopped_by.empty() && o.preemption_bound < 0;
    if (o.preemption_bound >= 0 && x.stopped_by.empty()) x.stopped_by = "preemption-bound";
  } else {
    auto go_on = [&] { return !stop_now(); };
    auto take = [&](const RunResult& r) {
      if (r.cut) return !stop_now();
      x.decisions += r.scheduling_decisions;
      if (record(r)) {
        x.stopped_by = "stop-at-first";
        return false;
      }
      if (o.progress && x.executions % 256 == 0) o.progress(x.executions);
      return true;
    };
    sampling_search(m, c, run, SamplingSearch{o.mode == Mode::pct, o.seed, o.pct_depth, max_exec, std::max(o.jobs, 1u)},
                    go_on, take);
  }
  for (auto& [text, s] : outcomes) x.outcomes.push_back(std::move(s));
  x.distinct = fingerprints.size();
  x.seconds = std::chrono::duration<double>(clock::now() - start).count();
  return x;
}

RunResult replay(const models::Model& m, const models::Config& c, const RunOptions& o, const ChoiceLog& log) {
  ReplayChooser ch(log);
  RunResult r = run_once(m, c, o, ch);
  if (!ch.error().empty()) throw ReplayDivergence(ch.error());
  const std::size_t n = std::min(r.log.size(), log.size());
  for (std::size_t k = 0; k < n; ++k) {
    const Decision& a = log[k];
    const Decision& b = r.log[k];
    if (a.kind != b.kind || a.alternatives != b.alternatives || a.key != b.key)
      throw ReplayDivergence("decision " + std::to_string(k) + " (" + a.text + ") diverges: the run made " +
                             std::string(name(b.kind)) + " decision '" + b.text + "'");
  }
  if (r.log.size() != log.size())
    throw ReplayDivergence("the schedule has " + std::to_string(log.size()) + " decisions but the run made " +
                           std::to_string(r.log.size()));
  return r;
}

}  // namespace scopesim
