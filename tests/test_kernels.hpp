// Small kernels written inside a test: a Model around one kernel over a few
// global int cells (x, r0..r3, all 0 before the launch), r0..r2 observed (and
// x, when asked).
#pragma once
#include "models/model.hpp"
#include "tests/test_support.hpp"

namespace scopesim::test {
using namespace scopesim::dialect;

struct Cells {
  plain<int>* x;
  plain<int>* r0;
  plain<int>* r1;
  plain<int>* r2;
  plain<int>* r3;
};

template <auto Kernel>
inline models::Model kernel_model(const char* name, unsigned grid, unsigned block, bool observe_x = false) {
  models::Model m;
  m.name = name;
  m.chapter = {grid, block};
  m.program = [observe_x](Host& h, const models::Config& c) {
    Cells cells{};
    plain<int>** all[] = {&cells.x, &cells.r0, &cells.r1, &cells.r2, &cells.r3};
    const char* names[] = {"x", "r0", "r1", "r2", "r3"};
    for (int i = 0; i < 5; ++i) {
      *all[i] = device_alloc<plain<int>>(h, names[i]);
      host_write(**all[i], 0);
    }
    launch<Kernel>(h, "k", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, cells);
    device_synchronize(h);
    observe(h, "r0", *cells.r0);
    observe(h, "r1", *cells.r1);
    observe(h, "r2", *cells.r2);
    if (observe_x) observe(h, "x", *cells.x);
  };
  return m;
}

inline SCOPESIM_DEVICE unsigned global_id() { return block_idx().x * block_dim().x + thread_idx().x; }

}  // namespace scopesim::test
