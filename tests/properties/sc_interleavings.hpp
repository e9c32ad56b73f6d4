// The sequential-consistency oracle, written independently of the simulator:
// every interleaving of the threads' instructions over one memory (a map of
// values), each instruction atomic, orders and scopes ignored, fences no-ops,
// a block barrier passed by all threads of its CTA together once all of them
// have reached it. A depth-first walk over states (memoised) collects the
// final states: every register and every location, as final_state() writes them.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/core/event.hpp"
#include "tests/properties/litmus_gen.hpp"
#include "tests/properties/simulated.hpp"

namespace scopesim::props {

class ScInterleavings {
 public:
  explicit ScInterleavings(const Spec& s) : s_(s) {
    for (const ThreadSpec& t : s.threads) {
      unsigned regs = 0;
      for (const Ins& i : t.code)
        if (i.kind == Kind::ld || i.kind == Kind::atom) ++regs;
      regs_.push_back(regs);
    }
    // Operand of every st/atom, in the program-wide order build() numbers them.
    unsigned k = 0;
    for (const ThreadSpec& t : s.threads) {
      operands_.emplace_back();
      for (const Ins& i : t.code) operands_.back().push_back(i.kind == Kind::st || i.kind == Kind::atom ? operand_value(k++) : 0);
    }
  }

  OutcomeSet outcomes() {
    State st;
    st.pc.assign(s_.threads.size(), 0);
    st.mem.assign(s_.locations, 0);
    for (unsigned r : regs_) st.regs.emplace_back(r, 0);
    seen_.clear();
    out_.clear();
    walk(st);
    return out_;
  }

 private:
  struct State {
    std::vector<std::size_t> pc;
    std::vector<std::int32_t> mem;
    std::vector<std::vector<std::int32_t>> regs;
    auto operator<=>(const State&) const = default;
  };

  bool at_barrier(const State& st, std::size_t t) const {
    return st.pc[t] < s_.threads[t].code.size() && s_.threads[t].code[st.pc[t]].kind == Kind::bar;
  }

  void walk(const State& st) {
    if (!seen_.insert(st).second) return;
    bool moved = false;
    for (std::size_t t = 0; t < s_.threads.size(); ++t) {
      const std::vector<Ins>& code = s_.threads[t].code;
      if (st.pc[t] == code.size()) continue;
      if (at_barrier(st, t)) {
        // The CTA passes together, once every thread of it waits here (each
        // thread has the same number of barriers, so this is the same barrier).
        bool all = true;
        for (std::size_t u = 0; u < s_.threads.size(); ++u)
          if (s_.threads[u].cta == s_.threads[t].cta) all &= at_barrier(st, u);
        if (!all) continue;
        State next = st;
        for (std::size_t u = 0; u < s_.threads.size(); ++u)
          if (s_.threads[u].cta == s_.threads[t].cta) ++next.pc[u];
        moved = true;
        walk(next);
        continue;
      }
      State next = st;
      const Ins& i = code[st.pc[t]];
      const std::int32_t v = operands_[t][st.pc[t]];
      std::size_t reg = 0;
      for (std::size_t k = 0; k < st.pc[t]; ++k) reg += code[k].kind == Kind::ld || code[k].kind == Kind::atom;
      switch (i.kind) {
        case Kind::ld: next.regs[t][reg] = st.mem[i.loc]; break;
        case Kind::st: next.mem[i.loc] = v; break;
        case Kind::atom:
          next.regs[t][reg] = st.mem[i.loc];
          next.mem[i.loc] = i.rmw == RmwOp::add ? st.mem[i.loc] + v : v;
          break;
        case Kind::fence:
        case Kind::bar: break;
      }
      ++next.pc[t];
      moved = true;
      walk(next);
    }
    if (!moved) {
      bool done = true;
      for (std::size_t t = 0; t < s_.threads.size(); ++t) done &= st.pc[t] == s_.threads[t].code.size();
      if (done) out_.insert(text(st));
    }
  }

  std::string text(const State& st) const {
    std::string s;
    for (std::size_t t = 0; t < st.regs.size(); ++t)
      for (std::size_t r = 0; r < st.regs[t].size(); ++r)
        s += (s.empty() ? "" : " ") + ("P" + std::to_string(t) + ":" + reg_name(static_cast<unsigned>(r))) + "=" +
             std::to_string(st.regs[t][r]);
    for (unsigned l = 0; l < s_.locations; ++l) s += std::string(s.empty() ? "" : " ") + location_name(l) + "=" + std::to_string(st.mem[l]);
    return s;
  }

  const Spec& s_;
  std::vector<unsigned> regs_;
  std::vector<std::vector<std::int32_t>> operands_;
  std::set<State> seen_;
  OutcomeSet out_;
};

}  // namespace scopesim::props
