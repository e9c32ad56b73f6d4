// litmus — the verdict table of semantics.md (catalogue.md, "litmus").
// Every row is a model in the kernel dialect with a herd-style name, so that it
// runs in the simulator and on the GPU. Rows with two sub-tests are two models.
//
// Conventions:
// - Litmus thread Tn is the GPU thread with global index n (litmus_thread()), so
//   the launch geometry alone decides the placement: <<<1,n>>> puts every thread
//   in one CTA, <<<n,1>>> gives each its own block. The `.xcta` suffix marks tests
//   whose threads are not all in one CTA (row 1 keeps its established name
//   `litmus.MP+rel.gpu+acq.gpu` although its threads are in different blocks).
// - Shared locations x, y, f and the result cells r0..r3 are separate global
//   allocations, all 0 before the launch. Each thread writes the registers the
//   outcome names to their result cells at its end; the host observes them
//   (and the final x, y where the outcome names a location).
// - Names: one component per thread, joined by '+' (T0+T1+...), a thread's
//   operations joined by '-'; one component alone applies to every access.
//   "plain" is ld.weak/st.weak, "relaxed.S" ld/st.relaxed.S, "rel"/"acq" the
//   release store / acquire load.
// - Litmus code is racy on purpose: every model sets exact_findings = false and
//   requires only the findings the verdict table names.
// The comment above each model derives its verdict from the rules of semantics.md.
#include "models/model.hpp"

namespace scopesim::models::litmus {
using namespace scopesim::dialect;

// The litmus test's memory: shared locations and one result cell per register.
struct Memory {
  plain<int>* x;
  plain<int>* y;
  plain<int>* f;
  plain<int>* r0;
  plain<int>* r1;
  plain<int>* r2;
  plain<int>* r3;
};

// The litmus thread this GPU thread plays: its global index.
SCOPESIM_DEVICE unsigned litmus_thread() { return block_idx().x * block_dim().x + thread_idx().x; }

// The fence a fence-parameterised test puts between a thread's two accesses.
// A relaxed atomic_thread_fence is no fence at all (C++ and the lowering table
// agree), so `no_fence` stands for the test without one, and `if constexpr`
// keeps it out of the kernel entirely.
inline constexpr memory_order no_fence = memory_order_relaxed;

// ---- MP: T0 writes the data x, then the flag f; T1 reads f, then x ----

// Release store ‖ acquire load on the flag, at scopes Rel and Acq (rows 1-4).
template <thread_scope Rel, thread_scope Acq>
SCOPESIM_KERNEL void mp_rel_acq(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    atomic_ref<int, Rel>(*m.f).store(1, memory_order_release);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, Acq>(*m.f).load(memory_order_acquire);
    const int r1 = *m.x;
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// Relaxed system-scope flag with fence.acq_rel.sys on both sides (row 5).
SCOPESIM_KERNEL void mp_fenced_relaxed_flag(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    atomic_thread_fence(memory_order_acq_rel, thread_scope_system);
    atomic_ref<int, thread_scope_system>(*m.f).store(1, memory_order_relaxed);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, thread_scope_system>(*m.f).load(memory_order_relaxed);
    atomic_thread_fence(memory_order_acq_rel, thread_scope_system);
    const int r1 = *m.x;
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// Plain flag with fence O at scope S on both sides (row 6).
template <memory_order O, thread_scope S>
SCOPESIM_KERNEL void mp_fenced_plain_flag(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    atomic_thread_fence(O, S);
    *m.f = 1;
  } else if (t == 1) {
    const int r0 = *m.f;
    atomic_thread_fence(O, S);
    const int r1 = *m.x;
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// Release flag; the reader's flag load is relaxed and its data load acquire (row 7).
SCOPESIM_KERNEL void mp_acquire_on_data(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    atomic_ref<int, thread_scope_device>(*m.f).store(1, memory_order_release);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, thread_scope_device>(*m.f).load(memory_order_relaxed);
    const int r1 = atomic_ref<int, thread_scope_device>(*m.x).load(memory_order_acquire);
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// Row 8: T1 increments the flag with a relaxed RMW between T0's release and
// T2's acquire (T1 reads 1 and writes 2; r0 is the value the RMW read).
SCOPESIM_KERNEL void mp_rmw_chain(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    atomic_ref<int, thread_scope_device>(*m.f).store(1, memory_order_release);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, thread_scope_device>(*m.f).fetch_add(1, memory_order_relaxed);
    *m.r0 = r0;
  } else if (t == 2) {
    const int r1 = atomic_ref<int, thread_scope_device>(*m.f).load(memory_order_acquire);
    const int r2 = *m.x;
    *m.r1 = r1;
    *m.r2 = r2;
  }
}

// ---- ISA2 (row 9): T0 → T1 through f at cta scope, T1 → T2 through y at gpu scope ----
SCOPESIM_KERNEL void isa2(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    atomic_ref<int, thread_scope_block>(*m.f).store(1, memory_order_release);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, thread_scope_block>(*m.f).load(memory_order_acquire);
    atomic_ref<int, thread_scope_device>(*m.y).store(1, memory_order_release);
    *m.r0 = r0;
  } else if (t == 2) {
    const int r1 = atomic_ref<int, thread_scope_device>(*m.y).load(memory_order_acquire);
    const int r2 = *m.x;
    *m.r1 = r1;
    *m.r2 = r2;
  }
}

// ---- WRC (row 10): T0 writes x; T1 reads x, then releases y; T2 acquires y, then reads x ----

// x accessed relaxed at gpu scope.
SCOPESIM_KERNEL void wrc_relaxed(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, thread_scope_device>(*m.x).store(1, memory_order_relaxed);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, thread_scope_device>(*m.x).load(memory_order_relaxed);
    atomic_ref<int, thread_scope_device>(*m.y).store(1, memory_order_release);
    *m.r0 = r0;
  } else if (t == 2) {
    const int r1 = atomic_ref<int, thread_scope_device>(*m.y).load(memory_order_acquire);
    const int r2 = atomic_ref<int, thread_scope_device>(*m.x).load(memory_order_relaxed);
    *m.r1 = r1;
    *m.r2 = r2;
  }
}

// x accessed plain.
SCOPESIM_KERNEL void wrc_plain(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
  } else if (t == 1) {
    const int r0 = *m.x;
    atomic_ref<int, thread_scope_device>(*m.y).store(1, memory_order_release);
    *m.r0 = r0;
  } else if (t == 2) {
    const int r1 = atomic_ref<int, thread_scope_device>(*m.y).load(memory_order_acquire);
    const int r2 = *m.x;
    *m.r1 = r1;
    *m.r2 = r2;
  }
}

// ---- SB: each thread writes its location, then reads the other's ----

// Plain accesses, fence O at scope S between them (rows 11-13).
template <memory_order O, thread_scope S = thread_scope_system>
SCOPESIM_KERNEL void sb(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
    if constexpr (O != no_fence) atomic_thread_fence(O, S);
    const int r0 = *m.y;
    *m.r0 = r0;
  } else if (t == 1) {
    *m.y = 1;
    if constexpr (O != no_fence) atomic_thread_fence(O, S);
    const int r1 = *m.x;
    *m.r1 = r1;
  }
}

// A block barrier between the accesses (row 14). Both threads execute the one
// syncthreads(), outside the per-thread branches, as CUDA requires.
SCOPESIM_KERNEL void sb_syncthreads(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) *m.x = 1;
  if (t == 1) *m.y = 1;
  syncthreads();
  if (t == 0) {
    const int r0 = *m.y;
    *m.r0 = r0;
  } else if (t == 1) {
    const int r1 = *m.x;
    *m.r1 = r1;
  }
}

// All four accesses are acq_rel RMWs at gpu scope: the write an exchange, the
// read a fetch_add of 0 (row 15).
SCOPESIM_KERNEL void sb_rmw(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, thread_scope_device>(*m.x).exchange(1, memory_order_acq_rel);
    const int r0 = atomic_ref<int, thread_scope_device>(*m.y).fetch_add(0, memory_order_acq_rel);
    *m.r0 = r0;
  } else if (t == 1) {
    atomic_ref<int, thread_scope_device>(*m.y).exchange(1, memory_order_acq_rel);
    const int r1 = atomic_ref<int, thread_scope_device>(*m.x).fetch_add(0, memory_order_acq_rel);
    *m.r1 = r1;
  }
}

// ---- LB: each thread reads the other's location, then writes its own ----

// Constant stores (row 16).
SCOPESIM_KERNEL void lb(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    const int r0 = *m.x;
    *m.y = 1;
    *m.r0 = r0;
  } else if (t == 1) {
    const int r1 = *m.y;
    *m.x = 1;
    *m.r1 = r1;
  }
}

// Each thread stores the value it read: data dependencies (row 17).
SCOPESIM_KERNEL void lb_data(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    const int r0 = *m.x;
    *m.y = r0;
    *m.r0 = r0;
  } else if (t == 1) {
    const int r1 = *m.y;
    *m.x = r1;
    *m.r1 = r1;
  }
}

// ---- coherence ----

// CoRR, relaxed at scope S throughout (row 18).
template <thread_scope S>
SCOPESIM_KERNEL void corr_relaxed(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, S>(*m.x).store(1, memory_order_relaxed);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, S>(*m.x).load(memory_order_relaxed);
    const int r1 = atomic_ref<int, S>(*m.x).load(memory_order_relaxed);
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// CoRR, strong write ‖ strong read then weak read (row 19).
SCOPESIM_KERNEL void corr_strong_then_weak(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, thread_scope_device>(*m.x).store(1, memory_order_relaxed);
  } else if (t == 1) {
    const int r0 = atomic_ref<int, thread_scope_device>(*m.x).load(memory_order_relaxed);
    const int r1 = *m.x;
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// CoRR, plain throughout (row 20).
SCOPESIM_KERNEL void corr_plain(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    *m.x = 1;
  } else if (t == 1) {
    const int r0 = *m.x;
    const int r1 = *m.x;
    *m.r0 = r0;
    *m.r1 = r1;
  }
}

// One thread, plain accesses to x (row 21).
SCOPESIM_KERNEL void coww(Memory m) {
  *m.x = 1;
  *m.x = 2;
}

SCOPESIM_KERNEL void corw(Memory m) {
  const int r0 = *m.x;
  *m.x = 1;
  *m.r0 = r0;
}

SCOPESIM_KERNEL void cowr(Memory m) {
  *m.x = 1;
  const int r0 = *m.x;
  *m.r0 = r0;
}

// ---- IRIW (row 22): T0 writes x, T1 writes y, T2 reads x then y, T3 reads y
// then x; relaxed at gpu scope, fence O at scope S between the reads ----
template <memory_order O, thread_scope S = thread_scope_system>
SCOPESIM_KERNEL void iriw(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, thread_scope_device>(*m.x).store(1, memory_order_relaxed);
  } else if (t == 1) {
    atomic_ref<int, thread_scope_device>(*m.y).store(1, memory_order_relaxed);
  } else if (t == 2) {
    const int r0 = atomic_ref<int, thread_scope_device>(*m.x).load(memory_order_relaxed);
    if constexpr (O != no_fence) atomic_thread_fence(O, S);
    const int r1 = atomic_ref<int, thread_scope_device>(*m.y).load(memory_order_relaxed);
    *m.r0 = r0;
    *m.r1 = r1;
  } else if (t == 3) {
    const int r2 = atomic_ref<int, thread_scope_device>(*m.y).load(memory_order_relaxed);
    if constexpr (O != no_fence) atomic_thread_fence(O, S);
    const int r3 = atomic_ref<int, thread_scope_device>(*m.x).load(memory_order_relaxed);
    *m.r2 = r2;
    *m.r3 = r3;
  }
}

// ---- 2+2W (row 23): T0 writes x=1 then y=2, T1 writes y=1 then x=2; relaxed
// at gpu scope, fence O at scope S between the writes ----
template <memory_order O, thread_scope S = thread_scope_system>
SCOPESIM_KERNEL void two_plus_two_w(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, thread_scope_device>(*m.x).store(1, memory_order_relaxed);
    if constexpr (O != no_fence) atomic_thread_fence(O, S);
    atomic_ref<int, thread_scope_device>(*m.y).store(2, memory_order_relaxed);
  } else if (t == 1) {
    atomic_ref<int, thread_scope_device>(*m.y).store(1, memory_order_relaxed);
    if constexpr (O != no_fence) atomic_thread_fence(O, S);
    atomic_ref<int, thread_scope_device>(*m.x).store(2, memory_order_relaxed);
  }
}

// ---- two increments (row 24): T0 at scope S0, T1 at scope S1, both relaxed ----
template <thread_scope S0, thread_scope S1>
SCOPESIM_KERNEL void two_increments(Memory m) {
  const unsigned t = litmus_thread();
  if (t == 0) {
    atomic_ref<int, S0>(*m.x).fetch_add(1, memory_order_relaxed);
  } else if (t == 1) {
    atomic_ref<int, S1>(*m.x).fetch_add(1, memory_order_relaxed);
  }
}

// ---- host program: one for every test ----

// What the host observes after the kernel, in this order.
enum Observed : unsigned { R0 = 1u << 0, R1 = 1u << 1, R2 = 1u << 2, R3 = 1u << 3, X = 1u << 4, Y = 1u << 5 };

// One int of global memory, 0 before the launch.
plain<int>* zeroed(Host& h, const char* name) {
  plain<int>* p = device_alloc<plain<int>>(h, name);
  host_write(*p, 0);
  return p;
}

template <auto Kernel, unsigned Observe>
void run(Host& h, const Config& c) {
  const Memory m{zeroed(h, "x"),  zeroed(h, "y"),  zeroed(h, "f"), zeroed(h, "r0"),
                 zeroed(h, "r1"), zeroed(h, "r2"), zeroed(h, "r3")};
  launch<Kernel>(h, "litmus", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, m);
  device_synchronize(h);
  if (Observe & R0) observe(h, "r0", *m.r0);
  if (Observe & R1) observe(h, "r1", *m.r1);
  if (Observe & R2) observe(h, "r2", *m.r2);
  if (Observe & R3) observe(h, "r3", *m.r3);
  if (Observe & X) observe(h, "x", *m.x);
  if (Observe & Y) observe(h, "y", *m.y);
}

// ---- outcomes (the row's outcome occurred) ----
bool one_then_zero(const Outcome& o) { return o.i("r0") == 1 && o.i("r1") == 0; }
bool both_zero(const Outcome& o) { return o.i("r0") == 0 && o.i("r1") == 0; }
bool both_one(const Outcome& o) { return o.i("r0") == 1 && o.i("r1") == 1; }
bool chain_stale(const Outcome& o) { return o.i("r0") == 1 && o.i("r1") == 1 && o.i("r2") == 0; }
bool rmw_chain_stale(const Outcome& o) { return o.i("r0") == 1 && o.i("r1") == 2 && o.i("r2") == 0; }
bool out_of_thin_air(const Outcome& o) { return o.i("r0") != 0 || o.i("r1") != 0; }
bool r0_is_one(const Outcome& o) { return o.i("r0") == 1; }
bool r0_is_zero(const Outcome& o) { return o.i("r0") == 0; }
bool x_is_one(const Outcome& o) { return o.i("x") == 1; }
bool readers_disagree(const Outcome& o) {
  return o.i("r0") == 1 && o.i("r1") == 0 && o.i("r2") == 1 && o.i("r3") == 0;
}
bool x_and_y_one(const Outcome& o) { return o.i("x") == 1 && o.i("y") == 1; }

// ---- expectations: litmus code is racy, so findings beyond `required` may appear ----
Expectation permitted(std::vector<FindingKind> required = {}) {
  return {.bad_outcome_permitted = true, .required = std::move(required), .exact_findings = false};
}
Expectation forbidden() { return {.bad_outcome_permitted = false, .required = {}, .exact_findings = false}; }

const char* const kFlagWithoutData = "r0=1 r1=0: the flag without the data";
const char* const kStoreBuffering = "r0=0 r1=0: each thread misses the other's write";
const char* const kNewThenOld = "r0=1 r1=0: x read new, then old";

Registrar models{
    // Row 1. st.release.gpu f and ld.acquire.gpu f are morally strong: both
    // strong, and gpu scope includes both threads (one grid). When the acquire
    // reads 1 it observes the release, so the release synchronizes with it and
    // st x →po rel f →sync acq f →po ld x makes st x causally before ld x. Init
    // x is coherence-before st x, and a read may not return a write
    // coherence-before one it knows through causality → r1=0 is forbidden.
    // Executions (reads-from, coherence edges, fence.sc order; what an exhaustive search explores once each): 3.
    // ld f reads init → ld x reads init or st x (2); ld f reads st f → synchronized, only st x (1).
    {.name = "litmus.MP+rel.gpu+acq.gpu",
     .summary = "row 1: MP, st x; st.release.gpu f ‖ ld.acquire.gpu f; ld x, threads in different blocks <<<2,1>>>",
     .invariant = "A gpu-scope release/acquire pair on the flag synchronizes across blocks: a reader that sees "
                  "the flag sees the data written before it.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_rel_acq<thread_scope_device, thread_scope_device>, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 2. Same CTA: release.cta's scope includes T1 and acquire.cta's scope
    // includes T0 (one block), both strong → morally strong. As in row 1 the
    // observed release synchronizes with the acquire, st x is causally before
    // ld x, and ld x may not return init x → forbidden.
    // Executions: 3, as row 1: ld f reads init → ld x reads either write (2); reads st f → only st x (1).
    {.name = "litmus.MP+rel.cta+acq.cta",
     .summary = "row 2: MP with st.release.cta / ld.acquire.cta, both threads in one CTA <<<1,2>>>",
     .invariant = "Block scope includes both threads of one block, so the block-scope release/acquire pair "
                  "synchronizes and publishes x.",
     .bad_means = kFlagWithoutData,
     .chapter = {1, 2},
     .program = run<mp_rel_acq<thread_scope_block, thread_scope_block>, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 3. Different blocks: release.cta's scope does not include T1 (nor
    // acquire.cta's T0), so the pair is not morally strong; reading f=1 is no
    // synchronization (reads-from alone never synchronizes). Nothing makes st x
    // causally before ld x, so ld x may return init x → permitted. The plain
    // st x / ld x are then unordered (data race), and the two flag atomics
    // conflict with scopes that exclude each other (scoped race).
    // Executions: 4. Nothing synchronizes: ld f and ld x each read init or the store, independently (2 × 2).
    {.name = "litmus.MP+rel.cta+acq.cta.xcta",
     .summary = "row 3: MP with st.release.cta / ld.acquire.cta, threads in different blocks <<<2,1>>>",
     .invariant = "Block scope never reaches another block: the flag pair does not synchronize, x races, and "
                  "the flag accesses are a scoped race.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_rel_acq<thread_scope_block, thread_scope_block>, R0 | R1>,
     .bad = one_then_zero,
     .expect = permitted({FindingKind::data_race, FindingKind::scoped_race}),
     .exhaustive_executions = 4},
    // Row 4, same CTA. Moral strength needs mutual inclusion, not equal scopes:
    // release.cta (T0) includes T1 in its block, acquire.gpu (T1) includes T0
    // → morally strong → synchronization as in row 1 → forbidden.
    // Executions: 3, as row 1 (2 when ld f reads init, 1 when it reads st f).
    {.name = "litmus.MP+rel.cta+acq.gpu",
     .summary = "row 4: MP with st.release.cta ‖ ld.acquire.gpu, both threads in one CTA <<<1,2>>>",
     .invariant = "Each scope includes the other thread (same block), so the mixed-scope pair is morally strong "
                  "and synchronizes.",
     .bad_means = kFlagWithoutData,
     .chapter = {1, 2},
     .program = run<mp_rel_acq<thread_scope_block, thread_scope_device>, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 4, different blocks. acquire.gpu includes T0, but release.cta does not
    // include T1 (other block): inclusion is not mutual, the pair is not
    // morally strong, nothing synchronizes, ld x may return init → permitted.
    // Executions: 4: nothing synchronizes, 2 × 2 reads-from choices.
    {.name = "litmus.MP+rel.cta+acq.gpu.xcta",
     .summary = "row 4: MP with st.release.cta ‖ ld.acquire.gpu, threads in different blocks <<<2,1>>>",
     .invariant = "The writer's block scope excludes the reader's block; a wider acquire scope cannot make up "
                  "for it, so the flag publishes nothing.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_rel_acq<thread_scope_block, thread_scope_device>, R0 | R1>,
     .bad = one_then_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 5. T0: fence.acq_rel.sys followed in program order by the strong
    // st.relaxed.sys f is a release pattern; T1: the strong ld.relaxed.sys f
    // followed by fence.acq_rel.sys is an acquire pattern. The flag accesses are
    // morally strong (strong, sys includes both), so when T1 reads 1 the
    // patterns synchronize: st x →po fence →sync fence →po ld x, st x is
    // causally before ld x, ld x may not return init x → forbidden.
    // Executions: 3, as row 1: ld f reads init → ld x reads either write (2); reads st f → only st x (1).
    {.name = "litmus.MP+fence.acq_rel.sys+relaxed.sys.xcta",
     .summary = "row 5: MP with a relaxed.sys flag and fence.acq_rel.sys on both sides, different blocks <<<2,1>>>",
     .invariant = "A release fence before a strong flag store and an acquire fence after a strong flag load form "
                  "release and acquire patterns that synchronize like a release/acquire pair.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_fenced_relaxed_flag, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 6, acq_rel fences. A release pattern needs a strong write after the
    // release fence and an acquire pattern a strong read before the acquire
    // fence; the flag is plain (weak), so there is neither, and fence.acq_rel
    // alone orders nothing. Nothing synchronizes, ld x may return init → permitted.
    // Executions: 4: nothing synchronizes, 2 × 2 reads-from choices.
    {.name = "litmus.MP+fence.acq_rel.gpu+plain.xcta",
     .summary = "row 6: MP with a plain flag and fence.acq_rel.gpu on both sides, different blocks <<<2,1>>>",
     .invariant = "fence.acq_rel needs a strong flag access beside it; with a plain flag the fences synchronize "
                  "nothing.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_fenced_plain_flag<memory_order_acq_rel, thread_scope_device>, R0 | R1>,
     .bad = one_then_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 6, fence.sc.gpu. The two fence.sc.gpu are morally strong (strong, gpu
    // includes both blocks) and so are ordered, and the first synchronizes with
    // the second. If T0's fence is first: st x →po F0 →sync F1 →po ld x, so ld x
    // may not return init x (r1=1). If T1's fence is first: ld f →po F1 →sync F0
    // →po st f, so st f is causally after ld f, which may not return it (r0=0).
    // Either way r0=1 r1=0 is impossible → forbidden.
    // Executions: 4. F0 first: ld x reads only st x, ld f either write (2). F1 first: ld f reads only init, ld x
    // either write (2). The fence order tells the two halves apart.
    {.name = "litmus.MP+fence.sc.gpu+plain.xcta",
     .summary = "row 6: MP with a plain flag and fence.sc.gpu on both sides, different blocks <<<2,1>>>",
     .invariant = "Two morally strong fence.sc are ordered and the earlier synchronizes with the later, so either "
                  "the data store is visible to the data load or the flag store is not visible to the flag load.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_fenced_plain_flag<memory_order_seq_cst, thread_scope_device>, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 4},
    // Row 7. The flag load is relaxed with no acquire fence after it, so it is
    // no acquire pattern: observing the release synchronizes nothing. The
    // acquire on x orders only what follows it in T1, not the earlier flag
    // load, and it reads x itself, so nothing makes st x causally before it:
    // ld.acquire x may return init x even after f=1 → permitted.
    // Executions: 4: nothing synchronizes, 2 × 2 reads-from choices.
    {.name = "litmus.MP+rel.gpu+relaxed-acq.gpu.xcta",
     .summary = "row 7: MP, st x; st.release.gpu f ‖ ld.relaxed.gpu f; ld.acquire.gpu x, different blocks <<<2,1>>>",
     .invariant = "The acquire must be on the load that observes the release; an acquire on the data load orders "
                  "nothing the flag load saw.",
     .bad_means = kFlagWithoutData,
     .chapter = {2, 1},
     .program = run<mp_acquire_on_data, R0 | R1>,
     .bad = one_then_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 8. In r0=1 r1=2: T1's atom.relaxed.gpu read T0's st.release.gpu f=1
    // and wrote 2, and T2's ld.acquire.gpu f read that 2. Every link is morally
    // strong (strong, gpu scope includes all three blocks), and observation may
    // pass through a chain of morally strong RMWs, so T2's acquire observes T0's
    // release: they synchronize, st x is causally before T2's ld x, which may not
    // return init x → r2=0 is forbidden.
    // Executions: 9. The RMW reads st f (co: init, st f, RMW): T2's ld f reads init → ld x either (2), st f or
    // the RMW → synchronized, st x only (1 + 1): 4. The RMW reads init (co: init, RMW, st f; atomicity puts it
    // right after its source): T2 reads init → 2, the RMW (no release in its chain) → 2, st f → 1: 5.
    {.name = "litmus.MP+rel.gpu+rmw.relaxed.gpu+acq.gpu.xcta",
     .summary = "row 8: MP through a relaxed gpu RMW on the flag by a third thread, three blocks <<<3,1>>>",
     .invariant = "A release is observed through a chain of morally strong RMWs, even relaxed ones: the acquire "
                  "that reads the RMW's value synchronizes with the original release.",
     .bad_means = "r0=1 r1=2 r2=0: the RMW read 1 and wrote 2, the reader saw f=2 but x=0",
     .chapter = {3, 1},
     .program = run<mp_rmw_chain, R0 | R1 | R2>,
     .bad = rmw_chain_stale,
     .expect = forbidden(),
     .exhaustive_executions = 9},
    // Row 9. T0, T1 share CTA 0: release.cta/acquire.cta on f are morally strong
    // there, so with r0=1 T0's release synchronizes with T1's acquire. T1's
    // release.gpu y and T2's acquire.gpu y (CTA 1) are morally strong (gpu
    // includes both blocks), so with r1=1 they synchronize. Causality is
    // transitive (cumulative): st x →po rel f →sync acq f →po rel y →sync acq y
    // →po ld x, so T2's ld x may not return init x → r2=0 forbidden.
    // Executions: 7. r1=0 (T2's acquire reads init): r0 and r2 each read either write (4). r1=1, r0=1: T2 knows
    // st x, r2 from st x only (1). r1=1, r0=0: T1 knew nothing of st x, r2 either (2).
    {.name = "litmus.ISA2+rel.cta+acq.cta-rel.gpu+acq.gpu.xcta",
     .summary = "row 9: ISA2, T0,T1 in CTA 0 linked at cta scope, T1 → T2 (CTA 1) at gpu scope, <<<2,2>>> with "
                "thread 1 of block 1 idle",
     .invariant = "Synchronization is cumulative: what T0 wrote before its block-scope release reaches T2 through "
                  "T1's later device-scope release.",
     .bad_means = "r0=1 r1=1 r2=0: x stale at the end of the chain",
     .chapter = {2, 2},
     .program = run<isa2, R0 | R1 | R2>,
     .bad = chain_stale,
     .expect = forbidden(),
     .exhaustive_executions = 7},
    // Row 10, relaxed.gpu x. T0's st.relaxed.gpu x and T1's ld.relaxed.gpu x are
    // morally strong, so when r0=1 the strong read carries the write forward:
    // st x is causally before T1's st.release.gpu y, which (r1=1) synchronizes
    // with T2's ld.acquire.gpu y, so st x is causally before T2's ld x, which
    // may not return init x → r2=0 forbidden.
    // Executions: 7. r1=0: r0 and r2 each read either write (4). r1=1, r0=1: st x carried forward to T2, r2 from
    // st x only (1). r1=1, r0=0: r2 either (2).
    {.name = "litmus.WRC+relaxed.gpu.xcta",
     .summary = "row 10: WRC with x relaxed.gpu, y release/acquire gpu, three blocks <<<3,1>>>",
     .invariant = "A strong read that observed a write carries it into its thread's causality, so a later release "
                  "passes it on (cumulativity).",
     .bad_means = "r0=1 r1=1 r2=0: T1 saw x before releasing y, T2 acquired y but missed x",
     .chapter = {3, 1},
     .program = run<wrc_relaxed, R0 | R1 | R2>,
     .bad = chain_stale,
     .expect = forbidden(),
     .exhaustive_executions = 7},
    // Row 10, plain x. T1's weak read of x is not morally strong with T0's weak
    // write (different threads), so it carries nothing forward: the release of
    // y orders T1's own accesses only, st x is not causally before T2's ld x,
    // and that read may return init x → permitted.
    // Executions: 8: T1's weak read carries nothing, so r2 reads either write whatever r0 and r1 read (2 × 2 ×
    // 2).
    {.name = "litmus.WRC+plain.xcta",
     .summary = "row 10: WRC with x plain, y release/acquire gpu, three blocks <<<3,1>>>",
     .invariant = "A weak read of another thread's write is no observation: the release after it does not pass "
                  "that write on.",
     .bad_means = "r0=1 r1=1 r2=0: T1 saw x before releasing y, T2 acquired y but missed x",
     .chapter = {3, 1},
     .program = run<wrc_plain, R0 | R1 | R2>,
     .bad = chain_stale,
     .expect = permitted(),
     .exhaustive_executions = 8},
    // Row 11, plain. Nothing is strong, nothing synchronizes: neither store is
    // causally before the other thread's load, so each load may return init.
    // Executions: 4: each load reads init or the other thread's store (2 × 2).
    {.name = "litmus.SB.xcta",
     .summary = "row 11: SB, plain accesses, different blocks <<<2,1>>>",
     .invariant = "Program order alone does not order a thread's store before another thread's load: both loads "
                  "may miss both stores.",
     .bad_means = kStoreBuffering,
     .chapter = {2, 1},
     .program = run<sb<no_fence>, R0 | R1>,
     .bad = both_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 11, fence.acq_rel. Each fence has its thread's write before it and
    // its read after it: no strong write follows the release fence and no
    // strong read precedes the acquire fence, so there is no release or
    // acquire pattern, fence.acq_rel alone orders nothing → as plain SB, permitted.
    // Executions: 4: the fences order nothing, 2 × 2 reads-from choices.
    {.name = "litmus.SB+fence.acq_rel.gpu.xcta",
     .summary = "row 11: SB with fence.acq_rel.gpu between store and load, different blocks <<<2,1>>>",
     .invariant = "Release/acquire fences order a write after them and a read before them; in SB they face the "
                  "wrong way and synchronize nothing.",
     .bad_means = kStoreBuffering,
     .chapter = {2, 1},
     .program = run<sb<memory_order_acq_rel, thread_scope_device>, R0 | R1>,
     .bad = both_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 12, fence.sc.gpu across blocks. The fences are morally strong (strong,
    // gpu includes both blocks) and so are ordered; the first synchronizes with
    // the second. If T0's is first, st x →po F0 →sync F1 →po ld x: T1's ld x may
    // not return init x (r1=1); symmetrically r0=1 otherwise → forbidden.
    // Executions: 4. F0 first: T1's load reads st x only, T0's load either write (2); F1 first: symmetrically
    // (2).
    {.name = "litmus.SB+fence.sc.gpu.xcta",
     .summary = "row 12: SB with fence.sc.gpu between store and load, different blocks <<<2,1>>>",
     .invariant = "Morally strong fence.sc are totally ordered; the later fence's thread sees the store before the "
                  "earlier fence.",
     .bad_means = kStoreBuffering,
     .chapter = {2, 1},
     .program = run<sb<memory_order_seq_cst, thread_scope_device>, R0 | R1>,
     .bad = both_zero,
     .expect = forbidden(),
     .exhaustive_executions = 4},
    // Row 12, fence.sc.cta in one CTA. cta scope includes both threads of the
    // block, so the fences are morally strong; the argument of the gpu case
    // applies → forbidden.
    // Executions: 4, as the gpu case: 2 per fence order.
    {.name = "litmus.SB+fence.sc.cta",
     .summary = "row 12: SB with fence.sc.cta between store and load, both threads in one CTA <<<1,2>>>",
     .invariant = "Within one block, block-scope fence.sc are morally strong and totally ordered, which forbids "
                  "store buffering.",
     .bad_means = kStoreBuffering,
     .chapter = {1, 2},
     .program = run<sb<memory_order_seq_cst, thread_scope_block>, R0 | R1>,
     .bad = both_zero,
     .expect = forbidden(),
     .exhaustive_executions = 4},
    // Row 13. fence.sc.cta across blocks: neither fence's scope includes the
    // other thread, so they are not morally strong, are not ordered with each
    // other and synchronize nothing → as plain SB, permitted.
    // Executions: 4: the fences are unordered (not morally strong), 2 × 2 reads-from choices.
    {.name = "litmus.SB+fence.sc.cta.xcta",
     .summary = "row 13: SB with fence.sc.cta between store and load, different blocks <<<2,1>>>",
     .invariant = "Block-scope fences in different blocks are not morally strong; they give no order between the "
                  "blocks.",
     .bad_means = kStoreBuffering,
     .chapter = {2, 1},
     .program = run<sb<memory_order_seq_cst, thread_scope_block>, R0 | R1>,
     .bad = both_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 14. A block barrier (syncthreads(), bar.sync 0) makes every
    // participant's earlier accesses visible to every participant after it: each
    // store is causally before the other thread's load, which may not return
    // init → both read 1, r0=r1=0 forbidden.
    // Executions: 1: after the barrier each load reads only the other thread's store.
    {.name = "litmus.SB+syncthreads",
     .summary = "row 14: SB with syncthreads() (bar.sync 0) between store and load, both threads call it, one CTA "
                "<<<1,2>>>",
     .invariant = "A block barrier orders every participant's earlier accesses, weak ones included, before every "
                  "participant's later ones.",
     .bad_means = kStoreBuffering,
     .chapter = {1, 2},
     .program = run<sb_syncthreads, R0 | R1>,
     .bad = both_zero,
     .expect = forbidden(),
     .exhaustive_executions = 1},
    // Row 15. All four RMWs are atom.acq_rel.gpu, morally strong across the
    // blocks, hence atomic with respect to each other. Say r1=0: T1's RMW on x
    // read init, so by atomicity T0's exchange on x read T1's RMW (not init too).
    // That observation of a release (acq_rel) by an acquire (acq_rel) is
    // synchronization: T1's exchange y →po T1's RMW x →sync T0's exchange x →po
    // T0's RMW y, so T0's RMW y may not return init y (r0=1). Symmetrically for
    // r0=0 → both 0 forbidden.
    // Executions: 3. Coherence of x (T0's exchange A, T1's RMW B) and of y (T1's exchange C, T0's RMW D), each
    // RMW reading its predecessor: A<B, C<D (r0=r1=1); A<B, D<C (r0=0, r1=1); B<A, C<D (r0=1, r1=0); B<A with
    // D<C is the forbidden cycle.
    {.name = "litmus.SB+rmw.acq_rel.gpu.xcta",
     .summary = "row 15: SB with all four accesses acq_rel gpu RMWs (exchange, fetch_add 0), different blocks "
                "<<<2,1>>>",
     .invariant = "Morally strong RMWs on one location are atomic, so one thread's RMW reads the other's; with "
                  "acq_rel that read synchronizes and exposes the other store.",
     .bad_means = kStoreBuffering,
     .chapter = {2, 1},
     .program = run<sb_rmw, R0 | R1>,
     .bad = both_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 16. PTX permits load buffering without dependencies (verdict A): no
    // rule orders a read before the po-later constant store of its thread. But
    // the simulator is a program-order operational simulator: each read returns
    // before its thread's later store exists, so it cannot produce r0=r1=1. This
    // is the documented limitation (docs/limitations.md); the model ships with
    // bad_outcome_permitted = false so that the simulator's verdict is checked,
    // and the GPU comparison watches for r0=r1=1 on hardware.
    // Executions: 3: (init, init), (init, st), (st, init); each load returns before its thread's store exists,
    // so both reading the stores cannot run (the limitation above).
    {.name = "litmus.LB",
     .summary = "row 16: LB, plain loads then constant stores, one CTA <<<1,2>>>; PTX permits r0=r1=1 but the "
                "simulator cannot produce it: documented limitation (docs/limitations.md), the GPU comparison "
                "watches for it",
     .invariant = "PTX lets each load read the other thread's po-later store (load buffering); a program-order "
                  "simulator never reorders a load after a later store, so it cannot show this.",
     .bad_means = "r0=1 r1=1: each load read the store that follows the other load (load buffering)",
     .chapter = {1, 2},
     .program = run<lb, R0 | R1>,
     .bad = both_one,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 17. No values out of thin air: memory starts at 0 and each thread
    // stores only the value it read, so any non-zero value (42) would have to
    // justify itself through a cycle of dependencies → forbidden.
    // Executions: 3, as LB: (init, init), (init, st), (st, init); every value is 0.
    {.name = "litmus.LB+datas",
     .summary = "row 17: LB with data dependencies, each thread stores the value it read, one CTA <<<1,2>>>",
     .invariant = "Values never come out of thin air: with only 0 in memory and stores that copy loaded values, "
                  "only 0 can be read.",
     .bad_means = "r0=42 r1=42 (any non-zero value): a value out of thin air",
     .chapter = {1, 2},
     .program = run<lb_data, R0 | R1>,
     .bad = out_of_thin_air,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 18. st.relaxed.sys x and T1's first ld.relaxed.sys x are morally
    // strong (strong, sys includes both); when r0=1 the read observed the write,
    // which it carries forward: st x is causally before T1's second read. Init x
    // is coherence-before st x, so the second read may not return it → forbidden.
    // Executions: 3: (init, init), (init, st), (st, st); (st, init) is the forbidden one.
    {.name = "litmus.CoRR+relaxed.sys.xcta",
     .summary = "row 18: CoRR, st.relaxed.sys x ‖ two ld.relaxed.sys x, different blocks <<<2,1>>>",
     .invariant = "A strong read that observed a write makes it known to its thread; later reads there cannot go "
                  "back to an older value.",
     .bad_means = kNewThenOld,
     .chapter = {2, 1},
     .program = run<corr_relaxed<thread_scope_system>, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 19. As row 18 for the first read: st.relaxed.gpu x and ld.relaxed.gpu x
    // are morally strong (gpu includes both blocks), so with r0=1 st x is
    // causally before the following weak read, which may not return init x,
    // coherence-before st x → forbidden.
    // Executions: 3: (init, init), (init, st), (st, st).
    {.name = "litmus.CoRR+relaxed.gpu+relaxed.gpu-plain.xcta",
     .summary = "row 19: CoRR, st.relaxed.gpu x ‖ ld.relaxed.gpu x; ld.weak x, different blocks <<<2,1>>>",
     .invariant = "Once a strong read has observed a write, even a weak read after it in the same thread cannot "
                  "return an older value.",
     .bad_means = kNewThenOld,
     .chapter = {2, 1},
     .program = run<corr_strong_then_weak, R0 | R1>,
     .bad = one_then_zero,
     .expect = forbidden(),
     .exhaustive_executions = 3},
    // Row 20. The first read is weak: it is not morally strong with T0's write
    // and carries nothing forward, so st x is not causally before the second
    // read, and nothing hides init x from it. Two weak reads of another
    // thread's write may see new then old → permitted.
    // Executions: 4: each weak read returns init or st x, independently (2 × 2).
    {.name = "litmus.CoRR+plain.xcta",
     .summary = "row 20: CoRR, st.weak x ‖ two ld.weak x, different blocks <<<2,1>>>",
     .invariant = "Weak reads promise no per-location order with another thread's write: new then old is "
                  "allowed.",
     .bad_means = kNewThenOld,
     .chapter = {2, 1},
     .program = run<corr_plain, R0 | R1>,
     .bad = one_then_zero,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 21, one single-thread test per shape (three tests, three models, each
    // with one execution and one outcome to check). A thread's own accesses are
    // always coherent, weak ones included, because program order is causality.
    // CoWW: st x=1 is causally before st x=2, so it is coherence-before it; the
    // host's read after the kernel knows both and may not return x=1 → forbidden.
    // Executions: 1: one thread, no choice.
    {.name = "litmus.CoWW",
     .summary = "row 21: CoWW, one thread: st.weak x=1; st.weak x=2 <<<1,1>>>",
     .invariant = "Two writes of one thread to one location are coherence-ordered in program order.",
     .bad_means = "x=1: the program-order-first write is the final value",
     .chapter = {1, 1},
     .program = run<coww, X>,
     .bad = x_is_one,
     .expect = forbidden(),
     .exhaustive_executions = 1},
    // Row 21, CoRW: the read may not return st x=1, which is causally after it
    // (program order) → r0=1 forbidden.
    // Executions: 1: one thread, the read returns init.
    {.name = "litmus.CoRW",
     .summary = "row 21: CoRW, one thread: r0 = ld.weak x; st.weak x=1 <<<1,1>>>",
     .invariant = "A read never returns a write that follows it in its own thread.",
     .bad_means = "r0=1: the read returned its thread's later write",
     .chapter = {1, 1},
     .program = run<corw, R0>,
     .bad = r0_is_one,
     .expect = forbidden(),
     .exhaustive_executions = 1},
    // Row 21, CoWR: st x=1 is causally before the read (program order) and init
    // x is coherence-before st x, so the read may not return init → r0=0 forbidden.
    // Executions: 1: one thread, the read returns st x.
    {.name = "litmus.CoWR",
     .summary = "row 21: CoWR, one thread: st.weak x=1; r0 = ld.weak x <<<1,1>>>",
     .invariant = "A read returns its own thread's earlier write (or a coherence-later one), never an older value.",
     .bad_means = "r0=0: the read missed its thread's earlier write",
     .chapter = {1, 1},
     .program = run<cowr, R0>,
     .bad = r0_is_zero,
     .expect = forbidden(),
     .exhaustive_executions = 1},
    // Row 22, relaxed. Each reader's first read observes a write morally
    // strongly, but only its own thread learns of it: nothing synchronizes the
    // readers with each other or with the writers, and reads-from and
    // from-read edges alone never synchronize (not multi-copy atomic). T3's ld x
    // may return init x although T2 saw x=1, and symmetrically for y → permitted.
    // Executions: 16: each of the four reads returns init or the store, independently (2^4).
    {.name = "litmus.IRIW+relaxed.gpu.xcta",
     .summary = "row 22: IRIW, relaxed.gpu writes and reads, four blocks <<<4,1>>>",
     .invariant = "Without synchronization, two readers may see two independent writes in opposite orders (PTX is "
                  "not multi-copy atomic).",
     .bad_means = "r0=1 r1=0 r2=1 r3=0: the readers disagree on the order of the writes",
     .chapter = {4, 1},
     .program = run<iriw<no_fence>, R0 | R1 | R2 | R3>,
     .bad = readers_disagree,
     .expect = permitted(),
     .exhaustive_executions = 16},
    // Row 22, fence.sc.gpu between the reads. The readers' fences are morally
    // strong (gpu includes all blocks) and so are ordered. If T2's is first:
    // st x → T2's ld x (morally strong observation, r0=1, carried forward) →po
    // F2 →sync F3 →po T3's ld x, so T3's ld x may not return init x (r3=1).
    // If T3's is first, symmetrically via y, r1=1 → forbidden.
    // Executions: 24. F2 first: T2's reads and T3's ld y are free (2 × 2 × 2), T3's ld x is free only when r0=0:
    // 4 + 8 = 12. F3 first: symmetrically 12.
    {.name = "litmus.IRIW+fence.sc.gpu.xcta",
     .summary = "row 22: IRIW, relaxed.gpu accesses, fence.sc.gpu between each reader's reads, four blocks <<<4,1>>>",
     .invariant = "Ordered fence.sc between the reads pass what the earlier reader observed on to the later "
                  "reader, so the readers agree.",
     .bad_means = "r0=1 r1=0 r2=1 r3=0: the readers disagree on the order of the writes",
     .chapter = {4, 1},
     .program = run<iriw<memory_order_seq_cst, thread_scope_device>, R0 | R1 | R2 | R3>,
     .bad = readers_disagree,
     .expect = forbidden(),
     .exhaustive_executions = 24},
    // Row 23, relaxed. The writes to each location are morally strong, so
    // coherence orders them, but in either direction: no synchronization
    // connects the threads, and coherence edges alone never synchronize.
    // x: 2 before 1 and y: 2 before 1 is consistent → final x=y=1 permitted.
    // Executions: 4: coherence orders the two writes of x either way and those of y either way (2 × 2); the host
    // reads the last of each.
    {.name = "litmus.2+2W+relaxed.gpu.xcta",
     .summary = "row 23: 2+2W, st.relaxed.gpu x=1; y=2 ‖ y=1; x=2, different blocks <<<2,1>>>",
     .invariant = "Coherence orders each location's writes separately; with no synchronization both threads' "
                  "first writes may end up last.",
     .bad_means = "x=1 y=1: each thread's first write is coherence-last",
     .chapter = {2, 1},
     .program = run<two_plus_two_w<no_fence>, X | Y>,
     .bad = x_and_y_one,
     .expect = permitted(),
     .exhaustive_executions = 4},
    // Row 23, fence.sc.gpu between the writes. The fences are morally strong and
    // ordered. If T0's is first, st x=1 →po F0 →sync F1 →po st x=2: causally
    // ordered writes are coherence-ordered that way, so the final x is 2. If
    // T1's is first, final y is 2 → x=y=1 forbidden.
    // Executions: 4. F0 first: x is ordered (1 before 2), y either way (2); F1 first: y ordered, x either way
    // (2).
    {.name = "litmus.2+2W+fence.sc.gpu.xcta",
     .summary = "row 23: 2+2W, relaxed.gpu stores with fence.sc.gpu between them, different blocks <<<2,1>>>",
     .invariant = "Ordered fence.sc make one thread's first write causally before the other's second write to the "
                  "same location, so that write is not last.",
     .bad_means = "x=1 y=1: each thread's first write is coherence-last",
     .chapter = {2, 1},
     .program = run<two_plus_two_w<memory_order_seq_cst, thread_scope_device>, X | Y>,
     .bad = x_and_y_one,
     .expect = forbidden(),
     .exhaustive_executions = 4},
    // Row 24, sys ‖ sys. The two atom.add.relaxed.sys are morally strong (strong,
    // sys includes both blocks), hence atomic with respect to each other: they
    // cannot both read init; one reads the other's 1 and writes 2 → final x=1
    // forbidden.
    // Executions: 1. One RMW reads init, the other reads it (either first), but
    // both results are unused: two relaxed adds of one scope whose values nobody
    // reads commute, so the two orders are one execution (docs/architecture.md,
    // "Commuting RMWs"); x ends 2 either way.
    {.name = "litmus.INC+relaxed.sys+relaxed.sys.xcta",
     .summary = "row 24: two fetch_add(1, relaxed) at system scope in different blocks <<<2,1>>>",
     .invariant = "Morally strong RMWs are atomic with respect to each other: no increment is lost.",
     .bad_means = "x=1: an increment was lost",
     .chapter = {2, 1},
     .program = run<two_increments<thread_scope_system, thread_scope_system>, X>,
     .bad = x_is_one,
     .expect = forbidden(),
     .exhaustive_executions = 1},
    // Row 24, cta ‖ gpu. T0's cta scope does not include T1 (other block), so
    // the RMWs are not morally strong and behave as a read followed by a
    // separate write each: both may read init 0 and write 1 → final x=1 permitted.
    // Executions: 6. Reads-from: both read init, or one reads the other's write (cyclically both is impossible):
    // 3. The two writes race, so coherence leaves them unordered and the host's read after the kernel may return
    // either: × 2.
    {.name = "litmus.INC+relaxed.cta+relaxed.gpu.xcta",
     .summary = "row 24: fetch_add(1, relaxed) at block scope ‖ at device scope, different blocks <<<2,1>>>",
     .invariant = "RMWs whose scopes do not include each other are not atomic with respect to each other: an "
                  "update can be lost.",
     .bad_means = "x=1: an increment was lost",
     .chapter = {2, 1},
     .program = run<two_increments<thread_scope_block, thread_scope_device>, X>,
     .bad = x_is_one,
     .expect = permitted(),
     .exhaustive_executions = 6},
};

}  // namespace scopesim::models::litmus
