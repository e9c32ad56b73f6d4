// Simulator backend of the kernel dialect. Each operation becomes one Event
// through the door (sim/core/door.hpp). A `plain<T>` cell in simulated memory
// is a location whose value lives in the memory model; a `plain<T>` anywhere
// else (a local copy on the fiber's stack) is an ordinary value.
// Source positions come from std::source_location where C++ lets a default
// argument carry one (stores, atomics, fences, barriers) and from the return
// address otherwise (loads through conversion operators).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "sim/core/door.hpp"
#include "sim/core/event.hpp"
#include "sim/core/host_api.hpp"

#define SCOPESIM_KERNEL
#define SCOPESIM_DEVICE
#define SCOPESIM_HOST_DEVICE
// __shared__ T name; — one instance per block, uninitialised.
#define SCOPESIM_SHARED(T, name)                                   \
  static ::scopesim::dialect::detail::shared_site name##_site_{#name}; \
  T& name = name##_site_.get<T>(std::source_location::current())

namespace scopesim::dialect {

using Host = ::scopesim::HostApi;
using dim3 = ::scopesim::Dim3;

namespace detail {

inline Where here(const std::source_location& l) { return Where{l.file_name(), l.line(), 0}; }
inline Where pc(const void* ra) { return Where{nullptr, 0, reinterpret_cast<std::uintptr_t>(ra)}; }

template <class T>
constexpr ValueType type_of() {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8, "plain<T> holds scalars of up to 8 bytes");
  if constexpr (std::is_same_v<T, float>) return ValueType::f32;
  else if constexpr (std::is_same_v<T, double>) return ValueType::f64;
  else if constexpr (sizeof(T) <= 4) return std::is_signed_v<T> ? ValueType::i32 : ValueType::u32;
  else return std::is_signed_v<T> ? ValueType::i64 : ValueType::u64;
}

template <class T>
std::uint64_t bits(T v) {
  std::uint64_t b = 0;
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    b = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));  // sign-extended
    if constexpr (sizeof(T) < 8) b &= (std::uint64_t{1} << (8 * sizeof(T))) - 1;
  } else {
    std::memcpy(&b, &v, sizeof(T));
  }
  return b;
}

template <class T>
T value(std::uint64_t b) {
  T v{};
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

[[noreturn]] void no_door();  // throws: a dialect operation ran outside the simulator
// The running thread's door (inline: every dialect operation asks).
inline Door& door() {
  Door* d = current_door();
  if (d == nullptr) [[unlikely]] no_door();
  return *d;
}

// Hands access `e` (a load or an RMW) to the engine through `door` (the
// running thread's, Door::perform_access()) with its lowering and the
// caller's local state (LocalState).
// (`lowering` by reference: mostly a constant of the dialect's, whose
// address is passed, where a copy was stored and loaded again.)
std::uint64_t perform_lowered(Door& door, const Event& e, const Lowering& lowering);
// The same for an event that reads no memory (a fence, a barrier, a warp
// collective, a shared declaration): the caller's local state, which only a
// read's spin detection looks at, is not taken (LocalState{}).
[[gnu::always_inline]] inline std::uint64_t perform_no_read(const Event& e, Lowering lowering) {
  return door().perform(e, lowering, {});
}
// The same for a store, through `door` (the running thread's).
[[gnu::always_inline]] inline void perform_store(Door& door, const Event& e, Lowering lowering) {
  door.perform_access(e, lowering, {});
}
// The lowering of an access of kind `K` made as `A` with no order (plain or
// volatile), a constant: the models' code is built with little optimization,
// where lower(e) inline makes the lowering's bytes one by one at every access.
template <EventKind K, Access A>
inline constexpr Lowering lowered = lower(Event{.kind = K, .access = A});
// The same for an operation of kind `K` that is no access (a barrier, a warp
// collective, a shared declaration).
template <EventKind K>
inline constexpr Lowering lowered_op = lower(Event{.kind = K});
// The same for an atomic access of kind `K` at scope `S` (`Thread`: named
// thread_scope_thread), by its order.
template <EventKind K, Scope S, bool Thread>
inline constexpr Lowering lowered_atomic[] = {
    lower(Event{.kind = K, .access = Access::atomic, .order = Order::relaxed, .scope = S, .thread_scope = Thread}),
    lower(Event{.kind = K, .access = Access::atomic, .order = Order::consume, .scope = S, .thread_scope = Thread}),
    lower(Event{.kind = K, .access = Access::atomic, .order = Order::acquire, .scope = S, .thread_scope = Thread}),
    lower(Event{.kind = K, .access = Access::atomic, .order = Order::release, .scope = S, .thread_scope = Thread}),
    lower(Event{.kind = K, .access = Access::atomic, .order = Order::acq_rel, .scope = S, .thread_scope = Thread}),
    lower(Event{.kind = K, .access = Access::atomic, .order = Order::seq_cst, .scope = S, .thread_scope = Thread}),
};

// A value with the source position of the expression that produced it: the
// default argument is evaluated where the implicit conversion happens.
template <class T>
struct located {
  T value;
  Where where;
  located(T v, std::source_location l = std::source_location::current()) : value(v), where(here(l)) {}
};

class shared_site {
 public:
  explicit shared_site(const char* label) : label_(label) {}
  template <class T>
  T& get(std::source_location l) {
    Event e;
    e.kind = EventKind::shared_alloc;
    e.addr = reinterpret_cast<std::uintptr_t>(this);
    e.size = sizeof(T);
    e.operand = alignof(T);
    e.label = label_;
    e.where = here(l);
    return *reinterpret_cast<T*>(perform_no_read(e, lowered_op<EventKind::shared_alloc>));
  }

 private:
  const char* label_;
};

template <class T>
Event access(EventKind k, Access a, const volatile void* addr, Where w) {
  Event e;
  e.kind = k;
  e.access = a;
  e.type = type_of<T>();
  e.addr = reinterpret_cast<std::uintptr_t>(addr);
  e.size = sizeof(T);
  e.where = w;
  return e;
}

// libcu++'s scope and order as the engine's (inline: an operation's scope is
// a constant of its type, and its order mostly one of its caller).
[[gnu::always_inline]] constexpr Scope scope_of(thread_scope s) {
  switch (s) {
    case cuda::thread_scope_system: return Scope::sys;
    case cuda::thread_scope_device: return Scope::gpu;
    default: return Scope::cta;  // block, and thread (lowered as cta by libcu++)
  }
}
// (libcu++'s orders are the engine's, in the same order: converted, not
// switched on, where the models' little optimization made a jump table.)
[[gnu::always_inline]] constexpr Order order_of(memory_order o) {
  static_assert(static_cast<int>(cuda::std::memory_order_relaxed) == static_cast<int>(Order::relaxed) &&
                static_cast<int>(cuda::std::memory_order_consume) == static_cast<int>(Order::consume) &&
                static_cast<int>(cuda::std::memory_order_acquire) == static_cast<int>(Order::acquire) &&
                static_cast<int>(cuda::std::memory_order_release) == static_cast<int>(Order::release) &&
                static_cast<int>(cuda::std::memory_order_acq_rel) == static_cast<int>(Order::acq_rel) &&
                static_cast<int>(cuda::std::memory_order_seq_cst) == static_cast<int>(Order::seq_cst));
  const auto k = static_cast<unsigned>(o);
  return k < static_cast<unsigned>(Order::seq_cst) ? static_cast<Order>(k) : Order::seq_cst;
}

}  // namespace detail

// An ordinary (non-atomic) cell of shared or global memory: `T` under nvcc.
template <class T>
class plain {
 public:
  plain() {}
  explicit plain(T v) : local_(v) {}
  plain(const plain& o) : local_(o.load(detail::pc(__builtin_return_address(0)))) {}

  [[gnu::noinline]] operator T() const { return load(detail::pc(__builtin_return_address(0))); }
  [[gnu::noinline]] operator T() const volatile { return load_volatile(detail::pc(__builtin_return_address(0))); }

  plain& operator=(detail::located<T> v) {
    store(v.value, v.where);
    return *this;
  }
  [[gnu::noinline]] plain& operator=(const plain& o) {
    const Where w = detail::pc(__builtin_return_address(0));
    store(o.load(w), w);
    return *this;
  }
  void operator=(detail::located<T> v) volatile { store_volatile(v.value, v.where); }

  // Plain read-modify-write: a weak load and a separate weak store.
  plain& operator+=(detail::located<T> v) { return update(v, [](T a, T b) { return T(a + b); }); }
  plain& operator-=(detail::located<T> v) { return update(v, [](T a, T b) { return T(a - b); }); }
  plain& operator|=(detail::located<T> v) { return update(v, [](T a, T b) { return T(a | b); }); }
  plain& operator&=(detail::located<T> v) { return update(v, [](T a, T b) { return T(a & b); }); }
  [[gnu::noinline]] T operator++(int) {
    const Where w = detail::pc(__builtin_return_address(0));
    Door* d = simulated_by();
    T old = load_by(d, w);
    store_by(d, T(old + 1), w);
    return old;
  }
  [[gnu::noinline]] plain& operator++() {
    const Where w = detail::pc(__builtin_return_address(0));
    Door* d = simulated_by();
    store_by(d, T(load_by(d, w) + 1), w);
    return *this;
  }

  // Used by atomic_ref and the host; not part of the CUDA-looking surface.
  T load(Where w) const { return load_by(simulated_by(), w); }
  void store(T v, Where w) { store_by(simulated_by(), v, w); }

 private:
  template <class F>
  plain& update(detail::located<T> v, F f) {
    Door* d = simulated_by();
    store_by(d, f(load_by(d, v.where), v.value), v.where);
    return *this;
  }
  // load() and store() through `d`, the door simulated_by() gave (nullptr:
  // an ordinary value). (A read-modify-write of the cell asks it once for both.)
  T load_by(Door* d, Where w) const {
    if (d == nullptr) return local_;
    return detail::value<T>(detail::perform_lowered(*d, detail::access<T>(EventKind::load, Access::plain, this, w),
                                                    detail::lowered<EventKind::load, Access::plain>));
  }
  void store_by(Door* d, T v, Where w) {
    if (d == nullptr) {
      local_ = v;
      return;
    }
    Event e = detail::access<T>(EventKind::store, Access::plain, this, w);
    e.operand = detail::bits(v);
    // (Through the door asked.)
    detail::perform_store(*d, e, detail::lowered<EventKind::store, Access::plain>);
  }
  T load_volatile(Where w) const volatile {
    return detail::value<T>(detail::perform_lowered(detail::door(),
                                                    detail::access<T>(EventKind::load, Access::volatile_, this, w),
                                                    detail::lowered<EventKind::load, Access::volatile_>));
  }
  void store_volatile(T v, Where w) volatile {
    Event e = detail::access<T>(EventKind::store, Access::volatile_, this, w);
    e.operand = detail::bits(v);
    detail::perform_store(detail::door(), e, detail::lowered<EventKind::store, Access::volatile_>);
  }
  // The running thread's door where this cell is in simulated memory, else nullptr.
  Door* simulated_by() const {
    Door* d = current_door();
    return d != nullptr && d->simulated(this) ? d : nullptr;
  }

  T local_;
};

// The value an atomic read-modify-write of a commuting operation returns
// (atomicAdd & co, fetch_add & co): `T` under nvcc, here a value that
// converts to T. Dropped without being converted, it tells the engine that
// the thread never used it (Door::result_discarded): such RMWs commute with
// one another (docs/architecture.md, "Commuting RMWs"). Converted, or still
// held when the thread reaches its next operation, it counts as used.
template <class T>
class rmw_result {
 public:
  explicit rmw_result(T v) : value_(v), event_(detail::door().last_event()) {}
  rmw_result(const rmw_result&) = delete;
  rmw_result& operator=(const rmw_result&) = delete;
  ~rmw_result() {
    if (used_) return;
    if (Door* d = current_door()) d->result_discarded(event_);
  }
  operator T() const {
    used_ = true;
    return value_;
  }

 private:
  T value_;
  std::uint64_t event_;
  mutable bool used_ = false;
};

// cuda::atomic_ref<T, S> over a plain<T> cell.
template <class T, thread_scope S = thread_scope_system>
class atomic_ref {
 public:
  explicit atomic_ref(plain<T>& cell) : cell_(&cell) {}

  // (Each operation inline where the kernel calls it: the order, the
  // position and so the lowering are then constants there.)
  [[gnu::always_inline]] T load(memory_order o = memory_order_seq_cst,
                                std::source_location l = std::source_location::current()) const {
    return detail::value<T>(
        detail::perform_lowered(detail::door(), event(EventKind::load, o, l), lowered<EventKind::load>(o)));
  }
  [[gnu::always_inline]] void store(T v, memory_order o = memory_order_seq_cst,
                                   std::source_location l = std::source_location::current()) const {
    Event e = event(EventKind::store, o, l);
    e.operand = detail::bits(v);
    detail::perform_store(detail::door(), e, lowered<EventKind::store>(o));
  }
  [[gnu::always_inline]] rmw_result<T> fetch_add(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::add, v, o, l)); }
  [[gnu::always_inline]] rmw_result<T> fetch_sub(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::sub, v, o, l)); }
  [[gnu::always_inline]] rmw_result<T> fetch_and(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::and_, v, o, l)); }
  [[gnu::always_inline]] rmw_result<T> fetch_or(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::or_, v, o, l)); }
  [[gnu::always_inline]] rmw_result<T> fetch_xor(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::xor_, v, o, l)); }
  [[gnu::always_inline]] rmw_result<T> fetch_min(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::min, v, o, l)); }
  [[gnu::always_inline]] rmw_result<T> fetch_max(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw_result<T>(rmw(RmwOp::max, v, o, l)); }
  [[gnu::always_inline]] T exchange(T v, memory_order o = memory_order_seq_cst, std::source_location l = std::source_location::current()) const { return rmw(RmwOp::exch, v, o, l); }
  [[gnu::always_inline]] bool compare_exchange_strong(T& expected, T desired, memory_order o = memory_order_seq_cst,
                                                     std::source_location l = std::source_location::current()) const {
    Event e = event(EventKind::rmw, o, l);
    e.rmw = RmwOp::cas;
    e.operand = detail::bits(expected);
    e.operand2 = detail::bits(desired);
    const T old = detail::value<T>(detail::perform_lowered(detail::door(), e, lowered<EventKind::rmw>(o)));
    if (old == expected) return true;
    expected = old;
    return false;
  }

 private:
  [[gnu::always_inline]] Event event(EventKind k, memory_order o, const std::source_location& l) const {
    Event e = detail::access<T>(k, Access::atomic, cell_, detail::here(l));
    e.order = detail::order_of(o);
    e.scope = detail::scope_of(S);
    e.thread_scope = S == thread_scope_thread;
    return e;
  }
  // event(K, o, ...)'s lowering (detail::lowered_atomic). (By reference: a
  // copy, with little optimization, was made again byte by byte.)
  template <EventKind K>
  [[gnu::always_inline]] static const Lowering& lowered(memory_order o) {
    return detail::lowered_atomic<K, detail::scope_of(S), S == thread_scope_thread>[static_cast<int>(detail::order_of(o))];
  }
  [[gnu::always_inline]] T rmw(RmwOp op, T v, memory_order o, const std::source_location& l) const {
    Event e = event(EventKind::rmw, o, l);
    e.rmw = op;
    e.operand = detail::bits(v);
    return detail::value<T>(detail::perform_lowered(detail::door(), e, lowered<EventKind::rmw>(o)));
  }
  plain<T>* cell_;
};

// Legacy atomics (atomicAdd & co): atom.relaxed.gpu.
namespace detail {
template <class T>
T legacy(RmwOp op, plain<T>* p, T v, T v2, const std::source_location& l) {
  Event e = access<T>(EventKind::rmw, Access::legacy_atomic, p, here(l));
  e.rmw = op;
  e.operand = bits(v);
  e.operand2 = bits(v2);
  e.scope = Scope::gpu;
  return value<T>(perform_lowered(door(), e, lowered<EventKind::rmw, Access::legacy_atomic>));
}
}  // namespace detail
template <class T>
rmw_result<T> atomic_add(plain<T>* p, T v, std::source_location l = std::source_location::current()) { return rmw_result<T>(detail::legacy(RmwOp::add, p, v, T{}, l)); }
template <class T>
rmw_result<T> atomic_sub(plain<T>* p, T v, std::source_location l = std::source_location::current()) { return rmw_result<T>(detail::legacy(RmwOp::sub, p, v, T{}, l)); }
template <class T>
T atomic_exch(plain<T>* p, T v, std::source_location l = std::source_location::current()) { return detail::legacy(RmwOp::exch, p, v, T{}, l); }
template <class T>
rmw_result<T> atomic_max(plain<T>* p, T v, std::source_location l = std::source_location::current()) { return rmw_result<T>(detail::legacy(RmwOp::max, p, v, T{}, l)); }
template <class T>
rmw_result<T> atomic_min(plain<T>* p, T v, std::source_location l = std::source_location::current()) { return rmw_result<T>(detail::legacy(RmwOp::min, p, v, T{}, l)); }
template <class T>
T atomic_cas(plain<T>* p, T expected, T desired, std::source_location l = std::source_location::current()) { return detail::legacy(RmwOp::cas, p, expected, desired, l); }

// Fences. (Inline where the kernel fences: its order, scope and position
// are then constants there, and so is the fence's lowering. A fence takes no
// local state: it leaves the kernel's frames as they were.)
namespace detail {
// Every fence's lowering, by scope and order: looked up, where lower() (with
// little optimization) switched on its order.
inline constexpr auto fence_lowerings = [] {
  std::array<std::array<Lowering, static_cast<int>(Order::seq_cst) + 1>, static_cast<int>(Scope::thread) + 1> by_scope;
  for (std::size_t s = 0; s < by_scope.size(); ++s)
    for (std::size_t o = 0; o < by_scope[s].size(); ++o)
      by_scope[s][o] = lower(Event{.kind = EventKind::fence, .order = Order(o), .scope = Scope(s)});
  return by_scope;
}();
[[gnu::always_inline]] inline void fence(Order o, Scope s, const std::source_location& l) {
  Event e;
  e.kind = EventKind::fence;
  e.order = o;
  e.scope = s;
  e.where = here(l);
  perform_no_read(e, fence_lowerings[static_cast<int>(s)][static_cast<int>(o)]);
}
}  // namespace detail
[[gnu::always_inline]] inline void atomic_thread_fence(memory_order o, thread_scope s = thread_scope_system,
                                                       std::source_location l = std::source_location::current()) {
  detail::fence(detail::order_of(o), detail::scope_of(s), l);
}
[[gnu::always_inline]] inline void threadfence_block(std::source_location l = std::source_location::current()) {
  detail::fence(Order::seq_cst, Scope::cta, l);
}
[[gnu::always_inline]] inline void threadfence(std::source_location l = std::source_location::current()) {
  detail::fence(Order::seq_cst, Scope::gpu, l);
}
[[gnu::always_inline]] inline void threadfence_system(std::source_location l = std::source_location::current()) {
  detail::fence(Order::seq_cst, Scope::sys, l);
}

// Barriers and warp operations.
void syncthreads(std::source_location l = std::source_location::current());
void syncwarp(unsigned mask = 0xffffffffu, std::source_location l = std::source_location::current());

// Warp shuffles and votes (__shfl_sync & co, __ballot_sync): the lanes of
// `mask` exchange values; nothing about memory is ordered.
namespace detail {
template <class T>
T shuffle(ShflMode mode, unsigned mask, T var, unsigned lane, int width, const std::source_location& l) {
  Event e;
  e.kind = EventKind::shfl;
  e.shfl = mode;
  e.type = type_of<T>();
  e.operand = mask;
  e.operand2 = bits(var);
  e.lane = lane;
  e.width = static_cast<std::uint32_t>(width);
  e.where = here(l);
  return value<T>(perform_no_read(e, lowered_op<EventKind::shfl>));
}
}  // namespace detail
template <class T>
T shfl_sync(unsigned mask, T var, int src_lane, int width = 32, std::source_location l = std::source_location::current()) {
  return detail::shuffle(ShflMode::idx, mask, var, static_cast<unsigned>(src_lane), width, l);
}
template <class T>
T shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, std::source_location l = std::source_location::current()) {
  return detail::shuffle(ShflMode::down, mask, var, delta, width, l);
}
template <class T>
T shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, std::source_location l = std::source_location::current()) {
  return detail::shuffle(ShflMode::up, mask, var, delta, width, l);
}
template <class T>
T shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, std::source_location l = std::source_location::current()) {
  return detail::shuffle(ShflMode::xor_, mask, var, static_cast<unsigned>(lane_mask), width, l);
}
unsigned ballot_sync(unsigned mask, int predicate, std::source_location l = std::source_location::current());

// Coordinates of the calling thread (threadIdx, blockIdx, blockDim, gridDim).
inline dim3 thread_idx() { return detail::door().coords().thread; }
inline dim3 block_idx() { return detail::door().coords().block; }
inline dim3 block_dim() { return detail::door().coords().block_dim; }
inline dim3 grid_dim() { return detail::door().coords().grid_dim; }

// ---- host side ----
// cudaStream_t and cudaEvent_t; the zero stream is the default stream.
struct stream_t {
  std::uint32_t id = 0;
};
struct event_t {
  std::uint32_t id = 0;
};

namespace detail {
// A kernel's name with the position of the launch that names it.
struct named {
  const char* name;
  Where where;
  named(const char* n, std::source_location l = std::source_location::current()) : name(n), where(here(l)) {}
};
// The unit a copy moves: the scalar of a plain<T> cell, else 4-byte words.
template <class T>
struct copy_unit {
  static constexpr ValueType type = ValueType::u32;
  static constexpr std::uint32_t size = 4;
};
template <class T>
struct copy_unit<plain<T>> {
  static constexpr ValueType type = type_of<T>();
  static constexpr std::uint32_t size = sizeof(T);
};
// The bytes of `count` T, refused when they do not fit a size_t (a fault of
// the host program, as cudaMalloc of that size fails: too_many_bytes(), out
// of line, so that the check is inline where a model allocates).
[[noreturn]] void too_many_bytes(const char* name, std::size_t count, std::size_t size);
template <class T>
[[gnu::always_inline]] inline std::size_t bytes_of(const char* name, std::size_t count) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) too_many_bytes(name, count, sizeof(T));
  return sizeof(T) * count;
}
// A name the model gives (an allocation's, an observed value's): a few
// bytes, counted inline, where a call of strlen cost more than they.
[[gnu::always_inline]] inline std::string_view name_of(const char* name) {
  std::size_t n = 0;
  while (name[n] != '\0') ++n;
  return {name, n};
}
}  // namespace detail

// Simulated device memory (cudaMalloc) and host memory (cudaHostAlloc,
// mapped: kernels and copies may use it too).
template <class T>
T* device_alloc(Host& h, const char* name, std::size_t count = 1) {
  return static_cast<T*>(h.alloc(detail::name_of(name), detail::bytes_of<T>(name, count), alignof(T)));
}
template <class T>
T* host_alloc(Host& h, const char* name, std::size_t count = 1) {
  return static_cast<T*>(h.alloc(detail::name_of(name), detail::bytes_of<T>(name, count), alignof(T)));
}
// kernel<<<grid, block>>>(args...) and kernel<<<grid, block, 0, stream>>>(args...).
template <auto Kernel, class... Args>
void launch(Host& h, detail::named kernel, dim3 grid, dim3 block, Args... args) {
  h.launch(kernel.name, grid, block, [=] { Kernel(args...); }, 0, kernel.where);
}
template <auto Kernel, class... Args>
void launch(Host& h, detail::named kernel, dim3 grid, dim3 block, stream_t s, Args... args) {
  h.launch(kernel.name, grid, block, [=] { Kernel(args...); }, s.id, kernel.where);
}
inline stream_t stream_create(Host& h) { return {h.create_stream()}; }
inline event_t event_create(Host& h) { return {h.create_event()}; }
// cudaMemcpyAsync(dst, src, count * sizeof(T), cudaMemcpyDefault, s).
template <class T>
void memcpy_async(Host& h, T* dst, const T* src, std::size_t count, stream_t s = {},
                  std::source_location l = std::source_location::current()) {
  using unit = detail::copy_unit<T>;
  static_assert(sizeof(T) % unit::size == 0, "memcpy_async copies whole cells");
  h.copy(dst, src, count * (sizeof(T) / unit::size), unit::type, unit::size, s.id, detail::here(l));
}
inline void event_record(Host& h, event_t e, stream_t s = {}, std::source_location l = std::source_location::current()) {
  h.record_event(e.id, s.id, detail::here(l));
}
inline void stream_wait_event(Host& h, stream_t s, event_t e, std::source_location l = std::source_location::current()) {
  h.wait_event(s.id, e.id, detail::here(l));
}
inline void stream_synchronize(Host& h, stream_t s, std::source_location l = std::source_location::current()) {
  h.synchronize_stream(s.id, detail::here(l));
}
inline void event_synchronize(Host& h, event_t e, std::source_location l = std::source_location::current()) {
  h.synchronize_event(e.id, detail::here(l));
}
inline void device_synchronize(Host& h, std::source_location l = std::source_location::current()) {
  h.synchronize(detail::here(l));
}
// (Inline where the model observes: its name's length and its position are
// then constants there, not counted and read at every observation.)
template <class T>
[[gnu::always_inline]] inline void observe(Host& h, const char* name, const plain<T>& cell,
                                           std::source_location l = std::source_location::current()) {
  // (Read first: the host's function to call is then not kept across the read.)
  const T v = cell.load(detail::here(l));
  h.observe(detail::name_of(name), detail::type_of<T>(), detail::bits(v));
}
template <class T>
void host_write(plain<T>& cell, T v, std::source_location l = std::source_location::current()) {
  cell.store(v, detail::here(l));
}

}  // namespace scopesim::dialect
