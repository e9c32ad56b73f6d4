// Rendering of explorations, verdicts and traces as text and JSON, plus the
// pure rule that turns an Exploration into a verdict against a model's
// Expectation. No engine logic lives here: the caller runs explorations,
// replays witnesses and writes schedule files, and hands in their paths.
// JSON output is deterministic: keys sorted, no timestamps, times only on request.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model.hpp"
#include "sim/engine/explorer.hpp"

namespace scopesim::report {

std::string_view mode_name(Mode m);                       // "exhaustive", "random", "pct"
std::optional<Mode> parse_mode(std::string_view s);
std::string launch_text(const models::Config& c);         // "<<<2,64>>>, 1 resident block"
// What decides a run besides its decisions, as six base-36 digits of a hash:
// the model, its launch (grid, block, parameters, resident blocks) and the
// run options that change what runs (memory model, step bound). A token
// carries it (log_token), so that a replay of another launch is refused.
std::string launch_key(const models::Model& m, const models::Config& c, std::string_view memory_model,
                       std::uint64_t max_steps);

// One line for a schedule header and for replay's comparison: "data-race: <message>".
std::string finding_line(const Finding& f);

// A schedule file written for one witness (a bad outcome or a finding).
struct Artifact {
  std::string path;   // "" if none was written
  std::string error;  // why none was written ("" if written or not asked for)
};

struct ExploreReport {
  const models::Model* model = nullptr;
  models::Config config;
  ExploreOptions options;                  // progress is ignored
  const Exploration* exploration = nullptr;
  std::vector<Artifact> outcome_schedules;  // parallel to exploration->outcomes (bad ones have a path)
  std::vector<Artifact> finding_schedules;  // parallel to exploration->findings
};

std::string explore_text(const ExploreReport& r);
nlohmann::json explore_json(const ExploreReport& r, bool with_times);

// What an exploration shows against what the model is expected to show.
enum class Status : std::uint8_t {
  match,       // the exploration shows exactly the expected verdict
  mismatch,    // it shows something the expectation rules out
  incomplete,  // it stopped early and the expectation needs absence, which only a complete run proves
};
std::string_view status_word(Status s);  // "yes", "NO", "incomplete"

struct Verdict {
  std::string expected;  // short words: "ok", "bad+race", "deadlock"; "+*" = other findings allowed
  std::string found;     // same words for what was found
  Status status = Status::mismatch;
  bool match() const { return status == Status::match; }
  std::string note;      // why, when not a match
  std::uint64_t executions = 0;
  double seconds = 0;
};

// Short word for a finding kind in verdicts: "race", "scoped-race", "deadlock", ...
std::string_view short_name(FindingKind k);
std::string verdict_words(bool bad_outcome, const std::vector<FindingKind>& kinds, bool others_allowed = false);

// match iff (a bad outcome was found) == expect.bad_outcome_permitted, every
// required finding kind was found, and (exact_findings) no other kind was found.
// An exploration that is not complete proves presence only: a verdict that
// needs absence (no bad outcome, or no other finding) is then `incomplete`
// unless something found already contradicts it (`mismatch`).
Verdict judge(const models::Model& m, const models::Expectation& expect, const Exploration& e);

struct VerdictRow {
  std::string model;    // model name
  std::string options;  // "" for the chapter config, else e.g. "--resident-blocks 1"
  models::Config config;
  Verdict verdict;
  std::vector<std::string> schedules;  // schedule files written for this row
};

// `not_run`: the explorations an interrupt left out ("model options"), after
// the rows: the summary counts them among the verdicts, none as expected.
std::string verdict_table(const std::vector<VerdictRow>& rows, bool with_times = true,
                          const std::vector<std::string>& not_run = {});
nlohmann::json verdicts_json(const std::vector<VerdictRow>& rows, bool with_times,
                             const std::vector<std::string>& not_run = {});

// Replay: the trace lines, then the outcome, then the findings.
std::string trace_text(const models::Model& m, const RunResult& r);
// `launch`: the run's launch key (launch_key), carried by its token.
nlohmann::json trace_json(const models::Model& m, const RunResult& r, std::string_view launch);

// The model list for `scopesim list`.
std::string list_text(const std::vector<const models::Model*>& ms);
// `scopesim explain`: the model's launch, invariant, meaning of a bad outcome,
// expected verdict and the command that shows it.
std::string explain_text(const models::Model& m);
nlohmann::json list_json(const std::vector<const models::Model*>& ms);

}  // namespace scopesim::report
