// Schedule files: a choice log plus a header (format version, model and its
// source hash, memory model, launch configuration, options, the outcome and
// findings the run showed, a hash of its trace). Human-readable, one decision
// per line. Parsing never crashes: malformed input is a ScheduleError naming
// the line.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/model.hpp"
#include "sim/engine/choice_log.hpp"

namespace scopesim {

inline constexpr int schedule_format_version = 1;

struct ScheduleHeader {
  int version = schedule_format_version;
  std::string model;         // "publish.relaxed"
  std::string source_hash;   // of the model's source file
  std::string memory_model;  // "ptx"
  models::Config config;
  std::uint64_t max_steps = 0;
  std::string outcome;                // outcome text of the run, "" if it never ended
  std::vector<std::string> findings;  // one line each: "data-race: ..."
  std::uint64_t trace_hash = 0;       // of the run's text trace
};

struct Schedule {
  ScheduleHeader header;
  ChoiceLog log;
  std::vector<std::string> texts;  // one per decision of log ("" where it has none), or none
};

struct ScheduleError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string format_schedule(const Schedule& s);
Schedule parse_schedule(std::string_view text);  // throws ScheduleError("line N: ...")
std::uint64_t trace_hash(const std::vector<std::string>& trace);

}  // namespace scopesim
