// Properties of the catalogue's models over launches other than the chapter's:
// block sizes, grids, resident blocks and inputs drawn by rapidcheck, each
// launch explored exhaustively. The expected verdict of every launch is
// reasoned from the kernel (models/<family>/<family>.cpp) and the rules of
// docs/semantics.md in the comment above each property.
#include "tests/properties/property.hpp"

namespace scopesim {
namespace {

using gen::Geometry;

// Exhaustive and complete: only a complete search proves "nothing bad".
Report exhaustive(const models::Model& m, const Launch& l) {
  Report r = explore(m, l);
  RC_ASSERT(r.complete());
  return r;
}

// ---- publish: one record through a flag ----

// publish.block_acqrel: the producer is thread 0, the consumer thread 32 of the
// same block. With a consumer (block > 32) the block-scope release/acquire
// pair is morally strong and synchronizes, so the record is visible: no bad
// outcome, no finding. Without one (block <= 32) nothing reads the record. So:
// clean for every block size. (One block: the model's meaning; several blocks
// would all write the one global `error`.)
SCOPESIM_PROPERTY(Publish, BlockAcqrelIsCleanForEveryBlockSize, "publish.block_acqrel") {
  const Report r = exhaustive(model, *gen::launch(Geometry{.block = {1, 1024}}));
  require(!r.bad(), "no bad outcome and no finding", r);
}

// publish.relaxed: relaxed flag operations synchronize nothing, so with a
// consumer (block > 32) the consumer may read the record before the
// producer's plain stores: stale payload, a data race on slot, and a read of
// never-written shared memory. With block <= 32 there is no consumer and no
// reader: clean.
SCOPESIM_PROPERTY(Publish, RelaxedIsBrokenExactlyWhenTheConsumerExists, "publish.relaxed") {
  const Report r = exhaustive(model, *gen::launch(Geometry{.block = {1, 1024}}));
  if (r.launch().block <= 32) {
    require(!r.bad(), "no consumer: nothing bad", r);
  } else {
    require(r.bad_outcome() && r.permits("error=1"), "the stale payload error=1 is permitted", r);
    require(r.finding_kinds() == std::vector{FindingKind::data_race, FindingKind::uninitialised_read},
            "exactly a data race and an uninitialised read", r);
  }
}

// publish.cross_block_block_scope: the consumer is thread 0 of block 1. With a
// second block, block scope excludes the consumer: the flag operations are not
// morally strong, nothing synchronizes, so the stale payload is permitted, the
// record reads race (data race), the flag accesses race across scopes (scoped
// race), nothing promises the spin ever sees the flag (possible
// non-termination) and the stale record is never-written memory. Blocks past
// the second do nothing, and the block size only adds idle threads. With one
// block there is no consumer: clean.
SCOPESIM_PROPERTY(Publish, CrossBlockBlockScopeIsBrokenWithTwoBlocks, "publish.cross_block_block_scope") {
  const Report r = exhaustive(model, *gen::launch(Geometry{.grid = {1, 4}, .block = {1, 64}}));
  if (r.launch().grid == 1) {
    require(!r.bad(), "no consumer block: nothing bad", r);
  } else {
    require(r.permits("error=1"), "the stale payload error=1 is permitted", r);
    require(r.finding_kinds() == std::vector{FindingKind::data_race, FindingKind::scoped_race,
                                             FindingKind::possible_non_termination,
                                             FindingKind::uninitialised_read},
            "exactly a data race, a scoped race, possible non-termination and an uninitialised read", r);
  }
}

// publish.cross_block_device_scope: device scope includes both blocks, so the
// release/acquire pair synchronizes and the record is always intact: never a
// bad outcome. It still assumes the producer (block 0) runs while the consumer
// (block 1) spins: with exactly one resident block, dispatching block 1 while
// block 0 waits leaves the spinner holding the only slot: deadlock. With two
// or more slots (or every block resident) a slot outside block 1 keeps
// freeing up (blocks other than 0 and 1 end at once) until block 0 runs: no
// finding. With one block there is no consumer.
SCOPESIM_PROPERTY(Publish, CrossBlockDeviceScopeDeadlocksOnlyWithOneResidentBlock,
                  "publish.cross_block_device_scope") {
  const Report r =
      exhaustive(model, *gen::launch(Geometry{.grid = {1, 4}, .block = {1, 64}, .resident_blocks = {0, 4}}));
  require(!r.bad_outcome(), "the record is always intact", r);
  const bool one_slot = r.launch().resident_blocks == 1 && r.launch().grid >= 2;
  require(r.finding_kinds() == (one_slot ? std::vector{FindingKind::deadlock} : std::vector<FindingKind>{}),
          one_slot ? "exactly a deadlock" : "no finding", r);
}

// ---- tile: a cooperative shared-memory tile (catalogue.md, "tile") ----
// One block: thread k handles element k of an input of length n (parameter
// "n", n <= blockDim) and adds its neighbour (k + 1) % n (models/tile/tile.cpp).

// A block size in `block` (the model's tile holds up to 256) and an input
// length of up to one block. The suite draws blocks of up to 128 threads.
Launch covering(gen::Range block) {
  Launch l = *gen::launch(Geometry{.block = block});
  l.grid = 1;
  l.params["n"] = *gen::in({1, static_cast<long long>(l.block)});
  return l;
}

// tile.bounds_participate: the bounds check surrounds the load and the compute
// only, every thread reaches the barrier, and the barrier orders every store
// to the tile before every neighbour's read: no bad outcome, no finding, for
// every block size and input length.
SCOPESIM_PROPERTY(Tile, BoundsParticipateIsCleanForEveryBlockAndLength, "tile.bounds_participate") {
  const Report r = exhaustive(model, covering({1, 128}));
  require(!r.bad(), "no bad outcome and no finding", r);
}

// tile.divergent_barrier: `if (i < n) { load; __syncthreads(); compute; }` —
// when n is not a multiple of the block, the threads of the last block past n
// skip a barrier the others execute: barrier divergence (semantics.md, "Findings").
SCOPESIM_PROPERTY(Tile, DivergentBarrierIsReportedWhenTheLengthIsNotAMultiple, "tile.divergent_barrier") {
  const Launch l = covering({2, 128});
  RC_PRE(l.params.at("n") % l.block != 0);
  Options o;
  o.stop_at_first = true;  // presence only
  const Report r = explore(model, l, o);
  require(r.has(FindingKind::barrier_divergence), "barrier divergence is reported", r);
}

}  // namespace
}  // namespace scopesim
