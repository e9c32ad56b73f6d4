// Host programs with streams: launches and copies in one stream are ordered,
// in two streams they are not unless an event joins them; a synchronize makes
// the finished work visible to the host (CUDA programming guide, "Streams",
// "Events"; semantics.md: kernel end synchronizes with the host).
#include <gtest/gtest.h>

#include "tests/test_kernels.hpp"

namespace scopesim {
namespace {
using namespace scopesim::dialect;

Exploration exhaustive(const models::Model& m) { return explore(m, m.chapter, ExploreOptions{}); }

models::Model host_program(const char* name, models::Program p) {
  models::Model m;
  m.name = name;
  m.chapter = {1, 1};
  m.program = std::move(p);
  return m;
}

SCOPESIM_KERNEL void write_one(plain<int>* x) { *x = 1; }
SCOPESIM_KERNEL void copy_cell(plain<int>* from, plain<int>* to) { *to = *from; }

// Kernel A writes x; kernel B, next in the same stream, copies x to y. The
// stream orders A's end before B's start: y = 1, no race.
TEST(Streams, KernelsInOneStreamAreOrdered) {
  const auto m = host_program("t.one_stream", [](Host& h, const models::Config&) {
    plain<int>* x = device_alloc<plain<int>>(h, "x");
    plain<int>* y = device_alloc<plain<int>>(h, "y");
    host_write(*x, 0);
    host_write(*y, 0);
    const stream_t s = stream_create(h);
    launch<write_one>(h, "write_one", dim3{1}, dim3{1}, s, x);
    launch<copy_cell>(h, "copy_cell", dim3{1}, dim3{1}, s, x, y);
    stream_synchronize(h, s);
    observe(h, "y", *y);
  });
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "y=1");
}

// The same kernels in two streams run concurrently: B may copy the initial
// 0, and the plain write and read race.
TEST(Streams, KernelsInTwoStreamsRace) {
  const auto m = host_program("t.two_streams", [](Host& h, const models::Config&) {
    plain<int>* x = device_alloc<plain<int>>(h, "x");
    plain<int>* y = device_alloc<plain<int>>(h, "y");
    host_write(*x, 0);
    host_write(*y, 0);
    const stream_t s1 = stream_create(h), s2 = stream_create(h);
    launch<write_one>(h, "write_one", dim3{1}, dim3{1}, s1, x);
    launch<copy_cell>(h, "copy_cell", dim3{1}, dim3{1}, s2, x, y);
    device_synchronize(h);
    observe(h, "y", *y);
  });
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(test::permits(x, "y=0"));
  EXPECT_TRUE(test::permits(x, "y=1"));
  EXPECT_NE(test::finding(x, FindingKind::data_race), nullptr);
}

// An event recorded after A in s1 and waited for by s2 before B orders them again.
TEST(Streams, EventJoinsTwoStreams) {
  const auto m = host_program("t.event", [](Host& h, const models::Config&) {
    plain<int>* x = device_alloc<plain<int>>(h, "x");
    plain<int>* y = device_alloc<plain<int>>(h, "y");
    host_write(*x, 0);
    host_write(*y, 0);
    const stream_t s1 = stream_create(h), s2 = stream_create(h);
    const event_t done = event_create(h);
    launch<write_one>(h, "write_one", dim3{1}, dim3{1}, s1, x);
    event_record(h, done, s1);
    stream_wait_event(h, s2, done);
    launch<copy_cell>(h, "copy_cell", dim3{1}, dim3{1}, s2, x, y);
    device_synchronize(h);
    observe(h, "y", *y);
  });
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "y=1");
}

// A kernel writes x = 1; an async copy in the same stream brings it to a host
// buffer. Reading the buffer after cudaStreamSynchronize gives 1; reading it
// before may give the buffer's old 0 and races with the copy's write.
void copy_back(Host& h, bool sync_first) {
  plain<int>* x = device_alloc<plain<int>>(h, "x");
  plain<int>* buf = host_alloc<plain<int>>(h, "buf");
  host_write(*x, 0);
  host_write(*buf, 0);
  const stream_t s = stream_create(h);
  launch<write_one>(h, "write_one", dim3{1}, dim3{1}, s, x);
  memcpy_async(h, buf, x, 1, s);
  if (sync_first) stream_synchronize(h, s);
  const int seen = *buf;
  if (!sync_first) stream_synchronize(h, s);
  plain<int>* out = host_alloc<plain<int>>(h, "seen");
  host_write(*out, seen);
  observe(h, "seen", *out);
}

TEST(Streams, HostReadsAfterStreamSynchronize) {
  const Exploration x = exhaustive(host_program("t.read_after", [](Host& h, const models::Config&) { copy_back(h, true); }));
  EXPECT_TRUE(x.findings.empty());
  ASSERT_EQ(x.outcomes.size(), 1u);
  EXPECT_EQ(x.outcomes[0].outcome.text(), "seen=1");
}

TEST(Streams, HostReadsBeforeStreamSynchronize) {
  const Exploration x = exhaustive(host_program("t.read_before", [](Host& h, const models::Config&) { copy_back(h, false); }));
  EXPECT_TRUE(test::permits(x, "seen=0"));
  EXPECT_TRUE(test::permits(x, "seen=1"));
  EXPECT_NE(test::finding(x, FindingKind::data_race), nullptr);
}

// The kernel may end before the host reaches cudaStreamSynchronize (the host
// writes z in between): the synchronize still covers it, and the host learns
// its write whenever it finished (semantics.md: stream order and synchronize
// calls are API edges). So the host reads x = 1, never the initial 0, and the
// kernel's write and the host's read do not race.
TEST(Streams, SynchronizeCoversWorkThatAlreadyFinished) {
  const auto m = host_program("t.finished_early", [](Host& h, const models::Config&) {
    plain<int>* x = device_alloc<plain<int>>(h, "x");
    plain<int>* z = host_alloc<plain<int>>(h, "z");
    host_write(*x, 0);
    const stream_t s = stream_create(h);
    launch<write_one>(h, "write_one", dim3{1}, dim3{1}, s, x);
    host_write(*z, 1);
    stream_synchronize(h, s);
    observe(h, "x", *x);
  });
  // Exhaustively, and sampled at random: the search takes the kernel's end
  // and the host's steps as independent, and runs one order of them; the
  // samples run the kernel to its end before the host's synchronize too.
  ExploreOptions sampled;
  sampled.mode = Mode::random;
  sampled.max_executions = 200;
  for (const Exploration& x : {exhaustive(m), explore(m, m.chapter, sampled)}) {
    EXPECT_TRUE(x.findings.empty());
    ASSERT_EQ(x.outcomes.size(), 1u);
    EXPECT_EQ(x.outcomes[0].outcome.text(), "x=1");
  }
}

// A launch's start runs in place, on the fiber whose thread decision chose
// it (docs/architecture.md, "How a run proceeds"): mostly the host's, deep
// in its launch call, as is the host's launch step itself. Their deep work
// (a grid's thread names and coordinates, made once a shape; the grid
// spawned and dispatched, and in a search's first runs the buffers for it
// grown) runs aside, so that the host's stack stays within the part its
// fiber keeps open: a touch past it (FiberPool::trips()) costs a fault, and a
// wider clear of that stack in every later run. `tile.barrier` launches two
// shapes (the tile, then one thread that checks it), `publish.host_consumer`
// a grid whose threads' views the memory model makes room for; each explored
// without texts (their formatting runs deep too, and takes no time measured)
// on a thread of its own (test::trips_exploring()): no trip.
TEST(Streams, ALaunchKeepsItsDeepWorkOffTheHostsStack) {
  for (const char* name : {"tile.barrier", "publish.host_consumer"}) {
    const models::Model& m = test::model(name);
    ExploreOptions o;
    o.run.keep_trace = false;
    Exploration x;
    EXPECT_EQ(test::trips_exploring(m, m.quick.value_or(m.chapter), o, x), 0u) << name;
    EXPECT_TRUE(x.complete) << name;
  }
}

SCOPESIM_KERNEL void wait_for_flag(plain<int>* flag) {
  while (atomic_ref<int, thread_scope_device>(*flag).load(memory_order_acquire) == 0) {
  }
}
SCOPESIM_KERNEL void set_flag(plain<int>* flag) {
  atomic_ref<int, thread_scope_device>(*flag).store(1, memory_order_release);
}

// Two kernels in two streams share one block slot. Whichever starts first
// takes it: when the waiter does, it spins on a flag that only the other
// kernel's block, never resident, would set (deadlock); when the setter does,
// it sets the flag and ends, and the waiter then sees it. Both starts orders
// must be explored: the starts compete for the slot.
TEST(Streams, KernelsOfTwoStreamsCompeteForBlockSlots) {
  auto m = host_program("t.compete", [](Host& h, const models::Config&) {
    plain<int>* flag = device_alloc<plain<int>>(h, "flag");
    host_write(*flag, 0);
    const stream_t s1 = stream_create(h), s2 = stream_create(h);
    launch<wait_for_flag>(h, "wait_for_flag", dim3{1}, dim3{1}, s1, flag);
    launch<set_flag>(h, "set_flag", dim3{1}, dim3{1}, s2, flag);
    device_synchronize(h);
    observe(h, "flag", *flag);
  });
  m.chapter.resident_blocks = 1;
  const Exploration x = exhaustive(m);
  EXPECT_TRUE(test::permits(x, "flag=1"));
  EXPECT_NE(test::finding(x, FindingKind::deadlock), nullptr);
}

// An event that was never recorded waits for nothing; an unknown stream is an
// input error, reported as such.
TEST(Streams, UnknownStreamIsAnError) {
  const auto m = host_program("t.bad_stream", [](Host& h, const models::Config&) {
    plain<int>* x = device_alloc<plain<int>>(h, "x");
    launch<write_one>(h, "write_one", dim3{1}, dim3{1}, stream_t{7}, x);
  });
  const Exploration x = exhaustive(m);
  const FindingSummary* f = test::finding(x, FindingKind::kernel_fault);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("unknown stream 7"), std::string::npos) << f->finding.message;
}

}  // namespace
}  // namespace scopesim
