// block_sum<<<1, block>>>(in, n, sum, error): each thread t < n copies in[t]
// into shared memory; thread 0 adds up the n copies and checks the sum
// against n(n+1)/2 (the host fills in[i] = i + 1).
#include "block_sum.hpp"

namespace example {
using namespace scopesim::dialect;
// CUDA's headers declare a global ::dim3 too: name the dialect's outside namespace scopesim.
using scopesim::dialect::dim3;
using scopesim::models::Config;
using scopesim::models::Model;

struct Partial {
  plain<int> v[1024];
};

template <bool Barrier>
SCOPESIM_KERNEL void block_sum_kernel(const plain<int>* in, int n, plain<int>* sum, plain<int>* error) {
  SCOPESIM_SHARED(Partial, partial);
  const int t = static_cast<int>(thread_idx().x);
  if (t < n) partial.v[t] = in[t];
  if constexpr (Barrier) syncthreads();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += partial.v[i];
    sum[0] = s;
    error[0] = (s != n * (n + 1) / 2);
  }
}

template <bool Barrier>
void host(Host& h, const Config& c) {
  const int n = static_cast<int>(c.param("n", c.block));
  plain<int>* in = device_alloc<plain<int>>(h, "in", static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) host_write(in[i], i + 1);
  plain<int>* sum = device_alloc<plain<int>>(h, "sum");
  plain<int>* error = device_alloc<plain<int>>(h, "error");
  host_write(*error, 0);
  launch<block_sum_kernel<Barrier>>(h, "block_sum", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, in, n, sum, error);
  device_synchronize(h);
  observe(h, "error", *error);
}

bool wrong_sum(const scopesim::Outcome& o) { return o.i("error") != 0; }

const Model& block_sum(bool with_barrier) {
  // The parameter host() reads: an explore() that sets another is refused.
  static const scopesim::models::Parameter n_inputs{"n", "inputs summed, 1..the block's threads (default: all of them)"};
  static const Model with{.name = "example.block_sum",
                          .summary = "a block sums n inputs in shared memory behind a barrier",
                          .bad_means = "wrong sum (error=1)",
                          .chapter = {1, 64, 0, {{"n", 64}}},
                          .program = host<true>,
                          .bad = wrong_sum,
                          .parameters = {n_inputs}};
  static const Model without{.name = "example.block_sum_no_barrier",
                             .summary = "as example.block_sum without the barrier",
                             .bad_means = "wrong sum (error=1)",
                             .chapter = {1, 64, 0, {{"n", 64}}},
                             .program = host<false>,
                             .bad = wrong_sum,
                             .parameters = {n_inputs}};
  return with_barrier ? with : without;
}

}  // namespace example
