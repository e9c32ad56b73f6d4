// The CUDA a litmus test becomes in the GPU harness (sim/litmus/cuda.hpp).
// Expectations follow from the emitter's contract in cuda.hpp: one warp per
// test thread, lane 0 performs the exact PTX instruction, a loop (a jump back
// to a label already passed) checks the spin budget, a forward jump does not,
// and the host observes the condition's names in the simulator's order.
#include <gtest/gtest.h>

#include "sim/litmus/cuda.hpp"
#include "sim/litmus/parser.hpp"

namespace scopesim::litmus {
namespace {

std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

TEST(LitmusCuda, ModelNameIsDirectoryAndStem) {
  EXPECT_EQ(gpu_model_name("tests/conformance/dat3m-ptx/Manual/SB+bar-const-diff.litmus"),
            "litmus/Manual/SB+bar-const-diff");
  EXPECT_EQ(gpu_model_name("MP.litmus"), "litmus/MP");
  // Lexically normal; a ".." directory is no name and is left out.
  EXPECT_EQ(gpu_model_name("sub/../MP.litmus"), "litmus/MP");
  EXPECT_EQ(gpu_model_name("a/b/../c/MP.litmus"), "litmus/c/MP");
  EXPECT_EQ(gpu_model_name("../MP.litmus"), "litmus/MP");
  EXPECT_EQ(gpu_model_name("../../MP.litmus"), "litmus/MP");
}

// all.cu includes each test by a quoted path, which has no escapes: a '"',
// a backslash or a line break would end it or be read otherwise.
TEST(LitmusCuda, OnlyPlainPathsAreIncludable) {
  EXPECT_TRUE(includable("Manual/SB+bar-const-diff.cu"));
  EXPECT_TRUE(includable("data/it's here.cu"));
  EXPECT_FALSE(includable("data/q\"1.cu"));
  EXPECT_FALSE(includable("data\\q1.cu"));
  EXPECT_FALSE(includable("data/q\n1.cu"));
}

// A file name with a line break stays inside the header's comment and the
// registrar's string literal.
TEST(LitmusCuda, FileNamesStayInTheirCommentAndLiteral) {
  const Program p = parse("PTX t\n{ x=0; }\nP0@cta 0,gpu 0 ;\nld.weak r0, x ;\nexists (P0:r0 == 0)", "a\nb/t.litmus");
  const std::string cu = cuda_source(p, "litmus/b/t");
  EXPECT_NE(cu.find("// PTX litmus test t (a b/t.litmus) as the GPU harness's model litmus/b/t.\n"), std::string::npos) << cu;
  EXPECT_NE(cu.find("\"a\\012b/t.litmus\""), std::string::npos) << cu;
}

// P0 spins on f (LC00 is passed before the jump back to it: one check); P1's
// branch jumps forward to a label it has not passed (no check).
TEST(LitmusCuda, OnlyBackwardJumpsCheckTheSpinBudget) {
  const Program p = parse(R"(PTX spin
{ f=0; x=0; }
P0@cta 0,gpu 0          | P1@cta 1,gpu 0       ;
LC00:                   | st.weak x, 1         ;
ld.acquire.gpu r0, f    | beq 0, 0, LC10       ;
beq r0, 0, LC00         | st.weak x, 2         ;
ld.weak r1, x           | LC10:                ;
                        | st.release.gpu f, 1  ;
exists (P0:r1 == 0 /\ x == 1))",
                          "dir/spin.litmus");
  const std::string cu = cuda_source(p, gpu_model_name(p.file));
  EXPECT_EQ(count(cu, "over_budget()"), 1u);
  const std::size_t check = cu.find("over_budget()");
  EXPECT_LT(cu.find("P0_LC00:;"), check);
  EXPECT_GT(cu.find("goto P0_LC00;"), check);
  // The exact instructions, performed by lane 0.
  EXPECT_NE(cu.find("if (lane == 0) asm volatile(\"ld.acquire.gpu.global.u32 %0, [%1];\""), std::string::npos);
  EXPECT_NE(cu.find("if (lane == 0) asm volatile(\"st.release.gpu.global.u32 [%0], %1;\""), std::string::npos);
  // Two CTAs of one test thread each: two blocks of one warp.
  EXPECT_NE(cu.find("scopesim::gpu::litmus::model(\"litmus/dir/spin\", \"dir/spin.litmus\", \"exists ((P0:r1 == 0 /\\\\ x == 1))\", 2, 32, program)"),
            std::string::npos);
  // Observations in the condition's order: P0:r1 (the only result, results[0]), then x.
  const std::size_t r1 = cu.find("observe(h, \"P0:r1\", reinterpret_cast<const int&>(results[0]));");
  const std::size_t x = cu.find("observe(h, \"x\", reinterpret_cast<const int&>(*loc_x));");
  ASSERT_NE(r1, std::string::npos);
  ASSERT_NE(x, std::string::npos);
  EXPECT_LT(r1, x);
}

// A barrier without a count waits for every test thread of the CTA: 32 lanes each.
TEST(LitmusCuda, BarrierCountsAreInLanes) {
  const Program p = parse(R"(PTX bar
{ x=0; }
P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0       ;
st.weak x, 1   | bar.cta.sync 1 | bar.cta.sync 2, 2, 1 ;
bar.cta.sync 1 | ld.weak r0, x  |                      ;
exists (P1:r0 == 0))",
                          "bar.litmus");
  const std::string cu = cuda_source(p, "litmus/bar");
  EXPECT_EQ(count(cu, "bar.cta.sync %0, %1;\" :: \"r\"(1u), \"r\"(96u)"), 2u);
  EXPECT_EQ(count(cu, "bar.cta.sync %0, %1;\" :: \"r\"(2u), \"r\"(32u * 1u)"), 1u);
}

// The GPU computes what the simulator does: .u32 min/max and division and
// branch comparisons unsigned, signed without a type; inc and dec are .u32.
TEST(LitmusCuda, IntegerTypesMatchTheSimulator) {
  const Program p = parse(R"(PTX types
{ x=0; }
P0@cta 0,gpu 0 ;
atom.relaxed.gpu.min.u32 r0, x, 1 ;
atom.relaxed.gpu.min r1, x, 1 ;
atom.relaxed.gpu.inc r2, x, 3 ;
div.u32 r3, r0, 2 ;
div r4, r0, 2 ;
L: ;
blt.u32 r3, 1, L ;
blt r4, 1, L ;
exists (x == 0))",
                          "types.litmus");
  const std::string cu = cuda_source(p, "litmus/types");
  EXPECT_EQ(count(cu, ".min.u32 %0"), 1u);
  EXPECT_EQ(count(cu, ".min.s32 %0"), 1u);
  EXPECT_EQ(count(cu, ".inc.u32 %0"), 1u);
  EXPECT_NE(cu.find("reg_r3 = (int)((unsigned)reg_r0 / 2u);"), std::string::npos);
  EXPECT_NE(cu.find("reg_r4 = reg_r0 / (2);"), std::string::npos);
  EXPECT_NE(cu.find("if ((unsigned)reg_r3 < 1u) goto P0_L;"), std::string::npos);
  EXPECT_NE(cu.find("if (reg_r4 < (1)) goto P0_L;"), std::string::npos);
}

// Remainder and shift right are signed unless .u32 (shr.b32 is .u32); the
// shifts clamp to 32 bits as PTX does, never shifting a C++ int by 32 or more.
TEST(LitmusCuda, BitwiseRemainderAndShiftsMatchTheSimulator) {
  const Program p = parse(R"(PTX ops
{ x=0; }
P0@cta 0,gpu 0 ;
rem r1, r0, 3 ;
rem.u32 r2, r0, 3 ;
xor r3, r0, 5 ;
shl r4, r0, r3 ;
shr r5, r0, 2 ;
shr.b32 r6, r0, 2 ;
exists (x == 0))",
                          "ops.litmus");
  const std::string cu = cuda_source(p, "litmus/ops");
  EXPECT_NE(cu.find("reg_r1 = reg_r0 % (3);"), std::string::npos);
  EXPECT_NE(cu.find("reg_r2 = (int)((unsigned)reg_r0 % 3u);"), std::string::npos);
  EXPECT_NE(cu.find("reg_r3 = (int)((unsigned)reg_r0 ^ 5u);"), std::string::npos);
  EXPECT_NE(cu.find("reg_r4 = (int)((unsigned)reg_r3 >= 32u ? 0u : (unsigned)reg_r0 << ((unsigned)reg_r3 & 31u));"),
            std::string::npos);
  EXPECT_NE(cu.find("reg_r5 = reg_r0 >> (2u >= 31u ? 31u : 2u);"), std::string::npos);
  EXPECT_NE(cu.find("reg_r6 = (int)(2u >= 32u ? 0u : (unsigned)reg_r0 >> (2u & 31u));"), std::string::npos);
}

}  // namespace
}  // namespace scopesim::litmus
