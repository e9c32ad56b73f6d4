#include "models/dialect/dialect.hpp"

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
  asm volatile(
      "mov %%rbx, 0(%0)\n\tmov %%r12, 16(%0)\n\tmov %%r13, 24(%0)\n\t"
      "mov %%r14, 32(%0)\n\tmov %%r15, 40(%0)"
      :
      : "a"(regs)
      : "memory");
  // rbp is this frame's pointer by now: the caller's, which the prologue
  // saved at the frame's address (below caller_frame), is read there.
  regs[1] = *static_cast<const std::uint64_t*>(__builtin_frame_address(0));
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
  return door.perform_access(ev, lowering, {caller_frame, regs});
}

void too_many_bytes(const char* name, std::size_t count, std::size_t size) {
  throw std::length_error(std::string("allocation of ") + std::to_string(count) + " elements of " +
                          std::to_string(size) + " bytes for " + name + ": more bytes than memory has");
}

}  // namespace detail

void syncthreads(std::source_location l) {
  Event e;
  e.kind = EventKind::barrier;
  e.where = detail::here(l);
  detail::perform_no_read(e, detail::lowered_op<EventKind::barrier>);
}

void syncwarp(unsigned mask, std::source_location l) {
  Event e;
  e.kind = EventKind::syncwarp;
  e.operand = mask;
  e.where = detail::here(l);
  detail::perform_no_read(e, detail::lowered_op<EventKind::syncwarp>);
}

unsigned ballot_sync(unsigned mask, int predicate, std::source_location l) {
  Event e;
  e.kind = EventKind::ballot;
  e.type = ValueType::u32;
  e.operand = mask;
  e.operand2 = predicate != 0;
  e.where = detail::here(l);
  return static_cast<unsigned>(detail::perform_no_read(e, detail::lowered_op<EventKind::ballot>));
}

}  // namespace scopesim::dialect
