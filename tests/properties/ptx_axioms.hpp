// The axiomatic oracle, written independently of the simulator's memory
// model and deliberately simple: enumerate candidate executions of a
// straight-line litmus program — a write for every read to read from, a
// fence-SC order, and a coherence order per location — and keep those that
// satisfy the PTX axioms as the project's semantics rules state them:
//
// - morally strong: same thread, or both strong and each one's scope includes
//   the other's thread (one GPU: cta = same CTA, gpu and sys = everyone);
// - observation: W → R when R reads W and they are morally strong, or through
//   a chain of (strong) RMWs, each step morally strong;
// - synchronizes-with: a release pattern (a release write, or fence.acq_rel /
//   fence.sc followed in program order by a strong write) whose write is
//   observed by an acquire pattern (an acquire read, or a strong read followed
//   in program order by fence.acq_rel / fence.sc), the pattern's first and
//   last operations morally strong; morally strong fence.sc in fence-SC order;
//   a block barrier (every participant's earlier operations before every
//   participant's later ones); the initial writes before everything;
// - base causality = (program order ∪ synchronizes-with)+, causality = base
//   causality ∪ observation;base causality;
// - coherence: a partial order relating exactly the writes that are morally
//   strong (in the enumerated order) or causally ordered, closed transitively;
// - causality axiom: a read does not read a write causally after it, nor a
//   write coherence-before a write causally before it;
// - fence-SC: the fence-SC order does not contradict causality;
// - sequential consistency per location: no cycle of program order, reads-from,
//   coherence and from-read within a set of pairwise morally strong accesses;
// - atomicity: no write morally strong with an RMW falls between it and its
//   source in coherence;
// - no thin air, and (docs/limitations.md) no load buffering: program order ∪
//   reads-from is acyclic.
// The final value of a location is that of any coherence-maximal write (the
// host reads after every write). RMWs are add and exch; a program has at most
// 64 operations.
#pragma once
#include <algorithm>
#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/litmus/program.hpp"
#include "tests/properties/simulated.hpp"

namespace scopesim::props {

class PtxAxioms {
 public:
  static constexpr std::size_t max_events = 64;
  using Set = std::bitset<max_events>;

  // False when the program is too large for the oracle (more events than it holds).
  static bool fits(const litmus::Program& p) {
    std::size_t n = p.locations.size();
    for (const litmus::Thread& t : p.threads) n += 2 * t.code.size();
    return n <= max_events;
  }

  explicit PtxAxioms(const litmus::Program& p) : p_(p) {
    for (const auto& [name, init] : p.locations) {
      loc_index_[name] = static_cast<unsigned>(init_write_.size());
      location_name_.push_back(name);
      Ev e;
      e.type = Type::init;
      e.loc = static_cast<unsigned>(init_write_.size());
      e.operand = init;
      init_write_.push_back(add(e));
    }
    std::map<std::pair<unsigned, unsigned>, std::size_t> barrier;  // (cta, k-th barrier) -> node
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
      const litmus::Thread& th = p.threads[t];
      std::vector<std::size_t> mine;
      unsigned bars = 0;
      for (const litmus::Instr& in : th.code) {
        Ev e;
        e.thread = static_cast<int>(t);
        e.cta = th.cta;
        e.sem = in.sem;
        e.scope = in.scope;
        switch (in.op) {
          case litmus::Op::ld: e.type = Type::read; break;
          case litmus::Op::st: e.type = Type::write; break;
          case litmus::Op::atom: e.type = Type::rmw; break;
          case litmus::Op::fence: e.type = in.sem == Sem::sc ? Type::fence_sc : Type::fence_acq_rel; break;
          case litmus::Op::bar_sync: {
            auto [it, fresh] = barrier.try_emplace({th.cta, bars++}, 0);
            if (fresh) {
              Ev b;
              b.type = Type::barrier;
              it->second = add(b);
            }
            for (std::size_t k : mine) base_[k].set(it->second);
            bar_after_.push_back({t, it->second});
            continue;
          }
          default: throw std::invalid_argument("the axiomatic oracle covers ld, st, atom, fence and bar.sync only");
        }
        if (e.type == Type::read || e.type == Type::write || e.type == Type::rmw) {
          e.loc = loc_index_.at(in.loc);
          e.operand = in.a.value;
          e.rmw = in.rmw;
          if (e.type == Type::rmw && in.rmw != RmwOp::add && in.rmw != RmwOp::exch)
            throw std::invalid_argument("the axiomatic oracle covers atom.add and atom.exch only");
          if (e.type != Type::write) e.reg = p.threads[t].name + ":" + in.reg;
        }
        const std::size_t id = add(e);
        for (std::size_t k : mine) po_[k].set(id);
        // Barriers this thread passed come before it.
        for (const auto& [bt, node] : bar_after_)
          if (bt == t) base_[node].set(id);
        mine.push_back(id);
      }
    }
    for (std::size_t w : init_write_)
      for (std::size_t k = 0; k < ev_.size(); ++k)
        if (ev_[k].thread >= 0) base_[w].set(k);
    for (std::size_t k = 0; k < ev_.size(); ++k) {
      if (reads(k)) reads_.push_back(k);
      if (ev_[k].type == Type::fence_sc) fences_sc_.push_back(k);
    }
    locations_ = init_write_.size();
    for (unsigned l = 0; l < locations_; ++l) {
      writes_.emplace_back();
      for (std::size_t k = 0; k < ev_.size(); ++k)
        if (writes(k) && ev_[k].type != Type::init && ev_[k].loc == l) writes_[l].push_back(k);
    }
    ms_.resize(ev_.size());
    for (std::size_t a = 0; a < ev_.size(); ++a)
      for (std::size_t b = 0; b < ev_.size(); ++b) ms_[a][b] = morally_strong(a, b);
    cliques();
  }

  // The final states of every candidate that satisfies the axioms, in the
  // text final_state() gives the simulator's outcomes.
  OutcomeSet outcomes() {
    out_.clear();
    rf_.assign(ev_.size(), 0);
    choose_rf(0);
    return out_;
  }

 private:
  enum class Type : std::uint8_t { init, read, write, rmw, fence_sc, fence_acq_rel, barrier };
  struct Ev {
    Type type = Type::init;
    int thread = -1;
    unsigned cta = 0;
    Sem sem = Sem::weak;
    Scope scope = Scope::sys;
    unsigned loc = 0;
    std::int32_t operand = 0;
    RmwOp rmw = RmwOp::add;
    std::string reg;  // "P0:r1" for reads and RMWs
  };

  std::size_t add(const Ev& e) {
    ev_.push_back(e);
    po_.emplace_back();
    base_.emplace_back();
    return ev_.size() - 1;
  }
  bool reads(std::size_t k) const { return ev_[k].type == Type::read || ev_[k].type == Type::rmw; }
  bool writes(std::size_t k) const {
    return ev_[k].type == Type::write || ev_[k].type == Type::rmw || ev_[k].type == Type::init;
  }
  bool access(std::size_t k) const { return reads(k) || (writes(k) && ev_[k].type != Type::init); }
  bool strong(std::size_t k) const { return ev_[k].sem != Sem::weak; }
  static bool includes(Scope s, unsigned cta_a, unsigned cta_b) { return s != Scope::cta || cta_a == cta_b; }
  bool morally_strong(std::size_t a, std::size_t b) const {
    const Ev& x = ev_[a];
    const Ev& y = ev_[b];
    if (x.thread < 0 || y.thread < 0) return false;
    if (x.thread == y.thread) return true;
    return strong(a) && strong(b) && includes(x.scope, x.cta, y.cta) && includes(y.scope, y.cta, x.cta);
  }
  bool release_write(std::size_t k) const {
    return (ev_[k].type == Type::write || ev_[k].type == Type::rmw) && (ev_[k].sem == Sem::release || ev_[k].sem == Sem::acq_rel);
  }
  bool acquire_read(std::size_t k) const { return reads(k) && (ev_[k].sem == Sem::acquire || ev_[k].sem == Sem::acq_rel); }
  bool fence(std::size_t k) const { return ev_[k].type == Type::fence_sc || ev_[k].type == Type::fence_acq_rel; }

  static void close(std::vector<Set>& r) {
    for (std::size_t k = 0; k < r.size(); ++k)
      for (std::size_t i = 0; i < r.size(); ++i)
        if (r[i][k]) r[i] |= r[k];
  }
  static bool acyclic(std::vector<Set> r) {
    close(r);
    for (std::size_t i = 0; i < r.size(); ++i)
      if (r[i][i]) return false;
    return true;
  }

  // Maximal sets of pairwise morally strong accesses of each location.
  void cliques() {
    for (unsigned l = 0; l < locations_; ++l) {
      std::vector<std::size_t> ops;
      for (std::size_t k = 0; k < ev_.size(); ++k)
        if (access(k) && ev_[k].loc == l) ops.push_back(k);
      std::vector<Set> found;
      std::function<void(std::size_t, Set)> grow = [&](std::size_t i, Set s) {
        if (i == ops.size()) {
          for (std::size_t k : ops)
            if (!s[k] && std::all_of(ops.begin(), ops.end(), [&](std::size_t j) { return !s[j] || ms_[k][j]; })) return;
          if (s.any()) found.push_back(s);
          return;
        }
        grow(i + 1, s);
        if (std::all_of(ops.begin(), ops.end(), [&](std::size_t j) { return !s[j] || ms_[ops[i]][j]; })) grow(i + 1, s.set(ops[i]));
      };
      grow(0, Set{});
      for (const Set& s : found) cliques_.push_back(s);
    }
  }

  void choose_rf(std::size_t i) {
    if (i < reads_.size()) {
      const std::size_t r = reads_[i];
      for (std::size_t w = 0; w < ev_.size(); ++w)
        if (w != r && writes(w) && ev_[w].loc == ev_[r].loc) {
          rf_[r] = w;
          choose_rf(i + 1);
        }
      return;
    }
    // No thin air and no load buffering: program order ∪ reads-from is acyclic.
    std::vector<Set> porf = po_;
    for (std::size_t r : reads_) porf[rf_[r]].set(r);
    if (!acyclic(porf)) return;
    values();
    observation();
    std::vector<std::size_t> order = fences_sc_;
    do {
      fence_order(order);
    } while (std::next_permutation(order.begin(), order.end()));
  }

  // Values follow reads-from; RMW chains are acyclic (checked above).
  void values() {
    value_.assign(ev_.size(), 0);
    std::vector<bool> done(ev_.size(), false);
    std::function<std::int32_t(std::size_t)> written = [&](std::size_t w) -> std::int32_t {
      if (done[w]) return value_[w];
      const Ev& e = ev_[w];
      std::int32_t v = e.operand;
      if (e.type == Type::rmw) {
        const std::int32_t old = written(rf_[w]);
        v = e.rmw == RmwOp::add ? static_cast<std::int32_t>(static_cast<std::uint32_t>(old) + static_cast<std::uint32_t>(e.operand)) : e.operand;
      }
      done[w] = true;
      value_[w] = v;
      return v;
    };
    for (std::size_t k = 0; k < ev_.size(); ++k)
      if (writes(k)) written(k);
  }

  void observation() {
    obs_.assign(ev_.size(), Set{});
    for (std::size_t r : reads_)
      if (ms_[rf_[r]][r]) obs_[rf_[r]].set(r);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t z = 0; z < ev_.size(); ++z) {
        if (ev_[z].type != Type::rmw) continue;
        for (std::size_t w = 0; w < ev_.size(); ++w)
          if (obs_[w][z] && (obs_[w] | obs_[z]) != obs_[w]) {
            obs_[w] |= obs_[z];
            changed = true;
          }
      }
    }
  }

  void fence_order(const std::vector<std::size_t>& order) {
    std::vector<Set> bco = po_;
    for (std::size_t k = 0; k < ev_.size(); ++k) bco[k] |= base_[k];
    for (std::size_t a = 0; a < order.size(); ++a)
      for (std::size_t b = a + 1; b < order.size(); ++b)
        if (ms_[order[a]][order[b]]) bco[order[a]].set(order[b]);
    // Release pattern (first, write) observed by acquire pattern (read, last).
    for (std::size_t first = 0; first < ev_.size(); ++first) {
      std::vector<std::size_t> pattern_writes;
      if (release_write(first)) pattern_writes.push_back(first);
      if (fence(first))
        for (std::size_t w = 0; w < ev_.size(); ++w)
          if (po_[first][w] && writes(w) && strong(w)) pattern_writes.push_back(w);
      for (std::size_t w : pattern_writes)
        for (std::size_t r = 0; r < ev_.size(); ++r) {
          if (!obs_[w][r]) continue;
          if (acquire_read(r) && ms_[first][r]) bco[first].set(r);
          if (strong(r))
            for (std::size_t last = 0; last < ev_.size(); ++last)
              if (po_[r][last] && fence(last) && ms_[first][last]) bco[first].set(last);
        }
    }
    close(bco);
    caus_ = bco;
    for (std::size_t x = 0; x < ev_.size(); ++x)
      for (std::size_t z = 0; z < ev_.size(); ++z)
        if (obs_[x][z]) caus_[x] |= bco[z];
    // Fence-SC order does not contradict causality.
    for (std::size_t a = 0; a < order.size(); ++a)
      for (std::size_t b = a + 1; b < order.size(); ++b)
        if (ms_[order[a]][order[b]] && caus_[order[b]][order[a]]) return;
    // Causality, first half: no read reads a write causally after it.
    for (std::size_t r : reads_)
      if (caus_[r][rf_[r]]) return;
    co_order_.assign(locations_, {});
    choose_co(0);
  }

  // A coherence order per location: every linear extension of causality over
  // its writes; only the pairs it gives morally strong writes are kept.
  void choose_co(unsigned l) {
    if (l < locations_) {
      std::vector<std::size_t> ws = writes_[l];
      std::sort(ws.begin(), ws.end());
      do {
        bool extends = true;
        for (std::size_t a = 0; a < ws.size() && extends; ++a)
          for (std::size_t b = a + 1; b < ws.size(); ++b)
            if (caus_[ws[b]][ws[a]]) extends = false;
        if (!extends) continue;
        co_order_[l] = ws;
        choose_co(l + 1);
      } while (std::next_permutation(ws.begin(), ws.end()));
      return;
    }
    std::vector<Set> co(ev_.size());
    for (unsigned loc = 0; loc < locations_; ++loc) {
      const std::vector<std::size_t>& ws = co_order_[loc];
      for (std::size_t w : ws) co[init_write_[loc]].set(w);
      for (std::size_t a = 0; a < ws.size(); ++a)
        for (std::size_t b = a + 1; b < ws.size(); ++b)
          if (ms_[ws[a]][ws[b]] || caus_[ws[a]][ws[b]]) co[ws[a]].set(ws[b]);
    }
    close(co);
    // Causality, second half: no read reads a write coherence-before a write causally before it.
    for (std::size_t r : reads_)
      for (std::size_t w2 = 0; w2 < ev_.size(); ++w2)
        if (writes(w2) && w2 != r && ev_[w2].loc == ev_[r].loc && caus_[w2][r] && co[rf_[r]][w2]) return;
    // Atomicity.
    for (std::size_t a : reads_) {
      if (ev_[a].type != Type::rmw) continue;
      for (std::size_t w2 = 0; w2 < ev_.size(); ++w2)
        if (w2 != a && ms_[w2][a] && co[rf_[a]][w2] && co[w2][a]) return;
    }
    // Sequential consistency per location.
    std::vector<Set> com(ev_.size());
    for (std::size_t a = 0; a < ev_.size(); ++a) {
      if (!access(a)) continue;
      for (std::size_t b = 0; b < ev_.size(); ++b) {
        if (a == b || !access(b) || ev_[a].loc != ev_[b].loc) continue;
        const bool edge = po_[a][b] || (reads(b) && rf_[b] == a) || (writes(a) && writes(b) && co[a][b]) ||
                          (reads(a) && writes(b) && co[rf_[a]][b]);
        if (edge) com[a].set(b);
      }
    }
    for (const Set& clique : cliques_) {
      std::vector<Set> g(ev_.size());
      for (std::size_t a = 0; a < ev_.size(); ++a)
        if (clique[a]) g[a] = com[a] & clique;
      if (!acyclic(g)) return;
    }
    record(co);
  }

  void record(const std::vector<Set>& co) {
    std::string regs;
    for (std::size_t k = 0; k < ev_.size(); ++k)
      if (reads(k)) regs += (regs.empty() ? "" : " ") + ev_[k].reg + "=" + std::to_string(value_[rf_[k]]);
    // Every combination of coherence-maximal writes.
    std::function<void(unsigned, std::string)> finals = [&](unsigned l, std::string s) {
      if (l == locations_) {
        out_.insert(s);
        return;
      }
      std::vector<std::size_t> candidates{init_write_[l]};
      candidates.insert(candidates.end(), writes_[l].begin(), writes_[l].end());
      for (std::size_t w : candidates)
        if (std::none_of(candidates.begin(), candidates.end(), [&](std::size_t x) { return co[w][x]; }))
          finals(l + 1, s + (s.empty() ? "" : " ") + location_name_[l] + "=" + std::to_string(value_[w]));
    };
    finals(0, regs);
  }

  const litmus::Program& p_;
  std::vector<Ev> ev_;
  std::vector<Set> po_, base_;  // base_: barrier and initial-write edges
  std::vector<std::pair<std::size_t, std::size_t>> bar_after_;
  std::map<std::string, unsigned> loc_index_;
  std::vector<std::string> location_name_;
  std::vector<std::size_t> init_write_, reads_, fences_sc_;
  std::vector<std::vector<std::size_t>> writes_;
  unsigned locations_ = 0;
  std::vector<Set> ms_, cliques_;
  // The candidate being built.
  std::vector<std::size_t> rf_;
  std::vector<std::int32_t> value_;
  std::vector<Set> obs_, caus_;
  std::vector<std::vector<std::size_t>> co_order_;
  OutcomeSet out_;
};

}  // namespace scopesim::props
