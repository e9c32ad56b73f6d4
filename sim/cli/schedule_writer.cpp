#include "sim/cli/schedule_writer.hpp"

#include "sim/core/text_hash.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "models/source_hash.hpp"
#include "sim/cli/input.hpp"
#include "sim/engine/explorer.hpp"
#include "sim/engine/schedule_file.hpp"

namespace scopesim::cli {

namespace fs = std::filesystem;

std::string text_hash(std::string_view text) { return fmt::format("{:016x}", hash_of(text)); }

std::string source_hash(const models::Model& m) {
  if (const std::string_view h = models::source_hash(m.source); !h.empty()) return std::string(h);
  return text_hash(m.name + "\n" + m.summary + "\n" + m.invariant + "\n" + m.bad_means);
}

namespace {

std::string file_stem(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+')) c = '_';
  return s;
}

std::vector<std::string> finding_lines(const RunResult& r) {
  std::vector<std::string> lines;
  for (const Finding& f : r.findings) lines.push_back(report::finding_line(f));
  return lines;
}

}  // namespace

void record_run(ScheduleHeader& h, const RunResult& r) {
  h.outcome = r.completed ? r.outcome.text() : "";
  h.findings = finding_lines(r);
  h.trace_hash = trace_hash(r.trace);
}

std::string reproduction_mismatch(const ScheduleHeader& h, const RunResult& r) {
  const std::string outcome = r.completed ? r.outcome.text() : "";
  // (No outcome: a run that did not end, as a schedule without an outcome line says.)
  const auto said = [](const std::string& o) { return o.empty() ? std::string("none (the run did not end)") : "'" + o + "'"; };
  if (outcome != h.outcome)
    return fmt::format("the replay's outcome is {}, the schedule's {}", said(outcome), said(h.outcome));
  const std::vector<std::string> got = finding_lines(r);
  const std::vector<std::string>& want = h.findings;
  std::size_t k = 0;
  while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
  if (k < got.size() || k < want.size()) {
    if (k == got.size())
      return fmt::format("the replay reported {} finding(s), the schedule lists {}; the first missing: '{}'",
                         got.size(), want.size(), want[k]);
    if (k == want.size())
      return fmt::format("the replay reported {} finding(s), the schedule lists {}; the first extra: '{}'",
                         got.size(), want.size(), got[k]);
    return fmt::format("the replay's finding {} is '{}', the schedule's is '{}'", k + 1, got[k], want[k]);
  }
  if (const std::uint64_t th = trace_hash(r.trace); th != h.trace_hash)
    return fmt::format("the replay's trace hash is {:016x}, the schedule says {:016x}", th, h.trace_hash);
  return "";
}

int print_replay(const models::Model& m, const RunResult& r, const ScheduleHeader& h, const std::string& file,
                 bool json) {
  const std::string mismatch = reproduction_mismatch(h, r);
  const std::string error = mismatch.empty() ? "" : "replay of " + file + " did not reproduce it: " + mismatch;
  if (json) {
    // (Not reproduced, the report is an error's too: exit 2, its "error" beside the trace.)
    nlohmann::json j = report::trace_json(m, r, report::launch_key(m, h.config, h.memory_model, h.max_steps));
    j["schedule"] = file;
    j["reproduced"] = mismatch.empty();
    if (!mismatch.empty()) {
      j["mismatch"] = one_line(mismatch);
      j["error"] = one_line(error);
    }
    print_json(j);
  } else {
    fmt::print("{}", report::trace_text(m, r));
  }
  std::fflush(stdout);
  if (!mismatch.empty()) throw UsageError(error);
  return replay_exit_code(r);
}

int replay_exit_code(const RunResult& r) { return (r.completed && r.bad) || !r.findings.empty() ? 1 : 0; }

report::Artifact ScheduleWriter::write(const models::Model& m, const models::Config& c, const RunOptions& run,
                                       const ChoiceLog& witness, const std::string& hash) {
  report::Artifact a;
  if (!on_) return a;
  try {
    RunOptions ro = run;
    ro.keep_trace = true;
    RunResult r = replay(m, c, ro, witness);
    Schedule s;
    s.header.model = m.name;
    s.header.source_hash = hash.empty() ? source_hash(m) : hash;
    s.header.memory_model = run.memory_model;
    s.header.config = c;
    s.header.max_steps = run.max_steps;
    record_run(s.header, r);
    if (r.log.size() == witness.size()) {
      s.log = r.log;
      s.texts = r.texts;
    } else {
      s.log = witness;
    }
    const std::string text = format_schedule(s);
    const std::string stem = prefix_ + file_stem(m.name);
    fs::create_directories(dir_);
    if (cleaned_.insert(stem).second) clean(stem);
    fs::path p = dir_ / fmt::format("{}.{}.schedule", stem, ++next_[stem]);
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + p.string());
    a.path = p.string();
  } catch (const std::exception& e) {
    a.error = one_line(e.what());
    if (warned_.insert(a.error).second)
      fmt::print(stderr, "scopesim: warning: schedules not written: {}\n", a.error);
  }
  return a;
}

void ScheduleWriter::clean(const std::string& stem) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string f = entry.path().filename().string();
    if (f.size() <= stem.size() + 1 || f.compare(0, stem.size() + 1, stem + ".") != 0) continue;
    std::string rest = f.substr(stem.size() + 1);
    const std::string ext = ".schedule";
    if (rest.size() <= ext.size() || rest.compare(rest.size() - ext.size(), ext.size(), ext) != 0) continue;
    rest.resize(rest.size() - ext.size());
    if (std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
      fs::remove(entry.path(), ec);
  }
}

}  // namespace scopesim::cli
