// The smallest program of each known exception (known_exceptions.hpp), still
// showing its bug. When one of these fails, the bug is fixed: delete the
// exception and its test.
#include <gtest/gtest.h>

#include "sim/litmus/parser.hpp"
#include "tests/properties/known_exceptions.hpp"

namespace scopesim::props {
namespace {

// Under SC, P2 reads x=0, P0 writes x=1, P1 reads x=1 and then y=0, and
// P2 writes y=3 last: P1:r0=1 P1:r1=0 P2:r2=0 is an interleaving, so
// --model sc must permit it (random search finds it).
TEST(KnownExceptions, ScDporMissesInterleavings) {
  auto p = std::make_shared<const litmus::Program>(litmus::parse(R"(PTX dpor_sc
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, x  | ld.weak r2, x  ;
                | ld.weak r1, y  | st.weak y, 3   ;
exists (P1:r0 == 1 /\ P1:r1 == 0 /\ P2:r2 == 0))", "dpor_sc.litmus"));
  const models::Model m = litmus::to_model(p);
  const Launch l{.grid = m.chapter.grid, .block = m.chapter.block};
  Options sc;
  sc.run.memory_model = "sc";
  const Report exhaustive = scopesim::explore(m, l, sc);
  sc.mode = Mode::random;
  sc.max_executions = 2000;
  const Report random = scopesim::explore(m, l, sc);
  EXPECT_TRUE(random.permits("P1:r0=1 P1:r1=0 P2:r2=0 condition=1"));
  EXPECT_FALSE(exhaustive.permits("P1:r0=1 P1:r1=0 P2:r2=0 condition=1"))
      << "the exhaustive search now finds the interleaving: remove ScDporMissesInterleavings";
}

}  // namespace
}  // namespace scopesim::props
