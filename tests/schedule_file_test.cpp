// Schedule file codec: what is written parses back to the same schedule, and
// every malformed input is a ScheduleError naming the physical line at fault
// (never a crash, a hang or another exception). The expected line numbers are
// worked out from the fixture below, line by line.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/engine/schedule_file.hpp"

namespace scopesim {
namespace {

Schedule sample() {
  Schedule s;
  s.header.model = "publish.relaxed";
  s.header.source_hash = "0123456789abcdef";
  s.header.memory_model = "ptx";
  s.header.config = {2, 64, 1};
  s.header.max_steps = 20000;
  s.header.outcome = "error=1 x=0";
  s.header.findings = {"data-race: b0.t0 publish.cpp:24 and b0.t32 publish.cpp:29 on slot.id",
                       "scoped-race: b0.t0 and b1.t0 | with a bar"};
  s.header.trace_hash = 0x00c0ffee12345678ull;
  s.log = {
      {ChoiceKind::dispatch, 1, 2, 1},
      {ChoiceKind::thread, 3, 64, 32},
      {ChoiceKind::read, 0, 2, (std::uint64_t{7} << 32) | 3},
      {ChoiceKind::coherence, 0, 1, 0},
      {ChoiceKind::thread, 0, 2, 18446744073709551615ull},
  };
  s.texts = {
      "dispatch block 1",
      "b0.t32 ld.acquire.cta ready  publish.cpp:28",
      "b0.t32 ld slot.id -> 0 | the initial write",
      "",
      "  leading spaces kept",
  };
  return s;
}

void expect_same(const Schedule& a, const Schedule& b) {
  EXPECT_EQ(a.header.version, b.header.version);
  EXPECT_EQ(a.header.model, b.header.model);
  EXPECT_EQ(a.header.source_hash, b.header.source_hash);
  EXPECT_EQ(a.header.memory_model, b.header.memory_model);
  EXPECT_EQ(a.header.config.grid, b.header.config.grid);
  EXPECT_EQ(a.header.config.block, b.header.config.block);
  EXPECT_EQ(a.header.config.resident_blocks, b.header.config.resident_blocks);
  EXPECT_EQ(a.header.max_steps, b.header.max_steps);
  EXPECT_EQ(a.header.outcome, b.header.outcome);
  EXPECT_EQ(a.header.findings, b.header.findings);
  EXPECT_EQ(a.header.trace_hash, b.header.trace_hash);
  ASSERT_EQ(a.log.size(), b.log.size());
  for (std::size_t i = 0; i < a.log.size(); ++i) {
    EXPECT_EQ(a.log[i].kind, b.log[i].kind) << i;
    EXPECT_EQ(a.log[i].index, b.log[i].index) << i;
    EXPECT_EQ(a.log[i].alternatives, b.log[i].alternatives) << i;
    EXPECT_EQ(a.log[i].key, b.log[i].key) << i;
    EXPECT_EQ(decision_text(a.texts, i), decision_text(b.texts, i)) << i;
  }
}

TEST(ScheduleFile, RoundTrip) {
  const Schedule s = sample();
  const std::string text = format_schedule(s);
  const Schedule back = parse_schedule(text);
  expect_same(s, back);
  EXPECT_EQ(format_schedule(back), text);
}

TEST(ScheduleFile, RoundTripWithoutOutcomeFindingsOrDecisions) {
  Schedule s;
  s.header.model = "lab.sigmoid";
  s.header.source_hash = "ff";
  s.header.memory_model = "sc";
  s.header.config = {1, 1, 0};
  s.header.max_steps = 1;
  const std::string text = format_schedule(s);
  EXPECT_EQ(text.find("outcome"), std::string::npos);  // omitted when the run never ended
  EXPECT_EQ(text.find("finding"), std::string::npos);
  expect_same(s, parse_schedule(text));
}

TEST(ScheduleFile, WrittenLayout) {
  const std::string text = format_schedule(sample());
  EXPECT_EQ(text.rfind("scopesim-schedule 1\nmodel publish.relaxed\nsource-hash 0123456789abcdef\n", 0), 0u);
  EXPECT_NE(text.find("\ngrid 2\nblock 64\nresident-blocks 1\nmax-steps 20000\n"), std::string::npos);
  EXPECT_NE(text.find("\ntrace-hash 00c0ffee12345678\n"), std::string::npos);
  EXPECT_NE(text.find("\noutcome error=1 x=0\n"), std::string::npos);
  EXPECT_NE(text.find("\ndecisions 5\n0 dispatch 1/2 1 | dispatch block 1\n"), std::string::npos);
  EXPECT_NE(text.find("\n2 read 0/2 30064771075 | b0.t32 ld slot.id -> 0 | the initial write\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n3 coherence 0/1 0\n"), std::string::npos);  // no text: no bar
  EXPECT_EQ(text.back(), '\n');
}

TEST(ScheduleFile, ToleratesCommentsBlankLinesAndCrlf) {
  std::string text = "# a comment before everything\n\n" + format_schedule(sample()) + "\n# trailing note\n";
  expect_same(sample(), parse_schedule(text));
  std::string crlf;
  for (char c : format_schedule(sample())) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  expect_same(sample(), parse_schedule(crlf));
}

TEST(ScheduleFile, TextAfterTheBarIsNotParsed) {
  std::string text = format_schedule(sample());
  // The text of decision 1 claims to be something else entirely.
  const std::string from = "| b0.t32 ld.acquire.cta ready  publish.cpp:28";
  text.replace(text.find(from), from.size(), "| 9 bogus 7/3 x | decisions 99");
  const Schedule s = parse_schedule(text);
  EXPECT_EQ(s.log.at(1).kind, ChoiceKind::thread);
  EXPECT_EQ(s.log.at(1).index, 3u);
  EXPECT_EQ(s.texts.at(1), "9 bogus 7/3 x | decisions 99");
}

TEST(ScheduleFile, WriterRefusesWhatTheReaderWouldReject) {
  Schedule s = sample();
  s.log[1].index = 64;  // of 64 alternatives
  EXPECT_THROW(format_schedule(s), ScheduleError);
  s = sample();
  s.header.model = "two words";
  EXPECT_THROW(format_schedule(s), ScheduleError);
  s = sample();
  s.header.source_hash = "";
  EXPECT_THROW(format_schedule(s), ScheduleError);
}

TEST(ScheduleFile, TraceHashIsFnv1aOfTheJoinedLines) {
  EXPECT_EQ(trace_hash({}), 0xcbf29ce484222325ull);  // FNV-1a 64 offset basis: nothing hashed
  EXPECT_EQ(trace_hash({"a"}), 0xaf63dc4c8601ec8cull);  // FNV-1a 64 of "a"
  EXPECT_NE(trace_hash({"a", "b"}), trace_hash({"ab"}));  // the joining newline counts
  EXPECT_NE(trace_hash({"a", ""}), trace_hash({"a"}));
  EXPECT_EQ(trace_hash({"x", "y"}), trace_hash({"x", "y"}));
}

// ---- malformed input ----

// The fixture, with its line numbers:
//  1 scopesim-schedule 1
//  2 model publish.relaxed
//  3 source-hash 0123abcd
//  4 memory-model ptx
//  5 grid 1
//  6 block 64
//  7 resident-blocks 0
//  8 max-steps 20000
//  9 trace-hash 00000000deadbeef
// 10 outcome error=1
// 11 finding data-race: on slot.id
// 12 decisions 2
// 13 0 thread 1/2 32 | b0.t32 runs
// 14 1 read 0/3 4294967301 | b0.t32 ld ready -> 0
std::vector<std::string> fixture() {
  return {"scopesim-schedule 1",
          "model publish.relaxed",
          "source-hash 0123abcd",
          "memory-model ptx",
          "grid 1",
          "block 64",
          "resident-blocks 0",
          "max-steps 20000",
          "trace-hash 00000000deadbeef",
          "outcome error=1",
          "finding data-race: on slot.id",
          "decisions 2",
          "0 thread 1/2 32 | b0.t32 runs",
          "1 read 0/3 4294967301 | b0.t32 ld ready -> 0"};
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// Line `n` (1-based) replaced.
std::string with(int n, const std::string& line) {
  auto v = fixture();
  v.at(n - 1) = line;
  return join(v);
}
std::string without(int n) {
  auto v = fixture();
  v.erase(v.begin() + (n - 1));
  return join(v);
}

// Parses `text`, expecting a ScheduleError that starts "line <line>: " and contains `part`.
void rejects(const std::string& text, int line, const std::string& part) {
  try {
    parse_schedule(text);
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const ScheduleError& e) {
    const std::string what = e.what();
    const std::string prefix = "line " + std::to_string(line) + ": ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << "expected '" << prefix << "...', got: " << what;
    EXPECT_NE(what.find(part), std::string::npos) << "expected '" << part << "' in: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line: " << what;
  }
}

TEST(ScheduleFile, FixtureIsValid) {
  const Schedule s = parse_schedule(join(fixture()));
  EXPECT_EQ(s.header.model, "publish.relaxed");
  EXPECT_EQ(s.header.config.grid, 1u);
  EXPECT_EQ(s.header.config.block, 64u);
  EXPECT_EQ(s.header.trace_hash, 0xdeadbeefull);
  ASSERT_EQ(s.log.size(), 2u);
  EXPECT_EQ(s.log[1].key, (std::uint64_t{1} << 32) | 5);
}

TEST(ScheduleFile, RejectsWhatIsNotASchedule) {
  rejects("", 1, "empty");
  rejects("\n\n# only comments\n", 3, "empty");
  rejects("hello world\n", 1, "not a scopesim schedule");
  rejects(with(1, "scopesim-schedule"), 1, "version");
  rejects(with(1, "scopesim-schedule one"), 1, "bad format version");
}

TEST(ScheduleFile, RejectsAnotherFormatVersion) {
  rejects(with(1, "scopesim-schedule 7"), 1, "this file is format version 7; this scopesim reads version 1");
  try {
    parse_schedule(with(1, "scopesim-schedule 7"));
  } catch (const ScheduleError& e) {
    EXPECT_STREQ(e.what(), "line 1: this file is format version 7; this scopesim reads version 1");
  }
}

TEST(ScheduleFile, RejectsBadHeaderLines) {
  rejects(with(5, "gird 1"), 5, "unknown header field 'gird'");
  rejects(with(5, "grid x"), 5, "decimal");
  rejects(with(5, "grid -1"), 5, "decimal");
  rejects(with(5, "grid 0"), 5, "grid must be 1 to 65535 blocks, got '0'");
  rejects(with(5, "grid 65536"), 5, "grid must be 1 to 65535 blocks");  // explore --grid's limit
  rejects(with(5, "grid 4294967296"), 5, "too large");  // 2^32 does not fit
  rejects(with(5, "grid"), 5, "needs a value");
  rejects(with(6, "block 1025"), 6, "block");
  rejects(with(2, "model two words"), 2, "one word");
  rejects(with(3, "source-hash xyz"), 3, "hex");
  rejects(with(8, "max-steps 0"), 8, "at least 1");
  rejects(with(9, "trace-hash 0000000deadbeef"), 9, "16 hex digits");   // 15 digits
  rejects(with(9, "trace-hash 00000000deadbeeg"), 9, "16 hex digits");
  rejects(with(10, "outcome"), 10, "needs a value");
  rejects(with(12, "decisions two"), 12, "decimal");
  rejects(with(12, "decisions 99999999999999999999"), 12, "too large");  // > 2^64
  rejects(with(7, "param n 99999999999999999999"), 7, "param value '99999999999999999999' is too large");
  rejects(with(7, "param n"), 7, "a name and a decimal value");
  rejects(with(7, "param n 2 3"), 7, "a name and a decimal value");
  // No file scopesim writes has a name of 300 characters or an outcome of 70,000.
  rejects(with(2, "model " + std::string(300, 'm')), 2, "'model' is 300 characters long, more than 256");
  rejects(with(10, "outcome " + std::string(70000, 'o')), 10, "'outcome' is 70000 characters long");
}

TEST(ScheduleFile, AcceptsWhatEditorsWrite) {
  // A byte-order mark before the first line, a tab in a param line, an
  // upper-case source hash (hashes compare in lower case).
  auto v = fixture();
  v.insert(v.begin() + 6, "param\tn\t3");
  v[2] = "source-hash 00FF";
  const Schedule s = parse_schedule("\xEF\xBB\xBF" + join(v));
  EXPECT_EQ(s.header.config.params.at("n"), 3);
  EXPECT_EQ(s.header.source_hash, "00ff");
}

TEST(ScheduleFile, RejectsDuplicateAndMissingHeaderFields) {
  auto v = fixture();
  v.insert(v.begin() + 2, "model publish.block_acqrel");  // becomes line 3
  rejects(join(v), 3, "second 'model' line (the first is line 2)");
  // Without line 6 (block), "decisions" moves up to line 11.
  rejects(without(6), 11, "lacks a 'block' line");
  rejects(without(9), 11, "lacks a 'trace-hash' line");
  // A file that stops before "decisions": the error is at its last line.
  v = fixture();
  v.resize(11);
  rejects(join(v), 11, "before the 'decisions <N>' line");
  // A decision before the decisions line.
  v = fixture();
  v.insert(v.begin() + 11, "0 thread 1/2 32");  // becomes line 12
  rejects(join(v), 12, "decision before");
}

TEST(ScheduleFile, RejectsBadDecisions) {
  rejects(with(13, "0 thread 2/2 32 | b0.t32 runs"), 13, "index 2 is out of range for 2 alternatives");
  rejects(with(13, "0 thread 0/0 32"), 13, "at least one alternative");
  rejects(with(13, "0 thread 1-2 32"), 13, "<index>/<alternatives>");
  rejects(with(13, "0 thread 1/2"), 13, "<i> <kind>");
  rejects(with(13, "0 thread 1/2 32 extra | text"), 13, "<i> <kind>");
  rejects(with(13, "1 thread 1/2 32"), 13, "numbered 1, expected 0");
  rejects(with(14, "1 jump 0/3 5"), 14, "unknown decision kind 'jump'");
  rejects(with(14, "1 read 0/3 -5"), 14, "bad decision key");
  rejects(with(14, "1 read 0/3 18446744073709551616"), 14, "bad decision key");  // 2^64
  rejects(with(14, "x read 0/3 5"), 14, "bad decision number");
}

TEST(ScheduleFile, RejectsADecisionCountThatDoesNotMatch) {
  rejects(with(12, "decisions 3"), 14, "file ends after 2 of the 3 decisions announced on line 12");
  rejects(with(12, "decisions 1"), 14, "more decisions than the 1 announced on line 12");
  rejects(with(12, "decisions 0"), 13, "more decisions than the 0 announced on line 12");
  // A huge count reserves nothing and ends at the end of the file.
  rejects(with(12, "decisions 18446744073709551615"), 14, "file ends after 2 of the 18446744073709551615");
}

TEST(ScheduleFile, LineNumbersCountCommentsAndBlankLines) {
  auto v = fixture();
  v.insert(v.begin(), "# recorded by scopesim explore");  // line 1
  v.insert(v.begin() + 1, "");                              // line 2
  v.at(6) = "grid zero";                                    // fixture line 5, now line 7
  rejects(join(v), 7, "decimal");
}

TEST(ScheduleFile, NeverCrashesOnGarbage) {
  // Every prefix of a valid file either parses or is a ScheduleError.
  const std::string text = format_schedule(sample());
  for (std::size_t n = 0; n <= text.size(); ++n) {
    try {
      parse_schedule(text.substr(0, n));
    } catch (const ScheduleError&) {
    }
  }
  // Random byte mutations, deterministic seed.
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    std::string t = text;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      const std::size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[at] = static_cast<char>(rng() % 256); break;
        case 1: t.erase(at, 1 + rng() % 8); break;
        case 2: {
          static const char pool[] = "0123456789|/ \n\r#-x";
          t.insert(at, std::string(1 + rng() % 3, pool[rng() % (sizeof pool - 1)]));
          break;
        }
      }
      if (t.empty()) t = "x";
    }
    try {
      parse_schedule(t);
    } catch (const ScheduleError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("line ", 0), 0u) << e.what();
    }
  }
  static const char bytes[] = "\0\xff\xfe\n\x01" "scopesim-schedule 1\0\n";
  const std::string binary(bytes, sizeof bytes - 1);
  EXPECT_THROW(parse_schedule(binary), ScheduleError);
}

}  // namespace
}  // namespace scopesim
