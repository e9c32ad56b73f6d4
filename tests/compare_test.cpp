// The GPU cross-check (sim/report/compare.hpp) on hand-written GPU results and
// sanitizer logs: what counts as a soundness failure, as model-only, and how
// sanitizer reports line up with the simulator's findings. Every expected
// verdict is derived from catalogue.md's verdicts of the models named.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/report/compare.hpp"
#include "test_support.hpp"

namespace scopesim {
namespace {

using test::exhaustive;
using test::model;

// One JSON line as gpu/harness.cu writes it, with r0/r1 outcomes (the text
// and the values of each); every instance ends in one of them.
std::string line(const std::string& m, const std::vector<std::tuple<int, int, int>>& outcomes, int timeouts = 0) {
  int instances = timeouts;
  for (auto [r0, r1, count] : outcomes) instances += count;
  std::string s = "{\"model\":\"" + m + "\",\"instances\":" + std::to_string(instances) + ",\"seconds\":1,\"outcomes\":[";
  bool first = true;
  for (auto [r0, r1, count] : outcomes) {
    s += first ? "" : ",";
    first = false;
    s += "{\"outcome\":\"r0=" + std::to_string(r0) + " r1=" + std::to_string(r1) + "\",\"count\":" + std::to_string(count) +
         ",\"terminated\":true,\"values\":[{\"name\":\"r0\",\"type\":\"i32\",\"bits\":" + std::to_string(r0) +
         "},{\"name\":\"r1\",\"type\":\"i32\",\"bits\":" + std::to_string(r1) + "}]}";
  }
  if (timeouts > 0) s += std::string(first ? "" : ",") + "{\"count\":" + std::to_string(timeouts) + ",\"terminated\":false}";
  return s + "]}";
}

const report::CompareRow* row(const report::ModelComparison& c, const std::string& outcome) {
  for (const auto& r : c.rows)
    if (r.outcome == outcome) return &r;
  return nullptr;
}

report::ModelComparison compare_with(const std::string& name, const std::string& jsonl,
                                     const std::vector<report::SanitizerRun>* san = nullptr) {
  const auto results = jsonl.empty() ? std::map<std::string, report::GpuResult>{} : report::parse_gpu_results(jsonl);
  const auto it = results.find(name);
  return report::compare(model(name), exhaustive(name), it == results.end() ? nullptr : &it->second, san);
}

TEST(Compare, InstancesToSeeAgainIsAboutThreeOverTheRate) {
  // rate 3/1000: -ln(0.05) / 0.003 = 998.6 -> 999 instances.
  EXPECT_EQ(report::instances_for_95(3, 1000), 999u);
  // rate 1: ceil(2.996) = 3.
  EXPECT_EQ(report::instances_for_95(7, 7), 3u);
  EXPECT_EQ(report::instances_for_95(0, 1000), 0u);
}

TEST(Compare, ParsesValuesBackIntoOutcomeText) {
  std::string text = line("litmus.SB.xcta", {{1, 0, 5}});
  const std::string stated = "\"r0=1 r1=0\"";
  text.replace(text.find(stated), stated.size(), "\"stated\"");
  const auto r = report::parse_gpu_results(text + "\n\n");
  ASSERT_EQ(r.size(), 1u);
  const auto& g = r.at("litmus.SB.xcta");
  ASSERT_EQ(g.outcomes.size(), 1u);
  EXPECT_EQ(g.outcomes[0].text, "r0=1 r1=0");  // rebuilt from the values, not the "outcome" text field
  EXPECT_EQ(g.outcomes[0].stated, "stated");   // kept, for as_observed to check
  EXPECT_EQ(g.instances, 5u);
  EXPECT_EQ(g.line, 1);
  EXPECT_THROW(report::parse_gpu_results("{\"model\":\"a\"}\nnot json\n"), std::runtime_error);
}

// A line is a result (instances and outcomes) or a failure (error); one with
// neither, a cut line say, is refused rather than read as 0 instances.
TEST(Compare, ALineIsAResultOrAnError) {
  EXPECT_THROW(report::parse_gpu_results("{\"model\":\"a\"}\n"), std::runtime_error);
  EXPECT_THROW(report::parse_gpu_results("{\"model\":\"a\",\"instances\":5}\n"), std::runtime_error);
  const auto failed = report::parse_gpu_results("{\"model\":\"a\",\"error\":\"launch failed\"}\n");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed.at("a").error, "launch failed");
}

// The message parse_gpu_results throws for `text` read from `source`.
std::string parse_error(const std::string& text, const std::string& source = "r.jsonl") {
  try {
    report::parse_gpu_results(text, source);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// A second line of one model could hide what the first showed (a forbidden
// outcome, say): refused, naming both lines.
TEST(Compare, ASecondLineOfOneModelIsRefused) {
  const std::string forbidden = line("litmus.SB.xcta", {{5, 0, 1}});
  const std::string real = line("litmus.SB.xcta", {{1, 1, 7}});
  EXPECT_EQ(parse_error(forbidden + "\n\n" + real + "\n"),
            "r.jsonl:3: a second line for 'litmus.SB.xcta' (the first is line 1)");
  EXPECT_EQ(report::parse_gpu_results(forbidden + "\n" + line("litmus.CoRW", {{1, 1, 7}})).size(), 2u);
}

// No line at all is no results, not results that show nothing.
TEST(Compare, NoLineIsAnInputError) {
  EXPECT_EQ(parse_error(""), "r.jsonl: no GPU results (no line)");
  EXPECT_EQ(parse_error(" \n\r\n\t\n"), "r.jsonl: no GPU results (no line)");
  EXPECT_EQ(parse_error("", ""), "no GPU results (no line)");
}

// Each problem is one line: the file, the line number, and the field by its
// path; a field of the wrong type is never read as something else.
TEST(Compare, EachMalformedFieldIsNamedWithItsLine) {
  const std::string good = line("litmus.SB.xcta", {{1, 1, 7}});
  // `good` with the first occurrence of `from` replaced by `to`.
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  const std::vector<std::pair<std::string, std::string>> cases{
      {"not json", "not JSON (at byte 2)"},  // "n" begins null; "o" cannot follow
      {"[1]", "not a JSON object"},
      // Past a double's range: the parser's own words would name no line.
      {with("\"seconds\":1", "\"seconds\":1e400"), "a number out of range"},
      {with("\"count\":7", "\"count\":-1e999"), "a number out of range"},
      {with("\"model\":\"litmus.SB.xcta\"", "\"model\":7"), "'model' must be a string"},
      {with("\"seconds\":1", "\"seconds\":1,\"error\":5"), "'error' must be a string"},
      {with("\"seconds\":1", "\"seconds\":1,\"error\":\"\""), "'error' must be the reason the run failed, not empty"},
      {with("\"instances\":7", "\"instances\":-5"), "'instances' must be a non-negative integer"},
      {with("\"instances\":7", "\"instances\":7.0"), "'instances' must be a non-negative integer"},
      {with("\"instances\":7", "\"instances\":0"), "'instances' must be more than 0 in a line without 'error'"},
      {with("\"instances\":7", "\"instances\":8"), "the outcome counts add up to 7, not 'instances' 8"},
      {with("\"count\":7", "\"count\":-5"), "'outcomes[0].count' must be a non-negative integer"},
      {with("\"count\":7", "\"count\":\"7\""), "'outcomes[0].count' must be a non-negative integer"},
      {with("\"seconds\":1", "\"seconds\":-1"), "'seconds' must be a number, 0 or more"},
      {with("\"seconds\":1", "\"seconds\":1,\"grid\":0"), "'grid' must be a launch dimension, 1 or more"},
      {with("\"seconds\":1", "\"seconds\":1,\"device\":[]"), "'device' must be an object"},
      {with("\"seconds\":1", "\"seconds\":1,\"device\":{\"name\":3}"), "'device.name' must be a string"},
      {with("\"terminated\":true", "\"terminated\":1"), "'outcomes[0].terminated' must be true or false"},
      {with("\"type\":\"i32\"", "\"type\":\"i33\""),
       "'outcomes[0].values[0].type' must be one of i32, u32, i64, u64, f32, f64, not 'i33'"},
      {with(",\"bits\":1", ""), "no 'outcomes[0].values[0].bits'"},
      {with("\"name\":\"r1\"", "\"name\":\"r0\""), "'outcomes[0].values' names 'r0' twice"},
      {"{\"model\":\"a\",\"error\":\"lost\",\"outcomes\":7}", "'outcomes' must be an array"},
  };
  for (const auto& [text, problem] : cases) EXPECT_EQ(parse_error(good + "\n" + text + "\n"), "r.jsonl:2: " + problem);
  // An outcome twice in one histogram: its counts could not be told apart.
  EXPECT_EQ(parse_error(line("litmus.SB.xcta", {{1, 1, 7}, {1, 1, 2}})),
            "r.jsonl:1: 'outcomes[1]' repeats 'outcomes[0]' (r0=1 r1=1)");
  // A count of 0 lists an outcome not seen.
  EXPECT_EQ(parse_error(line("litmus.SB.xcta", {{1, 1, 7}, {0, 0, 0}})),
            "r.jsonl:1: 'outcomes[1].count' must be more than 0 (the histogram lists outcomes seen)");
}

// A value's bits are those of its type, never cut to it: an i32 or u32 or
// f32 has 32 (a negative i32 is its two's complement, as gpu/harness.cu
// writes what it gathers: -1 is 2^32-1), so 2^32+7 is no i32, not 7.
TEST(Compare, ValueBitsMustFitTheirType) {
  const std::string good = line("litmus.SB.xcta", {{1, 1, 7}});
  auto with_bits = [&](const std::string& type, const std::string& bits) {
    std::string s = good;
    const std::string value = "\"type\":\"i32\",\"bits\":1", text = "\"r0=1 r1=1\"";
    s.replace(s.find(value), value.size(), "\"type\":\"" + type + "\",\"bits\":" + bits);
    s.replace(s.find(text), text.size(), "\"r0=" + bits + " r1=1\"");  // (the text is checked apart)
    return s;
  };
  const std::string two_to_32_plus_7 = std::to_string((std::uint64_t{1} << 32) + 7);
  EXPECT_EQ(parse_error(with_bits("i32", two_to_32_plus_7)),
            "r.jsonl:1: 'outcomes[0].values[0].bits' must be 0 to 4294967295 for r0, an i32 (its 32 bits: -1 is "
            "4294967295), not " + two_to_32_plus_7);
  EXPECT_EQ(parse_error(with_bits("u32", std::to_string(std::uint64_t{1} << 40))),
            "r.jsonl:1: 'outcomes[0].values[0].bits' must be 0 to 4294967295 for r0, a u32 (its 32 bits), not " +
                std::to_string(std::uint64_t{1} << 40));
  EXPECT_NE(parse_error(with_bits("f32", two_to_32_plus_7)).find("for r0, an f32 (its 32 bits)"), std::string::npos);
  // What fits is read exactly: 2^32-1 is the i32 -1, and 2^32+7 a 64-bit value.
  const auto minus_one = report::parse_gpu_results(with_bits("i32", "4294967295"));
  EXPECT_EQ(minus_one.at("litmus.SB.xcta").outcomes[0].text, "r0=-1 r1=1");
  const auto wide = report::parse_gpu_results(with_bits("i64", two_to_32_plus_7));
  EXPECT_EQ(wide.at("litmus.SB.xcta").outcomes[0].text, "r0=" + two_to_32_plus_7 + " r1=1");
}

// An outcome that did not terminate has no values; a text that says it did is not the harness's.
TEST(Compare, AnOutcomeThatDidNotTerminateSaysSo) {
  EXPECT_EQ(parse_error("{\"model\":\"a\",\"instances\":3,\"outcomes\":[{\"outcome\":\"r0=1\",\"count\":3,"
                        "\"terminated\":false}]}"),
            "r.jsonl:1: 'outcomes[0].outcome' must be 'did not terminate' where 'terminated' is false, not 'r0=1'");
}

// The message as_observed throws for `jsonl`'s line of `name`, read as the
// simulator's exhaustive outcomes of the model observe.
std::string observed_error(const std::string& name, const std::string& jsonl) {
  try {
    report::as_observed(report::parse_gpu_results(jsonl).at(name), report::observations(exhaustive(name)), "model",
                        "r.jsonl");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// The GPU's values are those the model observes (its simulated outcomes'
// names and types): a value missing, unknown or of another type, or a text
// saying other values, is malformed input, never an outcome the model
// forbids (which would be a soundness failure).
TEST(Compare, GpuValuesAreThoseTheModelObserves) {
  // publish.relaxed observes `error`, an int (models/publish/publish.cpp).
  const auto ways = report::observations(exhaustive("publish.relaxed"));
  ASSERT_EQ(ways.size(), 1u);
  ASSERT_EQ(ways[0].size(), 1u);
  EXPECT_EQ(ways[0][0].name, "error");
  EXPECT_EQ(ways[0][0].type, ValueType::i32);
  auto publish = [](const std::string& values, const std::string& text = "error=0") {
    return "{\"model\":\"publish.relaxed\",\"instances\":4,\"outcomes\":[{\"outcome\":\"" + text +
           "\",\"count\":4,\"terminated\":true,\"values\":[" + values + "]}]}";
  };
  const std::string where = "r.jsonl:1: publish.relaxed: 'outcomes[0]' ";
  const std::string observes = " (the model observes error)";
  EXPECT_EQ(observed_error("publish.relaxed", publish("{\"name\":\"error\",\"type\":\"i32\",\"bits\":0}")),
            "(no error)");
  EXPECT_EQ(observed_error("publish.relaxed", publish("{\"name\":\"nosuch\",\"type\":\"i32\",\"bits\":0}", "nosuch=0")),
            where + "has no value of error" + observes);
  EXPECT_EQ(observed_error("publish.relaxed", publish("", "")), where + "has no value of error" + observes);
  EXPECT_EQ(observed_error("publish.relaxed", publish("{\"name\":\"error\",\"type\":\"f64\",\"bits\":0}")),
            where + "has error of another type than i32" + observes);
  EXPECT_EQ(observed_error("publish.relaxed", publish("{\"name\":\"error\",\"type\":\"i32\",\"bits\":0},"
                                                      "{\"name\":\"extra\",\"type\":\"i32\",\"bits\":0}",
                                                      "error=0 extra=0")),
            where + "has a value of extra, which the model does not observe" + observes);
  EXPECT_EQ(observed_error("publish.relaxed", publish("{\"name\":\"error\",\"type\":\"i32\",\"bits\":0}", "error=1")),
            where + "says 'error=1', but its values are 'error=0'" + observes);
}

// Values are known by name: listed in another order, an outcome is read in
// the model's order (SB across blocks observes r0, then r1), its text as the
// model or the line lists them; with nothing to check against (no run of the
// simulator ended) the values are taken as they are, their text checked.
TEST(Compare, ValuesAreReadInTheModelsOrder) {
  const std::string swapped = "{\"model\":\"litmus.SB.xcta\",\"instances\":2,\"outcomes\":[{\"outcome\":\"%\","
                              "\"count\":2,\"values\":[{\"name\":\"r1\",\"type\":\"i32\",\"bits\":0},"
                              "{\"name\":\"r0\",\"type\":\"i32\",\"bits\":1}]}]}";
  auto stating = [&](const std::string& text) {
    std::string s = swapped;
    return s.replace(s.find('%'), 1, text);
  };
  const auto ways = report::observations(exhaustive("litmus.SB.xcta"));
  for (const char* text : {"r0=1 r1=0", "r1=0 r0=1"}) {
    const auto g = report::as_observed(report::parse_gpu_results(stating(text)).at("litmus.SB.xcta"), ways, "model");
    EXPECT_EQ(g.outcomes[0].text, "r0=1 r1=0") << text;
  }
  EXPECT_EQ(observed_error("litmus.SB.xcta", stating("r0=0 r1=1")),
            "r.jsonl:1: litmus.SB.xcta: 'outcomes[0]' says 'r0=0 r1=1', but its values are 'r0=1 r1=0' (the model "
            "observes r0, r1)");
  const auto as_is = report::as_observed(report::parse_gpu_results(stating("r1=0 r0=1")).at("litmus.SB.xcta"), {}, "model");
  EXPECT_EQ(as_is.outcomes[0].text, "r1=0 r0=1");
  EXPECT_THROW(report::as_observed(report::parse_gpu_results(stating("r1=1 r0=1")).at("litmus.SB.xcta"), {}, "model"),
               std::runtime_error);
}

// A failed run (the line has "error") is reported as failed, never as a clean
// result, whatever it showed; a line with no run at all has no counts to check.
TEST(Compare, AFailedGpuRunIsReportedAsFailed) {
  const std::string failed =
      "{\"model\":\"litmus.SB.xcta\",\"error\":\"launch failed\",\"instances\":0,\"outcomes\":[]}";
  const auto c = compare_with("litmus.SB.xcta", failed);
  EXPECT_TRUE(c.gpu_failed());
  EXPECT_TRUE(c.unsound.empty());
  const std::string text = report::compare_text({c});
  EXPECT_EQ(text.rfind("GPU RUN FAILED: litmus.SB.xcta: launch failed\n", 0), 0u) << text;
  EXPECT_NE(text.find("1 models: 0 soundness failure(s), 1 failed GPU run(s)"), std::string::npos) << text;
  EXPECT_EQ(report::compare_json({c})[0]["gpu_error"], "launch failed");
  // SB across blocks permits r0=0 r1=0, its bad outcome (verdict table row 11):
  // a run that failed never showed it, which makes it no model-only outcome.
  EXPECT_TRUE(c.model_only.empty());
  for (const report::CompareRow& r : c.rows) EXPECT_EQ(r.status, "run failed") << r.outcome;
  EXPECT_FALSE(compare_with("litmus.SB.xcta", line("litmus.SB.xcta", {{1, 1, 7}})).gpu_failed());
}

// A model with nothing from the GPU is not explored: the report says so, and
// no count of executions the simulator never ran.
TEST(Compare, AModelWithoutGpuResultIsNotExplored) {
  const auto c = report::without_gpu(model("litmus.SB.xcta"));
  EXPECT_FALSE(c.explored);
  const std::string text = report::compare_text({c});
  EXPECT_NE(text.find("litmus.SB.xcta <<<2,1>>>: no GPU result (not explored)\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("executions"), std::string::npos) << text;
  EXPECT_TRUE(report::compare_json({c})[0]["executions"].is_null());
}

// An exploration cut by its budget says what cut it. SB across blocks permits
// four outcomes (verdict table row 11), each at least one execution, so a
// budget of 2 stops it.
TEST(Compare, AnIncompleteExplorationSaysWhatStoppedIt) {
  const models::Model& m = model("litmus.SB.xcta");
  ExploreOptions o;
  o.max_executions = 2;
  const auto c = report::compare(m, explore(m, m.chapter, o), nullptr, nullptr);
  EXPECT_FALSE(c.complete);
  EXPECT_NE(report::compare_text({c}).find("simulator 2 executions (INCOMPLETE, stopped by max-executions"),
            std::string::npos);
}

// The Markdown report names the command that made it, not another.
TEST(Compare, MarkdownNamesTheCommandThatMadeIt) {
  const std::string command = "scopesim compare litmus.SB.xcta --gpu 'my results.jsonl' --markdown";
  const std::string md = report::compare_markdown({report::without_gpu(model("litmus.SB.xcta"))}, command);
  EXPECT_NE(md.find("Generated by `" + command + "` from"), std::string::npos) << md;
  EXPECT_EQ(md.find("docs/gpu/results.jsonl"), std::string::npos) << md;
}

// SB across blocks: PTX permits all four outcomes (verdict table row 11), so
// nothing the GPU shows is a failure; if the GPU never shows r0=r1=0, that
// permitted bad outcome is model-only.
TEST(Compare, StoreBufferingSeenAndModelOnly) {
  auto c = compare_with("litmus.SB.xcta", line("litmus.SB.xcta", {{0, 0, 10}, {1, 1, 990}}));
  EXPECT_TRUE(c.unsound.empty());
  ASSERT_NE(row(c, "r0=0 r1=0"), nullptr);
  EXPECT_EQ(row(c, "r0=0 r1=0")->status, "seen");
  EXPECT_TRUE(row(c, "r0=0 r1=0")->bad);
  c = compare_with("litmus.SB.xcta", line("litmus.SB.xcta", {{1, 1, 1000}}));
  EXPECT_EQ(c.model_only, std::vector<std::string>{"r0=0 r1=0"});
  EXPECT_EQ(row(c, "r0=0 r1=1")->status, "not seen");  // permitted, not bad, not seen
}

// MP with gpu-scope release/acquire (row 1) forbids r0=1 r1=0: a GPU showing
// it is a soundness failure, listed first.
TEST(Compare, ForbiddenOutcomeOnTheGpuIsASoundnessFailure) {
  const auto c = compare_with("litmus.MP+rel.gpu+acq.gpu", line("litmus.MP+rel.gpu+acq.gpu", {{1, 1, 900}, {1, 0, 1}}));
  EXPECT_EQ(c.unsound, std::vector<std::string>{"r0=1 r1=0"});
  ASSERT_FALSE(c.rows.empty());
  EXPECT_EQ(c.rows.front().outcome, "r0=1 r1=0");
  EXPECT_EQ(c.rows.front().status, "UNSOUND");
  EXPECT_FALSE(c.rows.front().permitted);
  const std::string text = report::compare_text({c});
  EXPECT_EQ(text.rfind("SOUNDNESS FAILURE: litmus.MP+rel.gpu+acq.gpu", 0), 0u) << text;
}

// A spin timeout is permitted where the simulator says the spin may never end
// (publish.cross_block_block_scope: possible non-termination) or the model
// expects a deadlock under some configuration (publish.cross_block_device_scope
// with one resident block); SB has no spin, so a timeout there is a failure.
TEST(Compare, DidNotTerminate) {
  const std::string none = "{\"model\":\"%\",\"instances\":3,\"outcomes\":[{\"count\":3,\"terminated\":false}]}";
  auto with = [&](const std::string& m) {
    std::string s = none;
    s.replace(s.find('%'), 1, m);
    return compare_with(m, s);
  };
  EXPECT_TRUE(with("publish.cross_block_block_scope").unsound.empty());
  EXPECT_TRUE(with("publish.cross_block_device_scope").unsound.empty());
  EXPECT_EQ(with("litmus.SB.xcta").unsound, std::vector<std::string>{report::kDidNotTerminate});
}

// A search stopped early (Ctrl-C, a budget) may not have reached the hang
// it would report: a timeout then fails only a model whose expectation names
// no hang. publish.cross_block_block_scope expects possible non-termination
// (its block-scope spin across blocks); SB across blocks has no spin.
TEST(Compare, DidNotTerminateBeforeTheSearchFoundAHangIsUnconfirmed) {
  Exploration stopped;  // no run ended yet: no outcome, no finding
  stopped.stopped_by = "interrupt";
  const std::string none = "{\"model\":\"%\",\"instances\":3,\"outcomes\":[{\"count\":3,\"terminated\":false}]}";
  auto with = [&](const std::string& m) {
    std::string s = none;
    s.replace(s.find('%'), 1, m);
    return report::compare(model(m), stopped, &report::parse_gpu_results(s).at(m), nullptr);
  };
  const auto spin = with("publish.cross_block_block_scope");
  EXPECT_TRUE(spin.unsound.empty());
  ASSERT_NE(row(spin, report::kDidNotTerminate), nullptr);
  EXPECT_EQ(row(spin, report::kDidNotTerminate)->status, "unconfirmed");
  EXPECT_EQ(with("litmus.SB.xcta").unsound, std::vector<std::string>{report::kDidNotTerminate});
}

// racecheck sees shared memory: publish.relaxed's race on the shared slot is
// found by both; publish.block_acqrel is race-free in the simulator (✓ in the
// catalogue), so a racecheck report there is sanitizer-only.
TEST(Compare, SanitizerBesideFindings) {
  const std::string log =
      "#### scopesim-sanitizer model=publish.relaxed tool=racecheck exit=0\n"
      "========= Error: Race reported between Write access at f+0x10 in publish.cpp:25\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n"
      "#### scopesim-sanitizer model=publish.relaxed tool=synccheck exit=0\n"
      "========= ERROR SUMMARY: 0 errors\n"
      "#### scopesim-sanitizer model=publish.block_acqrel tool=racecheck exit=0\n"
      "========= Error: Race reported between Read access at g+0x20\n";
  const auto runs = report::parse_sanitizer_log(log);
  ASSERT_EQ(runs.at("publish.relaxed").size(), 2u);
  EXPECT_EQ(runs.at("publish.relaxed")[0].kinds, std::vector<FindingKind>{FindingKind::data_race});
  EXPECT_TRUE(runs.at("publish.relaxed")[1].kinds.empty());

  auto kind = [](const report::ModelComparison& c, const std::string& k) -> std::string {
    for (const auto& s : c.sanitizer)
      if (s.kind == k) return s.verdict;
    return "";
  };
  const auto relaxed = compare_with("publish.relaxed", "", &runs.at("publish.relaxed"));
  EXPECT_EQ(kind(relaxed, "race"), "agree");
  // The uninitialised read has no sanitizer tool here (memcheck did not run).
  EXPECT_EQ(kind(relaxed, "uninitialised-read"), "simulator-only");
  const auto acqrel = compare_with("publish.block_acqrel", "", &runs.at("publish.block_acqrel"));
  EXPECT_EQ(kind(acqrel, "race"), "sanitizer-only");
  EXPECT_THROW(report::parse_sanitizer_log("#### scopesim-sanitizer tool=racecheck\n"), std::runtime_error);
}

}  // namespace
}  // namespace scopesim
