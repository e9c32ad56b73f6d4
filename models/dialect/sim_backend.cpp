#include "models/dialect/dialect.hpp"

#include <array>
#include <stdexcept>

namespace scopesim::dialect {

namespace detail {

void no_door() { throw std::logic_error("a dialect operation ran outside the simulator"); }

// Not inlined, so that its frame separates the caller's state from the
// engine's: the callee-saved registers still hold the caller's values when the
// first statement reads them (the compiler saves them before it uses any).
[[gnu::noinline]] std::uint64_t perform_lowered(Door& door, const Event& ev, const Lowering& lowering) {
  std::uint64_t regs[LocalState::saved_registers];
#if defined(__x86_64__)
  regs[6] = 0;  // (x86-64 has six)
  asm volatile(
      "mov %%rbx, 0(%0)\n\tmov %%rbp, 8(%0)\n\tmov %%r12, 16(%0)\n\tmov %%r13, 24(%0)\n\t"
      "mov %%r14, 32(%0)\n\tmov %%r15, 40(%0)"
      :
      : "a"(regs)
      : "memory");
#elif defined(__aarch64__)
  asm volatile(
      "stp x19, x20, [%0]\n\tstp x21, x22, [%0, #16]\n\tstp x23, x24, [%0, #32]\n\tstr x25, [%0, #48]"
      :
      : "r"(regs)
      : "memory");
#else
  for (std::uint64_t& r : regs) r = 0;
#endif
  const void* caller_frame = static_cast<const char*>(__builtin_frame_address(0)) + sizeof(void*);  // from its return address up
  return door.perform(ev, lowering, {caller_frame, regs});
}

void too_many_bytes(const char* name, std::size_t count, std::size_t size) {
  throw std::length_error(std::string("allocation of ") + std::to_string(count) + " elements of " +
                          std::to_string(size) + " bytes for " + name + ": more bytes than memory has");
}

namespace {
// Every fence's lowering, by scope and order: looked up, where lower() at
// every fence (with little optimization) switched on its order.
constexpr auto fence_lowerings = [] {
  std::array<std::array<Lowering, static_cast<int>(Order::seq_cst) + 1>, static_cast<int>(Scope::thread) + 1> by_scope;
  for (std::size_t s = 0; s < by_scope.size(); ++s)
    for (std::size_t o = 0; o < by_scope[s].size(); ++o)
      by_scope[s][o] = lower(Event{.kind = EventKind::fence, .order = Order(o), .scope = Scope(s)});
  return by_scope;
}();

// (Inline in each fence function: built with little optimization, as the
// models are, it was a call more at every fence.)
[[gnu::always_inline]] inline void fence(Order o, Scope s, const std::source_location& l) {
  Event e;
  e.kind = EventKind::fence;
  e.order = o;
  e.scope = s;
  e.where = here(l);
  perform_no_read(e, fence_lowerings[static_cast<int>(s)][static_cast<int>(o)]);
}
}  // namespace

}  // namespace detail

void atomic_thread_fence(memory_order o, thread_scope s, std::source_location l) {
  detail::fence(detail::order_of(o), detail::scope_of(s), l);
}
void threadfence_block(std::source_location l) { detail::fence(Order::seq_cst, Scope::cta, l); }
void threadfence(std::source_location l) { detail::fence(Order::seq_cst, Scope::gpu, l); }
void threadfence_system(std::source_location l) { detail::fence(Order::seq_cst, Scope::sys, l); }

void syncthreads(std::source_location l) {
  Event e;
  e.kind = EventKind::barrier;
  e.where = detail::here(l);
  detail::perform_no_read(e);
}

void syncwarp(unsigned mask, std::source_location l) {
  Event e;
  e.kind = EventKind::syncwarp;
  e.operand = mask;
  e.where = detail::here(l);
  detail::perform_no_read(e);
}

unsigned ballot_sync(unsigned mask, int predicate, std::source_location l) {
  Event e;
  e.kind = EventKind::ballot;
  e.type = ValueType::u32;
  e.operand = mask;
  e.operand2 = predicate != 0;
  e.where = detail::here(l);
  return static_cast<unsigned>(detail::perform_no_read(e));
}

}  // namespace scopesim::dialect
