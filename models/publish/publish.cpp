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

bool stale(const Outcome& o) { return o.i("error") != 0; }

const char* const kStale = "stale payload: the consumer saw the flag but not the record (error=1)";

Registrar models{
    {.name = "publish.block_acqrel",
     .summary = "producer_consumer_demo<<<1,64>>>: shared Record published by a block-scope release/acquire flag",
     .invariant = "The producer's plain stores to slot are program-ordered before its release store to ready; "
                  "the consumer's acquire load that reads 1 is morally strong with it (same block, block scope "
                  "includes both), so the release synchronizes with the acquire and the record is visible.",
     .bad_means = kStale,
     .chapter = {1, 64},
     .program = one_block<producer_consumer_demo<memory_order_release, memory_order_acquire>>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = false, .required = {}}},
    {.name = "publish.relaxed",
     .summary = "as publish.block_acqrel with both flag operations relaxed",
     .invariant = "A relaxed store and a relaxed load form no release and no acquire pattern: observing the flag "
                  "orders nothing, so the consumer may read the record before the producer's stores reach it.",
     .bad_means = kStale,
     .chapter = {1, 64},
     .program = one_block<producer_consumer_demo<memory_order_relaxed, memory_order_relaxed>>,
     .bad = stale,
     // The stale read returns slot before any store reached it: never-written shared memory.
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race, FindingKind::uninitialised_read}}},
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
                             FindingKind::possible_non_termination, FindingKind::uninitialised_read}}},
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
               .expect = {.bad_outcome_permitted = false, .required = {FindingKind::deadlock}}}}},
};

}  // namespace scopesim::models::publish
