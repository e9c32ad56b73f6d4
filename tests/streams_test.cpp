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
