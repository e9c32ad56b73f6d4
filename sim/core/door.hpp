// The door between the kernel dialect and the engine. While a simulated
// thread runs, `current_door()` is the engine's implementation; every dialect
// operation becomes one `perform(Event, Lowering, LocalState)` call that
// returns the value read (or 0). Code running outside the simulator (no door)
// touches no simulated memory.
#pragma once
#include <cstddef>
#include <cstdint>

#include "sim/core/event.hpp"
#include "sim/core/lowering.hpp"

namespace scopesim {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  bool operator==(const Dim3&) const = default;
};

// Where the calling simulated thread sits in its launch.
struct Coords {
  Dim3 thread, block, block_dim, grid_dim;
};

class Door {
 public:
  virtual ~Door() = default;
  // `lowering`: lower(e), which the caller makes (inline, where the dialect's
  // constants fold it); beside the Event, not in it, so that the Event on the
  // calling thread's stack (which spin-assume hashes) keeps its layout.
  virtual std::uint64_t perform(const Event& e, Lowering lowering, LocalState local) = 0;
  // The same of an access (a load, store or RMW), which its caller knows it
  // is: an engine may take it with no look at its kind.
  virtual std::uint64_t perform_access(const Event& e, Lowering lowering, LocalState local) {
    return perform(e, lowering, local);
  }
  // Where the calling thread sits in its launch: read inline, from what the
  // engine gave for the thread it runs (place()).
  const Coords& coords() const { return *coords_; }
  // Is this address simulated memory (an allocation or its guard zone)? Other
  // addresses (locals on a fiber's stack) are the thread's own. Every plain
  // access asks: answered inline, from the range the engine gave (simulate()).
  bool simulated(const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a >= simulated_begin_ && a < simulated_end_;
  }
  // The last event the calling thread performed, as a token for
  // result_discarded(): the kernel dropped the value that RMW event returned
  // without reading it (the dialect's rmw_result).
  virtual std::uint64_t last_event() const { return 0; }
  virtual void result_discarded(std::uint64_t event) { (void)event; }

 protected:
  // Simulated memory is [begin, end) (none before the first call).
  void simulate(const void* begin, std::size_t bytes) {
    simulated_begin_ = reinterpret_cast<std::uintptr_t>(begin);
    simulated_end_ = simulated_begin_ + bytes;
  }
  // The thread the engine runs from now on sits at `c` (kept by the engine
  // while that thread may ask).
  void place(const Coords* c) { coords_ = c; }

 private:
  static constexpr Coords nowhere{};
  std::uintptr_t simulated_begin_ = 0, simulated_end_ = 0;
  const Coords* coords_ = &nowhere;
};

namespace detail {
// The running OS thread's door, read by every dialect operation: inline, not
// behind a call.
inline constinit thread_local Door* current_door = nullptr;
}  // namespace detail
inline Door* current_door() { return detail::current_door; }
inline void set_current_door(Door* d) { detail::current_door = d; }

}  // namespace scopesim
