#include "sim/cli/litmus_gpu.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace scopesim::cli {

namespace {

std::string rate(std::uint64_t count, std::uint64_t n) {
  if (n == 0) return "-";
  if (count == 0) return fmt::format("<{:.1e}", 3.0 / static_cast<double>(n));  // rule of three
  return fmt::format("{:.2e}", static_cast<double>(count) / static_cast<double>(n));
}

bool satisfies(const std::string& outcome_text) {
  return outcome_text.find(std::string(litmus::condition_name) + "=1") != std::string::npos;
}

}  // namespace

report::GpuResult with_condition(const report::GpuResult& g, const litmus::Program& p, std::string_view source) {
  const std::vector<std::string> names = litmus::observed_names(p);
  report::GpuResult out = g;
  for (std::size_t i = 0; i < out.outcomes.size(); ++i) {
    report::GpuOutcome& o = out.outcomes[i];
    if (!o.terminated) continue;
    auto malformed = [&](const std::string& what) {
      return std::runtime_error(fmt::format("{}: {}: 'outcomes[{}]' {} (the test observes {})",
                                            report::result_line(source, g.line), g.model, i, what,
                                            fmt::join(names, ", ")));
    };
    // The values the test observes, each once (the parser refuses a name
    // twice), in the simulator's order, so that equal outcomes read alike.
    Outcome observed;
    for (const std::string& n : names) {
      const auto v = std::find_if(o.outcome.values().begin(), o.outcome.values().end(),
                                  [&](const Observed& x) { return x.name == n; });
      if (v == o.outcome.values().end()) throw malformed("has no value of " + n);
      if (v->type != ValueType::i32) throw malformed("has " + n + " of another type than i32");
      observed.add(v->name, v->type, v->bits);
    }
    for (const Observed& v : o.outcome.values())
      if (std::find(names.begin(), names.end(), v.name) == names.end())
        throw malformed("has a value of " + v.name + ", which the test does not observe");
    const bool c = litmus::evaluate(*p.condition.expr, [&](const litmus::Term& t) -> std::int32_t {
      return t.kind == litmus::Term::Kind::constant ? t.value : static_cast<std::int32_t>(observed.i(t.outcome_name()));
    });
    observed.add(litmus::condition_name, ValueType::i32, c ? 1 : 0);
    o.outcome = observed;
    o.text = o.outcome.text();
  }
  return out;
}

std::vector<std::string> weak_outcomes_seen(const LitmusGpuTest& t, std::uint64_t* count) {
  std::vector<std::string> out;
  *count = 0;
  for (const report::CompareRow& r : t.comparison.rows)
    if (r.count > 0 && r.outcome != report::kDidNotTerminate && !t.sc.count(r.outcome)) {
      out.push_back(r.outcome);
      *count += r.count;
    }
  return out;
}

std::string litmus_gpu_text(const std::vector<LitmusGpuTest>& ts) {
  std::vector<report::ModelComparison> cs;
  for (const LitmusGpuTest& t : ts) cs.push_back(t.comparison);
  std::string out = report::compare_text(cs);
  std::uint64_t weak = 0;
  for (const LitmusGpuTest& t : ts) {
    std::uint64_t n = 0;
    for (const std::string& w : weak_outcomes_seen(t, &n)) out += fmt::format("weak outcome on the GPU: {}: {}\n", t.comparison.model, w);
    weak += n;
  }
  out += fmt::format("{} weak (non-sc) outcome occurrence(s) on the GPU\n", weak);
  return out;
}

nlohmann::json litmus_gpu_json(const std::vector<LitmusGpuTest>& ts) {
  std::vector<report::ModelComparison> cs;
  for (const LitmusGpuTest& t : ts) cs.push_back(t.comparison);
  nlohmann::json j;
  j["tests"] = report::compare_json(cs);
  nlohmann::json weak = nlohmann::json::array();
  std::uint64_t occurrences = 0;
  for (const LitmusGpuTest& t : ts) {
    std::uint64_t n = 0;
    for (const std::string& w : weak_outcomes_seen(t, &n)) weak.push_back({{"model", t.comparison.model}, {"outcome", w}});
    occurrences += n;
  }
  j["weak_outcomes"] = weak;
  j["weak_occurrences"] = occurrences;
  return j;
}

std::string litmus_gpu_markdown(const std::vector<LitmusGpuTest>& ts, const std::vector<std::string>& unsupported,
                                const std::string& command) {
  std::size_t with_gpu = 0, unsound = 0, hung = 0, weak_tests = 0, ran = 0;
  std::uint64_t instances = 0, weak = 0, min_instances = ~0ull, max_instances = 0;
  for (const LitmusGpuTest& t : ts) {
    const report::ModelComparison& c = t.comparison;
    unsound += c.unsound.size();
    if (!c.has_gpu) continue;
    ++with_gpu;
    instances += c.gpu.instances;
    if (c.gpu.instances > 0) {
      ++ran;
      min_instances = std::min(min_instances, c.gpu.instances);
      max_instances = std::max(max_instances, c.gpu.instances);
    }
    for (const report::CompareRow& r : c.rows)
      if (r.outcome == report::kDidNotTerminate && r.count > 0) ++hung;
    std::uint64_t n = 0;
    weak_outcomes_seen(t, &n);
    weak += n;
    weak_tests += n > 0 ? 1 : 0;
  }
  std::string out = "# GPU cross-check of the PTX litmus tests\n\n";
  out += "Generated by `" + command +
         "` from the committed GPU results (`gpu/run-all.sh` with `SCOPESIM_GPU_SUITE=litmus`); do not edit by "
         "hand. Each safety test of the corpus ran as a model of the GPU harness (its generated CUDA in "
         "`gpu/litmus/`, inline PTX for the exact instructions, one warp per test thread) in many instances per "
         "launch; its outcome histogram over the condition's registers and locations is put beside the "
         "simulator's permitted outcomes (PTX model, exhaustive). *PTX*: permitted by the simulator; *sc*: "
         "permitted under sequential consistency (an outcome the GPU showed that sc forbids is *weak*); "
         "*condition*: the final condition holds in the outcome; **UNSOUND**: the GPU showed an outcome the "
         "simulator forbids. `did not terminate`: an instance spun past its budget, or (count 1, no instances) "
         "the whole launch did not finish, e.g. a barrier that never completes.\n\n";
  out += fmt::format(
      "**{} tests ({} more are not supported: {}), {} with GPU results: {} ran {} instances in all ({} to {} per "
      "test), {} did not terminate; {} weak outcome occurrence(s) in {} test(s); {} soundness failure(s).**\n\n",
      ts.size(), unsupported.size(), unsupported.empty() ? "none" : fmt::format("`{}`", fmt::join(unsupported, "`, `")),
      with_gpu, ran, instances, ran ? min_instances : 0, max_instances, hung, weak, weak_tests, unsound);
  for (const LitmusGpuTest& t : ts)
    for (const std::string& u : t.comparison.unsound)
      out += fmt::format("- SOUNDNESS FAILURE: `{}` showed `{}` on the GPU\n", t.comparison.model, u);
  out += "\n## Summary\n\n| test | verdict | GPU instances | outcomes seen | weak seen | condition seen | status |\n"
         "|---|---|---:|---:|---:|---:|---|\n";
  for (const LitmusGpuTest& t : ts) {
    const report::ModelComparison& c = t.comparison;
    std::uint64_t seen = 0, cond = 0, weak_n = 0;
    for (const report::CompareRow& r : c.rows) {
      seen += r.count > 0 ? 1 : 0;
      if (satisfies(r.outcome)) cond += r.count;
    }
    weak_outcomes_seen(t, &weak_n);
    std::string status = !c.has_gpu ? "no GPU results" : !c.unsound.empty() ? "**UNSOUND**" : "sound";
    if (c.has_gpu && !c.gpu.error.empty()) status += " (GPU: " + c.gpu.error + ")";
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", c.model, t.holds ? "holds" : "does not hold",
                       c.has_gpu ? fmt::format("{}", c.gpu.instances) : "-", c.has_gpu ? fmt::format("{}", seen) : "-",
                       c.has_gpu ? fmt::format("{}", weak_n) : "-", c.has_gpu ? fmt::format("{}", cond) : "-", status);
  }
  for (const LitmusGpuTest& t : ts) {
    const report::ModelComparison& c = t.comparison;
    out += fmt::format("\n## `{}`\n\n`{}` — `{}`; simulator {} executions{}", c.model, t.file, t.condition, c.executions,
                       c.complete ? " (complete)" : " (incomplete)");
    if (c.has_gpu) {
      out += fmt::format("; GPU {} instances in {:.1f} s", c.gpu.instances, c.gpu.seconds);
      if (c.gpu.multi_block_instances > 0)
        out += fmt::format(", CTAs on distinct SMs in {:.1f}% of instances",
                           100.0 * static_cast<double>(c.gpu.distinct_sm_instances) /
                               static_cast<double>(c.gpu.multi_block_instances));
      if (!c.gpu.error.empty()) out += "; GPU run: " + c.gpu.error;
    }
    out += ".\n\n| outcome | PTX | sc | condition | GPU count | rate | status |\n|---|---|---|---|---:|---:|---|\n";
    const std::uint64_t n = c.has_gpu ? c.gpu.instances : 0;
    for (const report::CompareRow& r : c.rows) {
      const bool dnt = r.outcome == report::kDidNotTerminate;
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", r.outcome, r.permitted ? "yes" : "**no**",
                         dnt ? "-" : t.sc.count(r.outcome) ? "yes" : "no", dnt ? "-" : satisfies(r.outcome) ? "yes" : "no",
                         c.has_gpu ? fmt::format("{}", r.count) : "-", rate(r.count, n),
                         r.status == "UNSOUND" ? "**UNSOUND**" : r.status);
    }
  }
  return out;
}

}  // namespace scopesim::cli
