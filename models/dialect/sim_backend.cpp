#include "models/dialect/dialect.hpp"

#include <stdexcept>

namespace scopesim::dialect {

namespace detail {

Door& door() {
  Door* d = current_door();
  if (d == nullptr) throw std::logic_error("a dialect operation ran outside the simulator");
  return *d;
}

Scope scope_of(thread_scope s) {
  switch (s) {
    case cuda::thread_scope_system: return Scope::sys;
    case cuda::thread_scope_device: return Scope::gpu;
    default: return Scope::cta;  // block, and thread (lowered as cta by libcu++)
  }
}

Order order_of(memory_order o) {
  switch (o) {
    case cuda::std::memory_order_relaxed: return Order::relaxed;
    case cuda::std::memory_order_consume: return Order::consume;
    case cuda::std::memory_order_acquire: return Order::acquire;
    case cuda::std::memory_order_release: return Order::release;
    case cuda::std::memory_order_acq_rel: return Order::acq_rel;
    default: return Order::seq_cst;
  }
}

namespace {
void fence(Order o, Scope s, const std::source_location& l) {
  Event e;
  e.kind = EventKind::fence;
  e.order = o;
  e.scope = s;
  e.where = here(l);
  perform(e);
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
  detail::perform(e);
}

void syncwarp(unsigned mask, std::source_location l) {
  Event e;
  e.kind = EventKind::syncwarp;
  e.operand = mask;
  e.where = detail::here(l);
  detail::perform(e);
}

}  // namespace scopesim::dialect
