// A shipped model: one kernel family's variant with its launch configuration,
// host program, outcome postcondition, scope-and-order invariant and expected
// verdict, all as data. Compiled by both backends; the registry collects every
// model that a translation unit defines with SCOPESIM_MODEL.
#pragma once
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "models/dialect/dialect.hpp"
#include "sim/core/finding.hpp"
#include "sim/core/outcome.hpp"
#include "sim/core/source_path.hpp"

namespace scopesim::models {

// Launch geometry of a model and its parameters (e.g. "n", the input length
// of tile; each one the model declares: Model::parameters). `resident_blocks`
// 0 = every block resident.
struct Config {
  unsigned grid = 1;
  unsigned block = 1;
  unsigned resident_blocks = 0;
  std::map<std::string, long long> params;
  long long param(const std::string& name, long long fallback) const {
    auto it = params.find(name);
    return it == params.end() ? fallback : it->second;
  }
  bool operator==(const Config&) const = default;
};

// The host side of a model: allocates, launches, synchronizes, observes.
using Program = std::function<void(dialect::Host&, const Config&)>;

// What the model is expected to show (catalogue.md / semantics.md verdict table).
struct Expectation {
  // Is some permitted outcome bad (the postcondition fails)?
  bool bad_outcome_permitted = false;
  // Findings that must appear.
  std::vector<FindingKind> required;
  // When true, no finding beyond `required` may appear (catalogue models);
  // litmus models leave it false: racy litmus code also reports races.
  bool exact_findings = true;
  // When true, more than one outcome must be permitted: the result depends
  // on the schedule (counter.float_order), though no outcome is bad.
  bool several_outcomes = false;
};

// A further verdict of the same model under other options (e.g. one resident block).
struct AlsoCheck {
  std::string options;  // as the CLI spells them: "--resident-blocks 1"
  Config config;
  Expectation expect;
};

// A parameter the model's host program reads (Config::param), as
// `--param NAME=VALUE` sets it: its name and, in words, its range and default.
struct Parameter {
  std::string name;     // "bins"
  std::string meaning;  // "bins of the histogram, 1..8, the block's threads a multiple of them (default 8)"
};

struct Model {
  std::string name;        // "publish.relaxed"
  std::string summary;     // one line
  std::string invariant;   // the scope-and-order invariant in words
  std::string bad_means;   // what a bad outcome is ("stale payload: error=1")
  Config chapter;          // the chapter's own launch configuration
  std::optional<Config> quick;  // a smaller one for quick exhaustive runs, if any
  Program program;
  bool (*bad)(const Outcome&) = nullptr;  // postcondition violated
  Expectation expect;
  std::vector<AlsoCheck> also;
  // Distinct executions (reads-from, coherence edges, order of morally strong
  // fence.sc) at `quick`, or at `chapter` when there is no quick configuration
  // (0 = not stated); each stated count is derived next to the model. An
  // exhaustive search explores each of them once.
  unsigned long long exhaustive_executions = 0;
  // Why the GPU harness does not run this model (nullptr: it does).
  const char* gpu_skip = nullptr;
  // Why a launch does not fit the kernel ("" when it does; nullptr: every
  // launch fits), e.g. a block larger than the kernel's shared array.
  std::string (*fits)(const Config&) = nullptr;
  // Every parameter the host program reads; a launch that sets another is
  // refused (misfit()): a misspelt one would otherwise explore the default.
  std::vector<Parameter> parameters;
  // The file that registers the model, as reports name it
  // ("models/publish/publish.cpp"); set by Registrar.
  std::string source;
};

std::vector<Model>& registry();

// Why `c` is no launch of `m` ("" when it is): a parameter `m` does not
// declare (Model::parameters), else what Model::fits says.
std::string misfit(const Model& m, const Config& c);

struct Registrar {
  explicit Registrar(std::initializer_list<Model> ms, std::source_location where = std::source_location::current()) {
    for (const Model& m : ms) {
      registry().push_back(m);
      registry().back().source = source_path(where.file_name());
    }
  }
};

}  // namespace scopesim::models
