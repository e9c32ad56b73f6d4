// publish — one record published through a flag (catalogue.md, "publish").
// The chapter's worked example, producer_consumer_demo<<<1,64>>>, and its
// broken variants. Thread 0 (warp 0) produces, thread 32 (warp 1) consumes.
#include "models/model.hpp"

namespace scopesim::models::publish {
using namespace scopesim::dialect;

struct Record {
  plain<int> id;
  plain<float> score;
};

// ---- publish.block_acqrel: the chapter's producer_consumer_demo; with both
// orders relaxed it is publish.relaxed ----
template <memory_order Publish, memory_order Observe>
SCOPESIM_KERNEL void producer_consumer_demo(Record* observed, plain<int>* error) {
  SCOPESIM_SHARED(Record, slot);
  SCOPESIM_SHARED(plain<int>, ready);
  if (thread_idx().x == 0) ready = 0;
  syncthreads();
  atomic_ref<int, thread_scope_block> flag(ready);
  if (thread_idx().x == 0) {
    slot.id = 42;
    slot.score = 3.5f;
    flag.store(1, Publish);
  } else if (thread_idx().x == 32) {
    while (flag.load(Observe) == 0) {
    }
    observed[0] = slot;
    error[0] = (observed[0].id != 42 || observed[0].score != 3.5f);
  }
}

// ---- publish.cross_block_*: record and flag in global memory; thread 0 of
// block 0 produces, thread 0 of block 1 consumes, <<<2,64>>> ----
template <thread_scope Scope>
SCOPESIM_KERNEL void producer_consumer_cross_block(Record* slot, plain<int>* ready, Record* observed,
                                                   plain<int>* error) {
  atomic_ref<int, Scope> flag(*ready);
  if (thread_idx().x != 0) return;
  if (block_idx().x == 0) {
    slot->id = 42;
    slot->score = 3.5f;
    flag.store(1, memory_order_release);
  } else if (block_idx().x == 1) {
    while (flag.load(memory_order_acquire) == 0) {
    }
    observed[0] = *slot;
    error[0] = (observed[0].id != 42 || observed[0].score != 3.5f);
  }
}

// ---- publish.volatile_flag: the chapter's demo with a volatile int flag ----
SCOPESIM_KERNEL void producer_consumer_volatile(Record* observed, plain<int>* error) {
  SCOPESIM_SHARED(Record, slot);
  SCOPESIM_SHARED(plain<int>, ready);
  if (thread_idx().x == 0) ready = 0;
  syncthreads();
  volatile plain<int>& flag = ready;
  if (thread_idx().x == 0) {
    slot.id = 42;
    slot.score = 3.5f;
    flag = 1;
  } else if (thread_idx().x == 32) {
    while (flag == 0) {
    }
    observed[0] = slot;
    error[0] = (observed[0].id != 42 || observed[0].score != 3.5f);
  }
}

// ---- publish.fence_pattern / publish.fence_no_wait: record and a relaxed
// device-scope flag in global memory, threadfence() after the record and
// after the flag read; thread 0 of block 0 produces, thread 0 of block 1
// consumes, <<<2,64>>>. With Wait the consumer spins until it sees the flag;
// without, it reads the flag once and goes on whatever it saw. ----
template <bool Wait>
SCOPESIM_KERNEL void producer_consumer_fenced(Record* slot, plain<int>* ready, Record* observed,
                                              plain<int>* seen, plain<int>* error) {
  atomic_ref<int, thread_scope_device> flag(*ready);
  if (thread_idx().x != 0) return;
  if (block_idx().x == 0) {
    slot->id = 42;
    slot->score = 3.5f;
    threadfence();
    flag.store(1, memory_order_relaxed);
  } else if (block_idx().x == 1) {
    if constexpr (Wait) {
      while (flag.load(memory_order_relaxed) == 0) {
      }
      seen[0] = 1;
    } else {
      seen[0] = flag.load(memory_order_relaxed);
    }
    threadfence();
    observed[0] = *slot;
    error[0] = (observed[0].id != 42 || observed[0].score != 3.5f);
  }
}

// ---- publish.counter_*: blocks 0..N-1 (thread 0 each) write their record and
// count themselves in on a device-scope completion counter; thread 0 of the
// last block waits until the counter reaches N and checks every record,
// <<<N+1,32>>> ----
template <memory_order Count, memory_order Wait>
SCOPESIM_KERNEL void completion_counter(Record* records, plain<int>* done, Record* observed, plain<int>* error) {
  atomic_ref<int, thread_scope_device> counter(*done);
  if (thread_idx().x != 0) return;
  const unsigned producers = grid_dim().x - 1;
  const unsigned b = block_idx().x;
  if (b < producers) {
    records[b].id = static_cast<int>(b) + 1;
    records[b].score = 3.5f;
    counter.fetch_add(1, Count);
  } else {
    while (counter.load(Wait) < static_cast<int>(producers)) {
    }
    int wrong = 0;
    for (unsigned k = 0; k < producers; ++k) {
      observed[k] = records[k];
      if (observed[k].id != static_cast<int>(k) + 1 || observed[k].score != 3.5f) wrong = 1;
    }
    error[0] = wrong;
  }
}

// ---- host programs ----
template <auto Kernel>
void one_block(Host& h, const Config& c) {
  Record* observed = device_alloc<Record>(h, "observed");
  plain<int>* error = device_alloc<plain<int>>(h, "error");
  host_write(*error, 0);
  launch<Kernel>(h, "producer_consumer_demo", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, observed, error);
  device_synchronize(h);
  observe(h, "error", *error);
}

template <thread_scope Scope>
void cross_block(Host& h, const Config& c) {
  Record* slot = device_alloc<Record>(h, "slot");
  plain<int>* ready = device_alloc<plain<int>>(h, "ready");
  Record* observed = device_alloc<Record>(h, "observed");
  plain<int>* error = device_alloc<plain<int>>(h, "error");
  host_write(*ready, 0);
  host_write(*error, 0);
  launch<producer_consumer_cross_block<Scope>>(h, "producer_consumer_cross_block", dim3{c.grid, 1, 1},
                                               dim3{c.block, 1, 1}, slot, ready, observed, error);
  device_synchronize(h);
  observe(h, "error", *error);
}

template <bool Wait>
void fenced(Host& h, const Config& c) {
  Record* slot = device_alloc<Record>(h, "slot");
  plain<int>* ready = device_alloc<plain<int>>(h, "ready");
  Record* observed = device_alloc<Record>(h, "observed");
  plain<int>* seen = device_alloc<plain<int>>(h, "seen");
  plain<int>* error = device_alloc<plain<int>>(h, "error");
  host_write(*ready, 0);
  host_write(*error, 0);
  launch<producer_consumer_fenced<Wait>>(h, "producer_consumer_fenced", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1},
                                         slot, ready, observed, seen, error);
  device_synchronize(h);
  observe(h, "seen", *seen);
  observe(h, "error", *error);
}

template <memory_order Count, memory_order Wait>
void counter(Host& h, const Config& c) {
  const unsigned producers = c.grid - 1;
  Record* records = device_alloc<Record>(h, "records", producers);
  plain<int>* done = device_alloc<plain<int>>(h, "done");
  Record* observed = device_alloc<Record>(h, "observed", producers);
  plain<int>* error = device_alloc<plain<int>>(h, "error");
  host_write(*done, 0);
  host_write(*error, 0);
  launch<completion_counter<Count, Wait>>(h, "completion_counter", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1},
                                          records, done, observed, error);
  device_synchronize(h);
  observe(h, "error", *error);
}

bool stale(const Outcome& o) { return o.i("error") != 0; }

const char* const kStale = "stale payload: the consumer saw the flag but not the record (error=1)";

Registrar models{
    // Executions: 3. The spin's reads are [st ready], [init, st ready] or [init, init, st ready]: a read of init
    // made before the store waits for a newer write (spin-assume); woken by the store it may return init once
    // more (the wait only promised that a newer write exists), and then, its old write skipped, the store. Each
    // way its acquire reads the release, so both record reads return the producer's stores.
    {.name = "publish.block_acqrel",
     .summary = "producer_consumer_demo<<<1,64>>>: shared Record published by a block-scope release/acquire flag",
     .invariant = "The producer's plain stores to slot are program-ordered before its release store to ready; "
                  "the consumer's acquire load that reads 1 is morally strong with it (same block, block scope "
                  "includes both), so the release synchronizes with the acquire and the record is visible.",
     .bad_means = kStale,
     .chapter = {1, 64},
     .program = one_block<producer_consumer_demo<memory_order_release, memory_order_acquire>>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 3},
    // Executions: 12: the spin's reads [st], [init, st] or [init, init, st] (as publish.block_acqrel), times
    // the record's two reads (id, score) each returning the never-written initial value or the producer's
    // store, nothing synchronizing (3 × 2 × 2).
    {.name = "publish.relaxed",
     .summary = "as publish.block_acqrel with both flag operations relaxed",
     .invariant = "A relaxed store and a relaxed load form no release and no acquire pattern: observing the flag "
                  "orders nothing, so the consumer may read the record before the producer's stores reach it.",
     .bad_means = kStale,
     .chapter = {1, 64},
     .program = one_block<producer_consumer_demo<memory_order_relaxed, memory_order_relaxed>>,
     .bad = stale,
     // The stale read returns slot before any store reached it: never-written shared memory.
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .exhaustive_executions = 12},
    // Executions: 12, as publish.relaxed: spin [st], [init, st] or [init, init, st], times 2 × 2 for the
    // record's reads.
    {.name = "publish.cross_block_block_scope",
     .summary = "record and flag in global memory, consumer in block 1, <<<2,64>>>, block-scope flag",
     .invariant = "Block scope excludes the consumer's block: the release and the acquire are not morally strong, "
                  "so nothing synchronizes, the record reads race, and nothing promises the spinner ever sees "
                  "the flag.",
     .bad_means = kStale,
     .chapter = {2, 64},
     .program = cross_block<thread_scope_block>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = true,
                .required = {FindingKind::data_race, FindingKind::scoped_race,
                             FindingKind::possible_non_termination, FindingKind::uninitialised_read}},
     .exhaustive_executions = 12},
    // Executions: 3 (all blocks resident): spin [st], [init, st] or [init, init, st] (as publish.block_acqrel),
    // the record from the stores only.
    {.name = "publish.cross_block_device_scope",
     .summary = "as publish.cross_block_block_scope with a device-scope flag",
     .invariant = "Device scope includes both blocks: the release store and the acquire load are morally strong "
                  "and synchronize, so the record is visible. It still assumes the producer block runs: with one "
                  "resident block, dispatching the consumer first deadlocks.",
     .bad_means = kStale,
     .chapter = {2, 64},
     .program = cross_block<thread_scope_device>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .also = {{.options = "--resident-blocks 1",
               .config = {2, 64, 1},
               .expect = {.bad_outcome_permitted = false, .required = {FindingKind::deadlock}}}},
     .exhaustive_executions = 3},
    // volatile is ld/st.relaxed.sys: strong (so the spin ends: the volatile
    // store and load are morally strong, sys scope includes both threads) but
    // neither a release nor an acquire. Seeing the flag orders nothing, as in
    // publish.relaxed: the copy of slot may run before the producer's stores
    // (never-written shared memory) and races with them.
    // Executions: 12, as publish.relaxed: spin [st], [init, st] or [init, init, st], times 2 × 2 for the
    // record's reads.
    {.name = "publish.volatile_flag",
     .summary = "as publish.block_acqrel with the flag a volatile int",
     .invariant = "A volatile access is strong but orders nothing: a volatile store is no release and a volatile "
                  "load no acquire, so the consumer that sees the flag may still read the record before the "
                  "producer's stores reach it.",
     .bad_means = kStale,
     .chapter = {1, 64},
     .program = one_block<producer_consumer_volatile>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .exhaustive_executions = 12},
    // The consumer may read the flag before the producer ran at all (seen=0):
    // then it copies a record nobody wrote (uninitialised read, error=1), and
    // the copy races with the producer's stores. A fence makes no thread wait.
    // When it does read 1, fence.sc; st.relaxed.gpu is a release pattern and
    // ld.relaxed.gpu; fence.sc an acquire pattern, morally strong (gpu scope
    // includes both blocks): the record is visible, so seen=1 error=1 is not
    // permitted (the fence_pattern case).
    // Executions: 6. seen=1: the producer's fence.sc precedes its flag store, which precedes the consumer's
    // fence, so the record comes from the stores (1). seen=0: producer's fence first → synchronized, the record
    // from the stores (1); consumer's fence first → the record's two reads free (2 × 2).
    {.name = "publish.fence_no_wait",
     .summary = "fenced flag across blocks, but the consumer reads the flag once and the record whatever it saw",
     .invariant = "threadfence() orders the producer's record before its flag and the consumer's flag read before "
                  "its record read, but it does not make the consumer wait: if the flag read returns 0, nothing "
                  "orders the record read after the producer's stores.",
     .bad_means = "unwritten payload: the consumer read the record before the producer wrote it (error=1)",
     .chapter = {2, 64},
     .program = fenced<false>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .exhaustive_executions = 6},
    // The spin ends when the relaxed gpu-scope load reads the relaxed store of
    // 1 (morally strong, eventually visible). Producer: fence.sc.gpu then a
    // strong write, a release pattern; consumer: a strong read then fence.sc.gpu,
    // an acquire pattern; gpu scope includes both blocks, so the record stores
    // happen before the copy: one outcome, seen=1 error=0, no race.
    // Executions: 3: spin [st], [init, st] or [init, init, st] (as publish.block_acqrel); the fences are
    // ordered producer first (its flag store is read before the consumer's fence) and synchronize, so the
    // record comes from the stores.
    {.name = "publish.fence_pattern",
     .summary = "relaxed device-scope flag with threadfence() after the record and after the flag read, across "
                "blocks, <<<2,64>>>",
     .invariant = "A fence before a strong flag store is a release pattern; a strong flag load followed by a fence "
                  "is an acquire pattern; at device scope both blocks are included, so the consumer that waited "
                  "for the flag sees the record.",
     .bad_means = kStale,
     .chapter = {2, 64},
     .program = fenced<true>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 3},
    // Relaxed fetch_adds and a relaxed load: the counter is a chain of
    // morally strong RMWs (no lost count, the spin ends), but none of them is
    // a release or an acquire, so reading N orders no record store before the
    // consumer's reads: stale (never-written) records, data race.
    // Executions: 288: the 18 of the counter and its spin (as
    // publish.counter_acqrel), times the consumer's four record reads (id and
    // score of each record), each returning the never-written initial value
    // or the producer's store, nothing synchronizing (2^4 = 16).
    {.name = "publish.counter_relaxed",
     .summary = "completion_counter<<<3,32>>>: two producer blocks count in with relaxed fetch_add; the consumer "
                "block waits for 2 with a relaxed load and reads both records",
     .invariant = "The counter reaches N only after every producer counted in, but relaxed RMWs and a relaxed load "
                  "are no release and no acquire: the consumer's record reads are not ordered after the "
                  "producers' record stores.",
     .bad_means = "stale record: the consumer saw the count but not every record (error=1)",
     .chapter = {3, 32},
     .program = counter<memory_order_relaxed, memory_order_relaxed>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .exhaustive_executions = 288},
    // Each fetch_add is a release RMW; the consumer's acquire load reads the
    // last RMW of the chain (count N), which inherits the releases of every
    // RMW before it (morally strong RMW chain, device scope): the consumer
    // synchronizes with every producer and sees every record. No race.
    // Executions: 18: the two fetch_adds are morally strong, so atomic, in
    // either coherence order (2); the spin's loads return writes of the
    // counter in coherence order, each of the initial 0 and the first add's
    // 1 read not at all, once, or twice with a spin-assume wait between
    // (woken, a load may return the old write once more), then the 2 (3 x 3);
    // the record reads return the producers' stores (the initial values are
    // coherence-before stores the consumer knows): 2 x 9.
    {.name = "publish.counter_acqrel",
     .summary = "as publish.counter_relaxed with release fetch_add and an acquire load, device scope",
     .invariant = "Each producer's release RMW carries its record store; the RMWs form a morally strong chain, so "
                  "the consumer's acquire load that reads N acquires every producer's release and sees every "
                  "record.",
     .bad_means = "stale record: the consumer saw the count but not every record (error=1)",
     .chapter = {3, 32},
     .program = counter<memory_order_release, memory_order_acquire>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 18},
};

}  // namespace scopesim::models::publish
