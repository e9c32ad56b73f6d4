// counter — one global counter (catalogue.md, "counter").
// Every thread of the grid adds to one counter in global memory; the host
// observes the counter and the total it expects.
#include "models/model.hpp"

namespace scopesim::models::counter {
using namespace scopesim::dialect;

// ---- counter.global_atomic: atomic_add(&counter, 1) ----
SCOPESIM_KERNEL void count_atomic(plain<int>* counter) { atomic_add(counter, 1); }

// ---- counter.plain: counter++ ----
SCOPESIM_KERNEL void count_plain(plain<int>* counter) { (*counter)++; }

// ---- counter.float_order: each thread adds its own float value ----
SCOPESIM_KERNEL void sum_floats(const plain<float>* values, plain<float>* sum) {
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  const float v = values[i];
  atomic_add(sum, v);
}

// ---- counter.hierarchical: a warp reduction with __shfl_down_sync, warp
// sums combined in shared memory behind a barrier, one atomic_add per block
// (blocks of whole warps) ----
using WarpSums = plain<int>[32];
SCOPESIM_KERNEL void count_hierarchical(plain<int>* counter) {
  SCOPESIM_SHARED(WarpSums, warp_sums);
  int v = 1;
  for (unsigned d = 16; d > 0; d /= 2) v += shfl_down_sync(0xffffffffu, v, d);
  const unsigned lane = thread_idx().x % 32, warp = thread_idx().x / 32;
  if (lane == 0) warp_sums[warp] = v;
  syncthreads();
  if (thread_idx().x == 0) {
    int block_total = 0;
    for (unsigned w = 0; w < block_dim().x / 32; ++w) block_total += warp_sums[w];
    atomic_add(counter, block_total);
  }
}

// ---- host programs ----
template <auto Kernel>
void count(Host& h, const Config& c) {
  plain<int>* counter = device_alloc<plain<int>>(h, "counter");
  plain<int>* expected = device_alloc<plain<int>>(h, "expected");
  host_write(*counter, 0);
  host_write(*expected, static_cast<int>(c.grid * c.block));
  launch<Kernel>(h, "count", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, counter);
  device_synchronize(h);
  observe(h, "counter", *counter);
  observe(h, "expected", *expected);
}

bool lost_update(const Outcome& o) { return o.i("counter") != o.i("expected"); }

// Values whose float sum depends on the order: 1e8 + 1 rounds back to 1e8 (the
// spacing of floats near 1e8 is 8), but 1 + 1 + ... accumulated first survives.
// Thread k adds kValues[k % 4].
constexpr float kValues[4] = {1.0e8f, 4.0f, 4.0f, -1.0e8f};

void sum(Host& h, const Config& c) {
  const unsigned threads = c.grid * c.block;
  plain<float>* values = device_alloc<plain<float>>(h, "values", threads);
  plain<float>* total = device_alloc<plain<float>>(h, "sum");
  for (unsigned k = 0; k < threads; ++k) host_write(values[k], kValues[k % 4]);
  host_write(*total, 0.0f);
  launch<sum_floats>(h, "sum_floats", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, values, total);
  device_synchronize(h);
  observe(h, "sum", *total);
}

// No single sum is wrong: the point is that there is more than one.
bool never_bad(const Outcome&) { return false; }

// Derivations (semantics.md):
// - global_atomic: atomic_add is atom.relaxed.gpu; device scope includes every
//   thread of the grid, so every pair of increments is morally strong and
//   atomic: each RMW reads the one before it in coherence and the counter
//   ends at grid * block. No race: all accesses are strong and morally strong.
//   Executions at the quick configuration <<<2,2>>>: the four morally strong
//   RMWs on one location may run in any of 4! orders, but the order is all
//   that differs, their results are unused and the host reads the counter
//   after cudaDeviceSynchronize, seeing all four: one execution
//   (docs/architecture.md, "Commuting RMWs").
// - plain: counter++ is a weak load and a separate weak store; two threads
//   may both load 0 and store 1 (lost update) and the accesses race.
// - float_order: the atomics are atomic (as above) but float addition is not
//   associative; with the quick configuration <<<1,4>>> adding 1e8, 4, 4, -1e8:
//   1e8 + 4 rounds to 1e8 (ties to even; the spacing is 8), 1e8 + 4 + 4 too,
//   while 4 + 4 = 8 first, then + 1e8 = 100000008 exactly. A 4 added while
//   1e8 is in the sum is absorbed, one added before 1e8 or after -1e8 is kept,
//   so the orders give the sums 0 (4, 1e8, 4, -1e8), 4 (1e8, 4, -1e8, 4) and
//   8 (4, 4, 1e8, -1e8): three outcomes, none bad; no race. Executions: the
//   four morally strong RMWs in every order, 4! = 24.
// - hierarchical: the shuffles are exact (every lane of the full mask takes
//   part: lane 0 ends with 32), lane 0 of each warp stores its warp's sum
//   before the barrier and thread 0 reads them after it (the barrier orders
//   them: no race), and the one atomic_add per block is morally strong with
//   the other block's (device scope): counter = grid * block. Executions at
//   <<<2,32>>>: everything but the two RMWs is ordered or local; their
//   results are unused and the host reads the counter after both: the two
//   orders are one execution.

Registrar models{
    {.name = "counter.hierarchical",
     .summary = "count<<<2,64>>>: warp sums by __shfl_down_sync, block sum in shared memory behind a barrier, "
                "one atomic_add per block",
     .invariant = "The shuffles exchange registers among the full warp; each warp's lane 0 stores its sum to "
                  "shared memory before syncthreads() and thread 0 reads every warp sum after it (cta-scope "
                  "barrier: ordered, no race); the per-block atomic_adds are device-scope RMWs, morally strong, "
                  "so none is lost.",
     .bad_means = "lost update: counter < expected = grid * block",
     .chapter = {2, 64},
     .quick = Config{2, 32},
     .program = count<count_hierarchical>,
     .bad = lost_update,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1},
    {.name = "counter.global_atomic",
     .summary = "count<<<2,64>>>: every thread atomic_add(&counter, 1)",
     .invariant = "Every increment is a device-scope RMW (atom.relaxed.gpu) and device scope includes every "
                  "thread of the grid: the increments are pairwise morally strong, hence atomic, and none is "
                  "lost whatever the schedule.",
     .bad_means = "lost update: counter < expected = grid * block",
     .chapter = {2, 64},
     .quick = Config{2, 2},
     .program = count<count_atomic>,
     .bad = lost_update,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1},
    {.name = "counter.plain",
     .summary = "count<<<2,64>>>: every thread counter++ with plain accesses",
     .invariant = "counter++ is a plain load and a separate plain store: nothing orders two threads' increments, "
                  "so both may read the same value (a lost update) and the accesses race.",
     .bad_means = "lost update: counter < expected = grid * block",
     .chapter = {2, 64},
     .quick = Config{1, 2},
     .program = count<count_plain>,
     .bad = lost_update,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}}},
    {.name = "counter.float_order",
     .summary = "sum_floats<<<2,64>>>: atomic_add of float values 1e8, 4, 4, -1e8, ... in any order",
     .invariant = "Each atomic_add is atomic (device scope, morally strong), so no addend is lost, but the "
                  "additions happen in coherence order, which the schedule decides, and float addition "
                  "rounds: the sum depends on the schedule.",
     .bad_means = "none: every sum is a correct result of some order; the finding is that there are several",
     .chapter = {2, 64},
     .quick = Config{1, 4},
     .program = sum,
     .bad = never_bad,
     .expect = {.bad_outcome_permitted = false, .required = {}, .several_outcomes = true},
     .exhaustive_executions = 24},
};

}  // namespace scopesim::models::counter
