// The library API for a user's own tests: explore a model (a shipped one by
// name, or the user's own `models::Model`, registered or not) at a launch of
// the user's choosing and ask the Report what was found. A Report names the
// first bad witness by its token; `replay` runs that token again, so a failing
// property's message is enough to reproduce its counterexample.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/model.hpp"
#include "sim/engine/explorer.hpp"

namespace scopesim {

// Launch geometry and model parameters: grid, block, resident blocks (0: every
// block resident) and named parameters such as "n". The same type the models
// take (models/model.hpp).
using Launch = models::Config;

// How to explore: mode, seed, bounds, memory model (ExploreOptions,
// explorer.hpp). The launch decides the resident blocks: `run.resident_blocks`
// is taken from it. A type of its own so that scopesim::explore(model, launch,
// Options) returns a Report where the engine's explore(model, config,
// ExploreOptions) returns an Exploration.
struct Options : ExploreOptions {};

// What one exploration found, with the model (a copy: a Report outlives a
// temporary Model), launch and options it ran under.
class Report {
 public:
  Report(const models::Model& m, Launch launch, Options options, Exploration e);

  const models::Model& model() const { return model_; }
  const Launch& launch() const { return launch_; }
  const Options& options() const { return options_; }
  const Exploration& exploration() const { return e_; }
  const std::vector<OutcomeSummary>& outcomes() const { return e_.outcomes; }
  const std::vector<FindingSummary>& findings() const { return e_.findings; }
  std::uint64_t executions() const { return e_.executions; }
  // Exhaustive and not stopped by a bound: only then does "nothing found" prove absence.
  bool complete() const { return e_.complete; }

  bool bad_outcome() const;  // some permitted outcome violates the model's postcondition
  bool bad() const { return bad_outcome() || !e_.findings.empty(); }
  bool has(FindingKind k) const;
  std::vector<FindingKind> finding_kinds() const;  // sorted, each once
  bool permits(std::string_view outcome) const;    // an outcome text such as "error=1"

  // The first bad witness: the first bad outcome's run, else the first
  // finding's; nullopt when nothing bad was found.
  std::optional<ChoiceLog> schedule() const;
  // Its one-line token (log_token in choice_log.hpp), "" when nothing bad was found.
  std::string token() const;

  // Several lines for a failing test: model, launch, options, outcomes,
  // findings, and the replay call with the token of every witness.
  std::string describe() const;

 private:
  models::Model model_;
  Launch launch_;
  Options options_;
  Exploration e_;
};

// A model in the registry (every shipped model, and every model a user's
// translation unit registers with models::Registrar); nullptr when none has the name.
const models::Model* find_model(std::string_view name);

// Explores `m` at `launch`. Throws std::invalid_argument for a launch with no
// thread (grid or block 0), one that sets a parameter the model does not
// declare or that the model does not fit (models::misfit), and for an
// unknown memory model; SimulatorLimit (execution.hpp) for a launch beyond
// what the simulator can run (docs/limitations.md, "A run holds as many
// threads as the system maps fiber stacks") and for a kernel that faults
// inside a system library, after which the process ends within 5 s
// (fiber::Status::stranded; docs/limitations.md, "A fault inside a system
// library ends the process").
Report explore(const models::Model& m, const Launch& launch, const Options& options = {});
// The same for a registered model; throws std::invalid_argument naming an unknown model.
Report explore(std::string_view model, const Launch& launch, const Options& options = {});

// Runs the witness a token names again: same model, launch and run options
// (memory model, step bound) as the exploration that printed it. Throws
// ReplayDivergence when the token does not fit the run, std::invalid_argument
// when it is not a token.
RunResult replay(const models::Model& m, const Launch& launch, std::string_view token, const Options& options = {});
RunResult replay(std::string_view model, const Launch& launch, std::string_view token, const Options& options = {});

}  // namespace scopesim
