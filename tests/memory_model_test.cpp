// Unit tests of the memory model's rules through its narrow interface, and of
// the pure pieces beneath it (scope inclusion, lowering, dependence).
// Each expectation is reasoned from semantics.md in the comment beside it.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/core/lowering.hpp"
#include "sim/engine/choice_log.hpp"
#include "sim/model/memory_model.hpp"
#include "sim/model/ptx_model.hpp"

namespace scopesim {
namespace {

Placement gpu_thread(std::uint32_t block) {
  Placement p;
  p.block = block;
  return p;
}

MemOp op(ThreadId t, PtxKind k, Sem s, Scope sc, std::uintptr_t addr, std::uint64_t value = 0) {
  MemOp m;
  m.thread = t;
  m.op = {k, s, sc};
  m.addr = addr;
  m.size = 4;
  m.value = value;
  return m;
}

TEST(ScopeInclusion, IsMutualPlacementLogic) {
  const Placement a = gpu_thread(0), b = gpu_thread(1);
  Placement host;
  host.host = true;
  EXPECT_TRUE(includes(Scope::cta, a, a));
  EXPECT_FALSE(includes(Scope::cta, a, b));  // cta: same block only
  EXPECT_TRUE(includes(Scope::gpu, a, b));
  EXPECT_FALSE(includes(Scope::gpu, a, host));  // device scope excludes the host
  EXPECT_TRUE(includes(Scope::sys, a, host));
}

TEST(Lowering, FollowsTheTableOfSemantics) {
  Event e;
  e.kind = EventKind::load;
  e.access = Access::atomic;
  e.order = Order::seq_cst;
  e.scope = Scope::gpu;
  // seq_cst load: fence.sc.S; ld.acquire.S
  Lowering l = lower(e);
  ASSERT_EQ(l.count, 2);
  EXPECT_EQ(ptx_name(l.ops[0]), "fence.sc.gpu");
  EXPECT_EQ(ptx_name(l.ops[1]), "ld.acquire.gpu");
  // volatile store: st.relaxed.sys
  e.kind = EventKind::store;
  e.access = Access::volatile_;
  l = lower(e);
  ASSERT_EQ(l.count, 1);
  EXPECT_EQ(ptx_name(l.ops[0]), "st.relaxed.sys");
  // atomicAdd: atom.relaxed.gpu
  e.kind = EventKind::rmw;
  e.access = Access::legacy_atomic;
  l = lower(e);
  EXPECT_EQ(ptx_name(l.ops[0]), "atom.relaxed.gpu");
  // relaxed fence: nothing; acquire fence: fence.acq_rel
  e.kind = EventKind::fence;
  e.order = Order::relaxed;
  EXPECT_EQ(lower(e).count, 0);
  e.order = Order::acquire;
  e.scope = Scope::cta;
  EXPECT_EQ(ptx_name(lower(e).ops[0]), "fence.acq_rel.cta");
}

TEST(Dependence, SameLocationWithAWriteOrTwoScFences) {
  StepShape rx{.addr = 8, .reads = true}, wx{.addr = 8, .writes = true}, ry{.addr = 16, .reads = true};
  StepShape f{.fence_sc = true}, bar{.barrier = true};
  EXPECT_TRUE(dependent(rx, wx));
  EXPECT_FALSE(dependent(rx, rx));  // two reads commute
  EXPECT_FALSE(dependent(wx, ry));
  EXPECT_TRUE(dependent(f, f));
  EXPECT_FALSE(dependent(bar, bar));  // arrivals commute; completion joins
}

class Model : public ::testing::Test {
 protected:
  std::unique_ptr<MemoryModel> mm = make_memory_model("ptx");
  ThreadId host = mm->spawn(Placement{.host = true}, -1);
  static constexpr std::uintptr_t x = 0x1000, f = 0x2000;

  void init(std::uintptr_t a) {
    MemOp w = op(host, PtxKind::st, Sem::weak, Scope::sys, a, 0);
    mm->write(w, 0);
  }
  std::vector<std::uint64_t> values(const MemOp& r) {
    std::vector<std::uint64_t> v;
    for (WriteId w : mm->readable(r)) v.push_back(mm->info(w).value);
    return v;
  }
};

// Row 18 (CoRR, relaxed.sys everywhere): after a strong read observes the new
// write it is known, so the old one (coherence-before it) is hidden.
TEST_F(Model, StrongReadCarriesTheWriteForward) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  mm->write(op(t0, PtxKind::st, Sem::relaxed, Scope::sys, x, 1), 0);
  MemOp r = op(t1, PtxKind::ld, Sem::relaxed, Scope::sys, x);
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{0, 1}));
  for (WriteId w : mm->readable(r))
    if (mm->info(w).value == 1) mm->read(r, w);
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{1}));
}

// Row 20: a weak read observes nothing, so the next weak read may see the old value.
TEST_F(Model, WeakReadDoesNotCarryTheWriteForward) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, 1), 0);
  MemOp r = op(t1, PtxKind::ld, Sem::weak, Scope::sys, x);
  for (WriteId w : mm->readable(r))
    if (mm->info(w).value == 1) mm->read(r, w);
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_FALSE(mm->take_findings().empty());  // and the plain accesses race
}

// Row 1: release.gpu / acquire.gpu across blocks synchronize; after the acquire
// reads the flag, the data write is known and the initial value is hidden.
TEST_F(Model, ReleaseAcquireAcrossBlocksAtGpuScope) {
  init(x);
  init(f);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, 1), 0);
  mm->write(op(t0, PtxKind::st, Sem::release, Scope::gpu, f, 1), 0);
  MemOp acq = op(t1, PtxKind::ld, Sem::acquire, Scope::gpu, f);
  for (WriteId w : mm->readable(acq))
    if (mm->info(w).value == 1) mm->read(acq, w);
  EXPECT_EQ(values(op(t1, PtxKind::ld, Sem::weak, Scope::sys, x)), (std::vector<std::uint64_t>{1}));
}

// Row 3: the same at cta scope across blocks is not morally strong: no
// synchronization, the stale value stays readable.
TEST_F(Model, CtaScopeAcrossBlocksDoesNotSynchronize) {
  init(x);
  init(f);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, 1), 0);
  mm->write(op(t0, PtxKind::st, Sem::release, Scope::cta, f, 1), 0);
  MemOp acq = op(t1, PtxKind::ld, Sem::acquire, Scope::cta, f);
  for (WriteId w : mm->readable(acq))
    if (mm->info(w).value == 1) mm->read(acq, w);
  EXPECT_EQ(values(op(t1, PtxKind::ld, Sem::weak, Scope::sys, x)), (std::vector<std::uint64_t>{0, 1}));
}

// Row 24: two morally strong RMWs never read the same write.
TEST_F(Model, MorallyStrongRmwsAreAtomic) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  MemOp a = op(t0, PtxKind::atom, Sem::relaxed, Scope::sys, x);
  const std::vector<WriteId> first = mm->readable(a);
  ASSERT_EQ(first.size(), 1u);
  mm->read(a, first[0]);
  a.value = 1;
  a.rmw_source = first[0];
  mm->write(a, 0);
  MemOp b = op(t1, PtxKind::atom, Sem::relaxed, Scope::sys, x);
  EXPECT_EQ(values(b), (std::vector<std::uint64_t>{1}));  // the initial write is taken
  // ... but a cta RMW in another block is not morally strong with it: lost update possible.
  MemOp c = op(mm->spawn(gpu_thread(2), host), PtxKind::atom, Sem::relaxed, Scope::cta, x);
  EXPECT_EQ(values(c), (std::vector<std::uint64_t>{0, 1}));
}

// Row 23 (2+2W): a strong write may take a coherence slot before a morally
// strong write it does not know about; with fence.sc it would know it.
TEST_F(Model, StrongWritesChooseTheirCoherenceSlot) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  mm->write(op(t0, PtxKind::st, Sem::relaxed, Scope::gpu, x, 1), 0);
  EXPECT_EQ(mm->placements(op(t1, PtxKind::st, Sem::relaxed, Scope::gpu, x, 2)), 2u);
  EXPECT_EQ(mm->placements(op(t1, PtxKind::st, Sem::weak, Scope::sys, x, 2)), 1u);
}

// What a read may return follows every change to the state, however often
// it is asked in between. t1 knows the initial write; t0's
// write, unknown to t1, hides nothing from it (row 20: both readable); once
// t1 learns everything t0 did (a join, as at a synchronize), the write is
// known and the initial one, coherence-before it, hidden.
TEST_F(Model, WhatAReadMayReturnFollowsEveryChange) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  const MemOp r = op(t1, PtxKind::ld, Sem::weak, Scope::sys, x);
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{0}));
  mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, 1), 0);
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{0, 1}));
  std::vector<WriteId> out;
  EXPECT_FALSE(mm->readable(r, out).hidden_by_unknown);  // nothing is hidden at all
  mm->join(t1, t0);
  EXPECT_EQ(values(r), (std::vector<std::uint64_t>{1}));
  EXPECT_FALSE(mm->readable(r, out).hidden_by_unknown);  // hidden straight by the known write
}

// Atomicity beside a racing plain store, one block: t0 stores 1 (plain);
// t1's exchange (relaxed, gpu) reads the initial 0 and goes right after it
// (list: init, 3, 1; no edge between the 3 and the plain 1: they race); t0's
// add of 2 (relaxed, gpu) reads the 3 and goes after t0's own 1 (list: init,
// 3, 1, 5). t2's add of 4 (relaxed, gpu) may not read the initial write or
// the 3 (each read by a morally strong RMW), nor the 1: right after the 1 it
// would be before the 5, whose source, the 3, is before it with an edge 3 ->
// new add (morally strong), putting it between the 5 and its source; after
// the 5, the 5 (morally strong with it, 1 -> 5 by program order) would be
// between it and the 1. Only the 5 is left (semantics.md, "Atomicity").
TEST_F(Model, AnRmwReadsNoWriteWhoseSlotBreaksAtomicity) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(0), host),
                 t2 = mm->spawn(gpu_thread(0), host);
  mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, 1), 0);
  auto rmw = [&](ThreadId t, std::uint64_t operand, std::uint64_t source_value) {
    MemOp a = op(t, PtxKind::atom, Sem::relaxed, Scope::gpu, x);
    for (WriteId w : mm->readable(a))
      if (mm->info(w).value == source_value) {
        mm->read(a, w);
        a.rmw_source = w;
        a.value = source_value + operand;
        ASSERT_EQ(mm->placements(a), 1u);
        mm->write(a, 0);
        return;
      }
    FAIL() << "source " << source_value << " not readable";
  };
  rmw(t1, 3, 0);  // the exchange, as an add of 3 to 0
  rmw(t0, 2, 3);
  EXPECT_EQ(values(op(t2, PtxKind::atom, Sem::relaxed, Scope::gpu, x)), (std::vector<std::uint64_t>{5}));
}

// A strong write takes no slot that would hide, after the fact, the write a
// read returned (semantics.md, "A read may return"). One block: t1 stores 2
// (plain), t0 stores 1 (relaxed, gpu): a strong write goes at the end or
// before a morally strong write, and the 2 is weak, so list: init, 2, 1, no
// edge between them. t1's release store of 3 (gpu) goes after its own 2: at
// the end, or before the 1 (morally strong with it): 2 slots. Once t0, which
// knows its 1, has read the 2, the slot before the 1 would make 2 -> 3 -> 1,
// the 2 coherence-before the 1 t0 knew when it read: only the end is left.
TEST_F(Model, AWriteTakesNoSlotThatHidesAReturnedWrite) {
  init(x);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(0), host);
  mm->write(op(t1, PtxKind::st, Sem::weak, Scope::sys, x, 2), 0);
  mm->write(op(t0, PtxKind::st, Sem::relaxed, Scope::gpu, x, 1), 0);
  const MemOp three = op(t1, PtxKind::st, Sem::release, Scope::gpu, x, 3);
  EXPECT_EQ(mm->placements(three), 2u);
  const MemOp r = op(t0, PtxKind::ld, Sem::acquire, Scope::gpu, x);
  ASSERT_EQ(values(r), (std::vector<std::uint64_t>{2, 1}));
  for (WriteId w : mm->readable(r))
    if (mm->info(w).value == 2) mm->read(r, w);
  EXPECT_EQ(mm->placements(three), 1u);
}

// Values as outcomes show them: integers as printf's %d, %u, %lld and %llu
// write them (the bits are the value's own, two's complement for the signed).
// A write's lists are shared where one goes on from the one before it: a
// write whose thread knew every earlier write of its location, made after
// one that did too, shares that one's list of them; an RMW that reads a
// morally strong RMW shares its chain of RMWs (and its releases) where they
// end their pools. And a thread observes no write it knows by its clock
// (its own RMWs), so the views a release RMW keeps copy none. One thread's
// RMW loop on one location then keeps entries in proportion to its RMWs:
// each adds its source to the known writes and to the chain (and a release
// RMW its own release), 2-3 entries, where lists of their own would hold
// some n^2/2 each (about 2 million for 2000).
TEST(ModelMemory, AnRmwLoopKeepsListsInProportionToItsRmws) {
  for (const Sem sem : {Sem::relaxed, Sem::release}) {
    PtxModel mm;
    const ThreadId host = mm.spawn(Placement{.host = true}, -1);
    constexpr std::uintptr_t x = 0x1000;
    mm.write(op(host, PtxKind::st, Sem::weak, Scope::sys, x, 0), 0);
    const ThreadId t = mm.spawn(gpu_thread(0), host);
    constexpr std::size_t n = 2000;
    for (std::size_t i = 0; i < n; ++i) {
      MemOp a = op(t, PtxKind::atom, sem, Scope::gpu, x, i + 1);
      const std::vector<WriteId> sources = mm.readable(a);
      ASSERT_EQ(sources.size(), 1u);  // the latest: its thread knows every write before it
      ASSERT_EQ(mm.info(sources[0]).value, i);
      mm.read(a, sources[0]);
      a.rmw_source = sources[0];
      mm.write(a, 0);
    }
    EXPECT_LE(mm.list_entries(), 3 * n) << ptx_name(PtxOp{PtxKind::atom, sem, Scope::gpu});
  }
}

// Two threads of two blocks that take turns with acq_rel RMWs on one
// location, each reading the other's last: each RMW acquires the other
// thread's view (and so knows the other's RMWs in order) as it observes
// them, and observes none of them apart; the views its releases keep copy
// no observed writes. Entries: each RMW's source in the chain, its known
// writes' list, its release: a few each, not n^2/2.
TEST(ModelMemory, TakingTurnsWithAcqRelRmwsKeepsListsInProportion) {
  PtxModel mm;
  const ThreadId host = mm.spawn(Placement{.host = true}, -1);
  constexpr std::uintptr_t x = 0x1000;
  mm.write(op(host, PtxKind::st, Sem::weak, Scope::sys, x, 0), 0);
  const ThreadId t[2] = {mm.spawn(gpu_thread(0), host), mm.spawn(gpu_thread(1), host)};
  constexpr std::size_t n = 2000;
  for (std::size_t i = 0; i < n; ++i) {
    MemOp a = op(t[i % 2], PtxKind::atom, Sem::acq_rel, Scope::gpu, x, i + 1);
    const std::vector<WriteId> sources = mm.readable(a);
    ASSERT_EQ(sources.size(), 1u);  // the latest: it knows, by the acquire before, every write before it
    ASSERT_EQ(mm.info(sources[0]).value, i);
    mm.read(a, sources[0]);
    a.rmw_source = sources[0];
    mm.write(a, 0);
  }
  EXPECT_LE(mm.list_entries(), 4 * n);
}

// A thread that observed a write and then came to know it in order (an
// acquire) keeps it no more in what it observed: the views its releases
// keep copy none of those. Each round, t0 (block 0) stores k to x (relaxed)
// and releases f; t1 (block 1) reads x = k with a relaxed load (morally
// strong: it observes the store), then f with an acquire load (it joins
// t0's view, and knows the store in order), then releases y. A round's
// entries: the two releases, and the lists of known writes of its three
// writes, a few each; had t1 kept every store it observed, its k-th
// release would copy k of them too: n^2/2 entries in all (about 2 million
// for 2000).
TEST(ModelMemory, WritesKnownInOrderSinceObservedAreNotKeptObserved) {
  PtxModel mm;
  const ThreadId host = mm.spawn(Placement{.host = true}, -1);
  constexpr std::uintptr_t x = 0x1000, f = 0x2000, y = 0x3000;
  for (const std::uintptr_t a : {x, f, y}) mm.write(op(host, PtxKind::st, Sem::weak, Scope::sys, a, 0), 0);
  const ThreadId t0 = mm.spawn(gpu_thread(0), host), t1 = mm.spawn(gpu_thread(1), host);
  constexpr std::size_t n = 2000;
  for (std::size_t k = 1; k <= n; ++k) {
    const WriteId stored = mm.write(op(t0, PtxKind::st, Sem::relaxed, Scope::gpu, x, k), 0);
    const WriteId flag = mm.write(op(t0, PtxKind::st, Sem::release, Scope::gpu, f, k), 0);
    const MemOp load = op(t1, PtxKind::ld, Sem::relaxed, Scope::gpu, x);
    const std::vector<WriteId> values = mm.readable(load);
    ASSERT_NE(std::find(values.begin(), values.end(), stored), values.end());
    mm.read(load, stored);
    mm.read(op(t1, PtxKind::ld, Sem::acquire, Scope::gpu, f), flag);
    mm.write(op(t1, PtxKind::st, Sem::release, Scope::gpu, y, k), 0);
  }
  EXPECT_LE(mm.list_entries(), 6 * n);
}

// Row 1 over and over, through RMWs: t0 stores x = k, then releases with
// an RMW on f that reads its RMW before (as a barrier's arrivals do: each
// one's chain carries every release before it); t1 reads f with an acquire
// after each. Of the releases the k-th RMW carries, t1's view includes all
// but the k-th already (it knows t0's events they were made at), and the
// k-th it must join: then x = k is the one value it may read, each k.
TEST_F(Model, EachReleaseOfAnRmwChainIsJoined) {
  init(x);
  init(f);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host);
  for (std::uint64_t k = 1; k <= 100; ++k) {
    mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, k), 0);
    MemOp arrive = op(t0, PtxKind::atom, Sem::release, Scope::gpu, f, k);
    const std::vector<WriteId> before = mm->readable(arrive);
    ASSERT_EQ(before.size(), 1u);
    mm->read(arrive, before[0]);
    arrive.rmw_source = before[0];
    const WriteId w = mm->write(arrive, 0);
    const MemOp wait = op(t1, PtxKind::ld, Sem::acquire, Scope::gpu, f);
    const std::vector<WriteId> flag = mm->readable(wait);
    ASSERT_NE(std::find(flag.begin(), flag.end(), w), flag.end());
    mm->read(wait, w);
    ASSERT_EQ(values(op(t1, PtxKind::ld, Sem::weak, Scope::sys, x)), (std::vector<std::uint64_t>{k})) << k;
  }
  EXPECT_TRUE(mm->take_findings().empty());  // every read of x is ordered after its write: no race
}

// A race check of a location with a long list of writes (more than 32)
// starts where the thread's last check of it found the first write it did
// not know: every write before that one it knows still (a view only grows).
// t0 (block 0) makes 40 weak stores to x, then a release store to f; t1
// (block 1) reads it with an acquire load, so its weak load of x knows
// every store and races with none. t2 (block 2), which knows nothing, then
// stores 99 to x: a data race with each of t0's 40 stores and with t1's
// load, 41 findings. t1's next weak loads of x race with t2's store, made
// after the 40 stores its last check found known.
TEST_F(Model, ARaceCheckPastALongKnownListSeesANewWrite) {
  init(x);
  init(f);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host),
                 t2 = mm->spawn(gpu_thread(2), host);
  WriteId last = 0;
  for (std::uint64_t k = 1; k <= 40; ++k) last = mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, x, k), 0);
  const WriteId flag = mm->write(op(t0, PtxKind::st, Sem::release, Scope::gpu, f, 1), 0);
  mm->read(op(t1, PtxKind::ld, Sem::acquire, Scope::gpu, f), flag);
  const MemOp load = op(t1, PtxKind::ld, Sem::weak, Scope::sys, x);
  ASSERT_EQ(values(load), (std::vector<std::uint64_t>{40}));
  mm->read(load, last);
  EXPECT_TRUE(mm->take_findings().empty());
  mm->write(op(t2, PtxKind::st, Sem::weak, Scope::sys, x, 99), 0);
  std::size_t with_t0 = 0, with_t1 = 0;
  for (const ModelFinding& r : mm->take_findings()) {
    ASSERT_EQ(r.kind, FindingKind::data_race);
    ASSERT_EQ(r.thread_b, t2);
    with_t0 += r.thread_a == t0;
    with_t1 += r.thread_a == t1;
  }
  EXPECT_EQ(with_t0, 40u);
  EXPECT_EQ(with_t1, 1u);
  for (int twice = 0; twice < 2; ++twice) {  // (and still after that check)
    mm->read(load, last);
    const std::vector<ModelFinding> again = mm->take_findings();
    ASSERT_EQ(again.size(), 1u) << twice;
    EXPECT_EQ(again[0].kind, FindingKind::data_race);
    EXPECT_EQ(again[0].thread_a, t2);
    EXPECT_EQ(again[0].thread_b, t1);
  }
}

// A release sequence read through a thread that did not acquire it: t0
// (block 0) stores d = 1, then releases with an RMW on f (w0). t1 (block 1)
// reads it with two relaxed RMWs on f (w1 reads w0, w2 reads w1: both in
// w0's release sequence), then releases g. t2 (block 2) acquires g, so it
// knows w1 and w2 in order, but not w0's release, which t1 never acquired.
// t2's acquire RMW-chain read of f returning w2 synchronizes with w0 all
// the same (semantics.md, "RMW chains": a release is acquired through any
// chain of morally strong RMWs, relaxed ones included), so its
// weak read of d returns 1 alone. (t2 knows w1 in order, but w1's read left
// w0's release pending: the read of the chain must still join it.)
TEST_F(Model, AChainReadJoinsAReleaseItsKnownWriteLeftPending) {
  constexpr std::uintptr_t d = 0x3000, g = 0x4000;
  init(d);
  init(f);
  init(g);
  const ThreadId t0 = mm->spawn(gpu_thread(0), host), t1 = mm->spawn(gpu_thread(1), host),
                 t2 = mm->spawn(gpu_thread(2), host);
  mm->write(op(t0, PtxKind::st, Sem::weak, Scope::sys, d, 1), 0);
  auto rmw = [&](ThreadId t, Sem sem, std::uint64_t value) {
    MemOp a = op(t, PtxKind::atom, sem, Scope::gpu, f, value);
    const std::vector<WriteId> sources = mm->readable(a);
    EXPECT_FALSE(sources.empty());
    const WriteId source = sources.back();  // the latest
    mm->read(a, source);
    a.rmw_source = source;
    return mm->write(a, 0);
  };
  const WriteId w0 = rmw(t0, Sem::release, 1);
  ASSERT_EQ(mm->info(w0).value, 1u);
  rmw(t1, Sem::relaxed, 2);
  const WriteId w2 = rmw(t1, Sem::relaxed, 3);
  const WriteId flag = mm->write(op(t1, PtxKind::st, Sem::release, Scope::gpu, g, 1), 0);
  mm->read(op(t2, PtxKind::ld, Sem::acquire, Scope::gpu, g), flag);
  const MemOp chain_read = op(t2, PtxKind::ld, Sem::acquire, Scope::gpu, f);
  const std::vector<WriteId> readable = mm->readable(chain_read);
  ASSERT_NE(std::find(readable.begin(), readable.end(), w2), readable.end());
  mm->read(chain_read, w2);
  EXPECT_EQ(values(op(t2, PtxKind::ld, Sem::weak, Scope::sys, d)), (std::vector<std::uint64_t>{1}));
}

TEST(ValueText, IntegersInDecimal) {
  EXPECT_EQ(format_value(ValueType::i32, 0), "0");
  EXPECT_EQ(format_value(ValueType::i32, 0xffffffffULL), "-1");
  EXPECT_EQ(format_value(ValueType::i32, 0x80000000ULL), "-2147483648");
  EXPECT_EQ(format_value(ValueType::u32, 0xffffffffULL), "4294967295");
  EXPECT_EQ(format_value(ValueType::i64, 0x8000000000000000ULL), "-9223372036854775808");
  EXPECT_EQ(format_value(ValueType::i64, 42), "42");
  EXPECT_EQ(format_value(ValueType::u64, ~0ULL), "18446744073709551615");
  EXPECT_EQ(format_value(ValueType::f32, 0x3fc00000ULL), "1.5");  // 1.5f
}

TEST(ModelNames, AreChosenAtRunTime) {
  for (const auto& n : memory_model_names()) EXPECT_NE(make_memory_model(n), nullptr) << n;
  EXPECT_EQ(make_memory_model("tso"), nullptr);
}

}  // namespace
}  // namespace scopesim
