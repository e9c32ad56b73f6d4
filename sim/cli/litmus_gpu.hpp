// The GPU cross-check of litmus tests (`scopesim litmus --gpu`): each test's
// permitted outcomes (PTX model, exhaustive) beside the outcome histogram the
// GPU harness measured for its generated model (gpu/litmus/, named by
// litmus::gpu_model_name), through report::compare, which states the
// soundness rule: an outcome the GPU showed that the simulator forbids is a
// soundness failure. The GPU observes the condition's registers and
// locations; the condition's value is computed here from them, so the GPU's
// outcome texts are the simulator's. An outcome is *weak* when the sc memory
// model does not permit it.
#pragma once
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/litmus/program.hpp"
#include "sim/report/compare.hpp"

namespace scopesim::cli {

struct LitmusGpuTest {
  std::string file;
  std::string condition;              // as printed
  bool holds = false;                 // the simulator's verdict
  report::ModelComparison comparison;  // model = the harness model name
  std::set<std::string> sc;           // outcome texts the sc model permits
};

// `g` with each terminated outcome read as the simulator's litmus model
// observes it: the condition's registers and locations (observed_names), as
// i32, in that order, then `condition` (0 or 1). Throws std::runtime_error
// naming the line when an outcome lacks one of those values, has another, has
// one of another type, or says another outcome in its text
// (report::as_observed): malformed input, not a different outcome.
report::GpuResult with_condition(const report::GpuResult& g, const litmus::Program& p, std::string_view source = {});

// Weak outcomes (not permitted under sc) the GPU showed, and their count.
std::vector<std::string> weak_outcomes_seen(const LitmusGpuTest& t, std::uint64_t* count);

std::string litmus_gpu_text(const std::vector<LitmusGpuTest>& ts);
// The same as JSON: "tests", compare --json's comparison of each test;
// "weak_outcomes" (model, outcome) and "weak_occurrences".
nlohmann::json litmus_gpu_json(const std::vector<LitmusGpuTest>& ts);
// The report of docs/gpu/litmus-report.md: `ts` compared, `unsupported` the
// files given that the simulator does not support; `command` is how it was made.
std::string litmus_gpu_markdown(const std::vector<LitmusGpuTest>& ts, const std::vector<std::string>& unsupported,
                                const std::string& command);

}  // namespace scopesim::cli
