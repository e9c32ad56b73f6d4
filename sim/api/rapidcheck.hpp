// rapidcheck support for properties over scopesim explorations: generators of
// launch geometry and model parameters that shrink towards the smallest launch
// and input (each value towards the low end of its range, and grow with
// rapidcheck's size), a printer for a Launch, and `require`, which fails the
// running property with the Report's description, tokens and replay call.
//
//   RC_GTEST_PROP(Tile, BoundsParticipate, ()) {
//     const scopesim::Launch l = *scopesim::gen::launch({.block = {1, 1024}}, {{"n", {1, 4096}}});
//     const scopesim::Report r = scopesim::explore("tile.bounds_participate", l);
//     scopesim::require(!r.bad(), "no bad outcome and no finding", r);
//   }
#pragma once
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "sim/api/scopesim.hpp"

namespace scopesim::models {
// How rapidcheck prints a generated launch: "<<<2,64>>> resident_blocks=1 n=5".
inline void showValue(const Config& c, std::ostream& os) {
  os << "<<<" << c.grid << "," << c.block << ">>>";
  if (c.resident_blocks != 0) os << " resident_blocks=" << c.resident_blocks;
  for (const auto& [name, value] : c.params) os << " " << name << "=" << value;
}
}  // namespace scopesim::models

namespace scopesim::gen {

// Both ends included.
struct Range {
  long long min = 1;
  long long max = 1;
};

// Where the geometry of a launch may lie. resident_blocks 0 = every block resident.
struct Geometry {
  Range grid{1, 1};
  Range block{1, 1};
  Range resident_blocks{0, 0};
};

struct Param {
  std::string name;
  Range range;
};

// A value in [r.min, r.max]: small first (it grows with rapidcheck's size) and
// shrinking towards r.min.
inline rc::Gen<long long> in(Range r) {
  if (r.max < r.min) throw std::invalid_argument("empty range [" + std::to_string(r.min) + ", " +
                                                 std::to_string(r.max) + "]");
  return rc::gen::inRange(r.min, r.max + 1);
}

// Named model parameters, each in its range: {{"n", {1, 4096}}}.
inline rc::Gen<std::map<std::string, long long>> params(std::vector<Param> ps) {
  return rc::gen::exec([ps = std::move(ps)] {
    std::map<std::string, long long> m;
    for (const Param& p : ps) m[p.name] = *in(p.range);
    return m;
  });
}

// A launch in `g` with the parameters `ps`.
inline rc::Gen<Launch> launch(Geometry g, std::vector<Param> ps = {}) {
  return rc::gen::exec([g, ps = std::move(ps)] {
    Launch l;
    l.grid = static_cast<unsigned>(*in(g.grid));
    l.block = static_cast<unsigned>(*in(g.block));
    l.resident_blocks = static_cast<unsigned>(*in(g.resident_blocks));
    l.params = *params(ps);
    return l;
  });
}

}  // namespace scopesim::gen

namespace scopesim {

// Fails the running rapidcheck property unless `holds`; the message names the
// property and carries the report: outcomes, findings, and the token and
// replay call of the first bad witness.
inline void require(bool holds, std::string_view property, const Report& r) {
  if (!holds) RC_FAIL(std::string(property) + " does not hold for " + r.model().name + "\n" + r.describe());
}

}  // namespace scopesim
