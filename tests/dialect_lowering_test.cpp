// The dialect hands the engine each access's lowering as a constant of its
// kind, access, scope and order (detail::lowered, detail::lowered_atomic),
// made from an Event that sets those fields alone. Each must be what lower()
// gives the whole event the access performs, whatever else the event holds:
// were lower() to read another field, a constant would go stale.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "models/dialect/dialect.hpp"
#include "sim/core/lowering.hpp"

namespace scopesim::dialect {
namespace {

// An access as the dialect makes it, every other field set to something.
Event full(EventKind k, Access a, Order o, Scope s, bool thread) {
  Event e;
  e.kind = k;
  e.access = a;
  e.order = o;
  e.scope = s;
  e.thread_scope = thread;
  e.rmw = RmwOp::cas;
  e.type = ValueType::u64;
  e.addr = 0x1000;
  e.size = 8;
  e.operand = 7;
  e.operand2 = 9;
  e.lane = 3;
  e.width = 16;
  e.label = "x";
  return e;
}

void expect_same(const Lowering& table, const Lowering& made, const std::string& what) {
  ASSERT_EQ(table.count, made.count) << what;
  for (int i = 0; i < made.count; ++i) {
    EXPECT_EQ(table.ops[i].kind, made.ops[i].kind) << what << " op " << i;
    EXPECT_EQ(table.ops[i].sem, made.ops[i].sem) << what << " op " << i;
    EXPECT_EQ(table.ops[i].scope, made.ops[i].scope) << what << " op " << i;
  }
}

constexpr std::array orders{Order::relaxed, Order::consume, Order::acquire,
                            Order::release, Order::acq_rel, Order::seq_cst};

template <EventKind K, Scope S, bool Thread>
void expect_atomic_table(const std::string& name) {
  for (Order o : orders)
    expect_same(detail::lowered_atomic<K, S, Thread>[static_cast<int>(o)], lower(full(K, Access::atomic, o, S, Thread)),
                name + " order " + std::to_string(static_cast<int>(o)));
}

TEST(DialectLowering, PlainAndVolatileConstantsAreTheWholeEventsLowering) {
  // (A plain or volatile access names no order or scope: the event's defaults, as the dialect's access() leaves them.)
  const Order o = Order::relaxed;
  const Scope s = Scope::sys;
  expect_same(detail::lowered<EventKind::load, Access::plain>, lower(full(EventKind::load, Access::plain, o, s, false)),
              "plain load");
  expect_same(detail::lowered<EventKind::store, Access::plain>, lower(full(EventKind::store, Access::plain, o, s, false)),
              "plain store");
  expect_same(detail::lowered<EventKind::load, Access::volatile_>,
              lower(full(EventKind::load, Access::volatile_, o, s, false)), "volatile load");
  expect_same(detail::lowered<EventKind::store, Access::volatile_>,
              lower(full(EventKind::store, Access::volatile_, o, s, false)), "volatile store");
}

TEST(DialectLowering, LegacyAtomicConstantIsTheWholeEventsLowering) {
  // atomicAdd and friends: device scope, no order.
  expect_same(detail::lowered<EventKind::rmw, Access::legacy_atomic>,
              lower(full(EventKind::rmw, Access::legacy_atomic, Order::relaxed, Scope::gpu, false)), "legacy atomic");
}

// Every scope an atomic_ref names (thread_scope_thread: cta, marked), for kind K.
template <EventKind K>
void expect_atomic_tables(const std::string& kind) {
  expect_atomic_table<K, Scope::cta, false>(kind + " cta");
  expect_atomic_table<K, Scope::cta, true>(kind + " thread");
  expect_atomic_table<K, Scope::gpu, false>(kind + " gpu");
  expect_atomic_table<K, Scope::sys, false>(kind + " sys");
}

TEST(DialectLowering, AtomicConstantsAreTheWholeEventsLoweringForEveryOrder) {
  expect_atomic_tables<EventKind::load>("load");
  expect_atomic_tables<EventKind::store>("store");
  expect_atomic_tables<EventKind::rmw>("rmw");
}

// The table is indexed by the engine's order of each libcu++ order.
TEST(DialectLowering, LibcuxxOrdersIndexTheTableInTheEnginesOrder) {
  EXPECT_EQ(detail::order_of(cuda::std::memory_order_relaxed), Order::relaxed);
  EXPECT_EQ(detail::order_of(cuda::std::memory_order_acquire), Order::acquire);
  EXPECT_EQ(detail::order_of(cuda::std::memory_order_release), Order::release);
  EXPECT_EQ(detail::order_of(cuda::std::memory_order_acq_rel), Order::acq_rel);
  EXPECT_EQ(detail::order_of(cuda::std::memory_order_seq_cst), Order::seq_cst);
  // A release store and an acquire load: what the PTX mapping says (semantics.md, the lowering table).
  EXPECT_EQ(ptx_name(detail::lowered_atomic<EventKind::store, Scope::gpu, false>[static_cast<int>(Order::release)].ops[0]),
            "st.release.gpu");
  EXPECT_EQ(ptx_name(detail::lowered_atomic<EventKind::load, Scope::cta, false>[static_cast<int>(Order::acquire)].ops[0]),
            "ld.acquire.cta");
}

}  // namespace
}  // namespace scopesim::dialect
