// Schedule files for the witnesses of an exploration: each witness is
// replayed (for its trace hash, outcome and findings) and written as
// <dir>/<model>.<n>.schedule, with the hash of the model's source; and the
// other side, what a replay of one shows and whether it reproduced it.
#pragma once
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "models/model.hpp"
#include "sim/cli/search_options.hpp"
#include "sim/engine/choice_log.hpp"
#include "sim/engine/execution.hpp"
#include "sim/engine/schedule_file.hpp"
#include "sim/report/report.hpp"

namespace scopesim::cli {

// FNV-1a 64 of a text, as 16 hex digits.
std::string text_hash(std::string_view text);

// The hash of the model's source file as this binary was built from it
// (models/source_hash.hpp); for a model that is not shipped, of its registered
// description instead (stable for one build).
std::string source_hash(const models::Model& m);

// What a schedule's header says of its run (outcome, findings, trace hash),
// taken from the run `r` (replayed with keep_trace).
void record_run(ScheduleHeader& h, const RunResult& r);
// Did the replay `r` reproduce the run `h` records? "" if so, else the first
// difference, in words (the outcome, then the findings, then the trace).
std::string reproduction_mismatch(const ScheduleHeader& h, const RunResult& r);
// Prints the replay `r` of schedule `file` (header `h`) of model `m`: its trace
// as text, or JSON with "schedule", "reproduced" and any "mismatch"; then a
// UsageError when it did not reproduce, else replay_exit_code(r).
int print_replay(const models::Model& m, const RunResult& r, const ScheduleHeader& h, const std::string& file,
                 bool json);
// A replayed run's exit code: 1 when it shows a bad outcome or a finding, else 0.
int replay_exit_code(const RunResult& r);

class ScheduleWriter {
 public:
  // `prefix` goes before each file name ("ptx." for litmus files' tests).
  explicit ScheduleWriter(const Output& o, std::string prefix = "")
      : dir_(o.schedules), on_(!o.no_schedules), prefix_(std::move(prefix)) {}

  // Replays the witness (for its trace hash, outcome and findings) and writes
  // <dir>/<prefix><model>.<n>.schedule with `hash` as the source hash (""
  // for source_hash(m)). Old schedules of the model are removed the first
  // time, so the directory never mixes two explorations of one model. A
  // failure is a warning on stderr and the artifact's error, never a throw.
  report::Artifact write(const models::Model& m, const models::Config& c, const RunOptions& run,
                         const ChoiceLog& witness, const std::string& hash = "");

 private:
  void clean(const std::string& stem);

  std::filesystem::path dir_;
  bool on_;
  std::string prefix_;
  std::set<std::string> cleaned_;
  std::map<std::string, unsigned> next_;
  std::set<std::string> warned_;  // errors already on stderr: each once, not once per witness
};

}  // namespace scopesim::cli
