// torn — two atomics are not one transaction (catalogue.md, "torn").
// A writer updates the pair (a, b) from (0, 0) to (1, 1); a reader reads a,
// then b. Postcondition: the reader sees the pair both-old or both-new.
// <<<1,64>>>: thread 0 (warp 0) writes, thread 32 (warp 1) reads; the pair
// lives in global memory and is accessed at device scope.
#include "models/model.hpp"

namespace scopesim::models::torn {
using namespace scopesim::dialect;

struct Pair {
  plain<int> a;
  plain<int> b;
};

// ---- torn.two_atomics: each access a seq_cst atomic ----
SCOPESIM_KERNEL void two_atomics(Pair* pair, Pair* seen) {
  atomic_ref<int, thread_scope_device> a(pair->a), b(pair->b);
  if (thread_idx().x == 0) {
    a.store(1);
    b.store(1);
  } else if (thread_idx().x == 32) {
    const int ra = a.load();
    const int rb = b.load();
    seen->a = ra;
    seen->b = rb;
  }
}

// ---- torn.seqlock: a version number, odd while the pair is being written.
// The reader makes one attempt and keeps the pair only when the version was
// the same even number before and after (a real reader retries otherwise;
// one attempt is enough to show that a kept pair is never torn). ----
SCOPESIM_KERNEL void seqlock(plain<int>* version, Pair* pair, Pair* seen, plain<int>* valid) {
  atomic_ref<int, thread_scope_device> v(*version), a(pair->a), b(pair->b);
  if (thread_idx().x == 0) {
    v.store(1, memory_order_relaxed);
    a.store(1, memory_order_release);
    b.store(1, memory_order_release);
    v.store(2, memory_order_release);
  } else if (thread_idx().x == 32) {
    const int before = v.load(memory_order_acquire);
    const int ra = a.load(memory_order_acquire);
    const int rb = b.load(memory_order_acquire);
    const int after = v.load(memory_order_acquire);
    if (before == after && before % 2 == 0) {
      seen->a = ra;
      seen->b = rb;
      valid[0] = 1;
    }
  }
}

// ---- host programs ----
void run_two_atomics(Host& h, const Config& c) {
  Pair* pair = device_alloc<Pair>(h, "pair");
  Pair* seen = device_alloc<Pair>(h, "seen");
  host_write(pair->a, 0);
  host_write(pair->b, 0);
  launch<two_atomics>(h, "two_atomics", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, pair, seen);
  device_synchronize(h);
  observe(h, "a", seen->a);
  observe(h, "b", seen->b);
}

void run_seqlock(Host& h, const Config& c) {
  plain<int>* version = device_alloc<plain<int>>(h, "version");
  Pair* pair = device_alloc<Pair>(h, "pair");
  Pair* seen = device_alloc<Pair>(h, "seen");
  plain<int>* valid = device_alloc<plain<int>>(h, "valid");
  host_write(*version, 0);
  host_write(pair->a, 0);
  host_write(pair->b, 0);
  host_write(seen->a, -1);
  host_write(seen->b, -1);
  host_write(*valid, 0);
  launch<seqlock>(h, "seqlock", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, version, pair, seen, valid);
  device_synchronize(h);
  observe(h, "valid", *valid);
  observe(h, "a", seen->a);
  observe(h, "b", seen->b);
}

bool mixed(const Outcome& o) { return o.i("a") != o.i("b"); }
bool mixed_and_valid(const Outcome& o) { return o.i("valid") == 1 && o.i("a") != o.i("b"); }

// Derivations (semantics.md):
// - two_atomics: seq_cst lowers to fence.sc; st.relaxed / fence.sc;
//   ld.acquire, all at gpu scope, all morally strong. Even a sequentially
//   consistent interleaving gives a mixed pair: reader reads a = 1 between
//   the writer's two stores, then b = 0 (or reads a = 0 before the first
//   store and b = 1 after the second). Bad outcome permitted; no race (every
//   access strong and morally strong).
// - seqlock: the reader keeps the pair only if before == after and even.
//   before = 2 is the release store of 2, which carries the writer's view:
//   the reader acquires it and knows a = 1 and b = 1, which hide the initial
//   0s, so ra = rb = 1. before = 0 needs after = 0: if ra or rb returned 1
//   (a release store carrying the writer's store of version 1), the acquire
//   makes the reader know version 1, which hides 0 from `after`; so ra = rb
//   = 0. before = 1 is odd. Every kept pair is both-old or both-new; no race.

Registrar models{
    {.name = "torn.two_atomics",
     .summary = "writer stores a then b, reader loads a then b, every access a device-scope seq_cst atomic",
     .invariant = "Each access is atomic and even sequentially consistent, but the pair is two locations: "
                  "nothing makes the two stores one transaction, so a reader between them sees a new and b old.",
     .bad_means = "mixed pair: a != b",
     .chapter = {1, 64},
     .program = run_two_atomics,
     .bad = mixed,
     .expect = {.bad_outcome_permitted = true, .required = {}}},
    {.name = "torn.seqlock",
     .summary = "the pair guarded by a version number: odd while writing; the reader keeps a pair whose version "
                "was the same even number before and after",
     .invariant = "The writer's release stores carry its earlier store of the odd version; a reader that acquires "
                  "any new value therefore cannot read the old even version afterwards, and a reader that "
                  "acquires the final even version sees both new values. A kept pair is both-old or both-new.",
     .bad_means = "a kept (valid=1) pair that is mixed: a != b",
     .chapter = {1, 64},
     .program = run_seqlock,
     .bad = mixed_and_valid,
     .expect = {.bad_outcome_permitted = false, .required = {}}},
};

}  // namespace scopesim::models::torn
