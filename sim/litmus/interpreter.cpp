// to_model: a litmus program as a models::Model. The kernel body interprets
// the calling thread's instruction list; every memory instruction is one
// Event through the door, with its order and scope set at run time, exactly
// as the kernel dialect's atomics produce them (models/dialect/sim_backend.hpp),
// so the engine, the memory model, the explorer and schedule files treat a
// litmus test like any kernel. Registers live on the thread's fiber; the ones
// the condition names are stored to result cells when the thread ends.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "sim/core/door.hpp"
#include "sim/core/lowering.hpp"
#include "sim/litmus/layout.hpp"
#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

namespace {

// Steps of local code (branches, arithmetic) a thread may take between two
// memory operations; past them it does not terminate (never_terminates).
constexpr std::uint64_t local_step_bound = 1000000;

std::uint64_t bits(std::int32_t v) { return static_cast<std::uint32_t>(v); }
std::int32_t value(std::uint64_t b) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(b)); }

// Addresses of one run's cells (they are the same in every run: the arena is deterministic).
struct Cells {
  std::map<std::string, std::uintptr_t> location;
  std::map<std::pair<std::uint32_t, std::int32_t>, std::uintptr_t> barrier;
  std::vector<std::map<std::string, std::uintptr_t>> result;
};

Event cell_event(EventKind k, std::uintptr_t addr, Where w) {
  Event e;
  e.kind = k;
  e.type = ValueType::i32;
  e.size = 4;
  e.addr = addr;
  e.where = w;
  return e;
}

// The Access and Order that make the engine's lowering (sim/core/lowering.cpp)
// produce exactly this PTX operation: weak = plain, volatile = relaxed.sys,
// relaxed/acquire/release/acq_rel = an atomic with that order and scope.
void set_semantics(Event& e, const Instr& in) {
  if (in.is_volatile) {
    e.access = Access::volatile_;
    return;
  }
  switch (in.sem) {
    case Sem::weak: e.access = Access::plain; return;
    case Sem::relaxed: e.order = Order::relaxed; break;
    case Sem::acquire: e.order = Order::acquire; break;
    case Sem::release: e.order = Order::release; break;
    case Sem::acq_rel: e.order = Order::acq_rel; break;
    case Sem::sc: e.order = Order::seq_cst; break;
  }
  e.access = Access::atomic;
  e.scope = in.scope;
}

class Interpreter {
 public:
  Interpreter(const Program& p, const Layout& l, const Cells& cells, std::size_t thread)
      : p_(p), l_(l), cells_(cells), k_(thread), t_(p.threads[thread]), regs_(t_.init) {
    for (std::size_t i = 0; i < t_.code.size(); ++i)
      if (t_.code[i].op == Op::label) labels_[t_.code[i].label] = i;
  }

  void run() {
    std::size_t pc = 0;
    std::uint64_t local_steps = 0;
    while (pc < t_.code.size()) {
      const Instr& in = t_.code[pc];
      const Where w = where(pc);
      std::size_t next = pc + 1;
      if (++local_steps > local_step_bound) never_terminates(w);
      switch (in.op) {
        case Op::ld: {
          Event e = cell_event(EventKind::load, cells_.location.at(in.loc), w);
          set_semantics(e, in);
          regs_[in.reg] = value(perform(e));
          local_steps = 0;
          break;
        }
        case Op::st: {
          Event e = cell_event(EventKind::store, cells_.location.at(in.loc), w);
          set_semantics(e, in);
          e.operand = bits(operand(in.a));
          perform(e);
          local_steps = 0;
          break;
        }
        case Op::atom:
        case Op::red: {
          Event e = cell_event(EventKind::rmw, cells_.location.at(in.loc), w);
          set_semantics(e, in);
          e.rmw = in.rmw;
          // PTX: .u32 compares unsigned (min, max); inc and dec are defined for .u32 only.
          if (in.is_unsigned || in.rmw == RmwOp::inc || in.rmw == RmwOp::dec) e.type = ValueType::u32;
          e.operand = bits(operand(in.a));
          e.operand2 = bits(operand(in.b));
          const std::int32_t old = value(perform(e));
          if (in.op == Op::atom) regs_[in.reg] = old;
          local_steps = 0;
          break;
        }
        case Op::fence: {
          Event e;
          e.kind = EventKind::fence;
          e.order = in.sem == Sem::sc ? Order::seq_cst : Order::acq_rel;
          e.scope = in.scope;
          e.where = w;
          perform(e);
          local_steps = 0;
          break;
        }
        case Op::bar_sync:
        case Op::bar_arrive:
          barrier(in, w);
          local_steps = 0;
          break;
        case Op::local: regs_[in.reg] = arithmetic(in, w); break;
        case Op::label: break;
        case Op::jump: next = labels_.at(in.label); break;
        case Op::branch:
          if (in.is_unsigned ? compare(in.cmp, bits(operand(in.a)), bits(operand(in.b)))
                             : compare(in.cmp, operand(in.a), operand(in.b)))
            next = labels_.at(in.label);
          break;
      }
      pc = next;
    }
    // The registers the condition names, for the host to observe.
    const Where end{p_.file.c_str(), p_.condition.line, 0};
    for (const std::string& r : l_.results[k_]) {
      Event e = cell_event(EventKind::store, cells_.result[k_].at(r), end);
      auto it = regs_.find(r);
      e.operand = bits(it == regs_.end() ? 0 : it->second);
      perform(e);
    }
  }

 private:
  static std::uint64_t perform(const Event& e) { return current_door()->perform(e, lower(e), {}); }

  // The thread loops in local code without touching memory: it does not
  // terminate. It keeps performing events that do nothing (relaxed fences:
  // local, lowered to no PTX operation) until the engine's per-thread step
  // bound ends the run with a non-termination finding at `w`; that perform
  // never returns.
  [[noreturn]] static void never_terminates(const Where& w) {
    Event e;
    e.kind = EventKind::fence;
    e.order = Order::relaxed;
    e.where = w;
    for (;;) perform(e);
  }

  Where where(std::size_t pc) const { return Where{p_.file.c_str(), l_.lines[k_][pc], 0}; }

  std::int32_t operand(const Operand& o) const {
    if (!o.reg) return o.value;
    auto it = regs_.find(*o.reg);
    return it == regs_.end() ? 0 : it->second;  // registers start at 0 unless initialised
  }

  std::int32_t arithmetic(const Instr& in, const Where& w) const {
    const std::uint32_t a = static_cast<std::uint32_t>(operand(in.a)), b = static_cast<std::uint32_t>(operand(in.b));
    switch (in.local) {
      case LocalOp::add: return static_cast<std::int32_t>(a + b);
      case LocalOp::sub: return static_cast<std::int32_t>(a - b);
      case LocalOp::mul: return static_cast<std::int32_t>(a * b);
      case LocalOp::div:
      case LocalOp::rem: {
        const std::int32_t sa = operand(in.a), sb = operand(in.b);
        if (b == 0 || (!in.is_unsigned && sa == INT32_MIN && sb == -1))
          throw std::runtime_error(t_.name + " divides by " + std::to_string(sb) + " at " + p_.file + ":" +
                                   std::to_string(w.line));
        if (in.local == LocalOp::div) return in.is_unsigned ? static_cast<std::int32_t>(a / b) : sa / sb;
        return in.is_unsigned ? static_cast<std::int32_t>(a % b) : sa % sb;
      }
      case LocalOp::and_: return static_cast<std::int32_t>(a & b);
      case LocalOp::or_: return static_cast<std::int32_t>(a | b);
      case LocalOp::xor_: return static_cast<std::int32_t>(a ^ b);
      // PTX clamps a shift to the register's 32 bits: a left shift by 32 or
      // more gives 0, as does an unsigned right shift; a signed right shift
      // fills with the sign bit.
      case LocalOp::shl: return b >= 32 ? 0 : static_cast<std::int32_t>(a << b);
      case LocalOp::shr:
        if (in.is_unsigned) return b >= 32 ? 0 : static_cast<std::int32_t>(a >> b);
        return operand(in.a) >> std::min(b, 31u);
    }
    return 0;
  }

  template <class T>  // std::int32_t (signed) or std::uint64_t holding 32 bits (unsigned)
  static bool compare(BranchCmp c, T a, T b) {
    switch (c) {
      case BranchCmp::eq: return a == b;
      case BranchCmp::ne: return a != b;
      case BranchCmp::lt: return a < b;
      case BranchCmp::le: return a <= b;
      case BranchCmp::gt: return a > b;
      case BranchCmp::ge: return a >= b;
    }
    return false;
  }

  // A CTA barrier (docs/conformance.md, "Barriers"): barrier `id` of this CTA
  // completes a phase when `count` arrivals have happened (default: every
  // test thread of the CTA). Arriving is a release RMW on the barrier's
  // counter; bar.sync then waits with acquire loads until the phase it
  // joined is complete. The RMWs are morally strong (same CTA, .cta scope),
  // so the waiting acquire observes every arrival of its phase through the
  // chain of RMWs and synchronizes with each (semantics.md, "Synchronization").
  void barrier(const Instr& in, const Where& w) {
    const std::int32_t id = operand(in.a);
    const std::int32_t count = in.has_count ? operand(in.b) : static_cast<std::int32_t>(l_.cta_size[t_.cta]);
    auto it = cells_.barrier.find({t_.cta, id});
    if (it == cells_.barrier.end() || id < 0 || id > 15)
      throw std::runtime_error(t_.name + " uses barrier id " + std::to_string(id) + " (0 to 15) at " + p_.file + ":" +
                               std::to_string(w.line));
    if (count < 1)
      throw std::runtime_error(t_.name + " uses thread count " + std::to_string(count) + " at " + p_.file + ":" +
                               std::to_string(w.line));
    Event arrive = cell_event(EventKind::rmw, it->second, w);
    arrive.access = Access::atomic;
    arrive.order = Order::release;
    arrive.scope = Scope::cta;
    arrive.rmw = RmwOp::add;
    arrive.operand = 1;
    const std::int32_t before = value(perform(arrive));
    if (in.op == Op::bar_arrive) return;
    const std::int32_t phase_end = (before / count + 1) * count;
    Event wait = cell_event(EventKind::load, it->second, w);
    wait.access = Access::atomic;
    wait.order = Order::acquire;
    wait.scope = Scope::cta;
    while (value(perform(wait)) < phase_end) {
    }
  }

  const Program& p_;
  const Layout& l_;
  const Cells& cells_;
  std::size_t k_;
  const Thread& t_;
  std::map<std::string, std::int32_t> regs_;
  std::map<std::string, std::size_t> labels_;
};

bool satisfied(const Outcome& o) { return o.i(condition_name) != 0; }
bool violated(const Outcome& o) { return o.i(condition_name) == 0; }

}  // namespace

models::Model to_model(std::shared_ptr<const Program> p) {
  auto l = std::make_shared<const Layout>(layout(*p));
  models::Model m;
  m.name = p->name;
  m.summary = "PTX litmus test " + (p->file.empty() ? p->name : p->file);
  m.invariant = print(p->condition);
  switch (p->condition.quantifier) {
    case Quantifier::exists:
      m.bad = satisfied;
      m.bad_means = "the outcome the test looks for: condition=1";
      break;
    case Quantifier::not_exists:
      m.bad = satisfied;
      m.bad_means = "a counterexample: the condition holds (condition=1)";
      break;
    case Quantifier::forall:
      m.bad = violated;
      m.bad_means = "a counterexample: the condition fails (condition=0)";
      break;
  }
  m.chapter.grid = l->grid;
  m.chapter.block = l->block;
  m.expect.exact_findings = false;
  m.program = [p, l](dialect::Host& h, const models::Config&) {
    const Where init{p->file.c_str(), 0, 0};
    auto cells = std::make_shared<Cells>();
    auto cell = [&](const std::string& name, std::int32_t v) {
      const auto a = reinterpret_cast<std::uintptr_t>(h.alloc(name, 4, 4));
      Event e = cell_event(EventKind::store, a, init);
      e.operand = bits(v);
      current_door()->perform(e, lower(e), {});
      return a;
    };
    for (const auto& [name, v] : l->locations) cells->location[name] = cell(name, v);
    for (const auto& [cta, id] : l->barriers)
      cells->barrier[{cta, id}] = cell("bar.cta" + std::to_string(cta) + "." + std::to_string(id), 0);
    cells->result.resize(p->threads.size());
    for (std::size_t k = 0; k < p->threads.size(); ++k)
      for (const std::string& r : l->results[k])
        cells->result[k][r] = reinterpret_cast<std::uintptr_t>(h.alloc(p->threads[k].name + ":" + r, 4, 4));
    // Which test thread each (block, thread) of the launch is; the rest exit at once.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> who;
    for (std::size_t k = 0; k < p->threads.size(); ++k) who[{p->threads[k].cta, l->rank[k]}] = k;
    h.launch("litmus", Dim3{l->grid, 1, 1}, Dim3{l->block, 1, 1}, [p, l, cells, who] {
      const Coords& c = current_door()->coords();
      auto it = who.find({c.block.x, c.thread.x});
      if (it == who.end()) return;
      Interpreter(*p, *l, *cells, it->second).run();
    }, 0, init);
    h.synchronize(init);
    std::map<std::string, std::int32_t> final_values;
    const Where end{p->file.c_str(), p->condition.line, 0};
    for (const Term& t : terms(*p->condition.expr)) {
      const std::uintptr_t a = t.kind == Term::Kind::reg ? cells->result[t.thread].at(t.name) : cells->location.at(t.name);
      const Event e = cell_event(EventKind::load, a, end);
      const std::int32_t v = value(current_door()->perform(e, lower(e), {}));
      final_values[t.outcome_name()] = v;
      h.observe(t.outcome_name(), ValueType::i32, bits(v));
    }
    const bool c = evaluate(*p->condition.expr, [&](const Term& t) {
      return t.kind == Term::Kind::constant ? t.value : final_values.at(t.outcome_name());
    });
    h.observe(condition_name, ValueType::i32, c ? 1 : 0);
  };
  return m;
}

}  // namespace scopesim::litmus
