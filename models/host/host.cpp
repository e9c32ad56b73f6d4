// host — completion boundaries (catalogue.md, "host"). A kernel fills `out`,
// an async copy brings it to a host buffer, and the host reads it: what the
// host may read depends on where it synchronizes with the stream.
#include "models/model.hpp"

namespace scopesim::models::host {
using namespace scopesim::dialect;

// out[i] = 10 + i for every thread i.
SCOPESIM_KERNEL void fill(plain<int>* out) {
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  out[i] = 10 + static_cast<int>(i);
}

// Every thread copies in[i] to out[i].
SCOPESIM_KERNEL void pass_through(const plain<int>* in, plain<int>* out) {
  const unsigned i = block_idx().x * block_dim().x + thread_idx().x;
  out[i] = in[i];
}

// Thread 0 writes x; the last thread reads it with no ordering at all.
SCOPESIM_KERNEL void racy_pair(plain<int>* x, plain<int>* seen) {
  if (thread_idx().x == 0) *x = 1;
  if (thread_idx().x == block_dim().x - 1) *seen = *x;
}

// The host reads the buffer: buf0, buf1, ... in the outcome. The kernel's
// values are 10 + i; any other value is stale.
const char* const kBuf[] = {"buf0", "buf1", "buf2", "buf3"};
constexpr unsigned kMaxCells = 4;

void observe_buffer(Host& h, const plain<int>* buf, unsigned n) {
  for (unsigned i = 0; i < n && i < kMaxCells; ++i) observe(h, kBuf[i], buf[i]);
}
bool stale(const Outcome& o) {
  for (unsigned i = 0; i < kMaxCells; ++i)
    if (o.has(kBuf[i]) && o.i(kBuf[i]) != 10 + static_cast<long long>(i)) return true;
  return false;
}

// ---- host.stream_sync / host.read_before_sync ----
template <bool SyncFirst>
void copy_back(Host& h, const Config& c) {
  const unsigned n = c.grid * c.block;
  plain<int>* out = device_alloc<plain<int>>(h, "out", n);
  plain<int>* buf = host_alloc<plain<int>>(h, "buf", n);
  for (unsigned i = 0; i < n; ++i) host_write(buf[i], 0);
  const stream_t s = stream_create(h);
  launch<fill>(h, "fill", dim3{c.grid}, dim3{c.block}, s, out);
  memcpy_async(h, buf, out, n, s);
  if (SyncFirst) stream_synchronize(h, s);
  observe_buffer(h, buf, n);
  if (!SyncFirst) stream_synchronize(h, s);
}

// ---- host.reuse_source_early: the source of an async host-to-device copy is
// overwritten before the copy ran ----
void reuse_source(Host& h, const Config& c) {
  const unsigned n = c.grid * c.block;
  plain<int>* src = host_alloc<plain<int>>(h, "src", n);
  plain<int>* in = device_alloc<plain<int>>(h, "in", n);
  plain<int>* out = device_alloc<plain<int>>(h, "out", n);
  for (unsigned i = 0; i < n; ++i) host_write(src[i], 10 + static_cast<int>(i));
  const stream_t s = stream_create(h);
  memcpy_async(h, in, src, n, s);
  for (unsigned i = 0; i < n; ++i) host_write(src[i], -1);  // reused at once: the copy may not have run
  launch<pass_through>(h, "pass_through", dim3{c.grid}, dim3{c.block}, s, in, out);
  plain<int>* buf = host_alloc<plain<int>>(h, "buf", n);
  memcpy_async(h, buf, out, n, s);
  stream_synchronize(h, s);
  observe_buffer(h, buf, n);
}

// ---- host.sync_does_not_fix_race ----
void racy_kernel(Host& h, const Config& c) {
  plain<int>* x = device_alloc<plain<int>>(h, "x");
  plain<int>* seen = device_alloc<plain<int>>(h, "seen");
  host_write(*x, 0);
  host_write(*seen, 0);
  launch<racy_pair>(h, "racy_pair", dim3{c.grid}, dim3{c.block}, x, seen);
  device_synchronize(h);
  observe(h, "seen", *seen);
}

// Four threads copy four cells; two suffice where the host races with the copy.
Config four{1, 4};
Config two{1, 2};

Registrar models{
    // Executions: 1. The copy starts after the kernel ended (stream order) and the kernel's out[i] is the only
    // write it may read (the allocation's uninitialised value is coherence-before it and known through kernel end
    // and copy start); the host wrote buf before enqueueing the copy, so the copy's writes follow its own in
    // coherence; cudaStreamSynchronize makes the copy's writes known to the host: each host read has one write.
    {.name = "host.stream_sync",
     .summary = "kernel fills out, cudaMemcpyAsync to a host buffer, cudaStreamSynchronize, host reads",
     .invariant = "The copy follows the kernel in the stream, so it starts after the kernel ended and reads "
                  "every out[i]; cudaStreamSynchronize returns after the copy finished and makes its writes "
                  "visible to the host, so the host reads exactly what the kernel wrote.",
     .bad_means = "stale host read: a buffer cell is not the kernel's value",
     .chapter = four,
     .program = copy_back<true>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1},
    // Executions: 4. The copy reads only the kernel's out[i] (as in host.stream_sync); each of the host's two
    // reads of buf[i] before the synchronize returns its own 0 or the copy's 10 + i, nothing ordering the copy's
    // write before or after it (2 × 2). The synchronize after the reads changes nothing they return.
    {.name = "host.read_before_sync",
     .summary = "as host.stream_sync, but the host reads the buffer before cudaStreamSynchronize",
     .invariant = "Launch and copy are asynchronous: until the host synchronizes with the stream nothing "
                  "orders the copy's writes before the host's reads, so the host may read the buffer's old "
                  "contents, and the copy's writes race with the host's reads.",
     .bad_means = "stale host read: a buffer cell is not the kernel's value",
     .chapter = two,
     .program = copy_back<false>,
     .bad = stale,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .exhaustive_executions = 4},
    // Executions: 4. The first copy's read of src[i] returns the host's 10 + i (written before the enqueue) or
    // its -1 (written after, unordered with the copy) (2 × 2); the kernel, the second copy and the host's reads
    // after cudaStreamSynchronize each have one write to read, ordered by the stream and the synchronize.
    {.name = "host.reuse_source_early",
     .summary = "the host overwrites the source of an async host-to-device copy before the copy ran",
     .invariant = "cudaMemcpyAsync returns before it copies: the host's later writes to the source are not "
                  "ordered with the copy's reads of it, so the kernel may see the new values, and the writes "
                  "race with the copy.",
     .bad_means = "the kernel saw the source's new contents",
     .chapter = two,
     .program = reuse_source,
     .bad = stale,
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .exhaustive_executions = 4},
    // Executions: 2. The last thread's read of x returns the host's 0 or thread 0's 1 (unordered); the host reads
    // seen after cudaDeviceSynchronize, which makes the last thread's write the only one it may read.
    {.name = "host.sync_does_not_fix_race",
     .summary = "a kernel with an internal race; the host synchronizes correctly",
     .invariant = "cudaDeviceSynchronize orders the kernel's end before the host's reads; it does nothing "
                  "for two threads inside the kernel: thread 0's plain write and the last thread's plain read "
                  "are unordered, a data race, and the read may miss the write.",
     .bad_means = "the last thread missed thread 0's write (seen=0)",
     .chapter = four,
     .program = racy_kernel,
     .bad = [](const Outcome& o) { return o.i("seen") != 1; },
     .expect = {.bad_outcome_permitted = true, .required = {FindingKind::data_race}},
     .exhaustive_executions = 2},
};

}  // namespace scopesim::models::host
