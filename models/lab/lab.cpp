// lab — a dependency chain, not concurrency (catalogue.md, "lab").
// One thread computes sigmoid(x * w - 0.5) with x = 1, w = 1: the explorer's
// baseline, one execution and nothing to choose.
#include <cmath>

#include "models/model.hpp"

namespace scopesim::models::lab {
using namespace scopesim::dialect;

SCOPESIM_KERNEL void neuron(const plain<float>* x, const plain<float>* w, plain<float>* y) {
  const float z = x[0] * w[0] - 0.5f;
  y[0] = 1.0f / (1.0f + expf(-z));
}

void run(Host& h, const Config& c) {
  plain<float>* x = device_alloc<plain<float>>(h, "x");
  plain<float>* w = device_alloc<plain<float>>(h, "w");
  plain<float>* y = device_alloc<plain<float>>(h, "y");
  host_write(*x, 1.0f);
  host_write(*w, 1.0f);
  launch<neuron>(h, "neuron", dim3{c.grid, 1, 1}, dim3{c.block, 1, 1}, x, w, y);
  device_synchronize(h);
  observe(h, "y", *y);
}

// sigmoid(0.5) = 1 / (1 + e^-0.5) = 0.62246 to 5 places: 0.622 to 3.
bool not_sigmoid(const Outcome& o) { return std::fabs(o.get<float>("y") - 0.622f) > 0.0005f; }

// Derivation: one thread, reads of host writes that the launch makes visible
// (kernel start synchronizes): each read has one write to return and there is
// no other thread to schedule. Exactly one execution, one outcome, no finding.

Registrar models{
    {.name = "lab.sigmoid",
     .summary = "neuron<<<1,1>>>: y = sigmoid(x * w - 0.5) with x = w = 1",
     .invariant = "A single thread: program order alone orders its reads after the host's writes (kernel start "
                  "synchronizes) and its store before the host's read (synchronize). One outcome.",
     .bad_means = "y is not 0.622 to 3 places",
     .chapter = {1, 1},
     .program = run,
     .bad = not_sigmoid,
     .expect = {.bad_outcome_permitted = false, .required = {}},
     .exhaustive_executions = 1},
};

}  // namespace scopesim::models::lab
