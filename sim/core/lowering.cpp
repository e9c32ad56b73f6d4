#include "sim/core/lowering.hpp"

namespace scopesim {

namespace {

Sem access_sem(Order o, EventKind kind) {
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

}  // namespace

Lowering lower(const Event& e) {
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
      const Sem sem = access_sem(e.order, e.kind);
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

std::string ptx_name(const PtxOp& op) {
  std::string n;
  switch (op.kind) {
    case PtxKind::ld: n = "ld"; break;
    case PtxKind::st: n = "st"; break;
    case PtxKind::atom: n = "atom"; break;
    case PtxKind::fence_sc: return "fence.sc." + std::string(name(op.scope));
    case PtxKind::fence_acq_rel: return "fence.acq_rel." + std::string(name(op.scope));
  }
  n += ".";
  n += name(op.sem);
  if (op.sem != Sem::weak) {
    n += ".";
    n += name(op.scope);
  }
  return n;
}

}  // namespace scopesim
