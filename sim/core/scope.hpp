// Scope and memory order, as the memory model sees them (PTX level), and
// scope inclusion as a pure function of thread placement.
// CUDA C++ names (cuda::thread_scope, cuda::std::memory_order) are mapped
// onto these by the lowering in sim/core/lowering.hpp; nothing here knows CUDA.
#pragma once
#include <cstdint>
#include <string_view>

namespace scopesim {

// PTX scopes, plus `thread` for accesses through cuda::thread_scope_thread:
// libcu++ emits them as cta, but their scope includes no other thread
// (semantics.md: "treat its outcomes as cta and report any cross-thread use
// as a race"). Fences never carry `thread`.
enum class Scope : std::uint8_t { cta, gpu, sys, thread };

// PTX semantics of one operation. `weak` = plain access (not strong).
enum class Sem : std::uint8_t { weak, relaxed, acquire, release, acq_rel, sc };

// Where a thread sits. The host is a thread of its own, in no block and no GPU.
struct Placement {
  std::uint32_t block = 0;  // linear block id within the grid
  std::uint32_t warp = 0;   // warp within the block
  std::uint32_t lane = 0;
  bool host = false;
  std::uint32_t gpu = 0;
  bool operator==(const Placement&) const = default;
};

// Scope inclusion: does an operation at scope `s` performed by thread `a`
// include thread `b`? thread = itself; cta = same block on the same GPU;
// gpu = same GPU; sys = everyone (host included). The host is in no cta and
// in no gpu.
constexpr bool includes(Scope s, const Placement& a, const Placement& b) {
  switch (s) {
    case Scope::thread:
      return !a.host && !b.host && a.gpu == b.gpu && a.block == b.block && a.warp == b.warp && a.lane == b.lane;
    case Scope::sys: return true;
    case Scope::gpu: return !a.host && !b.host && a.gpu == b.gpu;
    case Scope::cta: return !a.host && !b.host && a.gpu == b.gpu && a.block == b.block;
  }
  return false;
}

constexpr std::string_view name(Scope s) {
  switch (s) {
    case Scope::cta: return "cta";
    case Scope::gpu: return "gpu";
    case Scope::sys: return "sys";
    case Scope::thread: return "cta";  // as libcu++ emits it
  }
  return "?";
}

constexpr std::string_view name(Sem m) {
  switch (m) {
    case Sem::weak: return "weak";
    case Sem::relaxed: return "relaxed";
    case Sem::acquire: return "acquire";
    case Sem::release: return "release";
    case Sem::acq_rel: return "acq_rel";
    case Sem::sc: return "sc";
  }
  return "?";
}

constexpr bool is_strong(Sem m) { return m != Sem::weak; }
constexpr bool has_acquire(Sem m) { return m == Sem::acquire || m == Sem::acq_rel || m == Sem::sc; }
constexpr bool has_release(Sem m) { return m == Sem::release || m == Sem::acq_rel || m == Sem::sc; }

}  // namespace scopesim
