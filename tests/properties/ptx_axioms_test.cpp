// The axiomatic oracle on rows of the verdict table (docs/semantics.md), so
// that the oracle the properties trust is itself checked: each expected
// verdict is the table's, derived there from the PTX axioms.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/litmus/parser.hpp"
#include "tests/properties/ptx_axioms.hpp"

namespace scopesim::props {
namespace {

// Does some outcome of the axioms contain every one of `values` ("P1:r0=1")?
bool permits(const std::string& text, const std::vector<std::string>& values) {
  const litmus::Program p = litmus::parse(text, "ptx_axioms_test.litmus");
  for (const std::string& o : PtxAxioms(p).outcomes()) {
    std::istringstream words(o);
    std::set<std::string> have{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    if (std::all_of(values.begin(), values.end(), [&](const std::string& v) { return have.count(v) > 0; })) return true;
  }
  return false;
}

std::string with(std::string s, const std::string& key, const std::string& value) {
  for (std::size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
  return s;
}

// Rows 1-4: message passing; forbidden exactly when release and acquire are
// morally strong (scopes include each other's threads).
TEST(PtxAxioms, MessagePassingDependsOnMorallyStrongReleaseAndAcquire) {
  const std::string mp = R"(PTX MP
{ x=0; f=0; }
P0@cta 0,gpu 0       | P1@cta C,gpu 0        ;
st.weak x, 1         | ld.acquire.SA r0, f   ;
st.release.SR f, 1   | ld.weak r1, x         ;
exists (P1:r0 == 1 /\ P1:r1 == 0))";
  auto stale = [&](const char* cta, const char* sr, const char* sa) {
    return permits(with(with(with(mp, "SR", sr), "SA", sa), "C", cta), {"P1:r0=1", "P1:r1=0"});
  };
  EXPECT_FALSE(stale("1", "gpu", "gpu"));  // row 1
  EXPECT_FALSE(stale("0", "cta", "cta"));  // row 2
  EXPECT_TRUE(stale("1", "cta", "cta"));   // row 3
  EXPECT_FALSE(stale("0", "cta", "gpu"));  // row 4, same CTA
  EXPECT_TRUE(stale("1", "cta", "gpu"));   // row 4, different CTAs
}

// Rows 5-7: fences beside a strong flag access synchronize; a relaxed flag
// read followed by an acquire data read does not.
TEST(PtxAxioms, FencesMakeReleaseAndAcquirePatterns) {
  EXPECT_FALSE(permits(R"(PTX MP+fences
{ x=0; f=0; }
P0@cta 0,gpu 0       | P1@cta 1,gpu 0        ;
st.weak x, 1         | ld.relaxed.sys r0, f  ;
fence.acq_rel.sys    | fence.acq_rel.sys     ;
st.relaxed.sys f, 1  | ld.weak r1, x         ;
exists (P1:r0 == 1 /\ P1:r1 == 0))", {"P1:r0=1", "P1:r1=0"}));
  EXPECT_TRUE(permits(R"(PTX MP+relaxed-acquire
{ x=0; f=0; }
P0@cta 0,gpu 0       | P1@cta 1,gpu 0        ;
st.weak x, 1         | ld.relaxed.gpu r0, f  ;
st.release.gpu f, 1  | ld.acquire.gpu r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0))", {"P1:r0=1", "P1:r1=0"}));
}

// Row 8: observation through a relaxed RMW of a third thread.
TEST(PtxAxioms, ObservationPassesThroughAChainOfRmws) {
  EXPECT_FALSE(permits(R"(PTX MP+rmw
{ x=0; f=0; }
P0@cta 0,gpu 0       | P1@cta 1,gpu 0                  | P2@cta 2,gpu 0       ;
st.weak x, 1         | atom.relaxed.gpu.add r0, f, 1   | ld.acquire.gpu r1, f ;
st.release.gpu f, 1  |                                 | ld.weak r2, x        ;
exists (P1:r0 == 1 /\ P2:r1 == 2 /\ P2:r2 == 0))", {"P1:r0=1", "P2:r1=2", "P2:r2=0"}));
}

// Rows 11-14: store buffering.
TEST(PtxAxioms, StoreBufferingNeedsMorallyStrongScFencesOrABarrier) {
  const std::string sb = R"(PTX SB
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta C,gpu 0 ;
st.weak x, 1   | st.weak y, 1   ;
F              | F              ;
ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0))";
  auto both_zero = [&](const char* cta, const char* fence) {
    return permits(with(with(sb, "C", cta), "F", fence), {"P0:r0=0", "P1:r1=0"});
  };
  EXPECT_TRUE(both_zero("1", "fence.acq_rel.gpu"));  // row 11
  EXPECT_FALSE(both_zero("1", "fence.sc.gpu"));      // row 12
  EXPECT_FALSE(both_zero("0", "fence.sc.cta"));      // row 12
  EXPECT_TRUE(both_zero("1", "fence.sc.cta"));       // row 13
  EXPECT_FALSE(both_zero("0", "bar.cta.sync 0"));    // row 14
}

// Rows 16-17: load buffering is left out (docs/limitations.md), so the oracle excludes it too.
TEST(PtxAxioms, LoadBufferingIsExcluded) {
  EXPECT_FALSE(permits(R"(PTX LB
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
ld.weak r0, x  | ld.weak r1, y  ;
st.weak y, 1   | st.weak x, 1   ;
exists (P0:r0 == 1 /\ P1:r1 == 1))", {"P0:r0=1", "P1:r1=1"}));
}

// Rows 18-20: coherence of reads.
TEST(PtxAxioms, ReadsAreCoherentWhenMorallyStrong) {
  const std::string corr = R"(PTX CoRR
{ x=0; }
P0@cta 0,gpu 0       | P1@cta 1,gpu 0 ;
st.relaxed.sys x, 1  | L1 r0, x       ;
                     | L2 r1, x       ;
exists (P1:r0 == 1 /\ P1:r1 == 0))";
  auto new_then_old = [&](const char* l1, const char* l2) {
    return permits(with(with(corr, "L1", l1), "L2", l2), {"P1:r0=1", "P1:r1=0"});
  };
  EXPECT_FALSE(new_then_old("ld.relaxed.sys", "ld.relaxed.sys"));  // row 18
  EXPECT_FALSE(new_then_old("ld.relaxed.sys", "ld.weak"));         // row 19
  EXPECT_TRUE(new_then_old("ld.weak", "ld.weak"));                 // row 20
}

// Row 22: IRIW is permitted without fences, forbidden with fence.sc.gpu.
TEST(PtxAxioms, IriwNeedsScFences) {
  const std::string iriw = R"(PTX IRIW
{ x=0; y=0; }
P0@cta 0,gpu 0      | P1@cta 1,gpu 0       | P2@cta 2,gpu 0      | P3@cta 3,gpu 0       ;
st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | st.relaxed.gpu y, 1 | ld.relaxed.gpu r2, y ;
                    | F                    |                     | F                    ;
                    | ld.relaxed.gpu r1, y |                     | ld.relaxed.gpu r3, x ;
exists (P1:r0 == 1 /\ P1:r1 == 0 /\ P3:r2 == 1 /\ P3:r3 == 0))";
  const std::vector<std::string> o{"P1:r0=1", "P1:r1=0", "P3:r2=1", "P3:r3=0"};
  EXPECT_TRUE(permits(with(iriw, "F", "fence.acq_rel.gpu"), o));
  EXPECT_FALSE(permits(with(iriw, "F", "fence.sc.gpu"), o));
}

// Row 23: 2+2W.
TEST(PtxAxioms, TwoPlusTwoWritesNeedsScFences) {
  const std::string w = R"(PTX 2+2W
{ x=0; y=0; }
P0@cta 0,gpu 0      | P1@cta 1,gpu 0      ;
st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;
F                   | F                   ;
st.relaxed.gpu y, 2 | st.relaxed.gpu x, 2 ;
exists (x == 1 /\ y == 1))";
  EXPECT_TRUE(permits(with(w, "F", "fence.acq_rel.gpu"), {"x=1", "y=1"}));
  EXPECT_FALSE(permits(with(w, "F", "fence.sc.gpu"), {"x=1", "y=1"}));
}

// Row 24: increments are atomic only when morally strong.
TEST(PtxAxioms, RmwsAreAtomicOnlyWhenMorallyStrong) {
  const std::string inc = R"(PTX INC
{ x=0; }
P0@cta 0,gpu 0                | P1@cta 1,gpu 0                ;
atom.relaxed.S0.add r0, x, 1  | atom.relaxed.S1.add r1, x, 1  ;
exists (x == 1))";
  EXPECT_FALSE(permits(with(with(inc, "S0", "sys"), "S1", "sys"), {"x=1"}));
  EXPECT_TRUE(permits(with(with(inc, "S0", "cta"), "S1", "gpu"), {"x=1"}));
}

}  // namespace
}  // namespace scopesim::props
