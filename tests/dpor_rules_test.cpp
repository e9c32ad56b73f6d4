// The explorer's rules for dependent steps whose run-time order is no race to
// reverse (docs/architecture.md, "Exhaustive exploration"), each on a kernel
// small enough for the naive enumeration: the counts of runs and executions
// reasoned out by hand from semantics.md, and the same outcomes and findings
// as the naive enumeration.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/engine/dpor.hpp"
#include "sim/engine/dpor_search.hpp"
#include "sim/model/memory_model.hpp"
#include "tests/naive_comparison.hpp"
#include "tests/test_kernels.hpp"

namespace scopesim {
namespace {
using namespace scopesim::dialect;
using test::Cells;
using test::exhaustive;
using test::expect_same_as_naive;
using test::found;
using test::kernel_model;

// Explores `m` exhaustively and checks what each test reasons out by hand:
// `executions` distinct executions, each explored once, with `outcomes`, and
// the naive enumeration's outcomes and findings.
Exploration explored_once(const models::Model& m, std::uint64_t executions, const std::set<std::string>& outcomes) {
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.distinct, executions) << m.name;
  EXPECT_EQ(x.executions, executions) << m.name;
  EXPECT_EQ(found(x).outcomes, outcomes) << m.name;
  expect_same_as_naive(m, x);
  return x;
}

// ---- racing writes: a weak store and a store coherence leaves unordered with it ----

// Threads 0 and 1 of one block store 1 and 2 to r0 with plain stores. The
// stores race (data race): weak, so not morally strong, and nothing orders
// them, so coherence gives them no edge (semantics.md, "Coherence is
// partial"). The host's read after cudaDeviceSynchronize knows both; neither
// hides the other (no edge), the initial write is hidden (an edge to each):
// it returns either. Two executions (the host's read of 1 or of 2), each
// explored once: the stores' run-time order is no part of either.
SCOPESIM_KERNEL void two_plain_stores(Cells c) { *c.r0 = static_cast<int>(thread_idx().x) + 1; }

TEST(RacingWrites, TwoPlainStoresAreExploredOncePerExecution) {
  const auto m = kernel_model<two_plain_stores>("t.two_plain_stores", 1, 2);
  const Exploration x = explored_once(m, 2, {"r0=1 r1=0 r2=0", "r0=2 r1=0 r2=0"});
  EXPECT_NE(test::finding(x, FindingKind::data_race), nullptr);
}

// Two threads r0++ with plain accesses (a weak load, then a weak store of the
// value + 1). Reads-from of the two loads: both read the initial 0, or one
// reads the other's store (which needs that store before the load, so not
// both: a cycle through program order): 3. The weak stores get no coherence
// edge (a weak read carries nothing into its thread's view, so the second
// store does not know the first even when its load read it), so the host's
// read may return either store: 2 each. Six executions, each explored once;
// outcomes r0=1 (a lost update, or the host reading the stale store) and r0=2.
SCOPESIM_KERNEL void plain_increments(Cells c) { (*c.r0)++; }

TEST(RacingWrites, PlainIncrementsAreExploredOncePerExecution) {
  const auto m = kernel_model<plain_increments>("t.plain_increments", 1, 2);
  explored_once(m, 6, {"r0=1 r1=0 r2=0", "r0=2 r1=0 r2=0"});
}

// A repeat is stopped once it is settled (Dpor::settled_repeat()). In
// plain_increments, once the runs where thread 1 loads before thread 0's
// store are explored, thread 1 sleeps at the node where thread 0 stores; the
// store writes what thread 1 reads, so thread 1 is only half asleep and may
// run next and load. Loading thread 0's new 1 is a new execution; loading the
// older initial 0 repeats the run where thread 1 loaded first. Thread 1's next
// step is its store, a write: spin-assume then finds no earlier visit to
// compare with, so no spin wait of thread 1 will count its load, and a plain
// load is placed nowhere (only an RMW's write is). Whatever follows, the run
// repeats that one: it is abandoned at the next thread decision and never
// ends. So every run the search counts as redundant was stopped early (the
// rest by sleep sets), and there is at least that one.
TEST(SettledRepeat, ARunIsStoppedOnceItsHalfAsleepReadCanOnlyRepeat) {
  const auto m = kernel_model<plain_increments>("t.plain_increments", 1, 2);
  RunOptions o;
  o.keep_trace = false;
  std::size_t redundant = 0;
  dpor_search(m, m.chapter, o, DporSearch{}, [] { return true; }, [&](const RunResult& r, bool repeat) {
    if (!repeat) return true;
    ++redundant;
    EXPECT_TRUE(r.abandoned);
    EXPECT_FALSE(r.completed);
    return true;
  });
  EXPECT_GE(redundant, 1u);
  explored_once(m, 6, {"r0=1 r1=0 r2=0", "r0=2 r1=0 r2=0"});
}

// Where the order of the unordered writes would matter to a later write: block
// 0's thread stores 1 to r0 with a plain store, then 3 with a relaxed
// device-scope store; block 1's thread stores 2 with a relaxed device-scope
// store. The plain store and block 1's store race (no edge). The two strong
// stores are morally strong: coherence orders them, either way (the 3 may take
// a slot before the 2 as long as the list puts the 2 after the plain store,
// the one order the rule keeps). Executions: coherence 3 before 2 (the host
// reads 2: the 3 and the plain 1, before it by an edge, are hidden) or 2
// before 3 (the host reads 3). Outcomes r0=2 and r0=3, data race.
SCOPESIM_KERNEL void weak_then_strong(Cells c) {
  atomic_ref<int, thread_scope_device> r0(*c.r0);
  if (block_idx().x == 0) {
    *c.r0 = 1;
    r0.store(3, memory_order_relaxed);
  } else {
    r0.store(2, memory_order_relaxed);
  }
}

TEST(RacingWrites, AStrongStoreMayStillPrecedeARacingOne) {
  const auto m = kernel_model<weak_then_strong>("t.weak_then_strong", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.distinct, 2u);
  EXPECT_EQ(found(x).outcomes, (std::set<std::string>{"r0=2 r1=0 r2=0", "r0=3 r1=0 r2=0"}));
  EXPECT_NE(test::finding(x, FindingKind::data_race), nullptr);
  expect_same_as_naive(m, x);
}

// Where the list puts a weak store beside a racing strong one decides where an
// RMW that reads the weak store falls (right after its source). Threads 0..2
// of one block: thread 0 stores 1 to x (plain; its acq_rel fence orders
// nothing without a strong flag access); thread 1 adds 2 (release RMW), then
// stores 3 (release); thread 2 exchanges 4 (acquire RMW); after a barrier,
// thread 0 reads x into r2. Thread 1's RMW may read 0 (r0), thread 2's
// exchange may read the plain 1 (r1), and the exchange may still come after
// the 3 in coherence: the 1 races with the 3 (no edge) and thread 2 does not
// know the 3, so r2 = 4 is permitted (r0=0 r1=1 r2=4). Only runs that put the
// 3 before the 1 reach it: the pair is reversed because an RMW read the 1
// (found by the simulator's property test against the naive enumeration).
SCOPESIM_KERNEL void rmw_reads_a_racing_weak_store(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  const unsigned t = thread_idx().x;
  if (t == 0) {
    atomic_thread_fence(memory_order_acq_rel, thread_scope_block);
    *c.x = 1;
  } else if (t == 1) {
    const int r0 = x.fetch_add(2, memory_order_release);
    x.store(3, memory_order_release);
    *c.r0 = r0;
  } else {
    const int r1 = x.exchange(4, memory_order_acquire);
    *c.r1 = r1;
  }
  syncthreads();
  if (t == 0) *c.r2 = *c.x;
}

TEST(RacingWrites, AnRmwThatReadsTheWeakStoreKeepsBothOrders) {
  const auto m = kernel_model<rmw_reads_a_racing_weak_store>("t.rmw_reads_a_racing_weak_store", 1, 3);
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(test::permits(x, "r0=0 r1=1 r2=4"));
  expect_same_as_naive(m, x);
}

// ---- half-asleep RMWs ----

// Block 0's thread adds 1 to r0 with a block-scope relaxed fetch_add, block
// 1's with a device-scope one (litmus INC, verdict table row 24). Across
// blocks the block scope excludes the other thread: not morally strong, so
// not atomic with each other (semantics.md, "Atomicity"), a scoped race, and
// no coherence edge between their writes (the relaxed read of a write not
// morally strong with it observes nothing). Executions: both read the
// initial 0 (both write 1), or either reads the other's write (and writes 2):
// 3 reads-from; the host's read knows both writes and neither hides the
// other: 2 each. Six, each explored once: run second after both read 0, an
// RMW half asleep behind the other's write repeats the run where it went
// first, and is not counted.
SCOPESIM_KERNEL void scoped_increments(Cells c) {
  if (block_idx().x == 0)
    atomic_ref<int, thread_scope_block>(*c.r0).fetch_add(1, memory_order_relaxed);
  else
    atomic_ref<int, thread_scope_device>(*c.r0).fetch_add(1, memory_order_relaxed);
}

TEST(HalfAsleepRmw, IncrementsThatAreNotAtomicWithEachOtherAreExploredOnce) {
  const auto m = kernel_model<scoped_increments>("t.scoped_increments", 2, 1);
  const Exploration x = explored_once(m, 6, {"r0=1 r1=0 r2=0", "r0=2 r1=0 r2=0"});
  EXPECT_NE(test::finding(x, FindingKind::scoped_race), nullptr);
}

// An RMW goes after its source or, if later, after the last write its thread
// knows (semantics.md, "Atomicity"), so one that read an older write may land
// where another RMW went in the meantime. Threads 0..2 of one block: thread 0
// stores 1 to x (plain), then exchanges 2 (acquire, system scope, r0 = what
// it read); thread 1 stores 3 (release, device scope); thread 2 adds 4
// (acq_rel, block scope, r1 = what it read); the host reads x after the
// kernel. Run the 3, then the 1: the weak 1 takes the end (co: init, 3, 1),
// with no edge to the 3 (semantics.md, "Coherence is partial": they race).
// The add may read the 1 (its thread knows only the start) and goes right
// after it (co: init, 3, 1, 5). The exchange may read the 3 (its thread knows
// the 1 and the start, and no edge leads from the 3 to the 1; the add,
// morally strong with it, read another write) and goes after the 1, its
// thread's last write, which is later than the 3: directly after the 1,
// before the 5 (co: init, 3, 1, 2, 5). The two RMWs are morally strong (each
// one's scope includes the other's thread in one block): edge 2 -> 5, and the
// 5, last, is hidden from nobody: the host may read 5. So r0=3 r1=1 x=5 is
// permitted. Run the exchange before the add instead and the add, right after
// the 1, goes before the 2 (edge 5 -> 2 hides the 5); with the 1 before the 3
// in the list, the add goes before the 3 (edge 5 -> 3). Only runs where the
// exchange, asleep since it ran first, reads the older 3 after the add reach
// it (found by the simulator's property test against the naive enumeration,
// seed 4242).
SCOPESIM_KERNEL void rmw_placed_before_one_made_since(Cells c) {
  const unsigned t = thread_idx().x;
  if (t == 0) {
    *c.x = 1;
    const int r0 = atomic_ref<int, thread_scope_system>(*c.x).exchange(2, memory_order_acquire);
    *c.r0 = r0;
  } else if (t == 1) {
    atomic_ref<int, thread_scope_device>(*c.x).store(3, memory_order_release);
  } else {
    const int r1 = atomic_ref<int, thread_scope_block>(*c.x).fetch_add(4, memory_order_acq_rel);
    *c.r1 = r1;
  }
}

// But co: init, 3, 1, 2, 5 breaks the add's atomicity: the 1 -> 2 edge
// (program order) puts the exchange, morally strong with the add, between
// the add's source (the 1) and the add; the other order (the 2 before the 5)
// leaves x=2. So r0=3 r1=1 x=5 is forbidden (semantics.md, "Atomicity"; the
// model refuses that source: ptx_model.cpp, rmw_slot).
TEST(HalfAsleepRmw, AnRmwIsNotPlacedBetweenAMorallyStrongRmwAndItsSource) {
  const auto m = kernel_model<rmw_placed_before_one_made_since>("t.rmw_placed_before_one_made_since", 1, 3, true);
  const Exploration x = exhaustive(m);
  EXPECT_FALSE(test::permits(x, "r0=3 r1=1 r2=0 x=5"));
  expect_same_as_naive(m, x);
}

// Two RMWs that are not morally strong read one write, and a third reads one
// of them. Block 0's thread exchanges 1 into x (relaxed, block scope, r0 =
// what it read), then adds 2 (relaxed, device scope, r1); block 1's thread
// adds 4 (relaxed, device scope, r2); the host reads x after the kernel. The
// exchange and block 1's add are not morally strong (the block scope
// excludes the other block's thread): no coherence edge between them, and
// both may read the initial 0 (semantics.md, "Atomicity" binds only morally
// strong RMWs). Run block 1's add first: co: init, 4. The exchange reads the
// initial write (its thread knows nothing that hides it) and goes right after
// it: co: init, 1, 4. The add of 2 reads the 1 (its thread's own write, which
// nothing it knows follows by an edge) and goes right after it: co: init, 1,
// 3, 4; it and block 1's add are morally strong (relaxed, device scope, one
// device), so the edge runs from the 3 to the 4, and the 4 is last: the host
// may read 4. So r0=0 r1=1 r2=0 x=4 is permitted. Run the exchange first
// instead and block 1's add, reading the initial write, goes right after it,
// before the 1 (co: init, 4, 1, then 3 right after the 1): the edge runs from
// the 4 to the 3, which hides the 4 from the host. Only the run where the
// exchange, asleep since it ran first, reads the older initial write after
// block 1's add reaches it: that read is new because the add of 2 is placed
// beside them (found by the simulator's property test against sampling,
// seed 9).
SCOPESIM_KERNEL void rmws_that_share_a_source(Cells c) {
  if (block_idx().x == 0) {
    const int r0 = atomic_ref<int, thread_scope_block>(*c.x).exchange(1, memory_order_relaxed);
    const int r1 = atomic_ref<int, thread_scope_device>(*c.x).fetch_add(2, memory_order_relaxed);
    *c.r0 = r0;
    *c.r1 = r1;
  } else {
    const int r2 = atomic_ref<int, thread_scope_device>(*c.x).fetch_add(4, memory_order_relaxed);
    *c.r2 = r2;
  }
}

// But co: init, 1, 3, 4 breaks the add of 4's atomicity: the 3, morally
// strong with it, is between its source (the initial write) and it. With the
// 4 before the 3 the host reads 3. So r0=0 r1=1 r2=0 x=4 is forbidden
// (semantics.md, "Atomicity"; the model refuses that source: rmw_slot).
TEST(HalfAsleepRmw, NoMorallyStrongWriteFallsBetweenAnRmwAndTheSourceItShares) {
  const auto m = kernel_model<rmws_that_share_a_source>("t.rmws_that_share_a_source", 2, 1, true);
  const Exploration x = exhaustive(m);
  EXPECT_FALSE(test::permits(x, "r0=0 r1=1 r2=0 x=4"));
  expect_same_as_naive(m, x);
}

// ---- an RMW's slot before a store, and a later load ----

// Block 0's thread stores 1 to x (relaxed, device scope); block 1's adds 10
// (relaxed device-scope fetch_add, r0 = the value it read); block 2's loads x
// (relaxed, device scope) into r1. Reads-from of the RMW: the initial 0 or
// the store. Reading 0, atomicity puts it right after the initial write, so
// before the store it does not know (co: init, RMW, store; every pair morally
// strong: strong, device scope covering all three blocks); reading 1, after
// the store (co: init, store, RMW). Block 2 knows only the initial write (kernel
// start), so nothing is hidden from its load: it may return each of the three
// writes in either list. Six executions, six outcomes (r0, r1): (0, 0), (0, 10),
// (0, 1), (1, 0), (1, 1), (1, 11). The RMW that read 0 took a slot before the
// store, yet its slot hides nothing from the load (no write is hidden from it
// at all): the load, run before the RMW, could return only writes it may
// return after it, so the pair is no race to reverse and each execution is
// explored once (reversed, the load's 2 reads times the RMW's 2 made 4 more
// runs, 10 for 6 executions).
SCOPESIM_KERNEL void rmw_slot_before_a_store(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  if (block_idx().x == 0) {
    x.store(1, memory_order_relaxed);
  } else if (block_idx().x == 1) {
    const int r0 = x.fetch_add(10, memory_order_relaxed);
    *c.r0 = r0;
  } else {
    const int r1 = x.load(memory_order_relaxed);
    *c.r1 = r1;
  }
}

TEST(RmwSlot, ALoadFromWhichTheSlotHidesNothingIsNoRace) {
  const auto m = kernel_model<rmw_slot_before_a_store>("t.rmw_slot_before_a_store", 3, 1);
  explored_once(m, 6,
                {"r0=0 r1=0 r2=0", "r0=0 r1=10 r2=0", "r0=0 r1=1 r2=0", "r0=1 r1=0 r2=0", "r0=1 r1=1 r2=0",
                 "r0=1 r1=11 r2=0"});
}

// A store placed last hides nothing then, but may once a later write goes
// after it. Threads 0..2 of one block: thread 0 stores 1 to x (relaxed,
// device scope), then loads x (acquire, device scope, r0); thread 2 stores 2
// (plain), then 3 (release, device scope); the host reads x after the kernel.
// Run the plain 2, then the 1: a strong write goes after the writes its
// thread knows (the start), at the end or directly before a morally strong
// write beyond them; the 2 is weak, so the 1 takes the end (co: init, 2, 1;
// no edge between them: semantics.md, "Coherence is partial"). The load
// knows the 1 and the start; nothing leads from the 2 to either, so it may
// return the 2 (r0=2). Then the 3 goes after the 2 (its thread's) and may go
// directly before the 1 (strong, morally strong with it: device scope, one
// block; its thread does not know the 1): co: init, 2, 3, 1, edges 2 -> 3
// (program order) -> 1. The host knows every write: the 1 alone is not
// hidden, x=1. So r0=2 x=1 is permitted. With the 3 run before the load, the
// 1 goes before it (edge 1 -> 3, the host reads 3) or after it, where the
// edges 2 -> 3 -> 1 hide the 2 from the load (r0=1): only runs with the load
// before the 3 reach it, though the 3 took the end of the list when it ran
// (found by the simulator's property test against sampling, seed 13).
SCOPESIM_KERNEL void store_placed_last_then_passed(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  const unsigned t = thread_idx().x;
  if (t == 0) {
    x.store(1, memory_order_relaxed);
    const int r0 = x.load(memory_order_acquire);
    *c.r0 = r0;
  } else if (t == 2) {
    *c.x = 2;
    x.store(3, memory_order_release);
  }
}

// But with co: init, 2, 3, 1 the 2 the load returned is coherence-before
// the 1 its thread knew (2 -> 3 -> 1): causality hides it (semantics.md, "A
// read may return"). So once the load has read the 2, the 3 may not go
// before the 1, and r0=2 x=1 is forbidden (the model refuses that slot:
// ptx_model.cpp, hides_a_read).
TEST(RmwSlot, AWriteTakesNoSlotThatHidesWhatALoadReturned) {
  const auto m = kernel_model<store_placed_last_then_passed>("t.store_placed_last_then_passed", 1, 3, true);
  const Exploration x = exhaustive(m);
  EXPECT_FALSE(test::permits(x, "r0=2 r1=0 r2=0 x=1"));
  expect_same_as_naive(m, x);
}

// The memory model's query behind the rule (Readable::hidden_by_unknown),
// on the two shapes it tells apart.
Placement thread_of_block(std::uint32_t block, std::uint32_t lane = 0) {
  Placement p;
  p.block = block;
  p.lane = lane;
  return p;
}
MemOp access(ThreadId t, PtxKind k, Scope sc, std::uint64_t value = 0, WriteId source = no_write) {
  MemOp m;
  m.thread = t;
  m.op = {k, Sem::relaxed, sc};
  m.addr = 0x1000;
  m.size = 4;
  m.value = value;
  m.rmw_source = source;
  return m;
}

// As the kernel above: co init, RMW (read init), store. The reader knows only
// the initial write: nothing is hidden from it, so nothing through a write it
// does not know; it may return all three.
TEST(RmwSlot, TheModelSeesNothingHiddenFromAReaderThatKnowsOnlyTheStart) {
  auto mm = make_memory_model("ptx");
  const ThreadId host = mm->spawn(Placement{.host = true}, -1);
  const WriteId init = mm->write(access(host, PtxKind::st, Scope::sys), 0);
  const ThreadId t0 = mm->spawn(thread_of_block(0), host), t1 = mm->spawn(thread_of_block(1), host),
                 t2 = mm->spawn(thread_of_block(2), host);
  mm->write(access(t0, PtxKind::st, Scope::gpu, 1), 0);
  const MemOp rmw = access(t1, PtxKind::atom, Scope::gpu, 10, init);
  mm->read(rmw, init);
  mm->write(rmw, 0);
  const MemOp load = access(t2, PtxKind::ld, Scope::gpu);
  std::vector<WriteId> readable;
  EXPECT_FALSE(mm->readable(load, readable).hidden_by_unknown);
  EXPECT_EQ(readable.size(), 3u);
}

// Block 1's thread 0 stores 1 (relaxed, block scope: X); its thread 1's
// device-scope RMW reads X and goes right after it (W); block 2's thread
// stores 2 (relaxed, device scope: S) at the end: co init, X, W, S. Block 2's
// thread then reads: it knows S (its own write). W -> S is an edge (morally
// strong: both strong, device scope covers both blocks), so W is hidden; X ->
// S is none (X's block scope leaves out block 2: not morally strong, and S's
// thread does not know X), but X -> W is one (block 1 in X's scope, X's
// thread in W's): X is hidden only through W, which the reader does not know.
// Run before the RMW, the read could return X: the pair stays a race.
TEST(RmwSlot, TheModelSeesAWriteHiddenOnlyThroughAnUnknownOne) {
  auto mm = make_memory_model("ptx");
  const ThreadId host = mm->spawn(Placement{.host = true}, -1);
  mm->write(access(host, PtxKind::st, Scope::sys), 0);
  const ThreadId a = mm->spawn(thread_of_block(1, 0), host), b = mm->spawn(thread_of_block(1, 1), host),
                 c = mm->spawn(thread_of_block(2), host);
  const WriteId x = mm->write(access(a, PtxKind::st, Scope::cta, 1), 0);
  const MemOp rmw = access(b, PtxKind::atom, Scope::gpu, 11, x);
  mm->read(rmw, x);
  mm->write(rmw, 0);
  mm->write(access(c, PtxKind::st, Scope::gpu, 2), 0);
  const MemOp load = access(c, PtxKind::ld, Scope::gpu);
  std::vector<WriteId> readable;
  EXPECT_TRUE(mm->readable(load, readable).hidden_by_unknown);
  ASSERT_EQ(readable.size(), 1u);
  EXPECT_EQ(mm->info(readable[0]).value, 2u);
}

// ---- blocks that wait for a slot ----

// A kernel of two one-thread blocks on one block slot: block b stores b + 1
// into its own cell (plain). The blocks touch different cells; the host
// reads them after cudaDeviceSynchronize, which orders both stores before its
// reads. One execution (every read has one write it may return: the host
// knows both stores, which hide the initial writes), outcome r0=1 r1=2. Which
// block takes the slot first is no part of it: the blocks are isolated, so the
// dispatch node explores one order (it explored both before: 2 runs).
SCOPESIM_KERNEL void own_cells(Cells c) {
  if (block_idx().x == 0)
    *c.r0 = 1;
  else
    *c.r1 = 2;
}

TEST(Residency, IsolatedBlocksAreDispatchedInOneOrder) {
  auto m = kernel_model<own_cells>("t.own_cells", 2, 1);
  m.chapter.resident_blocks = 1;
  explored_once(m, 1, {"r0=1 r1=2 r2=0"});
}

// The same slot, but block 0 loads x (relaxed, device scope) into r0 and
// block 1 stores 1 to x (relaxed, device scope). Block 0 first: its load runs
// before the store exists and returns the initial 0. Block 1 first: the store
// exists, and block 0 (knowing only the kernel start) may return 0 or 1.
// Executions: the load reads 0 or 1, 2; runs: 1 + 2 = 3 (the read of 0 comes
// in both orders). Outcome r0=1 only when block 1 takes the slot first: the
// load and the store are dependent and nothing but the dispatch orders them,
// so the first run, which dispatched block 0 first, makes the node dispatch
// block 1 first too.
SCOPESIM_KERNEL void load_and_store(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  if (block_idx().x == 0) {
    const int r0 = x.load(memory_order_relaxed);
    *c.r0 = r0;
  } else {
    x.store(1, memory_order_relaxed);
  }
}

TEST(Residency, BlocksThatShareALocationAreDispatchedInEveryOrder) {
  auto m = kernel_model<load_and_store>("t.load_and_store", 2, 1);
  m.chapter.resident_blocks = 1;
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.distinct, 2u);
  EXPECT_EQ(x.executions, 3u);
  EXPECT_EQ(found(x).outcomes, (std::set<std::string>{"r0=0 r1=0 r2=0", "r0=1 r1=0 r2=0"}));
  expect_same_as_naive(m, x);
}

// The shipped spin.separate_kernels at --resident-blocks 1 (its derivation
// beside it: one execution with one slot too): the waiters' two blocks only
// read what the earlier kernel wrote, which the kernel boundary orders before
// them, and write their own cells, which the host reads after the stream's
// synchronize. Isolated, so one dispatch order: 1 run.
TEST(Residency, SeparateKernelsWithOneSlotIsExploredOnce) {
  const models::Model& m = test::model("spin.separate_kernels");
  ASSERT_EQ(m.also.size(), 1u);
  ExploreOptions o;
  const Exploration x = explore(m, m.also[0].config, o);
  EXPECT_EQ(x.distinct, 1u);
  EXPECT_EQ(x.executions, 1u);
  EXPECT_TRUE(x.findings.empty());
}


// ---- blocks that wait in another block's place ----

// Three one-thread blocks: blocks 0 and 1 spin until x (device scope, acquire
// loads) is set, then write 1 into their own cell; block 2 sets x with a
// release store. Every execution ends with r0=1 r1=1 r2=0 (the host's reads
// after cudaDeviceSynchronize know the waiters' stores) or deadlocks.
// A waiter's loads of x (semantics.md, "A read may return", "Spin loops and
// progress"): it knows only the kernel start, so while the store exists it
// may return 0 or 1; a second 0 at the same point is skipped (spin-assume),
// and with 1 not yet written it waits, and once woken may return 0 again.
// So a waiter whose block runs beside block 2 reads [1], [0,1] or, waiting
// before the store, [0,0,1]; one dispatched after block 2 ended (the store
// exists, nothing to wait for) reads [1] or [0,1].
SCOPESIM_KERNEL void wait_for_block_2(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  if (block_idx().x == 2) {
    x.store(1, memory_order_release);
  } else {
    while (x.load(memory_order_acquire) == 0) {
    }
    *(block_idx().x == 0 ? c.r0 : c.r1) = 1;
  }
}

// On two slots, the first two blocks form a set (one order each): {0,1}
// spin on an x nobody sets, block 2 never becomes resident: deadlock, one
// execution (both read 0 once, then wait). {0,2}: block 0 beside the producer
// (3 ways) and block 1 after it (2): 6. {1,2}: likewise 6, the roles
// swapped. An execution is the reads-from, not which block took which slot:
// the 2 x 2 where each waiter reads [1] or [0,1] are in both sets. Distinct:
// 1 + 6 + 6 - 4 = 9, the count the search reached before too, in 13 runs
// (every run of {1,2} made).
// Each run of {1,2} in which block 1 reads [1] or [0,1] repeats a run of
// {0,2}: block 0 was dispatched later, when block 2's exit freed its slot,
// and block 1's steps before then are loads of x that may still read 0 after
// the store (the release store went last in coherence, it hides nothing from
// a thread that does not know it); where block 1 waited before the store and
// read 1 once woken, the same thread, run after the store, reads 1 at once.
// Only block 1's [0,0,1] is new there. Runs: 1 + 6 + 2 = 9, one per execution.
TEST(InPlace, AWaiterBesideTheProducerIsExploredInOneSlot) {
  auto m = kernel_model<wait_for_block_2>("t.wait_for_block_2", 3, 1);
  m.chapter.resident_blocks = 2;
  const Exploration x = explored_once(m, 9, {"r0=1 r1=1 r2=0"});
  EXPECT_NE(test::finding(x, FindingKind::deadlock), nullptr);
}

// The same kernel on one slot. Block 0 or block 1 first: it reads 0, waits
// for a store that block 2, never resident, does not make: deadlock, 2
// executions (which block read 0). Block 2 first: it sets x and ends; then
// blocks 0 and 1, one after the other, each read [1] or [0,1]: 4 executions.
// Which of them takes the slot first is no part of an execution: their steps
// after that dispatch are loads of x and stores to their own cells, dependent
// with nothing of another block after it (block 2's store came before the
// dispatch, in every order the node can take), and the host's reads come
// after the synchronize. So the dispatch after block 2 explores one order:
// 2 + 4 = 6 runs, where every order made 2 + 8.
TEST(InPlace, WaitersAfterTheProducerAreDispatchedInOneOrder) {
  auto m = kernel_model<wait_for_block_2>("t.wait_for_block_2", 3, 1);
  m.chapter.resident_blocks = 1;
  const Exploration x = explored_once(m, 6, {"r0=1 r1=1 r2=0"});
  EXPECT_NE(test::finding(x, FindingKind::deadlock), nullptr);
}

// The shipped spin.coresidency_assumed (its derivation beside it: 9
// executions on its two slots; the same as above, with 31 more threads per
// block that exit at once) and on one slot (6).
TEST(InPlace, CoresidencyAssumedIsExploredOncePerExecution) {
  const models::Model& m = test::model("spin.coresidency_assumed");
  ExploreOptions o;
  const Exploration x = explore(m, m.chapter, o);
  EXPECT_EQ(x.distinct, 9u);
  EXPECT_EQ(x.executions, 9u);
  models::Config one = m.chapter;
  one.resident_blocks = 1;
  const Exploration y = explore(m, one, o);
  EXPECT_EQ(y.distinct, 6u);
  EXPECT_EQ(y.executions, 6u);
}

// ---- a write that waits behind loads: a done writer moved back to its node ----

// Blocks 0 and 1 (one thread each) count in with a release fetch_add of x
// (device scope) and store what it returned to r0 and r1; block 2 spins with
// an acquire load of x (device scope) until it reads 2, then stores 1 to r2.
// The adds are morally strong RMWs (both strong, device scope includes both
// blocks), so they are atomic (semantics.md, "Atomicity"): each reads the
// write just before it, and coherence orders them one way or the other (2).
// The spin's loads return writes in coherence order (an acquire that read a
// write knows it, and what is coherence-before a known write is hidden), and
// spin-assume (semantics.md, "Spin loops and progress") lets a load return
// the write its previous load returned only after a wait: the repeated load
// blocks until a newer write exists and, woken, may read the old write once
// more, and must then read a newer one. So each of the initial 0 and the
// first add's 1 is read not at all, once, or twice with a wait between (3 x
// 3), and the last read returns 2 (9). 2 x 9 = 18 executions. Outcomes:
// r0=0 r1=1 or r0=1 r1=0, r2=1. A spinning load after an add stays a race
// (run first it may wait), but of the runs that put it first, those in which
// the add could still have run first (the loads before it read older writes,
// and a wait before it woke to a newer write) repeat that branch: each
// execution is explored once (36 runs without the rule).
SCOPESIM_KERNEL void counted_in(Cells c) {
  atomic_ref<int, thread_scope_device> n(*c.x);
  if (block_idx().x == 0) {
    const int r0 = n.fetch_add(1, memory_order_release);
    *c.r0 = r0;
  } else if (block_idx().x == 1) {
    const int r1 = n.fetch_add(1, memory_order_release);
    *c.r1 = r1;
  } else {
    while (n.load(memory_order_acquire) < 2) {
    }
    *c.r2 = 1;
  }
}

TEST(WriteBehindLoads, TwoCountersAndASpinnerAreExploredOncePerExecution) {
  const auto m = kernel_model<counted_in>("t.counted_in", 3, 1);
  explored_once(m, 18, {"r0=0 r1=1 r2=1", "r0=1 r1=0 r2=1"});
}

// One counter: block 0 adds 1 to x (release, device scope), block 1 spins
// with an acquire load until it reads 1 and stores 1 to r2. One coherence
// order; the spin reads the initial 0 not at all, once, or twice with a wait
// between, then the add's 1: 3 executions, outcome r0=0 r2=1.
SCOPESIM_KERNEL void counted_in_once(Cells c) {
  atomic_ref<int, thread_scope_device> n(*c.x);
  if (block_idx().x == 0) {
    const int r0 = n.fetch_add(1, memory_order_release);
    *c.r0 = r0;
  } else {
    while (n.load(memory_order_acquire) < 1) {
    }
    *c.r2 = 1;
  }
}

TEST(WriteBehindLoads, OneCounterAndASpinnerAreExploredOncePerExecution) {
  const auto m = kernel_model<counted_in_once>("t.counted_in_once", 2, 1);
  explored_once(m, 3, {"r0=0 r1=0 r2=1"});
}

// ---- the race walk of a long loop: it stops where it meets only ordered steps ----

// One thread of one block stores to x `n` times. Each store's race walk
// meets the stores before it, all of its own thread, and the host's steps,
// all ordered before the launch: past its first 64 candidates it meets only
// ordered steps, so it stops there (Dpor::walked_long() counts the
// candidates met past them: none). One execution: the host reads x = n.
SCOPESIM_KERNEL void store_loop(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  for (int k = 1; k <= 2000; ++k) x.store(k, memory_order_relaxed);
}

TEST(LongWalk, AWalkThatMeetsOnlyOrderedStepsStops) {
  const auto m = kernel_model<store_loop>("t.store_loop", 1, 1, true);
  Dpor d(-1, true);
  RunResult r;
  d.begin_run(r);
  run_once(m, m.chapter, RunOptions{}, d, r);
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.outcome.i("x"), 2000);
  ASSERT_TRUE(d.analyse(r));
  // Walked to its end, each store would meet 1,936 candidates past the
  // first 64 at the last: some 1.9 million in all.
  EXPECT_EQ(d.walked_long(), 0u);
  EXPECT_FALSE(d.next());  // no race: the run was the only one
  const Exploration x = exhaustive(m);
  EXPECT_EQ(x.executions, 1u);
  EXPECT_EQ(found(x).outcomes, (std::set<std::string>{"r0=0 r1=0 r2=0 x=2000"}));
}

// Block 0 loads x into r0; block 1 loads x 100 times, then stores 5 to x
// (relaxed atomics, device scope). In the first run block 0's load reads the
// initial 0 before block 1 starts; block 1's store then races with it (run
// first, the load may return 5), but its walk meets that load only past its
// 100 own loads: it must not stop at 64 candidates, as block 0's load is
// unordered with it. r0 is 0 or 5; block 1's loads read 0 (its own store is
// after them), r1 their sum, 0.
SCOPESIM_KERNEL void loads_then_store(Cells c) {
  atomic_ref<int, thread_scope_device> x(*c.x);
  if (block_idx().x == 0) {
    *c.r0 = x.load(memory_order_relaxed);
  } else {
    int sum = 0;
    for (int k = 0; k < 100; ++k) sum += x.load(memory_order_relaxed);
    x.store(5, memory_order_relaxed);
    *c.r1 = sum;
  }
}

TEST(LongWalk, AWalkGoesOnPastItsOwnStepsToAnUnorderedOne) {
  const auto m = kernel_model<loads_then_store>("t.loads_then_store", 2, 1);
  const Exploration x = exhaustive(m);
  EXPECT_EQ(found(x).outcomes, (std::set<std::string>{"r0=0 r1=0 r2=0", "r0=5 r1=0 r2=0"}));
  EXPECT_TRUE(x.findings.empty());
}

// ---- the thread that reverses a race: an initial of the steps between ----

// Under --model sc (a read returns the latest write). Thread 0 stores 1 to x;
// thread 1 reads x, then y (r3); thread 2 reads x, then stores 3 to y. The
// interleaving t2 reads x (0), t0 stores x, t1 reads x (1), t1 reads y (0),
// t2 stores y gives r0=1 r1=0 r2=0. Once the search has run t2 first, with
// t0 then t1 after t2's store, the race of t2's store and t1's read of y must
// be reversed by running t0 at the store's node: t1's first step there, its
// read of x, needs t0's store before it (it read it), and t1 itself already
// sleeps there (its read of x commutes with t2's). Adding t1 at that node, the
// racing thread, explored nothing (the outcome was missing).
SCOPESIM_KERNEL void reversed_through_another_thread(Cells c) {
  const unsigned t = thread_idx().x;
  if (t == 0) {
    *c.x = 1;
  } else if (t == 1) {
    const int a = *c.x;
    const int b = *c.r3;
    *c.r0 = a;
    *c.r1 = b;
  } else {
    const int a = *c.x;
    *c.r3 = 3;
    *c.r2 = a;
  }
}

TEST(RaceInitial, AnotherThreadRunsFirstToReverseARace) {
  const auto m = kernel_model<reversed_through_another_thread>("t.reversed_through_another_thread", 1, 3);
  ExploreOptions o;
  o.run.keep_trace = false;
  o.run.memory_model = "sc";
  const Exploration x = explore(m, m.chapter, o);
  ASSERT_TRUE(x.complete);
  std::set<std::string> outcomes;
  for (const auto& s : x.outcomes) outcomes.insert(s.outcome.text());
  EXPECT_TRUE(outcomes.count("r0=1 r1=0 r2=0"));
  // Every interleaving's outcome, as the naive enumeration under sc finds them.
  std::set<std::string> naive;
  props::NaiveSearch walk;
  ASSERT_TRUE(walk.run_all(m, m.chapter, o.run, 200000, [&](const RunResult& r) {
    if (r.completed) naive.insert(r.outcome.text());
  }));
  EXPECT_EQ(outcomes, naive);
}

// What a wait learns and what a step spawns are runs of consecutive
// threads, [first, first + count): a kernel of threads 4, 5, 6 is {4, 3}.
// The search asks a run whether it holds a thread and whether it shares one
// with another run; both must stop exactly at a run's ends.
TEST(ThreadRuns, HoldAndMeetExactlyTheirThreads) {
  const ThreadRun grid{4, 3};  // threads 4, 5, 6
  EXPECT_FALSE(grid.has(3));
  EXPECT_TRUE(grid.has(4));
  EXPECT_TRUE(grid.has(6));
  EXPECT_FALSE(grid.has(7));
  EXPECT_TRUE(grid.meets({6, 2}));   // shares thread 6
  EXPECT_TRUE(grid.meets({0, 5}));   // shares thread 4
  EXPECT_TRUE(grid.meets({5, 1}));   // inside it
  EXPECT_FALSE(grid.meets({7, 2}));  // starts where it ends
  EXPECT_FALSE(grid.meets({1, 3}));  // ends where it starts
  EXPECT_FALSE(grid.meets({5, 0}));  // an empty run holds no thread
  EXPECT_FALSE(ThreadRun{}.has(0));
}
}  // namespace
}  // namespace scopesim
