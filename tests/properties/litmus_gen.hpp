// Random straight-line litmus programs for properties of the simulator itself:
// 2-4 threads placed in 1-3 CTAs, 1-3 locations, plain and strong loads,
// stores and RMWs with random orders and scopes, fences of random kind and
// scope, and block barriers that every thread of a CTA executes (the same
// number of times, so no barrier divergence is generated). No loops and no
// register operands, so every oracle terminates and every value comes from a
// constant or an RMW of one.
//
// A Spec is the abstract program rapidcheck generates and shrinks (fewer
// threads, fewer instructions, fewer locations, weaker orders: every choice
// shrinks towards the first element of its list); `build` turns it into a
// sim/litmus Program whose condition observes every register and every
// location, so an outcome is the whole final state.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "sim/litmus/program.hpp"

namespace scopesim::props {

enum class Kind : std::uint8_t { ld, st, atom, fence, bar };

// One instruction. Sem::sc on ld/st/atom (only in sequentially consistent
// specs) stands for the seq_cst lowering: `fence.sc.S` then ld.acquire.S /
// st.relaxed.S / atom.acquire.S.
struct Ins {
  Kind kind = Kind::ld;
  Sem sem = Sem::weak;
  Scope scope = Scope::gpu;  // sys for weak accesses (a weak access has no scope)
  unsigned loc = 0;
  RmwOp rmw = RmwOp::add;
};

struct ThreadSpec {
  unsigned cta = 0;
  std::vector<Ins> code;
};

struct Spec {
  unsigned locations = 1;
  std::vector<ThreadSpec> threads;
};

struct GenOptions {
  unsigned max_threads = 4;  // at least 2
  unsigned max_ctas = 3;
  unsigned max_locations = 3;
  unsigned max_code = 4;     // instructions per thread, barriers included
  bool rmw = true;
  bool fences = true;
  bool barriers = true;
  // Only plain accesses, seq_cst accesses (Sem::sc), fence.sc and barriers.
  bool sequentially_consistent = false;
};

inline const char* location_name(unsigned l) {
  static const char* names[] = {"x", "y", "z"};
  return names[l];
}

// Barriers are valid only where every thread of the CTA executes them: each
// thread keeps as many of its barriers as the thread of its CTA with the fewest.
inline void normalise_barriers(Spec& s) {
  std::map<unsigned, std::size_t> fewest;
  for (const ThreadSpec& t : s.threads) {
    const auto n = static_cast<std::size_t>(std::count_if(t.code.begin(), t.code.end(), [](const Ins& i) { return i.kind == Kind::bar; }));
    auto [it, fresh] = fewest.try_emplace(t.cta, n);
    if (!fresh) it->second = std::min(it->second, n);
  }
  for (ThreadSpec& t : s.threads) {
    std::size_t keep = fewest[t.cta];
    std::vector<Ins> code;
    for (const Ins& i : t.code) {
      if (i.kind == Kind::bar) {
        if (keep == 0) continue;
        --keep;
      }
      code.push_back(i);
    }
    t.code = std::move(code);
  }
  // CTAs numbered 0, 1, ... in order of first use (a CTA with no thread would be an idle block).
  std::map<unsigned, unsigned> renumber;
  for (ThreadSpec& t : s.threads) {
    auto [it, fresh] = renumber.try_emplace(t.cta, static_cast<unsigned>(renumber.size()));
    t.cta = it->second;
  }
}

inline rc::Gen<Scope> gen_scope() { return rc::gen::element(Scope::gpu, Scope::cta, Scope::sys); }

inline rc::Gen<Ins> gen_ins(const GenOptions& o, unsigned locations) {
  return rc::gen::exec([o, locations] {
    std::vector<Kind> kinds{Kind::ld, Kind::st};
    if (o.rmw) kinds.push_back(Kind::atom);
    if (o.fences) kinds.push_back(Kind::fence);
    if (o.barriers) kinds.push_back(Kind::bar);
    Ins i;
    i.kind = *rc::gen::elementOf(kinds);
    i.loc = static_cast<unsigned>(*rc::gen::inRange(0u, locations));
    if (o.sequentially_consistent) {
      switch (i.kind) {
        case Kind::ld:
        case Kind::st: i.sem = *rc::gen::element(Sem::weak, Sem::sc); break;
        case Kind::atom: i.sem = Sem::sc; break;
        case Kind::fence: i.sem = Sem::sc; break;
        case Kind::bar: break;
      }
    } else {
      switch (i.kind) {
        case Kind::ld: i.sem = *rc::gen::element(Sem::weak, Sem::relaxed, Sem::acquire); break;
        case Kind::st: i.sem = *rc::gen::element(Sem::weak, Sem::relaxed, Sem::release); break;
        case Kind::atom: i.sem = *rc::gen::element(Sem::relaxed, Sem::acquire, Sem::release, Sem::acq_rel); break;
        case Kind::fence: i.sem = *rc::gen::element(Sem::acq_rel, Sem::sc); break;
        case Kind::bar: break;
      }
    }
    if (i.kind == Kind::atom) i.rmw = *rc::gen::element(RmwOp::add, RmwOp::exch);
    i.scope = (i.kind == Kind::bar || ((i.kind == Kind::ld || i.kind == Kind::st) && i.sem == Sem::weak))
                  ? Scope::sys
                  : *gen_scope();
    if (i.kind == Kind::fence || i.kind == Kind::bar) i.loc = 0;
    return i;
  });
}

inline rc::Gen<Spec> gen_spec(GenOptions o = {}) {
  return rc::gen::exec([o] {
    Spec s;
    const auto threads = *rc::gen::inRange(2u, o.max_threads + 1);
    const auto ctas = *rc::gen::inRange(1u, std::min(o.max_ctas, threads) + 1);
    s.locations = *rc::gen::inRange(1u, o.max_locations + 1);
    for (unsigned t = 0; t < threads; ++t) {
      ThreadSpec ts;
      ts.cta = *rc::gen::inRange(0u, ctas);
      const auto n = *rc::gen::inRange(1u, o.max_code + 1);
      ts.code = *rc::gen::container<std::vector<Ins>>(n, gen_ins(o, s.locations));
      s.threads.push_back(std::move(ts));
    }
    normalise_barriers(s);
    return s;
  });
}

// The value the k-th store-like instruction (st, atom) of the whole program
// writes or adds: distinct per program, so most outcomes name their writes.
inline std::int32_t operand_value(unsigned k) { return static_cast<std::int32_t>(k + 1); }

// Register of the k-th value-returning instruction of a thread: "r<k>".
inline std::string reg_name(unsigned k) { return "r" + std::to_string(k); }

inline litmus::Program build(const Spec& s, const std::string& name = "random") {
  litmus::Program p;
  p.name = name;
  for (unsigned l = 0; l < s.locations; ++l) p.location(location_name(l), 0);
  unsigned stores = 0;
  std::vector<litmus::Term> observed;
  for (std::size_t k = 0; k < s.threads.size(); ++k) {
    const ThreadSpec& ts = s.threads[k];
    litmus::Thread& t = p.thread(ts.cta);
    unsigned regs = 0;
    for (const Ins& i : ts.code) {
      const std::string loc = location_name(i.loc);
      const bool sc = i.sem == Sem::sc && i.kind != Kind::fence;
      if (sc) t.fence(Sem::sc, i.scope);
      switch (i.kind) {
        case Kind::ld:
          t.ld(sc ? Sem::acquire : i.sem, i.scope, reg_name(regs), loc);
          observed.push_back({litmus::Term::Kind::reg, 0, static_cast<std::uint32_t>(k), reg_name(regs)});
          ++regs;
          break;
        case Kind::st: t.st(sc ? Sem::relaxed : i.sem, i.scope, loc, litmus::Operand::constant(operand_value(stores++))); break;
        case Kind::atom:
          t.atom(sc ? Sem::acquire : i.sem, i.scope, i.rmw, reg_name(regs), loc, litmus::Operand::constant(operand_value(stores++)));
          observed.push_back({litmus::Term::Kind::reg, 0, static_cast<std::uint32_t>(k), reg_name(regs)});
          ++regs;
          break;
        case Kind::fence: t.fence(i.sem, i.scope); break;
        case Kind::bar: t.bar_sync(0); break;
      }
    }
  }
  for (unsigned l = 0; l < s.locations; ++l) observed.push_back({litmus::Term::Kind::location, 0, 0, location_name(l)});
  // exists (every observed value == 0): the condition names the whole final state.
  std::shared_ptr<litmus::Expr> e;
  for (const litmus::Term& t : observed) {
    auto eq = std::make_shared<litmus::Expr>();
    eq->kind = litmus::Expr::Kind::eq;
    eq->lhs = t;
    eq->rhs = litmus::Term{litmus::Term::Kind::constant, 0, 0, ""};
    if (!e) {
      e = eq;
    } else {
      auto both = std::make_shared<litmus::Expr>();
      both->kind = litmus::Expr::Kind::and_;
      both->sub = {e, eq};
      e = both;
    }
  }
  p.condition.quantifier = litmus::Quantifier::exists;
  p.condition.expr = e;
  return p;
}

inline void showValue(const Spec& s, std::ostream& os) { os << "\n" << litmus::print(build(s)); }

}  // namespace scopesim::props
