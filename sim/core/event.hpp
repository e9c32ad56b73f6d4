// The one door into the engine: an Event describes one operation of the kernel
// dialect at the CUDA C++ level (kind, address and size, order, scope, source
// location). Whoever performs it lowers it to PTX operations (lowering.hpp),
// which the memory model sees. Values travel as raw bits (up to 8 bytes).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/scope.hpp"

namespace scopesim {

enum class EventKind : std::uint8_t {
  load,          // read of one cell
  store,         // write of one cell
  rmw,           // read-modify-write of one cell
  fence,         // atomic_thread_fence / __threadfence*
  barrier,       // __syncthreads()
  syncwarp,      // __syncwarp(mask)
  shfl,          // __shfl_sync / __shfl_down_sync (operand2: lane or delta)
  ballot,        // __ballot_sync
  shared_alloc,  // first use of a __shared__ declaration in a block
  stream_op,     // host: enqueue device work, or a stream operation starting (label names it)
  wait,          // host or stream operation: wait for device work to finish (label names it)
};

// How a memory access is performed in CUDA C++.
enum class Access : std::uint8_t {
  plain,          // ordinary load/store: PTX weak
  atomic,         // cuda::atomic_ref with an order and scope
  volatile_,      // volatile load/store: relaxed.sys
  legacy_atomic,  // atomicAdd & co: atom.relaxed.gpu
};

// C++ memory_order (consume is treated as acquire).
enum class Order : std::uint8_t { relaxed, consume, acquire, release, acq_rel, seq_cst };

enum class RmwOp : std::uint8_t { add, sub, and_, or_, xor_, min, max, exch, cas, inc, dec };

enum class ValueType : std::uint8_t { i32, u32, i64, u64, f32, f64 };

enum class ShflMode : std::uint8_t { idx, down, up, xor_ };

// A source position. `file`/`line` come from std::source_location where the
// dialect can take one; otherwise `pc` holds a return address that the report
// layer symbolizes.
struct Where {
  const char* file = nullptr;
  std::uint32_t line = 0;
  std::uintptr_t pc = 0;
  // The same position: the same file (by its text's address), line and pc.
  friend bool operator==(const Where&, const Where&) = default;
};

struct Event {
  EventKind kind = EventKind::load;
  Access access = Access::plain;
  Order order = Order::relaxed;
  Scope scope = Scope::sys;
  bool thread_scope = false;  // cuda::thread_scope_thread was named
  RmwOp rmw = RmwOp::add;
  ValueType type = ValueType::i32;
  ShflMode shfl = ShflMode::idx;
  std::uintptr_t addr = 0;
  std::uint32_t size = 0;
  std::uint64_t operand = 0;   // value stored / RMW operand / CAS expected / warp mask
  std::uint64_t operand2 = 0;  // CAS desired / shfl value / ballot predicate
  std::uint32_t lane = 0;      // shfl: source lane, delta or xor lane mask
  std::uint32_t width = 32;    // shfl width
  const char* label = nullptr; // stream_op / wait: which one
  Where where;
};

// The issuing thread's local state at an operation, for spin detection
// (semantics.md, "Spin loops and progress": "with nothing else changed by the
// thread"): everything live in its callers is in the stack above
// `caller_frame` or in the callee-saved registers, whose `saved_registers`
// words `registers` points to (in the frame of the call that performs the
// event: valid until it returns; only a read hashes them). It goes beside the
// Event, not in it: only the operation's run reads it, while the engine reads
// a thread's pending Event (in place) for as long as the thread waits to
// perform it. None (nullptr): unknown; an operation that reads nothing
// passes none (the dialect's perform_no_read: no read of it looks at one).
struct LocalState {
#if defined(__x86_64__)
  static constexpr std::size_t saved_registers = 6;  // rbx, rbp, r12-r15
#else
  static constexpr std::size_t saved_registers = 7;  // AArch64's x19-x25 (elsewhere: zero)
#endif
  const void* caller_frame = nullptr;
  const std::uint64_t* registers = nullptr;
};

std::string_view name(EventKind k);
std::string_view name(RmwOp o);
std::string_view name(Order o);
std::string_view name(ShflMode m);

// Bits <-> typed values.
std::uint64_t apply_rmw(RmwOp op, ValueType t, std::uint64_t old, std::uint64_t operand,
                        std::uint64_t operand2);
std::string format_value(ValueType t, std::uint64_t bits);
// The same, appended to `s`.
void append_value(std::string& s, ValueType t, std::uint64_t bits);

}  // namespace scopesim
