#include "sim/api/scopesim.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/engine/strategies.hpp"
#include "sim/model/memory_model.hpp"
#include "sim/report/report.hpp"

namespace scopesim {

namespace {

// The run options an exploration at `launch` uses: the launch's resident blocks.
RunOptions run_options(const Options& o, const Launch& launch) {
  RunOptions r = o.run;
  r.resident_blocks = launch.resident_blocks;
  return r;
}

void check(const models::Model& m, const Launch& launch, const Options& o) {
  if (launch.grid == 0 || launch.block == 0)
    throw std::invalid_argument(fmt::format("launch <<<{},{}>>> has no thread", launch.grid, launch.block));
  if (const std::string why = models::misfit(m, launch); !why.empty())
    throw std::invalid_argument(fmt::format("{} <<<{},{}>>>: {}", m.name, launch.grid, launch.block, why));
  const std::vector<std::string> names = memory_model_names();
  if (std::find(names.begin(), names.end(), o.run.memory_model) == names.end())
    throw std::invalid_argument("unknown memory model '" + o.run.memory_model + "'");
  if (o.pct_depth < 1 || o.pct_depth > kMaxPctDepth)
    throw std::invalid_argument(fmt::format("pct depth {} is not 1 to {}", o.pct_depth, kMaxPctDepth));
}

const models::Model& named(std::string_view name) {
  const models::Model* m = find_model(name);
  if (m == nullptr) throw std::invalid_argument("unknown model '" + std::string(name) + "'");
  return *m;
}

// The launch as a C++ initializer, for the replay call a failure message prints.
std::string launch_code(const Launch& l) {
  std::string params;
  for (const auto& [k, v] : l.params) params += fmt::format("{}{{\"{}\", {}}}", params.empty() ? "" : ", ", k, v);
  return fmt::format("{{.grid = {}, .block = {}, .resident_blocks = {}, .params = {{{}}}}}", l.grid, l.block,
                     l.resident_blocks, params);
}

}  // namespace

Report::Report(const models::Model& m, Launch launch, Options options, Exploration e)
    : model_(m), launch_(std::move(launch)), options_(std::move(options)), e_(std::move(e)) {
  options_.progress = {};
}

bool Report::bad_outcome() const {
  return std::any_of(e_.outcomes.begin(), e_.outcomes.end(), [](const OutcomeSummary& o) { return o.bad; });
}

bool Report::has(FindingKind k) const {
  return std::any_of(e_.findings.begin(), e_.findings.end(),
                     [k](const FindingSummary& f) { return f.finding.kind == k; });
}

std::vector<FindingKind> Report::finding_kinds() const {
  std::set<FindingKind> s;
  for (const FindingSummary& f : e_.findings) s.insert(f.finding.kind);
  return {s.begin(), s.end()};
}

bool Report::permits(std::string_view outcome) const {
  return std::any_of(e_.outcomes.begin(), e_.outcomes.end(),
                     [outcome](const OutcomeSummary& o) { return o.outcome.text() == outcome; });
}

std::optional<ChoiceLog> Report::schedule() const {
  for (const OutcomeSummary& o : e_.outcomes)
    if (o.bad) return o.witness.log();
  if (!e_.findings.empty()) return e_.findings.front().witness.log();
  return std::nullopt;
}

std::string Report::token() const {
  const std::optional<ChoiceLog> s = schedule();
  return s ? log_token(*s, report::launch_key(model_, launch_, options_.run.memory_model, options_.run.max_steps))
           : std::string();
}

std::string Report::describe() const {
  const report::ExploreReport r{&model_, launch_, options_, &e_, {}, {}};
  std::string out = report::explore_text(r);
  if (!launch_.params.empty()) {
    std::string params;
    for (const auto& [k, v] : launch_.params) params += fmt::format(" {}={}", k, v);
    out += fmt::format("parameters   {}\n", params);
  }
  if (bad())
    out += fmt::format("replay        scopesim::replay(\"{}\", {}, \"{}\"{})\n", model_.name, launch_code(launch_),
                       token(), options_.run.memory_model == "ptx" ? "" : ", options");
  return out;
}

const models::Model* find_model(std::string_view name) {
  for (const models::Model& m : models::registry())
    if (m.name == name) return &m;
  return nullptr;
}

Report explore(const models::Model& m, const Launch& launch, const Options& options) {
  check(m, launch, options);
  Options o = options;
  o.run = run_options(options, launch);
  o.run.keep_trace = false;  // traces are for replays; an exploration keeps only the witnesses' logs
  Exploration e = scopesim::explore(m, launch, static_cast<const ExploreOptions&>(o));
  return Report(m, launch, std::move(o), std::move(e));
}

Report explore(std::string_view model, const Launch& launch, const Options& options) {
  return explore(named(model), launch, options);
}

RunResult replay(const models::Model& m, const Launch& launch, std::string_view token, const Options& options) {
  check(m, launch, options);
  Token t = parse_token(token);
  RunOptions o = run_options(options, launch);
  if (const std::string key = report::launch_key(m, launch, o.memory_model, o.max_steps);
      !t.launch.empty() && t.launch != key)
    throw ReplayDivergence("token " + std::string(token) + " was printed for another launch or other options than " +
                           m.name + " at " + report::launch_text(launch) + " (launch key " + key + ")");
  TokenChooser chooser(std::move(t.indexes));
  o.keep_trace = true;
  RunResult r = run_once(m, launch, o, chooser);
  if (const std::string error = chooser.error(); !error.empty())
    throw ReplayDivergence("token " + std::string(token) + " does not fit " + m.name + " at " +
                           report::launch_text(launch) + ": " + error);
  return r;
}

RunResult replay(std::string_view model, const Launch& launch, std::string_view token, const Options& options) {
  return replay(named(model), launch, token, options);
}

}  // namespace scopesim
