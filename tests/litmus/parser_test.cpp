// The litmus parser: what it builds from good input, and the exact one-line
// error (file:line: what) for malformed and unsupported input.
#include <gtest/gtest.h>

#include <chrono>

#include "sim/litmus/layout.hpp"
#include "sim/litmus/parser.hpp"

namespace scopesim::litmus {
namespace {

constexpr const char* kMp = R"(PTX MP
"a comment
over two lines"
{
x=0; y = 5;
P1:r2=7;
}
 P0@cta 0,gpu 0         | P1@cta 1, gpu 0        ;
 st.weak x, 1           | LC00:                  ;
 st.release.gpu y, 1    | ld.acquire.gpu r1, y   ;
                        | bne r1, 1, LC00        ;
                        | ld.weak r2, x          ;
exists
(P1:r1 == 1 /\ ~(P1:r2 = 1) \/ y != 1)
)";

TEST(LitmusParser, BuildsThreadsPlacementInstructionsAndCondition) {
  const Program p = parse(kMp, "mp.litmus");
  EXPECT_EQ(p.name, "MP");
  EXPECT_EQ(p.file, "mp.litmus");
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_EQ(p.threads[1].cta, 1u);
  EXPECT_EQ(p.threads[1].gpu, 0u);
  EXPECT_EQ(p.locations.at("y"), 5);
  EXPECT_EQ(p.threads[1].init.at("r2"), 7);
  // Empty cells add nothing: P0 has two instructions, P1 four (a label among them).
  ASSERT_EQ(p.threads[0].code.size(), 2u);
  ASSERT_EQ(p.threads[1].code.size(), 4u);
  const Instr& st = p.threads[0].code[1];
  EXPECT_EQ(st.op, Op::st);
  EXPECT_EQ(st.sem, Sem::release);
  EXPECT_EQ(st.scope, Scope::gpu);
  EXPECT_EQ(st.loc, "y");
  EXPECT_EQ(st.a.value, 1);
  EXPECT_EQ(st.line, 10u);  // the row's line identifies the instruction
  const Instr& br = p.threads[1].code[2];
  EXPECT_EQ(br.op, Op::branch);
  EXPECT_EQ(br.cmp, BranchCmp::ne);
  EXPECT_EQ(*br.a.reg, "r1");
  EXPECT_EQ(br.label, "LC00");
  // /\ binds tighter than \/; '=' is '=='.
  EXPECT_EQ(p.condition.quantifier, Quantifier::exists);
  EXPECT_EQ(print(*p.condition.expr), "((P1:r1 == 1 /\\ ~(P1:r2 == 1)) \\/ y != 1)");
  EXPECT_EQ(p.condition.line, 13u);
}

TEST(LitmusParser, ReadsAtomRedFencesBarriersAndLocalOps) {
  const Program p = parse(R"(PTX ops
{ x=0 }
P0@cta 0,gpu 0 ;
atom.acq_rel.sys.cas r0, x, 0, r5 ;
red.relaxed.gpu.sub x, 2 ;
fence.acq_rel.cta ;
fence.sc.sys ;
bar.cta.sync 1 ;
bar.cta.sync 1, r0, 3 ;
bar.cta.arrive 2, 4 ;
add r1, r0, 1 ;
ld.volatile r2, x ;
goto LC0 ;
LC0: ;
~exists (0:r1 == 2))", "ops.litmus");
  const std::vector<Instr>& c = p.threads[0].code;
  ASSERT_EQ(c.size(), 11u);
  EXPECT_EQ(c[0].rmw, RmwOp::cas);
  EXPECT_EQ(*c[0].b.reg, "r5");
  EXPECT_EQ(c[1].op, Op::red);
  EXPECT_EQ(c[1].rmw, RmwOp::sub);
  EXPECT_EQ(c[2].sem, Sem::acq_rel);
  EXPECT_EQ(c[3].sem, Sem::sc);
  // bar.cta.sync INSTANCE [, ID [, COUNT]]: one operand names the barrier itself.
  EXPECT_EQ(c[4].a.value, 1);
  EXPECT_FALSE(c[4].has_count);
  EXPECT_EQ(*c[5].a.reg, "r0");
  EXPECT_TRUE(c[5].has_count);
  EXPECT_EQ(c[5].b.value, 3);
  EXPECT_EQ(c[6].op, Op::bar_arrive);
  EXPECT_EQ(c[6].a.value, 4);
  EXPECT_EQ(c[7].op, Op::local);
  EXPECT_TRUE(c[8].is_volatile);
  EXPECT_EQ(p.condition.quantifier, Quantifier::not_exists);
}

TEST(LitmusParser, PrintThenParseGivesTheSameListing) {
  const Program p = parse(kMp, "mp.litmus");
  const std::string once = print(p);
  const Program q = parse(once, "printed.litmus");
  EXPECT_EQ(print(q), once);
  EXPECT_EQ(q.threads[1].code.size(), p.threads[1].code.size());
  EXPECT_EQ(q.threads[1].init.at("r2"), 7);
}

// .u32 changes what div, min, max and branches compute, so it is kept and printed back.
TEST(LitmusParser, UnsignedTypeIsKeptAndPrinted) {
  const Program p = parse(R"(PTX u
{ x=0; }
P0@cta 0,gpu 0 ;
atom.relaxed.gpu.min.u32 r0, x, 1 ;
atom.relaxed.gpu.max.s32 r1, x, 1 ;
div.u32 r2, r0, 2 ;
L: ;
bge.u32 r2, 1, L ;
exists (x == 0))", "u.litmus");
  const std::vector<Instr>& c = p.threads[0].code;
  EXPECT_TRUE(c[0].is_unsigned);
  EXPECT_FALSE(c[1].is_unsigned);
  EXPECT_TRUE(c[2].is_unsigned);
  EXPECT_TRUE(c[4].is_unsigned);
  EXPECT_EQ(print(c[0]), "atom.relaxed.gpu.min.u32 r0, x, 1");
  EXPECT_EQ(print(c[1]), "atom.relaxed.gpu.max r1, x, 1");
  EXPECT_EQ(print(c[2]), "div.u32 r2, r0, 2");
  EXPECT_EQ(print(c[4]), "bge.u32 r2, 1, L");
  EXPECT_EQ(print(parse(print(p), "again.litmus")), print(p));
}

// The bitwise operations, remainder and shifts parse and print back; shr.b32
// fills with zeros as shr.u32 does (PTX), so it is read and printed as that.
TEST(LitmusParser, BitwiseRemainderAndShifts) {
  const Program p = parse(R"(PTX ops
{ x=0; }
P0@cta 0,gpu 0 ;
rem r1, r0, 3 ;
and.b32 r2, r0, 12 ;
or r3, r0, 1 ;
xor r4, r0, r0 ;
shl.b32 r5, r0, 2 ;
shr.b32 r6, r0, 2 ;
shr.s32 r7, r0, 2 ;
exists (x == 0))", "ops.litmus");
  const std::vector<Instr>& c = p.threads[0].code;
  ASSERT_EQ(c.size(), 7u);
  EXPECT_EQ(c[0].local, LocalOp::rem);
  EXPECT_EQ(c[1].local, LocalOp::and_);
  EXPECT_EQ(c[2].local, LocalOp::or_);
  EXPECT_EQ(c[3].local, LocalOp::xor_);
  EXPECT_EQ(c[4].local, LocalOp::shl);
  EXPECT_EQ(c[5].local, LocalOp::shr);
  EXPECT_TRUE(c[5].is_unsigned);
  EXPECT_FALSE(c[6].is_unsigned);
  EXPECT_EQ(print(c[0]), "rem r1, r0, 3");
  EXPECT_EQ(print(c[3]), "xor r4, r0, r0");
  EXPECT_EQ(print(c[5]), "shr.u32 r6, r0, 2");
  EXPECT_EQ(print(c[6]), "shr r7, r0, 2");
  EXPECT_EQ(print(parse(print(p), "again.litmus")), print(p));
}

// Parsing is linear in the input: a megabyte of blanks inside the initial
// state (and between its entries) takes well under a second.
TEST(LitmusParser, LongBlanksInTheInitialStateParseInLinearTime) {
  const std::string blanks(1 << 20, ' ');
  const auto start = std::chrono::steady_clock::now();
  const Program p = parse("PTX sp\n{ x=1;" + blanks + "y=2;\n" + blanks + "\n }\nP0@cta 0,gpu 0 ;\nld.weak r0, x ;\nexists (y == 2)",
                          "sp.litmus");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_EQ(p.locations.at("x"), 1);
  EXPECT_EQ(p.locations.at("y"), 2);
}

std::string error_of(const std::string& text) {
  try {
    parse(text, "t.litmus");
  } catch (const ParseError& e) {
    return e.what();
  } catch (const Unsupported& e) {
    return e.what();
  }
  return "no error";
}

const std::string kHead = "PTX t\n{ x=0; }\nP0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n";  // rows start at line 4

TEST(LitmusParser, MalformedInputNamesFileLineAndProblem) {
  EXPECT_EQ(error_of("foo bar\n"), "t.litmus:1: expected 'PTX NAME' header, found 'foo'");
  EXPECT_EQ(error_of("PTX t\nP0@cta 0,gpu 0 ;\n"), "t.litmus:2: expected the initial state '{ ... }', found 'P0@cta 0,gpu 0 ;'");
  EXPECT_EQ(error_of("PTX t\n{ x=0;\n"), "t.litmus:2: initial state is never closed (missing '}')");
  // The thread row or the condition where the state should have ended: the '}' is missing.
  EXPECT_EQ(error_of("PTX t\n{ x=0;\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\nexists (P0:r0 == 1)\n"),
            "t.litmus:2: initial state is never closed (missing '}')");
  EXPECT_EQ(error_of("PTX t\n{ x=0;\nexists (x == 1)\n"), "t.litmus:2: initial state is never closed (missing '}')");
  EXPECT_EQ(error_of("PTX t\n{ x=a+1; }\n"), "t.litmus:2: initial value 'a+1' is not a number");
  EXPECT_EQ(error_of("PTX t\n{ }\nP1@cta 0,gpu 0 ;\n"), "t.litmus:3: thread 0 must be named P0, found 'P1'");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: the row has 1 column(s), the test has 2 thread(s)");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | st.weak x, 1\nexists (P0:r0 == 0)"),
            "t.litmus:4: an instruction row must end with ';'");
  EXPECT_EQ(error_of(kHead + "ld.strong r0, x | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: 'ld.strong': unknown semantics 'strong'");
  EXPECT_EQ(error_of(kHead + "ld.relaxed.cpu r0, x | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: 'ld.relaxed.cpu': unknown scope 'cpu' (cta, gpu or sys)");
  EXPECT_EQ(error_of(kHead + "st.acquire.gpu x, 1 | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: 'st.acquire.gpu': .acquire is not allowed here");
  EXPECT_EQ(error_of(kHead + "atom.relaxed.gpu.add r0, x | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: 'atom.relaxed.gpu.add' takes 3 operand(s), found 2");
  EXPECT_EQ(error_of(kHead + "jump LC0 | ;\nexists (P0:r0 == 0)"), "t.litmus:4: unknown instruction 'jump'");
  EXPECT_EQ(error_of(kHead + "goto LC0 | ;\nexists (P0:r0 == 0)"), "t.litmus:4: P0 jumps to undefined label LC0");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\n"), "t.litmus:4: missing the final condition (exists, ~exists or forall)");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\nexists (P0:r0 == 0"),
            "t.litmus:5: expected ')' in the condition, found the end");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\nexists (P2:r0 == 0)"),
            "t.litmus:5: 'P2' in the condition is not a thread of the test");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\nexists (P0:r0 < 0)"),
            "t.litmus:5: unexpected '<' in the condition");
}

// A chain of /\ (or \/) is one node however long; parentheses and negations
// nest at most max_nesting deep, and one more is malformed input.
TEST(LitmusParser, ConditionChainsAreFlatAndNestingIsBounded) {
  const Program p = parse(kHead + "ld.weak r0, x | ;\nexists (P0:r0 == 0 /\\ x == 1 /\\ x != 2 \\/ ~(x == 3))", "t.litmus");
  ASSERT_EQ(p.condition.expr->kind, Expr::Kind::or_);
  ASSERT_EQ(p.condition.expr->sub.size(), 2u);
  EXPECT_EQ(p.condition.expr->sub[0]->sub.size(), 3u);
  EXPECT_EQ(print(p.condition), "exists (((P0:r0 == 0 /\\ x == 1 /\\ x != 2) \\/ ~(x == 3)))");
  auto nested = [](std::size_t depth, const std::string& open) {
    std::string c;
    for (std::size_t i = 0; i < depth; ++i) c += open;
    c += "x == 0";
    if (open == "(")
      for (std::size_t i = 0; i < depth; ++i) c += ")";
    return kHead + "ld.weak r0, x | ;\nexists " + c;
  };
  EXPECT_EQ(error_of(nested(max_nesting, "(")), "no error");
  EXPECT_EQ(error_of(nested(max_nesting + 1, "(")), "t.litmus:5: condition nested deeper than 100");
  EXPECT_EQ(error_of(nested(max_nesting, "~")), "no error");
  EXPECT_EQ(error_of(nested(max_nesting + 1, "~")), "t.litmus:5: condition nested deeper than 100");
  // Far deeper than any stack could recurse: the same one-line error.
  EXPECT_EQ(error_of(nested(200000, "(")), "t.litmus:5: condition nested deeper than 100");
}

// Numbers: at most one '-'; a value that does not fit 32 bits is unsupported
// however large; a thread index is never wrapped to 32 bits.
TEST(LitmusParser, NumbersAndThreadIndexesAreReadWhole) {
  const std::string row = kHead + "ld.weak r0, x | ;\n";
  EXPECT_EQ(error_of(kHead + "st.weak x, --5 | ;\nexists (x == 0)"),
            "t.litmus:4: stored value '--5' is neither a register nor a number");
  EXPECT_EQ(error_of(kHead + "st.weak x, 4294967296 | ;\nexists (x == 0)"),
            "t.litmus:4: unsupported: value 4294967296 does not fit 32 bits");
  EXPECT_EQ(error_of(kHead + "st.weak x, 99999999999999999999 | ;\nexists (x == 0)"),
            "t.litmus:4: unsupported: value 99999999999999999999 does not fit 32 bits");
  EXPECT_EQ(error_of(row + "exists (x == -99999999999999999999)"),
            "t.litmus:5: unsupported: value -99999999999999999999 does not fit 32 bits");
  EXPECT_EQ(error_of("PTX t\n{ x=0x1ffffffff; }\n"), "t.litmus:2: unsupported: value 0x1ffffffff does not fit 32 bits");
  // The largest and smallest 32-bit values fit (unsigned or signed).
  const Program p = parse(kHead + "st.weak x, 4294967295 | st.weak x, -2147483648 ;\nexists (x == -1)", "t.litmus");
  EXPECT_EQ(p.threads[0].code[0].a.value, -1);
  EXPECT_EQ(p.threads[1].code[0].a.value, INT32_MIN);
  // P4294967297 is not P1, P4294967296 not P0.
  EXPECT_EQ(error_of(row + "exists (P4294967297:r0 == 1)"), "t.litmus:5: 'P4294967297' in the condition is not a thread of the test");
  EXPECT_EQ(error_of("PTX t\n{ x=0; P4294967296:r0=7; }\nP0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\nexists (x == 0)"),
            "t.litmus:2: thread P4294967296 is not in the test");
}

// Quantifiers after '~' and blanks, and registers initialised twice, are
// malformed input named as such.
TEST(LitmusParser, QuantifiersAndInitialisedRegistersAreChecked) {
  const Program p = parse(kHead + "ld.weak r0, x | ;\n~ exists (P0:r0 == 1)", "t.litmus");
  EXPECT_EQ(p.condition.quantifier, Quantifier::not_exists);
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\n~forall (P0:r0 == 1)"),
            "t.litmus:5: expected exists, ~exists or forall, found '~forall'");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\n~ forall (P0:r0 == 1)"),
            "t.litmus:5: expected exists, ~exists or forall, found '~forall'");
  EXPECT_EQ(error_of("PTX t\n{ x=0; P0:r1=1;\n0:r1=2; }\nP0@cta 0,gpu 0 ;\nexists (x == 0)"),
            "t.litmus:3: register 'P0:r1' is initialised twice");
}

// The condition names what the test gives a value: a register its thread
// writes or the initial state sets, a location the initial state declares or
// an instruction uses. Anything else is a typo that would read 0.
TEST(LitmusParser, ConditionNamesOnlyWhatTheTestSets) {
  const std::string row = kHead + "ld.weak r0, x | ;\n";  // the condition is on line 5
  EXPECT_EQ(error_of(row + "exists (P1:r9 == 0)"),
            "t.litmus:5: 'P1:r9' in the condition is never written: no instruction of P1 writes r9 and the initial "
            "state does not set it");
  EXPECT_EQ(error_of(row + "exists (0:r1 == 0)"),
            "t.litmus:5: 'P0:r1' in the condition is never written: no instruction of P0 writes r1 and the initial "
            "state does not set it");
  EXPECT_EQ(error_of(row + "exists (zz == 0)"),
            "t.litmus:5: location 'zz' in the condition is neither in the initial state nor used by an instruction");
  // The line of the name, in a condition over several lines.
  EXPECT_EQ(error_of(row + "exists\n(P0:r0 == 0 /\\\n zz == 1)"),
            "t.litmus:7: location 'zz' in the condition is neither in the initial state nor used by an instruction");
  // A register only read by its thread is never written either.
  EXPECT_EQ(error_of(kHead + "add r1, r2, 1 | ;\nexists (P0:r2 == 0)"),
            "t.litmus:5: 'P0:r2' in the condition is never written: no instruction of P0 writes r2 and the initial "
            "state does not set it");
  // Set by the initial state, declared there, or used by an instruction: a value of the test's.
  EXPECT_EQ(error_of("PTX t\n{ x=0; y=1; P1:r1=3; }\nP0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\nst.weak z, 1 | ;\n"
                     "exists (P1:r1 == 3 /\\ y == 1 /\\ z == 1)"),
            "no error");
  EXPECT_EQ(error_of(kHead + "atom.relaxed.gpu.add r1, x, 1 | add r2, 1, 1 ;\nexists (P0:r1 == 0 /\\ P1:r2 == 2)"),
            "no error");
}

// Errors that say what is allowed: a placement out of range, a condition
// whose quantifier is none of the three.
TEST(LitmusParser, ErrorsNameWhatIsAllowed) {
  EXPECT_EQ(error_of("PTX t\n{ x=0; }\nP0@cta 1024,gpu 0 ;\nld.weak r0, x ;\nexists (P0:r0 == 0)"),
            "t.litmus:3: 'cta 1024' in the placement of P0: a cta is a number from 0 to 1023");
  EXPECT_EQ(error_of("PTX t\n{ x=0; }\nP0@cta 0,gpu -1 ;\nld.weak r0, x ;\nexists (P0:r0 == 0)"),
            "t.litmus:3: 'gpu -1' in the placement of P0: a gpu is a number from 0 to 1023");
  EXPECT_EQ(error_of("PTX t\n{ x=0; }\nP0@cta 1023,gpu 0 ;\nld.weak r0, x ;\nexists (P0:r0 == 0)"), "no error");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\nmaybe (P0:r0 == 0)"),
            "t.litmus:5: expected exists, ~exists or forall to start the final condition, found 'maybe'");
  EXPECT_EQ(error_of(kHead + "ld.weak r0, x | ;\n(P0:r0 == 0)"),
            "t.litmus:5: expected exists, ~exists or forall to start the final condition, found '(P0:r0 == 0)'");
}

// A UTF-8 byte-order mark before the header, as some editors write, is skipped.
TEST(LitmusParser, AByteOrderMarkIsSkipped) {
  const Program p = parse("\xEF\xBB\xBF" + std::string(kMp), "mp.litmus");
  EXPECT_EQ(p.name, "MP");
  EXPECT_EQ(print(p), print(parse(kMp, "mp.litmus")));
}

TEST(LitmusParser, InstructionsOutsideTheModelAreUnsupportedNotWrong) {
  EXPECT_EQ(error_of(kHead + "ld.weak.u64 r0, x | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: unsupported: 'ld.weak.u64': only 32-bit accesses are modelled (mixed sizes)");
  EXPECT_EQ(error_of(kHead + "suld r0, x | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: unsupported: 'suld': proxies (texture, surface, constant) are not modelled");
  EXPECT_EQ(error_of(kHead + "fence.proxy.alias | ;\nexists (P0:r0 == 0)"),
            "t.litmus:4: unsupported: 'fence.proxy.alias': proxy fences are not modelled");
  // Threads on two GPUs parse but cannot run: the program says why.
  const Program p = parse("PTX t\n{ }\nP0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\nexists (0 == 0)", "t.litmus");
  EXPECT_EQ(p.unsupported(),
            "threads on more than one GPU (P0 on gpu 0, P1 on gpu 1): the simulator launches one grid on one GPU");
}

}  // namespace
}  // namespace scopesim::litmus
