// How CUDA C++ compiles each dialect operation to PTX on sm_70 and later
// (semantics.md, "Operations and how CUDA C++ lowers them"). This is the only
// place that knows the table; the memory model sees PtxOps alone.
#pragma once
#include <cstdint>
#include <string>

#include "sim/core/event.hpp"
#include "sim/core/scope.hpp"

namespace scopesim {

enum class PtxKind : std::uint8_t { ld, st, atom, fence_sc, fence_acq_rel };

struct PtxOp {
  PtxKind kind = PtxKind::ld;
  Sem sem = Sem::weak;
  Scope scope = Scope::sys;
};

// At most two PTX operations per dialect operation (a leading fence.sc for
// seq_cst accesses). An empty lowering (relaxed fence) orders nothing.
struct Lowering {
  PtxOp ops[2];
  std::uint16_t count = 0;  // (two bytes: a Lowering is one word, passed in one register)
  constexpr void push(PtxOp op) { ops[count++] = op; }
};

namespace detail {

// The PTX semantics of an atomic access of order `o` (C++ -> PTX mapping).
constexpr Sem access_sem(Order o, EventKind kind) {
  switch (o) {
    case Order::relaxed: return Sem::relaxed;
    case Order::consume:
    case Order::acquire: return kind == EventKind::store ? Sem::relaxed : Sem::acquire;
    case Order::release: return kind == EventKind::load ? Sem::relaxed : Sem::release;
    case Order::acq_rel:
      if (kind == EventKind::load) return Sem::acquire;
      if (kind == EventKind::store) return Sem::release;
      return Sem::acq_rel;
    case Order::seq_cst: return Sem::sc;
  }
  return Sem::relaxed;
}

}  // namespace detail

// Inline where an event is performed (Door::perform's caller): the dialect's
// constants fold it there, and the engine lowers none.
[[gnu::always_inline]] constexpr Lowering lower(const Event& e) {
  Lowering out;
  const Scope s = e.scope;
  // thread_scope_thread: an access keeps its narrower scope; a fence is cta.
  const Scope access_scope = e.thread_scope ? Scope::thread : s;
  switch (e.kind) {
    case EventKind::load:
    case EventKind::store:
    case EventKind::rmw: {
      const PtxKind k = e.kind == EventKind::load    ? PtxKind::ld
                        : e.kind == EventKind::store ? PtxKind::st
                                                     : PtxKind::atom;
      switch (e.access) {
        case Access::plain:
          // A plain RMW (`x++`) is a weak load followed by a weak store; the
          // engine splits it, so it never reaches here as one operation.
          out.push({k, Sem::weak, Scope::sys});
          return out;
        case Access::volatile_: out.push({k, Sem::relaxed, Scope::sys}); return out;
        case Access::legacy_atomic: out.push({PtxKind::atom, Sem::relaxed, Scope::gpu}); return out;
        case Access::atomic: break;
      }
      const Sem sem = detail::access_sem(e.order, e.kind);
      if (sem == Sem::sc) {
        // seq_cst: fence.sc.S then the acquire (load, RMW) or relaxed (store) access.
        out.push({PtxKind::fence_sc, Sem::sc, s});
        out.push({k, e.kind == EventKind::store ? Sem::relaxed : Sem::acquire, access_scope});
      } else {
        out.push({k, sem, access_scope});
      }
      return out;
    }
    case EventKind::fence:
      switch (e.order) {
        case Order::relaxed: return out;
        case Order::seq_cst: out.push({PtxKind::fence_sc, Sem::sc, s}); return out;
        default: out.push({PtxKind::fence_acq_rel, Sem::acq_rel, s}); return out;
      }
    default: return out;
  }
}

// "st.release.gpu", "fence.sc.cta", "ld.weak" ...
std::string ptx_name(const PtxOp& op);

}  // namespace scopesim
