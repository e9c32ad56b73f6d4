// Schedule files of runs of random litmus programs: the codec round-trips,
// the parsed file replays to the run it records, and any mutation of the text
// is either replayed or rejected with a clear one-line error (ScheduleError,
// ReplayDivergence, or a header that does not fit the model), never another
// exception or a crash.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "sim/engine/explorer.hpp"
#include "sim/engine/schedule_file.hpp"
#include "sim/model/memory_model.hpp"
#include "sim/report/report.hpp"
#include "tests/properties/litmus_gen.hpp"
#include "tests/properties/random_chooser.hpp"
#include "tests/properties/simulated.hpp"

namespace scopesim::props {
namespace {

// A random run of a random program, as the schedule file `scopesim explore` writes for it.
struct Recorded {
  Simulated sim;
  RunOptions options;
  Schedule schedule;
};

std::vector<std::string> finding_lines(const RunResult& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.findings) out.push_back(report::finding_line(f));
  return out;
}

Recorded record() {
  Recorded rec{Simulated(*gen_spec()), {}, {}};
  rec.options.memory_model = *rc::gen::element<std::string>("ptx", "sc", "scope-blind");
  RandomChooser ch(*rc::gen::arbitrary<std::uint64_t>());
  const RunResult r = run_once(rec.sim.model, rec.sim.launch, rec.options, ch);
  ScheduleHeader& h = rec.schedule.header;
  h.model = rec.sim.model.name;
  h.source_hash = "0123456789abcdef";
  h.memory_model = rec.options.memory_model;
  h.config = rec.sim.launch;
  h.max_steps = rec.options.max_steps;
  h.outcome = r.completed ? r.outcome.text() : "";
  h.findings = finding_lines(r);
  h.trace_hash = trace_hash(r.trace);
  rec.schedule.log = r.log;
  rec.schedule.texts = r.texts;
  return rec;
}

bool same(const Decision& a, const Decision& b) {
  return a.kind == b.kind && a.index == b.index && a.alternatives == b.alternatives && a.key == b.key;
}

// What `scopesim replay` does with a parsed file: check the header against the
// model, replay, compare with the header. "" when it reproduces the run; else
// the one-line reason it is rejected.
std::string replay_file(const Recorded& rec, const Schedule& s) {
  const ScheduleHeader& h = s.header;
  const std::vector<std::string> names = memory_model_names();
  if (std::find(names.begin(), names.end(), h.memory_model) == names.end()) return "unknown memory model";
  if (h.model != rec.sim.model.name || h.config.grid != rec.sim.launch.grid || h.config.block != rec.sim.launch.block)
    return "a different model or launch";
  RunOptions ro;
  ro.memory_model = h.memory_model;
  ro.resident_blocks = h.config.resident_blocks;
  ro.max_steps = h.max_steps;
  RunResult r;
  try {
    r = replay(rec.sim.model, h.config, ro, s.log, s.texts);
  } catch (const ReplayDivergence& e) {
    const std::string what = e.what();
    RC_ASSERT(!what.empty());
    RC_ASSERT(what.find('\n') == std::string::npos);
    return "replay diverged: " + what;
  }
  if ((r.completed ? r.outcome.text() : "") != h.outcome) return "another outcome";
  if (finding_lines(r) != h.findings) return "other findings";
  if (trace_hash(r.trace) != h.trace_hash) return "another trace";
  return "";
}

RC_GTEST_PROP(ScheduleFileProperties, TheCodecRoundTripsAndTheFileReplays, ()) {
  const Recorded rec = record();
  const std::string text = format_schedule(rec.schedule);
  RC_LOG() << text;
  const Schedule back = parse_schedule(text);
  RC_ASSERT(format_schedule(back) == text);
  RC_ASSERT(back.log.size() == rec.schedule.log.size());
  for (std::size_t k = 0; k < back.log.size(); ++k) {
    RC_ASSERT(same(back.log[k], rec.schedule.log[k]));
    RC_ASSERT(decision_text(back.texts, k) == decision_text(rec.schedule.texts, k));
  }
  const ScheduleHeader& a = back.header;
  const ScheduleHeader& b = rec.schedule.header;
  RC_ASSERT(a.version == b.version && a.model == b.model && a.source_hash == b.source_hash &&
            a.memory_model == b.memory_model && a.max_steps == b.max_steps && a.outcome == b.outcome &&
            a.findings == b.findings && a.trace_hash == b.trace_hash);
  RC_ASSERT(a.config.grid == b.config.grid && a.config.block == b.config.block &&
            a.config.resident_blocks == b.config.resident_blocks && a.config.params == b.config.params);
  RC_ASSERT(replay_file(rec, back) == "");
}

// One random edit of the text: a byte deleted, replaced or inserted, a line
// deleted, duplicated or swapped with another, or a number replaced.
std::string mutate(std::string text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  auto join = [&] {
    std::string s;
    for (std::size_t k = 0; k < lines.size(); ++k) s += lines[k] + (k + 1 < lines.size() ? "\n" : "");
    return s;
  };
  const auto line = *rc::gen::inRange<std::size_t>(0, lines.size());
  switch (*rc::gen::inRange(0, 7)) {
    case 0: {
      const auto at = *rc::gen::inRange<std::size_t>(0, text.size());
      return text.erase(at, 1);
    }
    case 1: {
      const auto at = *rc::gen::inRange<std::size_t>(0, text.size());
      text[at] = *rc::gen::character<char>();
      return text;
    }
    case 2: {
      const auto at = *rc::gen::inRange<std::size_t>(0, text.size() + 1);
      return text.insert(at, 1, *rc::gen::element(' ', '\n', '0', '9', '-', ':', 'z', '\t', '\0'));
    }
    case 3: lines.erase(lines.begin() + static_cast<long>(line)); return join();
    case 4: lines.insert(lines.begin() + static_cast<long>(line), lines[line]); return join();
    case 5: std::swap(lines[line], lines[*rc::gen::inRange<std::size_t>(0, lines.size())]); return join();
    default: {
      // Replace the first number on the line.
      std::string& l = lines[line];
      const std::size_t from = l.find_first_of("0123456789");
      RC_PRE(from != std::string::npos);
      const std::size_t to = l.find_first_not_of("0123456789", from);
      l.replace(from, to == std::string::npos ? std::string::npos : to - from,
                *rc::gen::element<std::string>("0", "1", "2", "7", "99", "4294967295", "4294967296", "18446744073709551616",
                                               "-1", "99999999999999999999999"));
      return join();
    }
  }
}

RC_GTEST_PROP(ScheduleFileProperties, AMutatedFileIsReplayedOrRejectedWithAClearError, ()) {
  const Recorded rec = record();
  const std::string text = mutate(format_schedule(rec.schedule));
  RC_LOG() << "mutated file:\n" << text << "\n";
  Schedule s;
  try {
    s = parse_schedule(text);
  } catch (const ScheduleError& e) {
    const std::string what = e.what();
    RC_LOG() << "rejected: " << what << "\n";
    RC_ASSERT(what.rfind("line ", 0) == 0);
    RC_ASSERT(what.find('\n') == std::string::npos);
    RC_TAG("rejected by the codec");
    return;
  }
  try {
    const std::string why = replay_file(rec, s);
    RC_TAG(why.empty() ? "replayed" : "rejected on replay");
  } catch (const std::exception& e) {
    RC_FAIL(std::string("replaying the mutated file threw something other than ReplayDivergence: ") + e.what());
  }
}

}  // namespace
}  // namespace scopesim::props
