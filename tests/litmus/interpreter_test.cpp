// Litmus programs run on the engine: each expected verdict is derived by hand
// from semantics.md (cited per test), never taken from the program's output.
#include <gtest/gtest.h>

#include "sim/litmus/parser.hpp"
#include "sim/litmus/verdict.hpp"

namespace scopesim::litmus {
namespace {

Verdict run(const std::string& text) {
  auto p = std::make_shared<Program>(parse(text, "interpreter_test.litmus"));
  EXPECT_EQ(p->unsupported(), "");
  const models::Model m = to_model(p);
  return judge(m, p->condition.quantifier, ExploreOptions{});
}

bool has(const Verdict& v, FindingKind k) {
  for (const FindingSummary& f : v.exploration.findings)
    if (f.finding.kind == k) return true;
  return false;
}

// Verdict table row 11: store buffering with plain accesses permits r0=r1=0.
TEST(LitmusInterpreter, StoreBufferingWithoutFencesPermitsBothZero) {
  const Verdict v = run(R"(PTX SB
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
st.weak x, 1   | st.weak y, 1   ;
ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0))");
  EXPECT_TRUE(v.proved);
  EXPECT_TRUE(v.holds);
  EXPECT_TRUE(v.witness.has_value());
  EXPECT_FALSE(v.can_hang);
}

// Row 12: fence.sc.gpu on both sides, different CTAs: the two morally strong
// fences are ordered, so one thread sees the other's store.
TEST(LitmusInterpreter, StoreBufferingWithScFencesForbidsBothZero) {
  const Verdict v = run(R"(PTX SB+sc
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
st.weak x, 1   | st.weak y, 1   ;
fence.sc.gpu   | fence.sc.gpu   ;
ld.weak r0, y  | ld.weak r1, x  ;
~exists (P0:r0 == 0 /\ P1:r1 == 0))");
  EXPECT_TRUE(v.proved);
  EXPECT_TRUE(v.holds);
}

// Row 1: message passing through release.gpu / acquire.gpu across CTAs
// forbids flag=1 with stale data; row 3: at cta scope across CTAs it is
// permitted (the pair is not morally strong) and the scoped race is reported.
TEST(LitmusInterpreter, MessagePassingDependsOnScope) {
  const std::string mp = R"(PTX MP
{ x=0; f=0; }
P0@cta 0,gpu 0      | P1@cta 1,gpu 0      ;
st.weak x, 1        | ld.acquire.SCOPE r0, f ;
st.release.SCOPE f, 1  | ld.weak r1, x       ;
exists (P1:r0 == 1 /\ P1:r1 == 0))";
  auto with = [&](const std::string& scope) {
    std::string s = mp;
    for (std::size_t at; (at = s.find("SCOPE")) != std::string::npos;) s.replace(at, 5, scope);
    return run(s);
  };
  const Verdict gpu = with("gpu");
  EXPECT_TRUE(gpu.proved);
  EXPECT_FALSE(gpu.holds);
  const Verdict cta = with("cta");
  EXPECT_TRUE(cta.holds);
  EXPECT_TRUE(has(cta, FindingKind::scoped_race));
}

// Row 14: a block barrier between the stores and the loads, same CTA: every
// participant's earlier stores are visible after it, so both loads read 1.
TEST(LitmusInterpreter, BarrierOrdersEveryParticipantsStores) {
  const Verdict v = run(R"(PTX SB+bar
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
st.weak x, 1   | st.weak y, 1   ;
bar.cta.sync 0 | bar.cta.sync 0 ;
ld.weak r0, y  | ld.weak r1, x  ;
forall (P0:r0 == 1 /\ P1:r1 == 1))");
  EXPECT_TRUE(v.proved);
  EXPECT_TRUE(v.holds);
  EXPECT_FALSE(v.can_hang);
}

// PTX: bar.sync without a count waits for every thread of the CTA. Barrier 1
// and barrier 2 each wait for both threads, each thread waits at a different
// one: deadlock, no execution ends, so a forall holds vacuously.
TEST(LitmusInterpreter, DifferentBarriersOfOneCtaDeadlock) {
  const Verdict v = run(R"(PTX bar-diff
{ x=0; }
P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
bar.cta.sync 1 | bar.cta.sync 2 ;
forall (x == 1))");
  EXPECT_TRUE(v.can_hang);
  EXPECT_TRUE(has(v, FindingKind::deadlock));
  EXPECT_TRUE(v.exploration.outcomes.empty());
  EXPECT_TRUE(v.holds);
}

// Row 24: morally strong RMWs (sys scope) are atomic, so two increments
// always give 2; at cta scope from different CTAs they are not, and an
// update can be lost.
TEST(LitmusInterpreter, RmwAtomicityDependsOnScope) {
  const Verdict sys = run(R"(PTX inc
{ x=0; }
P0@cta 0,gpu 0                | P1@cta 1,gpu 0                ;
atom.relaxed.sys.add r0, x, 1 | atom.relaxed.sys.add r0, x, 1 ;
forall (x == 2))");
  EXPECT_TRUE(sys.holds);
  const Verdict cta = run(R"(PTX inc
{ x=0; }
P0@cta 0,gpu 0                | P1@cta 1,gpu 0                ;
atom.relaxed.cta.add r0, x, 1 | atom.relaxed.cta.add r0, x, 1 ;
exists (x == 1))");
  EXPECT_TRUE(cta.holds);
}

// A spin loop on a release/acquire flag (gpu scope, same GPU: morally strong,
// so the write is eventually seen): the loop ends, and after it the data is
// visible (row 1). The spin does not make the exploration infinite.
TEST(LitmusInterpreter, SpinLoopTerminatesAndSynchronizes) {
  const Verdict v = run(R"(PTX spin
{ x=0; f=0; }
P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
st.weak x, 42       | LC0:                 ;
st.release.gpu f, 1 | ld.acquire.gpu r0, f ;
                    | beq r0, 0, LC0       ;
                    | ld.weak r1, x        ;
forall (P1:r1 == 42))");
  EXPECT_TRUE(v.proved);
  EXPECT_TRUE(v.holds);
  EXPECT_FALSE(v.can_hang);
}

// Local arithmetic and a store of a register: r1 = x + 1 is stored to y.
TEST(LitmusInterpreter, RegistersCarryValuesToStores) {
  const Verdict v = run(R"(PTX local
{ x=5; y=0; }
P0@cta 0,gpu 0 ;
ld.weak r0, x ;
add r1, r0, 1 ;
st.weak y, r1 ;
forall (y == 6 /\ P0:r1 == 6))");
  EXPECT_TRUE(v.holds);
}

// The builder makes the same program as the parser: SB with fence.sc.cta in
// one CTA (row 12, second half) forbids r0=r1=0.
TEST(LitmusInterpreter, BuiltProgramRunsLikeAParsedOne) {
  auto p = std::make_shared<Program>();
  p->name = "SB+sc-cta";
  p->location("x").location("y");
  p->thread(0).st(Sem::weak, Scope::sys, "x", Operand::constant(1)).fence(Sem::sc, Scope::cta).ld(Sem::weak, Scope::sys, "r0", "y");
  p->thread(0).st(Sem::weak, Scope::sys, "y", Operand::constant(1)).fence(Sem::sc, Scope::cta).ld(Sem::weak, Scope::sys, "r1", "x");
  // Condition: exists r0 == 0 /\ r1 == 0.
  auto eq = [](std::uint32_t t, const std::string& r) {
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Kind::eq;
    e->lhs.kind = Term::Kind::reg;
    e->lhs.thread = t;
    e->lhs.name = r;
    return e;
  };
  auto both = std::make_shared<Expr>();
  both->kind = Expr::Kind::and_;
  both->sub = {eq(0, "r0"), eq(1, "r1")};
  p->condition.expr = both;
  const Verdict v = judge(to_model(p), Quantifier::exists, ExploreOptions{});
  EXPECT_TRUE(v.proved);
  EXPECT_FALSE(v.holds);
  EXPECT_EQ(print(*p), print(parse(print(*p), "again.litmus")));
}

}  // namespace
}  // namespace scopesim::litmus
