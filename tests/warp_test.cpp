// Warp collectives: shuffles and votes exchange values among the lanes of a
// mask, validate the mask, and order no memory (catalogue: warp family).
#include <gtest/gtest.h>

#include "tests/test_kernels.hpp"

namespace scopesim {
namespace {
using namespace scopesim::dialect;
using test::Cells;
using test::kernel_model;

Exploration exhaustive(const models::Model& m) { return explore(m, m.chapter, ExploreOptions{}); }

// Lane i holds i + 1; a tree of __shfl_down_sync halves leaves the sum of
// 1..32 = 528 in lane 0.
SCOPESIM_KERNEL void warp_sum(Cells c) {
  int v = static_cast<int>(thread_idx().x) + 1;
  for (unsigned d = 16; d > 0; d /= 2) v += shfl_down_sync(0xffffffffu, v, d);
  if (thread_idx().x == 0) *c.r0 = v;
}

TEST(Warp, ShuffleDownReduction) {
  const Exploration x = exhaustive(kernel_model<warp_sum>("t.warp_sum", 1, 32));
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=528 r1=0 r2=0");
}

// __shfl_sync(mask, v, 0) broadcasts lane 0's value; __shfl_xor_sync with 1
// swaps neighbours; __shfl_up_sync by 1 leaves lane 0 its own value.
SCOPESIM_KERNEL void shuffles(Cells c) {
  const int lane = static_cast<int>(thread_idx().x);
  const int from0 = shfl_sync(0xfu, 10 + lane, 0);
  const int swapped = shfl_xor_sync(0xfu, 10 + lane, 1);
  const int up = shfl_up_sync(0xfu, 10 + lane, 1);
  if (lane == 3) {
    *c.r0 = from0;    // 10
    *c.r1 = swapped;  // lane 2's: 12
  }
  if (lane == 0) *c.r2 = up;  // no lane below: its own, 10
}

TEST(Warp, ShuffleModes) {
  const Exploration x = exhaustive(kernel_model<shuffles>("t.shuffles", 1, 4));
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=10 r1=12 r2=10");
}

// Odd lanes vote 1: the ballot of 8 lanes is 0b10101010 = 170.
SCOPESIM_KERNEL void vote(Cells c) {
  const unsigned b = ballot_sync(0xffu, thread_idx().x % 2 == 1);
  if (thread_idx().x == 0) *c.r0 = static_cast<int>(b);
}

TEST(Warp, Ballot) {
  const Exploration x = exhaustive(kernel_model<vote>("t.vote", 1, 8));
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=170 r1=0 r2=0");
}

// Lane 0 writes x, then a shuffle hands lane 1 a "ready" token, and lane 1
// reads x. The shuffle orders no memory: lane 1 may read the initial 0, and
// the plain write and read race (catalogue: warp.shfl_is_not_a_fence).
SCOPESIM_KERNEL void shfl_as_signal(Cells c) {
  if (thread_idx().x == 0) *c.x = 1;
  const int token = shfl_sync(0x3u, 1, 0);
  if (thread_idx().x == 1 && token == 1) *c.r0 = *c.x;
}

TEST(Warp, ShuffleIsNotAFence) {
  const Exploration x = exhaustive(kernel_model<shfl_as_signal>("t.shfl_as_signal", 1, 2));
  EXPECT_TRUE(test::permits(x, "r0=0 r1=0 r2=0"));
  EXPECT_TRUE(test::permits(x, "r0=1 r1=0 r2=0"));
  EXPECT_NE(test::finding(x, FindingKind::data_race), nullptr);
}

// The same with __syncwarp in place of the shuffle orders the write before
// the read (a warp barrier is a cta-scope release/acquire among its lanes).
SCOPESIM_KERNEL void syncwarp_as_signal(Cells c) {
  if (thread_idx().x == 0) *c.x = 1;
  syncwarp(0x3u);
  if (thread_idx().x == 1) *c.r0 = *c.x;
}

TEST(Warp, SyncwarpOrdersMemory) {
  const Exploration x = exhaustive(kernel_model<syncwarp_as_signal>("t.syncwarp_as_signal", 1, 2));
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "r0=1 r1=0 r2=0");
}

// Lanes 0 and 1 shuffle with different masks: divergence.
SCOPESIM_KERNEL void mismatched_masks(Cells c) {
  const unsigned mask = thread_idx().x == 0 ? 0x3u : 0x7u;
  *c.r0 = shfl_sync(mask, 1, 0);
}

TEST(Warp, MismatchedMasksAreDivergence) {
  const Exploration x = exhaustive(kernel_model<mismatched_masks>("t.mismatched_masks", 1, 3));
  EXPECT_NE(test::finding(x, FindingKind::barrier_divergence), nullptr);
}

}  // namespace
}  // namespace scopesim
