#include "sim/litmus/layout.hpp"

#include <algorithm>

namespace scopesim::litmus {

Layout layout(const Program& p) {
  Layout l;
  std::uint32_t ctas = 0;
  for (const Thread& t : p.threads) ctas = std::max(ctas, t.cta + 1);
  l.grid = std::max(ctas, 1u);
  l.cta_size.assign(l.grid, 0);
  for (const Thread& t : p.threads) l.rank.push_back(l.cta_size[t.cta]++);
  l.block = std::max(1u, *std::max_element(l.cta_size.begin(), l.cta_size.end()));
  l.locations = p.locations;
  const std::uint32_t first = first_row_line(p);
  for (const Thread& t : p.threads) {
    std::vector<std::uint32_t> lines;
    for (std::size_t k = 0; k < t.code.size(); ++k) {
      const Instr& in = t.code[k];
      lines.push_back(in.line != 0 ? in.line : first + static_cast<std::uint32_t>(k));
      if (!in.loc.empty()) l.locations.emplace(in.loc, 0);
      if (in.op == Op::bar_sync || in.op == Op::bar_arrive) {
        if (in.a.reg) {
          for (std::int32_t id = 0; id < 16; ++id) l.barriers.insert({t.cta, id});
        } else {
          l.barriers.insert({t.cta, in.a.value});
        }
      }
    }
    l.lines.push_back(std::move(lines));
  }
  l.results.resize(p.threads.size());
  for (const Term& term : terms(*p.condition.expr)) {
    if (term.kind == Term::Kind::location) l.locations.emplace(term.name, 0);
    if (term.kind == Term::Kind::reg && term.thread < p.threads.size()) l.results[term.thread].push_back(term.name);
  }
  return l;
}

}  // namespace scopesim::litmus
