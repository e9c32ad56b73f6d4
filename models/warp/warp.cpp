// warp — warp-level exchange (catalogue.md, "warp").
// <<<1,32>>>: lanes 0 and 1 swap values through shared memory around a
// syncwarp, or a shuffle hands a ready token from lane 0 to lane 1.
#include "models/model.hpp"

namespace scopesim::models::warp {
using namespace scopesim::dialect;

using Lanes = plain<int>[32];

// ---- warp.partial_mask: the mask names lane 0 only, but lanes 0 and 1
// execute the syncwarp (it should be 0x3) ----
SCOPESIM_KERNEL void swap_pair(plain<int>* got) {
  SCOPESIM_SHARED(Lanes, buf);
  const unsigned lane = thread_idx().x % 32;
  if (lane < 2) {
    buf[lane] = static_cast<int>(lane) + 1;
    syncwarp(0x1);
    got[lane] = buf[lane ^ 1];
  }
}

void run(Host& h, const Config& c) {
  plain<int>* got = device_alloc<plain<int>>(h, "got", 2);
  launch<swap_pair>(h, "swap_pair", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, got);
  device_synchronize(h);
  observe(h, "got0", got[0]);
  observe(h, "got1", got[1]);
}

// ---- warp.shfl_is_not_a_fence: lane 0 writes shared memory, then a
// __shfl_sync hands its "ready" token to lane 1, which reads the value ----
SCOPESIM_KERNEL void shuffle_signal(plain<int>* got) {
  SCOPESIM_SHARED(Lanes, buf);
  const unsigned lane = thread_idx().x % 32;
  if (lane == 0) buf[0] = 42;
  const int ready = shfl_sync(0xffffffffu, lane == 0 ? 1 : 0, 0);
  if (lane == 1 && ready == 1) *got = buf[0];
}

void run_shuffle_signal(Host& h, const Config& c) {
  plain<int>* got = device_alloc<plain<int>>(h, "got");
  host_write(*got, 0);
  launch<shuffle_signal>(h, "shuffle_signal", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, got);
  device_synchronize(h);
  observe(h, "got", *got);
}

// Derivation (semantics.md, "Barriers"): a shuffle exchanges registers among
// the lanes of its mask and orders no memory; lane 0's plain store and lane
// 1's plain load are unordered (data race), and the load may run first and
// return never-written shared memory: a stale value, a bad outcome.

// Lane 0 should read lane 1's 2, lane 1 lane 0's 1.
bool not_swapped(const Outcome& o) { return o.i("got0") != 2 || o.i("got1") != 1; }

// Derivation (semantics.md): lane 1 executes a syncwarp whose mask excludes
// it: barrier divergence (invalid mask) in every run. Lane 0's syncwarp(0x1)
// orders it only with itself, so its read of buf[1] is unordered with lane
// 1's store (data race) and may run before it: a stale, never-written value,
// a bad outcome. What an invalid mask does is undefined; the simulator lets
// lane 1 wait for lane 0 at the syncwarp, which deadlocks when lane 0 has
// left it. Those consequences of undefined behaviour are not part of the
// verdict: only the divergence and the race are required.

// Lanes 0 and 1 of one warp exchange through cells got[0] and got[1]: one
// block (another would write the same cells) of at least two threads.
std::string fits(const Config& c) {
  if (c.grid != 1) return "warp runs in one block (grid 1)";
  if (c.block < 2) return "warp needs lanes 0 and 1 (a block of 2 or more threads)";
  return "";
}

Registrar models{
    {.name = "warp.shfl_is_not_a_fence",
     .summary = "shuffle_signal<<<1,32>>>: lane 0 writes shared memory, __shfl_sync signals lane 1, which reads it",
     .invariant = "A warp shuffle exchanges registers and orders no memory: receiving lane 0's token does not "
                  "make lane 0's earlier plain store visible to lane 1, so lane 1's plain read races with it and "
                  "may miss it. A syncwarp() (a cta-scope barrier among the lanes) would order them.",
     .bad_means = "stale: lane 1 got the token but not the value (got != 42)",
     .chapter = {1, 32},
     .program = run_shuffle_signal,
     .bad = [](const Outcome& o) { return o.i("got") != 42; },
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race, FindingKind::uninitialised_read}},
     .fits = fits},
    {.name = "warp.partial_mask",
     .summary = "swap_pair<<<1,32>>>: lanes 0 and 1 swap through shared memory around syncwarp(0x1), not 0x3",
     .invariant = "syncwarp(mask) orders memory among the lanes named in the mask, and every lane that executes "
                  "it must be named. Lane 1 executes it but is not in the mask: the mask is invalid, and lane "
                  "0's read of lane 1's value is not ordered after lane 1's store.",
     .bad_means = "a lane read a value its partner had not stored yet",
     .chapter = {1, 32},
     .program = run,
     .bad = not_swapped,
     .expect = {.bad_outcome_permitted = true,
                .required = {FindingKind::barrier_divergence, FindingKind::data_race},
                .exact_findings = false},
     .fits = fits},
};

}  // namespace scopesim::models::warp
