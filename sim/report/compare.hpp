// The GPU cross-check: the simulator's exhaustive outcome set of a model beside
// the outcome histogram the GPU harness measured (gpu/harness.cu, JSON Lines),
// and the simulator's findings beside compute-sanitizer's reports
// (gpu/run-all.sh's sanitizer log). Pure functions of their inputs; the caller
// runs the explorations.
//
// Invariant (the soundness rule): an outcome the GPU showed that the simulator
// does not permit is a soundness failure. Where the exploration is complete,
// "permitted" is membership in its outcome set; where it is not (a budget, a
// time limit or Ctrl-C stopped it), only a bad outcome of a model whose
// expectation forbids bad outcomes, or "did not terminate" of one whose
// expectation names no hang, is a failure, the rest is "unconfirmed". "did not
// terminate" is permitted when the simulator reports a deadlock or (possible)
// non-termination, or the model expects a deadlock under some configuration
// (CUDA promises no co-residency).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model.hpp"
#include "sim/engine/explorer.hpp"

namespace scopesim::report {

inline constexpr const char* kDidNotTerminate = "did not terminate";

struct GpuOutcome {
  std::string text;       // as Outcome::text(), or "did not terminate"
  bool terminated = true;
  Outcome outcome;        // the values, when terminated, in the line's order
  std::uint64_t count = 0;
  // The line's "outcome" text, where it has one: what the harness wrote,
  // checked against the values by as_observed (a text never decides an outcome).
  std::optional<std::string> stated;
};

// One model's line of the harness output.
struct GpuResult {
  std::string model;
  int line = 0;                          // its line in the results (from 1)
  std::optional<unsigned> grid, block;   // the launch the GPU ran, where the line says
  std::uint64_t instances = 0;
  double seconds = 0;
  double per_second = 0;
  std::string device;    // "NVIDIA H200, driver 580.159.04, nvcc 13.0.88 -arch=sm_90"
  std::uint64_t multi_block_instances = 0;
  std::uint64_t distinct_sm_instances = 0;
  std::string error;     // "" when the model ran
  std::vector<GpuOutcome> outcomes;
};

// Parses JSON Lines (blank lines skipped), one model per line, by model name.
// Every field is checked: a line that ran (no "error") has instances > 0 and
// outcome counts > 0 that add up to them; counts are non-negative integers;
// an outcome names each value once and appears once; a value's bits fit its
// type (i32, u32, f32: 0 to 2^32-1, a negative i32 as its 32 bits, as the
// harness writes it); an outcome that did not terminate says so in its text.
// What only the model knows (the values it observes) is as_observed's. Throws
// std::runtime_error with one line, "SOURCE:LINE: problem" naming the field
// ("line LINE: problem" when `source` is empty), for a malformed line, a
// second line of one model, or no line at all.
std::map<std::string, GpuResult> parse_gpu_results(std::string_view text, std::string_view source = {});
// Where a line of the results is, for a message: "SOURCE:LINE" ("line LINE" without a source).
std::string result_line(std::string_view source, int line);

// What a model observes at the end of a run that ends: each value's name and
// type, in the model's order (Outcome's).
struct Observation {
  std::string name;
  ValueType type = ValueType::i32;
  bool operator==(const Observation&) const = default;
};
using Observations = std::vector<Observation>;

// What the simulator's outcomes of `e` observe: each list once, in the order
// of the outcomes. One list for every shipped model (the GPU harness refuses a
// program that observes otherwise from one round to the next); none where no
// run ended.
std::vector<Observations> observations(const Exploration& e);

// `g` with each terminated outcome read as the model observes it: its values
// exactly those of one of `ways` (each name once, of that type), put in that
// list's order, so that equal outcomes read alike; its "outcome" text, where
// the line has one, that of the values as listed or in that order. Else
// malformed input, not another outcome: throws std::runtime_error,
// "SOURCE:LINE: MODEL: 'outcomes[I]' has no value of N (the WHO observes
// N1, N2)". `ways` empty (no run of the simulator ended): the values as they
// are, their text checked.
GpuResult as_observed(const GpuResult& g, const std::vector<Observations>& ways, std::string_view who,
                      std::string_view source = {});

// One compute-sanitizer run of one model with one tool.
struct SanitizerRun {
  std::string tool;                 // racecheck, synccheck, memcheck
  int exit_code = 0;
  std::vector<FindingKind> kinds;   // what its reports mean in the simulator's terms
  std::vector<std::string> messages;  // the first few report lines
};

// Parses the log's "#### scopesim-sanitizer model=M tool=T exit=E" sections.
std::map<std::string, std::vector<SanitizerRun>> parse_sanitizer_log(std::string_view text);

// Instances needed to see an outcome of `count` in `instances` again with 95%
// confidence: ceil(-ln(0.05) / rate), about three expected observations; 0
// when count is 0.
std::uint64_t instances_for_95(std::uint64_t count, std::uint64_t instances);

struct CompareRow {
  std::string outcome;
  bool permitted = false;
  bool bad = false;
  std::uint64_t count = 0;
  std::string status;  // "seen", "UNSOUND", "unconfirmed", "model-only", "not seen"
};

struct SanitizerRow {
  std::string kind;      // race, barrier-divergence, out-of-bounds, or another simulator finding
  bool simulator = false;
  bool sanitizer = false;
  std::string verdict;   // agree, sanitizer-only, simulator-only
  std::string note;
};

struct ModelComparison {
  std::string model;
  std::string launch;          // "<<<2,64>>>"
  bool explored = false;       // the simulator ran: there was something from the GPU to compare with
  bool not_run = false;        // left out: an interrupt came before its turn (not explored either)
  bool complete = false;       // the exploration was exhaustive and complete
  std::string stopped_by;      // why it is not: "max-executions", "time-limit", "interrupt"
  std::uint64_t executions = 0;
  bool has_gpu = false;
  GpuResult gpu;
  std::vector<CompareRow> rows;       // soundness failures first, then by outcome text
  std::vector<SanitizerRow> sanitizer;
  bool has_sanitizer = false;
  std::vector<std::string> unsound;   // outcomes the GPU showed that the model forbids
  std::vector<std::string> model_only;  // permitted bad outcomes the GPU never showed
  // The GPU line says the run failed: not a clean result, whatever it showed.
  bool gpu_failed() const { return has_gpu && !gpu.error.empty(); }
};

ModelComparison compare(const models::Model& m, const Exploration& e, const GpuResult* gpu,
                        const std::vector<SanitizerRun>* sanitizer);
// A model with nothing from the GPU (no line, no sanitizer run): listed, not explored.
ModelComparison without_gpu(const models::Model& m);
// A model an interrupt left out: listed as not compared, so that a report says what it lacks.
ModelComparison not_compared(const models::Model& m);

// Soundness failures first, then failed GPU runs, each model, and a summary.
std::string compare_text(const std::vector<ModelComparison>& cs);
// The report of docs/gpu/report.md; `command` is the command line that made it.
std::string compare_markdown(const std::vector<ModelComparison>& cs, const std::string& command);
nlohmann::json compare_json(const std::vector<ModelComparison>& cs);

}  // namespace scopesim::report
