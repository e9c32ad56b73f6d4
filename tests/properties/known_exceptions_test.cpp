// The smallest program of each known exception (known_exceptions.hpp), still
// showing its bug. When one of these fails, the bug is fixed: delete the
// exception and its test.
#include <gtest/gtest.h>

#include "sim/litmus/parser.hpp"
#include "tests/properties/known_exceptions.hpp"
#include "tests/properties/ptx_axioms.hpp"

namespace scopesim::props {
namespace {

// StrengtheningNeverAddsOutcomes, seed 103 shrunk: P1's weak load reads
// P2's 3, P1 stores 1 and its exchange reads that 1 and writes 2; x=3 at the
// end needs the list 1, 2, 3. A weak load orders nothing in coherence, so the
// axioms permit that list in both programs. The simulator appends P1's plain
// store at the end of the list (after the 3 it raced with): 3, 1, 2, so x=2,
// and the outcome is lacking; made relaxed.gpu, the store is morally strong
// with P2's and chooses a slot before it: the stronger program shows it.
TEST(KnownExceptions, RacyProgramsLackOutcomes) {
  auto program = [](const char* store) {
    return std::make_shared<const litmus::Program>(litmus::parse(std::string(R"(PTX strengthen
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0                 | P2@cta 0,gpu 0      ;
                | ld.weak r0, x                  | st.release.gpu x, 3 ;
                | )") + store + R"( x, 1                   |                     ;
                | atom.acq_rel.sys.exch r1, x, 2 |                     ;
exists (P1:r0 == 3 /\ P1:r1 == 1 /\ x == 3))",
                                                                 "strengthen.litmus"));
  };
  const auto weak = program("st.weak       "), strong = program("st.relaxed.gpu");
  auto explored = [](const std::shared_ptr<const litmus::Program>& p) {
    const models::Model m = litmus::to_model(p);
    return scopesim::explore(m, Launch{.grid = m.chapter.grid, .block = m.chapter.block}, Options{});
  };
  const Report w = explored(weak), s = explored(strong);
  const std::string outcome = "P1:r0=3 P1:r1=1 x=3";
  ASSERT_TRUE(final_states(s).count(outcome));
  ASSERT_TRUE(PtxAxioms::fits(*weak));
  EXPECT_TRUE(racy_programs_lack_outcomes(racy(w), {outcome}, PtxAxioms(*weak).outcomes()));
  EXPECT_FALSE(final_states(w).count(outcome))
      << "the weaker racy program now shows the outcome: remove RacyProgramsLackOutcomes";
}

}  // namespace
}  // namespace scopesim::props
