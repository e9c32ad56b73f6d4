// publish.host_consumer — the record published to a host thread that polls a
// flag in mapped host memory (catalogue.md, "publish"). The kernel runs while
// the host program spins on the flag; only system scope includes the host.
#include "models/model.hpp"

namespace scopesim::models::publish {
using namespace scopesim::dialect;

// Thread 0 of block 0 writes the payload, then releases the flag at scope S.
template <thread_scope S>
SCOPESIM_KERNEL void publish_to_host(plain<int>* payload, plain<int>* ready) {
  if (block_idx().x == 0 && thread_idx().x == 0) {
    *payload = 42;
    atomic_ref<int, S>(*ready).store(1, memory_order_release);
  }
}

template <thread_scope S>
void host_consumer(Host& h, const Config& c) {
  plain<int>* payload = host_alloc<plain<int>>(h, "payload");
  plain<int>* ready = host_alloc<plain<int>>(h, "ready");
  plain<int>* seen = host_alloc<plain<int>>(h, "seen");
  host_write(*payload, 0);
  host_write(*ready, 0);
  launch<publish_to_host<S>>(h, "publish_to_host", dim3{c.grid}, dim3{c.block}, payload, ready);
  // The host polls the mapped flag while the kernel runs.
  atomic_ref<int, thread_scope_system> flag(*ready);
  while (flag.load(memory_order_acquire) == 0) {
  }
  host_write(*seen, static_cast<int>(*payload));
  device_synchronize(h);
  observe(h, "seen", *seen);
}

bool stale_on_host(const Outcome& o) { return o.i("seen") != 42; }

const char* const kStaleOnHost = "stale payload on the host: it saw the flag but not the payload (seen=0)";
const char* const kHostOnly = "the host program polls mapped host memory while the kernel runs; the harness "
                              "runs many instances of one host program at once and cannot poll per instance";

// Executions (semantics.md, "Spin loops and progress"): the host's polls of
// ready return [1], [0, 1] or [0, 0, 1]: a second read of 0 at the same point
// returns it only once a newer write (the kernel's 1) exists, and a third
// would wait for a write newer than 1, which never comes.
// - host_consumer: 6. The device-scope release and the host's system-scope
//   acquire are not morally strong: nothing synchronizes, and the host's read
//   of payload returns its own 0 or the kernel's 42 (which exists: the kernel
//   stored it before the flag the host saw). 3 × 2.
// - host_consumer_system_scope: 3. The acquire that reads 1 synchronizes with
//   the release, so the host knows the kernel's 42 and its own 0 is
//   coherence-before it: the payload read has one write. 3 × 1.
// seen is the host's alone, and cudaDeviceSynchronize orders nothing the
// host reads afterwards differently.
Registrar host_consumer_models{
    {.name = "publish.host_consumer",
     .summary = "a host thread polls a mapped flag that the kernel releases at device scope",
     .invariant = "Device scope excludes the host: the kernel's release store and the host's system-scope "
                  "acquire load are not morally strong, so they do not synchronize; the host may read the "
                  "payload before the kernel's store reaches it, the payload accesses race, and nothing "
                  "promises the host ever sees the flag.",
     .bad_means = kStaleOnHost,
     .chapter = {1, 32},
     .program = host_consumer<thread_scope_device>,
     .bad = stale_on_host,
     .expect = {.bad_outcome_permitted = true,
                .required = {FindingKind::data_race, FindingKind::scoped_race,
                             FindingKind::possible_non_termination}},
     .exhaustive_executions = 6,
     .gpu_skip = kHostOnly},
    {.name = "publish.host_consumer_system_scope",
     .summary = "as publish.host_consumer with a system-scope flag",
     .invariant = "System scope includes the host: the release store and the host's acquire load are morally "
                  "strong, the acquire that reads 1 synchronizes with the release, and the host sees the "
                  "payload.",
     .bad_means = kStaleOnHost,
     .chapter = {1, 32},
     .program = host_consumer<thread_scope_system>,
     .bad = stale_on_host,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 3,
     .gpu_skip = kHostOnly},
};

}  // namespace scopesim::models::publish
