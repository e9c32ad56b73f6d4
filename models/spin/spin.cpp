// spin — cross-block waiting (catalogue.md, "spin").
// Blocks that wait for other blocks by spinning assume those blocks run at
// the same time; CUDA promises that only for a cooperative launch. In each
// kernel thread 0 of a block does the work; the other threads just exit.
// spin.separate_kernels splits producer and waiters into two launches that
// one stream orders.
#include "models/model.hpp"

namespace scopesim::models::spin {
using namespace scopesim::dialect;

// ---- spin.coresidency_assumed: the last block produces, every other block
// waits for it on a device-scope acquire flag ----
SCOPESIM_KERNEL void wait_for_last_block(plain<int>* data, plain<int>* ready, plain<int>* got) {
  atomic_ref<int, thread_scope_device> flag(*ready);
  if (thread_idx().x != 0) return;
  if (block_idx().x == grid_dim().x - 1) {
    *data = 42;
    flag.store(1, memory_order_release);
  } else {
    while (flag.load(memory_order_acquire) == 0) {
    }
    got[block_idx().x] = *data;
  }
}

// ---- spin.naive_grid_barrier: each block publishes its value, counts
// itself in with a relaxed fetch_add and spins until every block has; then
// it reads the next block's value ----
SCOPESIM_KERNEL void naive_grid_barrier(plain<int>* value, plain<int>* arrived, plain<int>* got) {
  atomic_ref<int, thread_scope_device> count(*arrived);
  if (thread_idx().x != 0) return;
  const unsigned b = block_idx().x;
  value[b] = static_cast<int>(b) + 1;
  count.fetch_add(1, memory_order_relaxed);
  while (count.load(memory_order_relaxed) < static_cast<int>(grid_dim().x)) {
  }
  got[b] = value[(b + 1) % grid_dim().x];
}

// ---- spin.separate_kernels: the producer is a kernel of its own, launched
// before the waiters' kernel in the same stream ----
SCOPESIM_KERNEL void produce(plain<int>* data, plain<int>* ready) {
  if (block_idx().x == 0 && thread_idx().x == 0) {
    *data = 42;
    atomic_ref<int, thread_scope_device>(*ready).store(1, memory_order_release);
  }
}
SCOPESIM_KERNEL void consume(plain<int>* data, plain<int>* ready, plain<int>* got) {
  if (thread_idx().x != 0) return;
  while (atomic_ref<int, thread_scope_device>(*ready).load(memory_order_acquire) == 0) {
  }
  got[block_idx().x] = *data;
}

// ---- host programs ----
// What block b read, observed as got<b> (any grid).
std::string got_name(unsigned b) { return "got" + std::to_string(b); }

void run_wait_for_last_block(Host& h, const Config& c) {
  plain<int>* data = device_alloc<plain<int>>(h, "data");
  plain<int>* ready = device_alloc<plain<int>>(h, "ready");
  plain<int>* got = device_alloc<plain<int>>(h, "got", c.grid);
  host_write(*data, 0);
  host_write(*ready, 0);
  launch<wait_for_last_block>(h, "wait_for_last_block", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, data, ready, got);
  device_synchronize(h);
  for (unsigned b = 0; b + 1 < c.grid; ++b) observe(h, got_name(b).c_str(), got[b]);
}

void run_naive_grid_barrier(Host& h, const Config& c) {
  plain<int>* value = device_alloc<plain<int>>(h, "value", c.grid);
  plain<int>* arrived = device_alloc<plain<int>>(h, "arrived");
  plain<int>* got = device_alloc<plain<int>>(h, "got", c.grid);
  for (unsigned b = 0; b < c.grid; ++b) host_write(value[b], 0);
  host_write(*arrived, 0);
  launch<naive_grid_barrier>(h, "naive_grid_barrier", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, value, arrived, got);
  device_synchronize(h);
  for (unsigned b = 0; b < c.grid; ++b) observe(h, got_name(b).c_str(), got[b]);
}

void run_separate_kernels(Host& h, const Config& c) {
  plain<int>* data = device_alloc<plain<int>>(h, "data");
  plain<int>* ready = device_alloc<plain<int>>(h, "ready");
  plain<int>* got = device_alloc<plain<int>>(h, "got", c.grid);
  host_write(*data, 0);
  host_write(*ready, 0);
  const stream_t s = stream_create(h);
  launch<produce>(h, "produce", dim3{1, 1, 1}, dim3{c.block, 1, 1}, s, data, ready);
  launch<consume>(h, "consume", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, s, data, ready, got);
  stream_synchronize(h, s);
  for (unsigned b = 0; b < c.grid && b < 4; ++b) observe(h, got_name(b).c_str(), got[b]);
}

// Every waiter read the producer's 42.
bool stale_data(const Outcome& o) {
  for (const auto& v : o.values())
    if (o.i(v.name) != 42) return true;
  return false;
}
// Block b read block (b + 1) % G's value, (b + 1) % G + 1.
bool stale_neighbour(const Outcome& o) {
  const auto& vs = o.values();
  for (std::size_t b = 0; b < vs.size(); ++b)
    if (o.i(vs[b].name) != static_cast<long long>((b + 1) % vs.size()) + 1) return true;
  return false;
}

// Derivations (semantics.md):
// - coresidency_assumed, <<<3,32>>> with 2 resident block slots: the
//   explorer dispatches blocks into free slots in every order (CUDA promises
//   none). When blocks 0 and 1 take both slots they spin on `ready`, which
//   only block 2 writes, and block 2 can never become resident: deadlock.
//   When block 2 takes a slot it stores 42 and releases the flag; a waiter's
//   acquire load that reads 1 is morally strong with the release (device
//   scope includes both blocks), so it synchronizes and the waiter reads 42:
//   no bad outcome. With every block resident (also-check), only that
//   happens: no finding. Executions on 2 slots: 9. Blocks 0 and 1 resident:
//   each reads ready's 0 once and waits, 1. A waiter beside block 2 reads
//   ready [1], [0,1] or, waiting before the store and reading the old 0
//   again once woken (spin-assume), [0,0,1]; one dispatched after block 2
//   ended (the store exists) reads [1] or [0,1]; its read of data returns
//   42 only. {0,2}: 3 x 2, {1,2}: 2 x 3, the 2 x 2 where both read [1] or
//   [0,1] in both: 1 + 6 + 6 - 4.
// - naive_grid_barrier, <<<2,32>>>: the counter is a chain of morally strong
//   relaxed RMWs, so the spin ends (eventually-visible), but a relaxed RMW
//   and a relaxed load are no release or acquire pattern: block b's read of
//   the other block's value is unordered with that block's plain store (data
//   race) and may return the host's 0 (stale). With one resident block the
//   first block dispatched spins for a count the other block, never
//   resident, would provide: deadlock, and no run ends (no outcome).
// - separate_kernels, <<<2,32>>> waiters after a one-block producer kernel in
//   one stream: the stream starts the waiters' kernel only after the
//   producer's ended, and kernel end and start synchronize (semantics.md), so
//   every waiter's first acquire load reads 1 and its read of data returns
//   42, with one resident block too (the kernels never share the slots): no
//   bad outcome, no finding. Executions: 1 (every read has one write it may
//   return: the host's 0 for ready and data is coherence-before the
//   producer's writes, which the waiters know through the kernel boundary).

Registrar models{
    {.name = "spin.separate_kernels",
     .summary = "produce<<<1,32>>> then consume<<<2,32>>> in one stream: the waiters' flag is set by an earlier kernel",
     .invariant = "The stream orders the producer kernel's end before the waiters' kernel start, and kernel "
                  "boundaries synchronize: the flag and the data are visible before any waiter runs, and no "
                  "block waits for a block that is not resident.",
     .bad_means = "stale data: a waiter read data != 42",
     .chapter = {2, 32},
     .program = run_separate_kernels,
     .bad = stale_data,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .also = {{.options = "--resident-blocks 1",
               .config = {2, 32, 1},
               .expect = {.bad_outcome_permitted = false, .required = {}}}},
     .exhaustive_executions = 1},
    {.name = "spin.coresidency_assumed",
     .summary = "wait_for_last_block<<<3,32>>> on 2 block slots: blocks 0 and 1 spin on a flag block 2 sets",
     .invariant = "The device-scope release/acquire flag would order the data, but a spinning block holds its "
                  "slot: CUDA promises no dispatch order and no co-residency, so when the waiters take every "
                  "slot the producer never runs.",
     .bad_means = "a waiter read data other than 42",
     .chapter = {.grid = 3, .block = 32, .resident_blocks = 2},
     .program = run_wait_for_last_block,
     .bad = stale_data,
     .expect = {.bad_outcome_permitted = false, .required = {FindingKind::deadlock}},
     .also = {{.options = "--resident-blocks 3",
               .config = {.grid = 3, .block = 32, .resident_blocks = 3},
               .expect = {.bad_outcome_permitted = false, .required = {}}}},
     .exhaustive_executions = 9},
    {.name = "spin.naive_grid_barrier",
     .summary = "naive_grid_barrier<<<2,32>>>: a grid barrier made of a relaxed fetch_add and a relaxed spin",
     .invariant = "Seeing the counter reach the block count proves every block arrived, but relaxed RMWs and "
                  "loads release and acquire nothing: the values stored before the \"barrier\" need not be "
                  "visible after it. And the spin needs every block resident at once.",
     .bad_means = "a block read a neighbour's value that was not yet visible (stale 0)",
     .chapter = {2, 32},
     .program = run_naive_grid_barrier,
     .bad = stale_neighbour,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .also = {{.options = "--resident-blocks 1",
               .config = {.grid = 2, .block = 32, .resident_blocks = 1},
               .expect = {.bad_outcome_permitted = false, .required = {FindingKind::deadlock}}}}},
};

}  // namespace scopesim::models::spin
