#include "sim/core/event.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <type_traits>

namespace scopesim {

std::string_view name(EventKind k) {
  switch (k) {
    case EventKind::load: return "load";
    case EventKind::store: return "store";
    case EventKind::rmw: return "rmw";
    case EventKind::fence: return "fence";
    case EventKind::barrier: return "barrier";
    case EventKind::syncwarp: return "syncwarp";
    case EventKind::shfl: return "shfl";
    case EventKind::ballot: return "ballot";
    case EventKind::shared_alloc: return "shared";
    case EventKind::stream_op: return "stream_op";
    case EventKind::wait: return "wait";
  }
  return "?";
}

std::string_view name(ShflMode m) {
  switch (m) {
    case ShflMode::idx: return "idx";
    case ShflMode::down: return "down";
    case ShflMode::up: return "up";
    case ShflMode::xor_: return "bfly";
  }
  return "?";
}

std::string_view name(RmwOp o) {
  switch (o) {
    case RmwOp::add: return "add";
    case RmwOp::sub: return "sub";
    case RmwOp::and_: return "and";
    case RmwOp::or_: return "or";
    case RmwOp::xor_: return "xor";
    case RmwOp::min: return "min";
    case RmwOp::max: return "max";
    case RmwOp::exch: return "exch";
    case RmwOp::cas: return "cas";
    case RmwOp::inc: return "inc";
    case RmwOp::dec: return "dec";
  }
  return "?";
}

std::string_view name(Order o) {
  switch (o) {
    case Order::relaxed: return "relaxed";
    case Order::consume: return "consume";
    case Order::acquire: return "acquire";
    case Order::release: return "release";
    case Order::acq_rel: return "acq_rel";
    case Order::seq_cst: return "seq_cst";
  }
  return "?";
}

namespace {

template <class T>
T as(std::uint64_t b) {
  T v{};
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

template <class T>
std::uint64_t bits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <class T>
std::uint64_t apply(RmwOp op, std::uint64_t old_bits, std::uint64_t operand_bits, std::uint64_t operand2_bits) {
  const T old = as<T>(old_bits), v = as<T>(operand_bits), v2 = as<T>(operand2_bits);
  T r = old;
  switch (op) {
    case RmwOp::add: r = static_cast<T>(old + v); break;
    case RmwOp::sub: r = static_cast<T>(old - v); break;
    case RmwOp::min: r = v < old ? v : old; break;
    case RmwOp::max: r = v > old ? v : old; break;
    case RmwOp::exch: r = v; break;
    case RmwOp::cas: r = old == v ? v2 : old; break;
    case RmwOp::inc: r = old >= v ? T{} : static_cast<T>(old + 1); break;  // CUDA atomicInc
    case RmwOp::dec: r = (old == T{} || old > v) ? v : static_cast<T>(old - 1); break;
    default:
      if constexpr (std::is_integral_v<T>) {
        if (op == RmwOp::and_) r = old & v;
        if (op == RmwOp::or_) r = old | v;
        if (op == RmwOp::xor_) r = old ^ v;
      }
      break;
  }
  std::uint64_t out = bits(r);
  if constexpr (sizeof(T) < 8) out &= (std::uint64_t{1} << (8 * sizeof(T))) - 1;
  return out;
}

}  // namespace

std::uint64_t apply_rmw(RmwOp op, ValueType t, std::uint64_t old, std::uint64_t operand, std::uint64_t operand2) {
  switch (t) {
    case ValueType::i32: return apply<std::int32_t>(op, old, operand, operand2);
    case ValueType::u32: return apply<std::uint32_t>(op, old, operand, operand2);
    case ValueType::i64: return apply<std::int64_t>(op, old, operand, operand2);
    case ValueType::u64: return apply<std::uint64_t>(op, old, operand, operand2);
    case ValueType::f32: return apply<float>(op, old, operand, operand2);
    case ValueType::f64: return apply<double>(op, old, operand, operand2);
  }
  return old;
}

std::string format_value(ValueType t, std::uint64_t b) {
  std::string s;
  append_value(s, t, b);
  return s;
}

void append_value(std::string& s, ValueType t, std::uint64_t b) {
  char buf[64];
  // Integers in decimal, as printf's %d, %u, %lld and %llu write them.
  auto decimal = [&](auto v) { s.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr); };
  switch (t) {
    case ValueType::i32: return decimal(as<std::int32_t>(b));
    case ValueType::u32: return decimal(as<std::uint32_t>(b));
    case ValueType::i64: return decimal(as<std::int64_t>(b));
    case ValueType::u64: return decimal(as<std::uint64_t>(b));
    // Shortest text that reads back to the same float: outcomes compare exactly.
    case ValueType::f32: std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(as<float>(b))); break;
    case ValueType::f64: std::snprintf(buf, sizeof buf, "%.17g", as<double>(b)); break;
  }
  s += buf;
}

}  // namespace scopesim
