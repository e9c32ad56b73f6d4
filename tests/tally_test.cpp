// The tally of an exploration's runs: counts, distinct executions, outcomes
// and findings with their counts and witnesses (the first run of each). A
// stretch of runs tallied apart (a subtree walked on another thread) must add
// to a tally exactly as its runs would have one by one.
#include <gtest/gtest.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "sim/engine/dpor_search.hpp"
#include "sim/engine/fingerprint_set.hpp"
#include "sim/engine/tally.hpp"
#include "tests/test_support.hpp"

namespace scopesim {
namespace {

// A run whose log is one decision with key `id` (so witnesses tell runs apart).
RunResult run(unsigned id, std::uint64_t fingerprint, std::uint64_t decisions) {
  RunResult r;
  r.log.push_back(Decision{ChoiceKind::thread, 0, 1, id});
  r.fingerprint = fingerprint;
  r.scheduling_decisions = decisions;
  return r;
}
RunResult ended(unsigned id, std::uint64_t fingerprint, std::uint64_t decisions, int x, bool bad = false) {
  RunResult r = run(id, fingerprint, decisions);
  r.completed = true;
  r.outcome.add("x", ValueType::i32, static_cast<std::uint64_t>(x));
  r.bad = bad;
  return r;
}
// Adds a finding to `r`, with its key (as a run keeps both).
void add_finding(RunResult& r, FindingKind kind, const std::string& where) {
  r.findings.push_back({kind, "m", {"b0.t0"}, {where}});
  r.finding_keys.push_back(r.findings.back().key());
  r.finding_hashes.push_back(Finding::hash_key(r.finding_keys.back()));
}

std::uint64_t witness(const ChoiceLog& log) { return log.size() == 1 ? log[0].key : 0; }

// Everything the tally holds, as text.
std::string text(const Tally& t) {
  std::string s = "executions " + std::to_string(t.executions) + " redundant " + std::to_string(t.redundant) +
                  " decisions " + std::to_string(t.decisions) + " distinct " + std::to_string(t.distinct()) + "\n";
  for (const auto& [key, o] : t.outcomes)
    s += "outcome " + key + " bad " + std::to_string(o.bad) + " count " + std::to_string(o.count) + " witness " +
         std::to_string(witness(o.witness.log())) + "\n";
  for (const FindingSummary& f : t.findings)
    s += "finding " + f.finding.key() + " count " + std::to_string(f.count) + " witness " +
         std::to_string(witness(f.witness.log())) + " (" + f.witness_outcome + ")\n";
  return s;
}

struct Runs {
  std::vector<RunResult> runs;
  std::vector<bool> redundant;
};

// Six runs: x=1 (run 1), a redundant one, x=1 again with a data race (run
// 3), an unended run with the race and a deadlock whose fingerprint is run
// 1's (run 4), x=2 bad (run 5), x=2 again with the deadlock (run 6).
Runs six() {
  Runs r;
  auto push = [&](RunResult x, bool redundant) {
    r.runs.push_back(std::move(x));
    r.redundant.push_back(redundant);
  };
  push(ended(1, 10, 3, 1), false);
  push(run(2, 10, 2), true);
  RunResult r3 = ended(3, 30, 4, 1);
  add_finding(r3, FindingKind::data_race, "k.cpp:1");
  push(std::move(r3), false);
  RunResult r4 = run(4, 10, 5);
  add_finding(r4, FindingKind::data_race, "k.cpp:1");
  add_finding(r4, FindingKind::deadlock, "k.cpp:2");
  push(std::move(r4), false);
  push(ended(5, 50, 1, 2, true), false);
  RunResult r6 = ended(6, 30, 2, 2);
  add_finding(r6, FindingKind::deadlock, "k.cpp:2");
  push(std::move(r6), false);
  return r;
}

TEST(Tally, CountsRunsOutcomesAndFindingsWithTheirFirstRuns) {
  const Runs r = six();
  Tally t;
  std::vector<bool> bad;
  for (std::size_t k = 0; k < r.runs.size(); ++k) bad.push_back(t.add(r.runs[k], r.redundant[k]));
  // Explored: runs 1, 3, 4, 5, 6; distinct fingerprints: 10, 30, 10 unended
  // (apart from 10 ended), 50 (run 6 repeats run 3's 30).
  EXPECT_EQ(text(t),
            "executions 5 redundant 1 decisions 17 distinct 4\n"
            "outcome x=1 bad 0 count 2 witness 1\n"
            "outcome x=2 bad 1 count 2 witness 5\n"
            "finding data-race|k.cpp:1 count 2 witness 3 (x=1)\n"
            "finding deadlock|k.cpp:2 count 2 witness 4 ()\n");
  // Bad: a bad outcome or a finding, never a redundant run.
  EXPECT_EQ(bad, (std::vector<bool>{false, false, true, true, true, true}));
}

// Every split of the six runs into a stretch before and one after, each
// tallied apart and the later added to the earlier, gives the tally of the
// runs one by one (the later stretch the larger or the smaller).
TEST(Tally, AStretchTalliedApartAddsAsItsRunsWould) {
  const Runs r = six();
  Tally whole;
  for (std::size_t k = 0; k < r.runs.size(); ++k) whole.add(r.runs[k], r.redundant[k]);
  for (std::size_t split = 0; split <= r.runs.size(); ++split) {
    Tally before, after;
    for (std::size_t k = 0; k < split; ++k) before.add(r.runs[k], r.redundant[k]);
    for (std::size_t k = split; k < r.runs.size(); ++k) after.add(r.runs[k], r.redundant[k]);
    before.add(std::move(after));
    EXPECT_EQ(text(before), text(whole)) << "split at " << split;
    EXPECT_EQ(before.kept_bytes(), whole.kept_bytes()) << "split at " << split;
  }
}

// The flat set of fingerprints holds each value once, 0 included, through
// its growth, and the union of two sets is the set of both: checked against
// std::unordered_set on values that share their low bits, their high bits or
// neither, each added twice.
// The outcomes are listed in std::string's order (byte by byte, unsigned, a
// prefix first); TextOrder, which compares eight bytes at a time, must give
// exactly that order: texts shorter than, as long as and longer than eight
// bytes, differing in their first, their eighth, their last and an
// overlapped byte, prefixes of each other, and bytes above 0x7f.
// A run that shows an outcome and many findings first keeps one copy of its
// log for them all (a copy each cost memory in the square of a long run's
// length); a later run that shows one more finding first is its witness.
TEST(Tally, ARunsWitnessesShareOneLog) {
  RunResult r = ended(7, 70, 3, 1);
  for (int k = 0; k < 3; ++k) r.log.push_back(Decision{ChoiceKind::read, 0, 2, 1});
  for (int k = 0; k < 100; ++k) add_finding(r, FindingKind::data_race, "k.cpp:" + std::to_string(k));
  RunResult later = ended(8, 80, 3, 1);
  add_finding(later, FindingKind::data_race, "k.cpp:0");
  add_finding(later, FindingKind::deadlock, "k.cpp:1");
  Tally t;
  t.add(r, false);
  t.add(later, false);
  ASSERT_EQ(t.findings.size(), 101u);
  const ChoiceLog& log = t.outcomes.at("x=1").witness.log();
  EXPECT_EQ(log_token(log), log_token(r.log));
  EXPECT_EQ(log.size(), 4u);
  EXPECT_NE(&log, &r.log);  // a copy: the run's buffers go on to the next run
  for (std::size_t k = 0; k < 100; ++k) EXPECT_EQ(&t.findings[k].witness.log(), &log) << k;
  EXPECT_EQ(witness(t.findings[100].witness.log()), 8u);
  EXPECT_EQ(t.findings[100].finding.kind, FindingKind::deadlock);
}

// What a tally keeps, counted for a memory limit: a run that shows a new
// outcome adds at least its text, its values and its witness's decisions;
// one that shows only what was shown before adds nothing; a new finding
// adds at least its message, key, positions and witness.
TEST(Tally, KeptBytesGrowWithWhatIsKeptFirst) {
  Tally t;
  EXPECT_EQ(t.kept_bytes(), 0u);
  t.add(ended(1, 10, 3, 1), false);
  const std::uint64_t one = t.kept_bytes();
  EXPECT_GE(one, std::string("x=1").size() + sizeof(Observed) + sizeof(Decision));
  t.add(ended(2, 20, 3, 1), false);  // x=1 again
  t.add(run(3, 30, 1), true);        // redundant
  EXPECT_EQ(t.kept_bytes(), one);
  RunResult r = ended(4, 40, 3, 1);
  add_finding(r, FindingKind::data_race, "k.cpp:1");
  t.add(r, false);
  const Finding& f = r.findings[0];
  EXPECT_GE(t.kept_bytes() - one, f.message.size() + r.finding_keys[0].size() + f.where[0].size() + sizeof(Decision));
  const std::uint64_t two = t.kept_bytes();
  t.add(r, false);  // the same finding and outcome again
  EXPECT_EQ(t.kept_bytes(), two);
}

// A run's log, kept once for all it showed first, counts once towards a
// memory limit: a run of 10,000 decisions that shows 100 findings first
// keeps its 240,000 bytes of log once, not 100 times (24 MB), however its
// findings are tallied (one by one, or apart and added).
TEST(Tally, ASharedLogCountsOnce) {
  RunResult r = ended(1, 10, 3, 1);
  r.log.resize(10000, Decision{ChoiceKind::read, 0, 2, 1});
  for (int k = 0; k < 100; ++k) add_finding(r, FindingKind::data_race, "k.cpp:" + std::to_string(k));
  const std::uint64_t log = r.log.size() * sizeof(Decision);
  Tally one, apart, first;
  one.add(r, false);
  apart.add(r, false);
  first.add(std::move(apart));
  EXPECT_GE(one.kept_bytes(), log);
  EXPECT_LT(one.kept_bytes(), log + 101 * 1000);  // the log, and under 1,000 bytes for each record
  EXPECT_EQ(first.kept_bytes(), one.kept_bytes());
}

TEST(TextOrder, OrdersTextsAsStdStringDoes) {
  const std::vector<std::string> texts = {
      "", "a", "b", "ab", "r0=1", "r0=1 r1=0", "r0=1 r1=1", "abcdefg", "abcdefgh", "abcdefgi", "abcdefgha",
      "abcdefghabcdefgh", "abcdefghabcdefgi", "abcdefghabcdefghi", "bbcdefghabcdefgh", "abcdefghijk",
      "abcdefghijl", "abcdefgxijk", "x=-1 y=\xff", "x=-1 y=\x01", std::string("x=1\x80yyyyyyyy"),
      std::string("x=1\x7fyyyyyyyy"), std::string(9, '\xff'), std::string(9, '\x01')};
  for (const std::string& a : texts)
    for (const std::string& b : texts) EXPECT_EQ(TextOrder{}(a, b), a < b) << '"' << a << "\" < \"" << b << '"';
}

TEST(FingerprintSet, HoldsEachValueOnceAndJoins) {
  std::vector<std::uint64_t> values{0};
  for (std::uint64_t k = 1; k <= 20000; ++k) {
    values.push_back(k << 40);                           // low bits alike
    values.push_back(k);                                 // high bits alike
    values.push_back(k * 0xd1b54a32d192ed03ULL + 7);     // scattered
  }
  FingerprintSet a, b, all;
  std::unordered_set<std::uint64_t> expect_a, expect_all;
  for (std::size_t k = 0; k < values.size(); ++k) {
    for (int twice = 0; twice < 2; ++twice) {
      all.insert(values[k]);
      (k % 3 == 0 ? a : b).insert(values[k]);
    }
    if (k % 3 == 0) expect_a.insert(values[k]);
    expect_all.insert(values[k]);
  }
  EXPECT_EQ(all.size(), expect_all.size());
  EXPECT_EQ(a.size(), expect_a.size());
  EXPECT_EQ(a.size() + b.size(), all.size());  // (disjoint by construction)
  b.insert(FingerprintSet(a));                 // the smaller into the larger
  EXPECT_EQ(b.size(), all.size());
  a.insert(std::move(b));                      // the larger into the smaller
  EXPECT_EQ(a.size(), all.size());
  EXPECT_EQ(b.size(), 0u);
  a.insert(FingerprintSet(all));               // a union with itself adds nothing
  EXPECT_EQ(a.size(), all.size());
}

// The exhaustive search tallied: in one thread run by run, and with subtrees
// handed over at every node with a thread decision below it (up to eight
// waiting per walk, none taken back), each tallied on the thread that walked
// it and added in the search's order. The tallies are the same, witnesses
// included; the models have many runs of each outcome, so a subtree's tally
// added out of order, or a run lost or counted twice, would show.
TEST(Tally, SubtreesTalliedOnOtherThreadsGiveTheTallyOfOneThread) {
  const std::vector<std::pair<const models::Model*, models::Config>> cases{
      {&test::model("histogram.plain_rmw"), *test::model("histogram.plain_rmw").quick},
      {&test::model("publish.relaxed"), test::model("publish.relaxed").chapter},
      {&test::model("spin.naive_grid_barrier"), test::model("spin.naive_grid_barrier").chapter},
  };
  RunOptions o;
  o.keep_trace = false;
  for (const auto& [m, c] : cases) {
    Tally one;
    dpor_search(*m, c, o, DporSearch{}, [] { return true; }, [&](const RunResult& r, bool redundant) {
      one.add(r, redundant);
      return true;
    });
    ASSERT_GT(one.executions, one.outcomes.size()) << m->name;
    for (unsigned jobs : {2u, 4u}) {
      Tally many;
      std::size_t tallies = 0;
      const SearchStats shared = dpor_search(
          *m, c, o, DporSearch{-1, jobs, 1, 8, false, true}, [] { return true; },
          [&](const RunResult& r, bool redundant) {
            many.add(r, redundant);
            return true;
          },
          [&](Tally&& t, bool cut) {
            EXPECT_FALSE(cut);
            ++tallies;
            many.add(std::move(t));
            return true;
          });
      EXPECT_EQ(text(many), text(one)) << m->name << ", " << jobs << " jobs";
      // (Subtrees taken over below a subtree reach the search's first walk in its tally.)
      EXPECT_GT(tallies, 0u) << m->name << ", " << jobs << " jobs";
      EXPECT_LE(tallies, shared.taken_over) << m->name << ", " << jobs << " jobs";
    }
  }
}

}  // namespace
}  // namespace scopesim
