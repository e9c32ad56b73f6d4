// `scopesim compare`: the simulator's exhaustive outcome set of each model
// beside the GPU's outcome histogram (`scopesim gpu` / gpu/run-all.sh output),
// and the simulator's findings beside compute-sanitizer's reports. Soundness
// failures (outcomes the GPU showed that the model forbids) come first, failed
// GPU runs next; either makes the exit code 1, as does Ctrl-C, which stops the
// exploration it lands in and leaves the models after it out. Each model is
// explored up to an execution budget, so the report is a function of the
// command alone. A GPU value the model does not observe, or bits that do not
// fit its type, are malformed input (exit 2), never another outcome.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "models/model.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/input.hpp"
#include "sim/cli/interrupt.hpp"
#include "sim/engine/explorer.hpp"
#include "sim/report/compare.hpp"

namespace scopesim::cli {

namespace {

namespace fs = std::filesystem;

// Executions explored per model unless --max-executions says otherwise: a
// budget, not a time, so that the same command gives the same report on any
// machine.
constexpr std::uint64_t kDefaultMaxExecutions = 2000;

struct CompareSettings {
  std::vector<std::string> models;
  bool all = false;
  std::string gpu;
  std::string sanitizer;
  bool markdown = false;
  bool json = false;
  std::uint64_t max_executions = kDefaultMaxExecutions;
  double time_limit = 0;  // 0: none; a guard the user sets, which makes the report depend on the machine
  bool max_executions_given = false, time_limit_given = false;
};

// `word` as one shell word: as it is when it needs no quotes.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./=:+,@%").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The command line that makes this report, from what was given (the order
// of the options fixed), for the Markdown report's header.
std::string command_line(const CompareSettings& s) {
  std::string c = "scopesim compare";
  if (s.all) c += " --all";
  for (const std::string& m : s.models) c += " " + shell_word(m);
  c += " --gpu " + shell_word(s.gpu);
  if (!s.sanitizer.empty()) c += " --sanitizer " + shell_word(s.sanitizer);
  if (s.max_executions_given) c += fmt::format(" --max-executions {}", s.max_executions);
  if (s.time_limit_given) c += fmt::format(" --time-limit {}", s.time_limit);
  return c + " --markdown";
}

// The GPU line of `m` must be of the launch the simulator explores (the
// model's chapter launch): else the two sides ran different programs.
void check_launch(const models::Model& m, const report::GpuResult& g, const std::string& file) {
  if (!g.grid || !g.block) {
    if (!g.error.empty()) return;  // a failed run may not have got as far
    throw UsageError(fmt::format("{}:{}: no 'grid' and 'block' for {}: the launch the GPU ran is unknown", file,
                                 g.line, g.model));
  }
  if (*g.grid != m.chapter.grid || *g.block != m.chapter.block)
    throw UsageError(fmt::format("{}:{}: {} ran as <<<{},{}>>> on the GPU, but the simulator explores its launch <<<{},{}>>>",
                                 file, g.line, g.model, *g.grid, *g.block, m.chapter.grid, m.chapter.block));
}

int run_compare(const CompareSettings& s) {
  try {
    if (s.all && !s.models.empty()) throw UsageError("compare takes MODEL... or --all, not both");
    if (!s.all && s.models.empty()) throw UsageError("compare needs MODEL... or --all");
    std::map<std::string, report::GpuResult> gpu;
    try {
      gpu = report::parse_gpu_results(read_text(s.gpu), s.gpu);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      throw UsageError(one_line(e.what()));
    }
    // The sanitizer log beside the results is read unless another is named.
    std::string log = s.sanitizer;
    if (log.empty() && fs::exists(fs::path(s.gpu).parent_path() / "sanitizer.log"))
      log = (fs::path(s.gpu).parent_path() / "sanitizer.log").string();
    std::map<std::string, std::vector<report::SanitizerRun>> sanitizer;
    if (!log.empty()) {
      try {
        sanitizer = report::parse_sanitizer_log(read_text(log));
      } catch (const UsageError&) {
        throw;
      } catch (const std::exception& e) {
        throw UsageError(log + ": " + e.what());
      }
    }

    std::vector<const models::Model*> ms = sorted_models();
    // A line of a model this build does not have (results of an older
    // build, say) is not compared, and says so.
    for (const auto& [name, g] : gpu)
      if (std::none_of(ms.begin(), ms.end(), [&](auto* m) { return m->name == name; }))
        fmt::print(stderr, "scopesim: warning: {}:{}: no model '{}' in this build; its line is not compared\n", s.gpu,
                   g.line, name);
    if (!s.all) {
      std::vector<const models::Model*> chosen;
      std::set<std::string> seen;
      for (const std::string& n : s.models) {
        const models::Model& m = find_model(n);
        if (seen.insert(n).second) chosen.push_back(&m);
      }
      ms = chosen;
    }
    for (const models::Model* m : ms)
      if (auto g = gpu.find(m->name); g != gpu.end()) check_launch(*m, g->second, s.gpu);

    std::vector<report::ModelComparison> cs;
    // Ctrl-C stops the exploration it lands in (incomplete, as at a time
    // limit: only what needs no full outcome set is judged); the models after
    // it are not compared, and the exit code says so.
    const Interrupt interrupt;
    for (const models::Model* m : ms) {
      if (interrupt.requested()) break;
      auto g = gpu.find(m->name);
      auto z = sanitizer.find(m->name);
      if (g == gpu.end() && z == sanitizer.end()) {
        cs.push_back(report::without_gpu(*m));
        continue;
      }
      ExploreOptions o;
      o.mode = Mode::exhaustive;
      o.max_executions = s.max_executions;
      o.time_limit = s.time_limit;
      o.interrupt = interrupt.flag();
      o.run.memory_model = "ptx";
      o.run.resident_blocks = m->chapter.resident_blocks;
      o.run.keep_trace = false;
      const Exploration e = explore(*m, m->chapter, o);
      // The GPU's values are those the simulator's runs observe, or the line is malformed.
      std::optional<report::GpuResult> line;
      if (g != gpu.end()) {
        try {
          line = report::as_observed(g->second, report::observations(e), "model", s.gpu);
        } catch (const std::runtime_error& x) {
          throw UsageError(one_line(x.what()));
        }
      }
      cs.push_back(report::compare(*m, e, line ? &*line : nullptr, z == sanitizer.end() ? nullptr : &z->second));
    }
    const std::size_t compared = cs.size();
    const bool left_out = compared < ms.size();
    if (left_out) report_left_out(compared, ms.size(), "model(s) compared");
    for (std::size_t i = compared; i < ms.size(); ++i) cs.push_back(report::not_compared(*ms[i]));
    if (s.json)
      print_json(report::compare_json(cs));
    else if (s.markdown)
      fmt::print("{}", report::compare_markdown(cs, command_line(s)));
    else
      fmt::print("{}", report::compare_text(cs));
    const bool failed = std::any_of(cs.begin(), cs.end(), [](const auto& c) { return !c.unsound.empty() || c.gpu_failed(); });
    return failed || left_out ? 1 : 0;  // (0 would say every model was compared)
  } catch (const UsageError& e) {
    report_error(std::string("scopesim: ") + e.what(), e.what());
    return 2;
  }
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto s = std::make_shared<CompareSettings>();
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Put the simulator's exhaustive outcome set of each model (MODEL... or --all) beside the GPU's outcome "
      "histogram (--gpu, the JSON lines of `scopesim gpu` or gpu/run-all.sh): for each outcome, permitted or not, "
      "bad or not, GPU count and rate, and the instances needed to see it again with 95% confidence. An outcome "
      "the GPU showed that the model forbids is a soundness failure, printed first; a GPU line with 'error' is a "
      "failed run, printed next. Permitted bad outcomes the GPU never showed are 'model-only'. The sanitizer log "
      "beside the results (or --sanitizer) is put beside the simulator's findings. The same command gives the "
      "same report on any machine unless --time-limit stops an exploration. Ctrl-C stops the exploration it lands "
      "in (its model then incomplete) and prints the report with the models after it listed as not compared. Exit 0: no soundness "
      "failure and no failed GPU run; 1: some, or models left out by Ctrl-C; 2: usage or input error (a GPU "
      "value the model does not observe, or of another type, is malformed input).");
  sub->add_option("MODEL", s->models, "Models to compare (see 'scopesim list')");
  sub->add_flag("--all", s->all, "Compare every shipped model");
  sub->add_option("--gpu", s->gpu, "GPU results: JSON lines, one per model")->required();
  sub->add_option("--sanitizer", s->sanitizer, "compute-sanitizer log of gpu/run-all.sh (default: sanitizer.log beside --gpu)");
  CLI::Option* markdown = sub->add_flag("--markdown", s->markdown, "Print the report as Markdown (docs/gpu/report.md)");
  sub->add_flag("--json", s->json, "Print JSON")->excludes(markdown);
  CLI::Option* max = sub->add_option("--max-executions", s->max_executions,
                                     fmt::format("Executions explored per model (default {}; 0: unbounded)",
                                                 kDefaultMaxExecutions))
                          ->check(whole(0));
  CLI::Option* time = sub->add_option("--time-limit", s->time_limit,
                                      "Seconds of exploring per model (default: none); the report then depends on "
                                      "the machine's speed")
                          ->check(positive());
  return {sub, [s, max, time] {
            s->max_executions_given = max->count() > 0;
            s->time_limit_given = time->count() > 0;
            return run_compare(*s);
          }};
}

}  // namespace scopesim::cli
