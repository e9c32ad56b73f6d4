// Properties of the user's kernel over every block size and input length.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "block_sum.hpp"
#include "sim/api/rapidcheck.hpp"

namespace {

// A block of min..max threads and an input of min..block elements.
scopesim::Launch sized(long long min, long long max) {
  scopesim::Launch l = *scopesim::gen::launch({.block = {min, max}});
  l.params["n"] = *scopesim::gen::in({min, l.block});
  return l;
}

// The barrier orders every copy before thread 0's reads: the sum is exact and
// nothing races, whatever the schedule.
RC_GTEST_PROP(BlockSum, WithTheBarrierTheSumIsExact, ()) {
  const scopesim::Report r = scopesim::explore(example::block_sum(true), sized(1, 64));
  RC_ASSERT(r.complete());
  scopesim::require(!r.bad(), "an exact sum and no finding", r);
}

// Without it, thread 0 may read partial.v[1] before thread 1 copied it, as
// soon as there are two inputs: a wrong sum is permitted and the copy races
// with the read.
RC_GTEST_PROP(BlockSum, WithoutTheBarrierTheSumRaces, ()) {
  const scopesim::Report r = scopesim::explore(example::block_sum(false), sized(2, 6));
  scopesim::require(r.permits("error=1") && r.has(scopesim::FindingKind::data_race),
                    "a wrong sum is permitted and a data race is reported", r);
}

}  // namespace
