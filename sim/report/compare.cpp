#include "sim/report/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/report/report.hpp"

namespace scopesim::report {

namespace {

// Each value type by the name the harness writes (gpu/harness.cu).
constexpr std::pair<ValueType, std::string_view> kTypeNames[] = {
    {ValueType::i32, "i32"}, {ValueType::u32, "u32"}, {ValueType::i64, "i64"},
    {ValueType::u64, "u64"}, {ValueType::f32, "f32"}, {ValueType::f64, "f64"}};

std::optional<ValueType> type_named(const std::string& s) {
  for (const auto& [t, n] : kTypeNames)
    if (n == s) return t;
  return std::nullopt;
}

std::string_view type_name(ValueType t) {
  for (const auto& [u, n] : kTypeNames)
    if (u == t) return n;
  return "?";
}

// The largest bits of a value of type `t`: a 32-bit type has 32, a negative
// i32 too (its two's complement in 32 bits, as the harness writes it and the
// simulator keeps it, never sign-extended to 64).
std::uint64_t most_bits(ValueType t) {
  const bool wide = t == ValueType::i64 || t == ValueType::u64 || t == ValueType::f64;
  return wide ? std::numeric_limits<std::uint64_t>::max() : std::numeric_limits<std::uint32_t>::max();
}

// A problem with one field of a line; the caller adds where the line is.
struct LineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One JSON object of a line, read field by field: a field of the wrong type,
// or a required one that is missing, is a LineError naming it by its path
// ("outcomes[2].count").
class Fields {
 public:
  Fields(const nlohmann::json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j_.is_object()) throw LineError(path_.empty() ? "not a JSON object" : "'" + path_ + "' must be an object");
  }
  std::string name(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  bool has(const char* key) const { return j_.contains(key); }
  // The value of a required field.
  template <class T>
  T need(const char* key, std::optional<T> v) const {
    if (!v) throw LineError("no '" + name(key) + "'");
    return *std::move(v);
  }
  const nlohmann::json& at(const char* key) const {
    if (!j_.contains(key)) throw LineError("no '" + name(key) + "'");
    return j_.at(key);
  }
  std::optional<std::string> text(const char* key) const {
    if (!has(key)) return std::nullopt;
    if (!j_.at(key).is_string()) fail(key, "a string");
    return j_.at(key).get<std::string>();
  }
  // A non-negative integer (JSON's 5, not 5.0, -5 or 1e30).
  std::optional<std::uint64_t> natural(const char* key) const {
    if (!has(key)) return std::nullopt;
    if (!j_.at(key).is_number_unsigned()) fail(key, "a non-negative integer");
    return j_.at(key).get<std::uint64_t>();
  }
  std::optional<double> non_negative(const char* key) const {
    if (!has(key)) return std::nullopt;
    if (!j_.at(key).is_number() || j_.at(key).get<double>() < 0) fail(key, "a number, 0 or more");
    return j_.at(key).get<double>();
  }
  std::optional<bool> flag(const char* key) const {
    if (!has(key)) return std::nullopt;
    if (!j_.at(key).is_boolean()) fail(key, "true or false");
    return j_.at(key).get<bool>();
  }
  const nlohmann::json& array(const char* key) const {
    if (!at(key).is_array()) fail(key, "an array");
    return j_.at(key);
  }
  [[noreturn]] void fail(const std::string& key, std::string_view what) const {
    throw LineError(fmt::format("'{}' must be {}", name(key), what));
  }

 private:
  const nlohmann::json& j_;
  std::string path_;
};

GpuOutcome parse_outcome(const nlohmann::json& j, const std::string& path) {
  const Fields f(j, path);
  GpuOutcome g;
  g.count = f.need("count", f.natural("count"));
  if (g.count == 0) f.fail("count", "more than 0 (the histogram lists outcomes seen)");
  g.terminated = f.flag("terminated").value_or(true);
  g.stated = f.text("outcome");
  if (!g.terminated) {
    g.text = kDidNotTerminate;
    if (g.stated && *g.stated != kDidNotTerminate)
      f.fail("outcome", fmt::format("'{}' where 'terminated' is false, not '{}'", kDidNotTerminate, *g.stated));
    return g;
  }
  const nlohmann::json& values = f.array("values");
  for (std::size_t i = 0; i < values.size(); ++i) {
    const Fields v(values[i], f.name(fmt::format("values[{}]", i)));
    const std::string name = v.need("name", v.text("name"));
    const std::string type = v.need("type", v.text("type"));
    const std::optional<ValueType> t = type_named(type);
    if (!t) v.fail("type", "one of i32, u32, i64, u64, f32, f64, not '" + type + "'");
    if (g.outcome.has(name)) throw LineError(fmt::format("'{}' names '{}' twice", f.name("values"), name));
    const std::uint64_t bits = v.need("bits", v.natural("bits"));
    // Never cut to the type: 2^32+7 read as an i32's 7 would be another outcome.
    if (bits > most_bits(*t))
      v.fail("bits", fmt::format("0 to {} for {}, {} {} (its 32 bits{}), not {}", most_bits(*t), name,
                                 *t == ValueType::u32 ? "a" : "an", type, *t == ValueType::i32 ? ": -1 is 4294967295" : "",
                                 bits));
    g.outcome.add(name, *t, bits);
  }
  g.text = g.outcome.text();
  return g;
}

// A line that ran (no "error") is a histogram of `instances` runs; one that
// failed says why and may carry what it saw before it failed.
GpuResult parse_line(const nlohmann::json& j) {
  const Fields f(j, "");
  GpuResult r;
  r.model = f.need("model", f.text("model"));
  if (r.model.empty()) f.fail("model", "a model name, not empty");
  r.error = f.text("error").value_or("");
  const bool ran = r.error.empty();
  if (f.has("error") && ran) f.fail("error", "the reason the run failed, not empty");
  r.instances = ran ? f.need("instances", f.natural("instances")) : f.natural("instances").value_or(0);
  if (ran && r.instances == 0) f.fail("instances", "more than 0 in a line without 'error'");
  for (auto [key, out] : {std::pair{"grid", &r.grid}, std::pair{"block", &r.block}})
    if (const std::optional<std::uint64_t> n = f.natural(key)) {
      if (*n == 0 || *n > std::numeric_limits<unsigned>::max()) f.fail(key, "a launch dimension, 1 or more");
      *out = static_cast<unsigned>(*n);
    }
  r.seconds = f.non_negative("seconds").value_or(0);
  r.per_second = f.non_negative("instances_per_second").value_or(0);
  r.multi_block_instances = f.natural("multi_block_instances").value_or(0);
  r.distinct_sm_instances = f.natural("distinct_sm_instances").value_or(0);
  if (f.has("device")) {
    const Fields d(f.at("device"), "device");
    r.device = fmt::format("{}, driver {}, {}", d.text("name").value_or("?"), d.text("driver").value_or("?"),
                           d.text("compiler").value_or("?"));
  }
  if (ran || f.has("outcomes")) {
    const nlohmann::json& outcomes = f.array("outcomes");
    std::map<std::string, std::size_t> first;  // outcome text -> its index
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      GpuOutcome g = parse_outcome(outcomes[i], fmt::format("outcomes[{}]", i));
      if (auto [it, fresh] = first.emplace(g.text, i); !fresh)
        throw LineError(fmt::format("'outcomes[{}]' repeats 'outcomes[{}]' ({})", i, it->second, g.text));
      if (g.count > std::numeric_limits<std::uint64_t>::max() - total)
        throw LineError("the outcome counts add up to more than 2^64");
      total += g.count;
      r.outcomes.push_back(std::move(g));
    }
    // Each instance ends in one outcome of the histogram.
    if (ran && total != r.instances)
      throw LineError(fmt::format("the outcome counts add up to {}, not 'instances' {}", total, r.instances));
  }
  return r;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

std::string trim_report(std::string line) {
  const std::string prefix = "=========";
  if (line.rfind(prefix, 0) == 0) line = line.substr(prefix.size());
  const auto b = line.find_first_not_of(' ');
  line = b == std::string::npos ? "" : line.substr(b);
  if (line.size() > 160) line = line.substr(0, 157) + "...";
  return line;
}

std::string rate_text(std::uint64_t count, std::uint64_t n) {
  if (n == 0) return "-";
  if (count == 0) return fmt::format("<{:.1e}", 3.0 / static_cast<double>(n));  // rule of three
  return fmt::format("{:.2e}", static_cast<double>(count) / static_cast<double>(n));
}

std::string again_text(std::uint64_t count, std::uint64_t n) {
  const std::uint64_t a = instances_for_95(count, n);
  return a == 0 ? "-" : fmt::format("{}", a);
}

// Does the expectation name a finding of a run that may never end?
bool expects_hang(const models::Expectation& x) {
  return std::any_of(x.required.begin(), x.required.end(), [](FindingKind k) {
    return k == FindingKind::deadlock || k == FindingKind::non_termination ||
           k == FindingKind::possible_non_termination;
  });
}

// Sanitizer kinds in the simulator's terms: races are one kind for racecheck.
std::string group(FindingKind k) {
  if (k == FindingKind::data_race || k == FindingKind::scoped_race) return "race";
  return std::string(name(k));
}

}  // namespace

std::string result_line(std::string_view source, int line) {
  return source.empty() ? fmt::format("line {}", line) : fmt::format("{}:{}", source, line);
}

std::map<std::string, GpuResult> parse_gpu_results(std::string_view text, std::string_view source) {
  auto where = [&](int number) { return result_line(source, number); };
  std::map<std::string, GpuResult> out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      throw std::runtime_error(fmt::format("{}: not JSON (at byte {})", where(number), e.byte));
    } catch (const nlohmann::json::out_of_range&) {  // (a number past a double's range)
      throw std::runtime_error(fmt::format("{}: a number out of range", where(number)));
    }
    GpuResult r;
    try {
      r = parse_line(j);
    } catch (const LineError& e) {
      throw std::runtime_error(fmt::format("{}: {}", where(number), e.what()));
    }
    r.line = number;
    // One line per model: a second one could hide what the first showed.
    if (auto [it, fresh] = out.emplace(r.model, r); !fresh)
      throw std::runtime_error(fmt::format("{}: a second line for '{}' (the first is line {})", where(number), r.model,
                                           it->second.line));
  }
  if (out.empty())
    throw std::runtime_error(source.empty() ? std::string("no GPU results (no line)")
                                            : fmt::format("{}: no GPU results (no line)", source));
  return out;
}

std::vector<Observations> observations(const Exploration& e) {
  std::vector<Observations> ways;
  for (const OutcomeSummary& o : e.outcomes) {
    Observations w;
    for (const Observed& v : o.outcome.values()) w.push_back({v.name, v.type});
    if (std::find(ways.begin(), ways.end(), w) == ways.end()) ways.push_back(std::move(w));
  }
  return ways;
}

GpuResult as_observed(const GpuResult& g, const std::vector<Observations>& ways, std::string_view who,
                      std::string_view source) {
  GpuResult out = g;
  for (std::size_t i = 0; i < out.outcomes.size(); ++i) {
    GpuOutcome& o = out.outcomes[i];
    if (!o.terminated) continue;
    const std::vector<Observed>& values = o.outcome.values();
    auto value_of = [&](const std::string& n) {
      return std::find_if(values.begin(), values.end(), [&](const Observed& x) { return x.name == n; });
    };
    // The list of the same names (the parser refuses a name twice), else the
    // first, against which what is wrong is said.
    const auto fits = [&](const Observations& w) {
      return w.size() == values.size() &&
             std::all_of(w.begin(), w.end(), [&](const Observation& x) { return value_of(x.name) != values.end(); });
    };
    const auto way = std::find_if(ways.begin(), ways.end(), fits);
    const Observations none;
    const Observations& w = way != ways.end() ? *way : ways.empty() ? none : ways.front();
    auto malformed = [&](const std::string& what) {
      std::vector<std::string> names;
      for (const Observation& x : w) names.push_back(x.name);
      const std::string observes = w.empty() ? "" : fmt::format(" (the {} observes {})", who, fmt::join(names, ", "));
      return std::runtime_error(
          fmt::format("{}: {}: 'outcomes[{}]' {}{}", result_line(source, g.line), g.model, i, what, observes));
    };
    Outcome observed = o.outcome;
    if (!ways.empty()) {
      observed.clear();
      for (const Observation& x : w) {
        const auto v = value_of(x.name);
        if (v == values.end()) throw malformed("has no value of " + x.name);
        if (v->type != x.type) throw malformed(fmt::format("has {} of another type than {}", x.name, type_name(x.type)));
        observed.add(v->name, v->type, v->bits);
      }
      for (const Observed& v : values)
        if (std::none_of(w.begin(), w.end(), [&](const Observation& x) { return x.name == v.name; }))
          throw malformed(fmt::format("has a value of {}, which the {} does not observe", v.name, who));
    }
    // The harness writes the values' text; one that says otherwise is not its line.
    if (o.stated && *o.stated != o.outcome.text() && *o.stated != observed.text())
      throw malformed(fmt::format("says '{}', but its values are '{}'", *o.stated, observed.text()));
    o.outcome = observed;
    o.text = o.outcome.text();
  }
  return out;
}

std::map<std::string, std::vector<SanitizerRun>> parse_sanitizer_log(std::string_view text) {
  std::map<std::string, std::vector<SanitizerRun>> out;
  std::istringstream in{std::string(text)};
  std::string line;
  SanitizerRun* run = nullptr;
  const std::string head = "#### scopesim-sanitizer ";
  while (std::getline(in, line)) {
    if (line.rfind(head, 0) == 0) {
      std::istringstream words(line.substr(head.size()));
      std::string w, model, tool;
      int code = 0;
      while (words >> w) {
        if (w.rfind("model=", 0) == 0) model = w.substr(6);
        else if (w.rfind("tool=", 0) == 0) tool = w.substr(5);
        else if (w.rfind("exit=", 0) == 0) code = std::atoi(w.c_str() + 5);
      }
      if (model.empty() || tool.empty()) throw std::runtime_error("sanitizer log: bad section header: " + line);
      out[model].push_back(SanitizerRun{tool, code, {}, {}});
      run = &out[model].back();
      continue;
    }
    if (run == nullptr || line.rfind("=========", 0) != 0) continue;
    std::optional<FindingKind> k;
    if (contains(line, "Race reported") || contains(line, "hazard detected")) k = FindingKind::data_race;
    else if (contains(line, "Barrier error") || contains(line, "Divergent thread")) k = FindingKind::barrier_divergence;
    else if (contains(line, "Invalid __") || contains(line, "out of bounds") || contains(line, "Misaligned"))
      k = FindingKind::out_of_bounds;
    if (!k) continue;
    if (std::find(run->kinds.begin(), run->kinds.end(), *k) == run->kinds.end()) run->kinds.push_back(*k);
    if (run->messages.size() < 3) run->messages.push_back(trim_report(line));
  }
  return out;
}

std::uint64_t instances_for_95(std::uint64_t count, std::uint64_t instances) {
  if (count == 0 || instances == 0) return 0;
  const double rate = static_cast<double>(count) / static_cast<double>(instances);
  return static_cast<std::uint64_t>(std::ceil(-std::log(0.05) / rate));
}

ModelComparison compare(const models::Model& m, const Exploration& e, const GpuResult* gpu,
                        const std::vector<SanitizerRun>* sanitizer) {
  ModelComparison c = without_gpu(m);
  c.explored = true;
  c.complete = e.complete;
  c.stopped_by = e.stopped_by;
  c.executions = e.executions;

  std::set<FindingKind> sim_kinds;
  for (const FindingSummary& f : e.findings) sim_kinds.insert(f.finding.kind);
  bool may_hang = sim_kinds.count(FindingKind::deadlock) || sim_kinds.count(FindingKind::non_termination) ||
                  sim_kinds.count(FindingKind::possible_non_termination);
  for (const models::AlsoCheck& a : m.also)
    for (FindingKind k : a.expect.required)
      if (k == FindingKind::deadlock || k == FindingKind::non_termination) may_hang = true;

  std::map<std::string, CompareRow> rows;
  for (const OutcomeSummary& o : e.outcomes) {
    CompareRow& r = rows[o.outcome.text()];
    r.outcome = o.outcome.text();
    r.permitted = true;
    r.bad = o.bad;
  }
  if (may_hang) {
    CompareRow& r = rows[kDidNotTerminate];
    r.outcome = kDidNotTerminate;
    r.permitted = true;
  }
  if (gpu != nullptr) {
    c.has_gpu = true;
    c.gpu = *gpu;
    for (const GpuOutcome& g : gpu->outcomes) {
      CompareRow& r = rows[g.text];
      if (r.outcome.empty()) {  // not in the simulator's set
        r.outcome = g.text;
        r.bad = g.terminated && m.bad != nullptr && m.bad(g.outcome);
      }
      r.count += g.count;
    }
  }
  for (auto& [text, r] : rows) {
    if (r.count > 0 && !r.permitted) {
      // An incomplete search may not have reached a hang yet: "did not terminate"
      // fails it only where the model's expectation names none.
      const bool failure = c.complete || (r.bad && !m.expect.bad_outcome_permitted) ||
                           (text == kDidNotTerminate && !expects_hang(m.expect));
      r.status = failure ? "UNSOUND" : "unconfirmed";
      if (failure) c.unsound.push_back(text);
    } else if (r.count > 0) {
      r.status = "seen";
    } else if (c.gpu_failed()) {
      r.status = "run failed";  // what a failed run did not show says nothing
    } else if (r.bad && c.has_gpu) {
      r.status = "model-only";
      c.model_only.push_back(text);
    } else {
      r.status = c.has_gpu ? "not seen" : "-";
    }
  }
  for (auto& [text, r] : rows)
    if (r.status == "UNSOUND") c.rows.push_back(r);
  for (auto& [text, r] : rows)
    if (r.status != "UNSOUND") c.rows.push_back(r);

  if (sanitizer != nullptr) {
    c.has_sanitizer = true;
    // Each tool checks one kind; the simulator's other findings have no tool.
    const std::vector<std::pair<std::string, std::string>> tools{
        {"racecheck", "race"}, {"synccheck", "barrier-divergence"}, {"memcheck", "out-of-bounds"}};
    std::map<std::string, SanitizerRow> srows;
    std::set<std::string> checked;
    for (const auto& [tool, kind] : tools) {
      for (const SanitizerRun& run : *sanitizer) {
        if (run.tool != tool) continue;
        checked.insert(kind);
        SanitizerRow& s = srows[kind];
        s.kind = kind;
        for (FindingKind k : run.kinds)
          if (group(k) == kind) s.sanitizer = true;
        if (!run.messages.empty()) s.note = tool + ": " + run.messages.front();
        else if (run.exit_code != 0) s.note = fmt::format("{} exited {}", tool, run.exit_code);
      }
    }
    for (FindingKind k : sim_kinds) {
      SanitizerRow& s = srows[group(k)];
      s.kind = group(k);
      s.simulator = true;
      if (!checked.count(s.kind)) s.note = "no sanitizer tool checks this";
    }
    for (auto& [kind, s] : srows) {
      if (!s.simulator && !s.sanitizer) continue;
      s.verdict = s.simulator && s.sanitizer ? "agree" : s.sanitizer ? "sanitizer-only" : "simulator-only";
      c.sanitizer.push_back(s);
    }
  }
  return c;
}

ModelComparison without_gpu(const models::Model& m) {
  ModelComparison c;
  c.model = m.name;
  c.launch = fmt::format("<<<{},{}>>>", m.chapter.grid, m.chapter.block);
  return c;
}

ModelComparison not_compared(const models::Model& m) {
  ModelComparison c = without_gpu(m);
  c.not_run = true;
  return c;
}

namespace {

struct Totals {
  std::size_t compared = 0, unsound = 0, failed = 0, model_only = 0, missing = 0, not_run = 0;
};

Totals totals(const std::vector<ModelComparison>& cs) {
  Totals t;
  for (const ModelComparison& c : cs) {
    if (c.not_run) {
      ++t.not_run;
      continue;
    }
    ++t.compared;
    t.unsound += c.unsound.size();
    t.failed += c.gpu_failed() ? 1 : 0;
    t.model_only += c.model_only.size();
    t.missing += c.has_gpu ? 0 : 1;
  }
  return t;
}

// What the summary adds after an interrupt: the models it left out.
std::string not_run_text(const Totals& t) {
  return t.not_run == 0 ? "" : fmt::format(", {} model(s) not compared (interrupted)", t.not_run);
}

std::string header_line(const ModelComparison& c) {
  if (c.not_run) return fmt::format("{} {}: not compared (interrupted before its turn)", c.model, c.launch);
  if (!c.explored) return fmt::format("{} {}: no GPU result (not explored)", c.model, c.launch);
  std::string s = fmt::format("{} {}: simulator {} executions", c.model, c.launch, c.executions);
  if (c.complete)
    s += " (complete)";
  else
    s += fmt::format(" (INCOMPLETE{}: only bad outcomes of a model that forbids them count as failures)",
                     c.stopped_by.empty() ? "" : ", stopped by " + c.stopped_by);
  if (!c.has_gpu) return s + "; no GPU result";
  const GpuResult& g = c.gpu;
  s += fmt::format("; GPU {} instances in {:.1f} s ({:.3g}/s)", g.instances, g.seconds, g.per_second);
  if (g.multi_block_instances > 0)
    s += fmt::format(", blocks on distinct SMs in {:.1f}% of instances",
                     100.0 * static_cast<double>(g.distinct_sm_instances) / static_cast<double>(g.multi_block_instances));
  if (!g.error.empty()) s += "; GPU run failed: " + g.error;
  return s;
}

}  // namespace

std::string compare_text(const std::vector<ModelComparison>& cs) {
  std::string out;
  for (const ModelComparison& c : cs)
    for (const std::string& u : c.unsound)
      out += fmt::format("SOUNDNESS FAILURE: {}: the GPU showed '{}', which the simulator does not permit\n", c.model, u);
  for (const ModelComparison& c : cs)
    if (c.gpu_failed()) out += fmt::format("GPU RUN FAILED: {}: {}\n", c.model, c.gpu.error);
  for (const ModelComparison& c : cs) {
    out += "\n" + header_line(c) + "\n";
    if (!c.explored) continue;
    out += fmt::format("  {:<36} {:<9} {:<4} {:>12} {:>9} {:>12}  {}\n", "outcome", "permitted", "bad", "gpu-count",
                       "rate", "again(95%)", "status");
    const std::uint64_t n = c.has_gpu ? c.gpu.instances : 0;
    for (const CompareRow& r : c.rows)
      out += fmt::format("  {:<36} {:<9} {:<4} {:>12} {:>9} {:>12}  {}\n", r.outcome, r.permitted ? "yes" : "NO",
                         r.bad ? "yes" : "no", c.has_gpu ? fmt::format("{}", r.count) : "-", rate_text(r.count, n),
                         again_text(r.count, n), r.status);
    for (const SanitizerRow& s : c.sanitizer)
      out += fmt::format("  sanitizer {}: {}{}\n", s.kind, s.verdict, s.note.empty() ? "" : " (" + s.note + ")");
  }
  const Totals t = totals(cs);
  out += fmt::format("\n{} models: {} soundness failure(s), {} failed GPU run(s), {} model-only bad outcome(s), {} "
                     "model(s) without GPU results{}\n",
                     t.compared, t.unsound, t.failed, t.model_only, t.missing, not_run_text(t));
  return out;
}

std::string compare_markdown(const std::vector<ModelComparison>& cs, const std::string& command) {
  std::string out = "# GPU cross-check\n\n";
  out += "Generated by `" + command +
         "` from GPU results of `scopesim gpu` or `gpu/run-all.sh`; do not edit by hand. For each model with "
         "GPU results: the simulator's outcome set (PTX model, chapter launch, explored exhaustively up to the "
         "execution budget: *INCOMPLETE* where the budget stopped it) beside the outcome histogram measured on the "
         "GPU. *permitted*: in the simulator's set; "
         "*bad*: violates the model's postcondition; *rate*: GPU count / instances (`<x` when never seen: the 95% "
         "upper bound 3/instances); *again (95%)*: instances needed to see the outcome again with 95% confidence. "
         "**UNSOUND**: the GPU showed an outcome the simulator forbids. *model-only*: a permitted bad outcome the "
         "GPU never showed; *run failed*: the GPU run of the model failed, so what it did not show says nothing. "
         "Sanitizer rows put compute-sanitizer's reports (racecheck, synccheck, memcheck, one "
         "plain instance) beside the simulator's findings.\n\n";
  const Totals t = totals(cs);
  out += fmt::format("**{} models, {} soundness failure(s), {} failed GPU run(s){}.**\n\n", t.compared, t.unsound,
                     t.failed, not_run_text(t));
  for (const ModelComparison& c : cs)
    for (const std::string& u : c.unsound)
      out += fmt::format("- SOUNDNESS FAILURE: `{}` showed `{}` on the GPU\n", c.model, u);
  for (const ModelComparison& c : cs)
    if (c.gpu_failed()) out += fmt::format("- GPU RUN FAILED: `{}`: {}\n", c.model, c.gpu.error);
  out += "\n## Summary\n\n| model | GPU instances | instances/s | bad outcomes seen on the GPU | model-only | sanitizer |\n"
         "|---|---:|---:|---|---|---|\n";
  for (const ModelComparison& c : cs) {
    std::uint64_t bad = 0;
    for (const CompareRow& r : c.rows)
      if (r.bad || r.outcome == kDidNotTerminate) bad += r.count;
    std::string san;
    for (const SanitizerRow& s : c.sanitizer) san += (san.empty() ? "" : ", ") + s.kind + ": " + s.verdict;
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", c.model, c.has_gpu ? fmt::format("{}", c.gpu.instances) : "-",
                       c.has_gpu ? fmt::format("{:.3g}", c.gpu.per_second) : "-",
                       c.has_gpu ? fmt::format("{} ({})", bad, rate_text(bad, c.gpu.instances)) : "-",
                       c.model_only.empty() ? "" : "yes", san.empty() ? "-" : san);
  }
  for (const ModelComparison& c : cs) {
    out += "\n## `" + c.model + "`\n\n" + header_line(c) + "\n";
    if (!c.explored) continue;
    out += "\n| outcome | permitted | bad | GPU count | rate | again (95%) | status |\n|---|---|---|---:|---:|---:|---|\n";
    const std::uint64_t n = c.has_gpu ? c.gpu.instances : 0;
    for (const CompareRow& r : c.rows)
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", r.outcome, r.permitted ? "yes" : "**no**",
                         r.bad ? "yes" : "no", c.has_gpu ? fmt::format("{}", r.count) : "-", rate_text(r.count, n),
                         again_text(r.count, n), r.status == "UNSOUND" ? "**UNSOUND**" : r.status);
    if (!c.sanitizer.empty()) {
      out += "\n| finding | simulator | sanitizer | verdict | note |\n|---|---|---|---|---|\n";
      for (const SanitizerRow& s : c.sanitizer)
        out += fmt::format("| {} | {} | {} | {} | {} |\n", s.kind, s.simulator ? "yes" : "no",
                           s.sanitizer ? "yes" : "no", s.verdict, s.note);
    } else if (c.has_sanitizer) {
      out += "\nSanitizers: nothing reported, and the simulator reports no finding.\n";
    }
  }
  return out;
}

nlohmann::json compare_json(const std::vector<ModelComparison>& cs) {
  nlohmann::json a = nlohmann::json::array();
  for (const ModelComparison& c : cs) {
    nlohmann::json j;
    j["model"] = c.model;
    j["explored"] = c.explored;
    j["not_run"] = c.not_run;
    j["complete"] = c.complete;
    j["stopped_by"] = c.stopped_by;
    j["executions"] = c.explored ? nlohmann::json(c.executions) : nlohmann::json();
    j["gpu_instances"] = c.has_gpu ? nlohmann::json(c.gpu.instances) : nlohmann::json();
    j["gpu_error"] = c.gpu_failed() ? nlohmann::json(c.gpu.error) : nlohmann::json();
    j["unsound"] = c.unsound;
    j["model_only"] = c.model_only;
    nlohmann::json rows = nlohmann::json::array();
    for (const CompareRow& r : c.rows)
      rows.push_back({{"outcome", r.outcome},
                      {"permitted", r.permitted},
                      {"bad", r.bad},
                      {"gpu_count", r.count},
                      {"again_95", instances_for_95(r.count, c.has_gpu ? c.gpu.instances : 0)},
                      {"status", r.status}});
    j["outcomes"] = rows;
    nlohmann::json san = nlohmann::json::array();
    for (const SanitizerRow& s : c.sanitizer)
      san.push_back({{"kind", s.kind}, {"simulator", s.simulator}, {"sanitizer", s.sanitizer}, {"verdict", s.verdict}});
    j["sanitizer"] = san;
    a.push_back(j);
  }
  return a;
}

}  // namespace scopesim::report
