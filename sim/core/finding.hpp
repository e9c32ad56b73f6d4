// What makes a kernel wrong (semantics.md, "Findings"). A Finding names the
// threads and both source positions involved; the engine attaches the
// schedule that reproduces it. Kept free of engine types so that model
// expectations (models/, also compiled by nvcc) can name finding kinds.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace scopesim {

enum class FindingKind : std::uint8_t {
  data_race,            // conflicting accesses, one plain, not ordered by causality
  scoped_race,          // conflicting atomics whose scopes do not include each other
  barrier_divergence,   // a block barrier or syncwarp not executed by all it names
  deadlock,             // every live thread is blocked
  non_termination,      // a thread ran past the step bound
  possible_non_termination,  // a spinner may never see a write that is not morally strong with it
  out_of_bounds,        // access outside every simulated allocation
  uninitialised_read,   // read of simulated memory that was never written
  kernel_fault,         // the kernel threw or crashed inside its fiber
  unsupported,          // an operation the model does not cover (mixed sizes, ...)
};
inline constexpr int finding_kind_count = 10;

constexpr std::string_view name(FindingKind k) {
  switch (k) {
    case FindingKind::data_race: return "data-race";
    case FindingKind::scoped_race: return "scoped-race";
    case FindingKind::barrier_divergence: return "barrier-divergence";
    case FindingKind::deadlock: return "deadlock";
    case FindingKind::non_termination: return "non-termination";
    case FindingKind::possible_non_termination: return "possible-non-termination";
    case FindingKind::out_of_bounds: return "out-of-bounds";
    case FindingKind::uninitialised_read: return "uninitialised-read";
    case FindingKind::kernel_fault: return "kernel-fault";
    case FindingKind::unsupported: return "unsupported";
  }
  return "?";
}

}  // namespace scopesim
