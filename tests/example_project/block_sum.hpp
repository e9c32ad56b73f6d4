// The user's kernel as scopesim models: a block sums its first n inputs in
// shared memory, with and without the barrier between the stores and the sum.
#pragma once
#include "models/model.hpp"

namespace example {

// with_barrier: the correct kernel; without: thread 0 may sum before the others stored.
const scopesim::models::Model& block_sum(bool with_barrier);

}  // namespace example
