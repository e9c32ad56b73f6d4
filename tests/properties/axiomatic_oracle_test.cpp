// The ptx model's exhaustive outcome set against the axiomatic oracle
// (ptx_axioms.hpp) over random litmus programs. The simulator is stricter
// than the axioms in two documented ways (docs/limitations.md): it produces no
// outcome that needs a program-order ∪ reads-from cycle (the oracle excludes
// those too), and in executions with a data race or a scoped race some
// coherence placements are missing. So: every simulated outcome must satisfy
// the axioms, and when the model reports no race the sets must be equal.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/properties/litmus_gen.hpp"
#include "tests/properties/ptx_axioms.hpp"
#include "tests/properties/simulated.hpp"

namespace scopesim::props {
namespace {

RC_GTEST_PROP(AxiomaticOracle, PtxModelAgreesWithThePtxAxioms, ()) {
  GenOptions g;
  g.max_code = 3;
  const Simulated s(*gen_spec(g));
  RC_PRE(PtxAxioms::fits(*s.program));
  const Report r = explore(s, with_model("ptx"));
  require_complete(r);
  const OutcomeSet sim = final_states(r);
  const OutcomeSet axioms = PtxAxioms(*s.program).outcomes();
  const std::string forbidden = missing(r, axioms);
  if (!forbidden.empty()) RC_FAIL("the ptx model permits outcomes the axioms forbid:\n" + forbidden + "axioms permit:\n" + listing(axioms));
  RC_TAG(racy(r) ? "racy" : "race-free");
  if (!racy(r) && sim != axioms) {
    std::string lacking;
    for (const std::string& o : axioms)
      if (!sim.count(o)) lacking += "  " + o + "\n";
    RC_FAIL("the race-free program lacks outcomes the axioms permit:\n" + lacking);
  }
}

}  // namespace
}  // namespace scopesim::props
