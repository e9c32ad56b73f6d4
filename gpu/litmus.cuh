// What the generated litmus tests of the GPU harness share (gpu/litmus/*.cu,
// written by `scopesim litmus --emit-cuda`, sim/litmus/cuda.hpp): the spin
// budget check of a test thread and the model a test registers. Every test is
// then a model of the harness like the shipped ones: instances per launch,
// block and warp permutation, stress blocks, layouts, histograms.
#pragma once
#include "models/model.hpp"

namespace scopesim::gpu::litmus {

// A test thread (one whole warp) about to jump back in a loop: past the
// instance's spin budget, lane 0 marks the instance "did not terminate" and
// the whole warp leaves the test together (the decision is lane 0's, so the
// warp stays converged for its __shfl_sync).
__device__ inline bool over_budget() {
  const dialect::harness::BlockContext& c = dialect::harness::block_context();
  const bool lane0 = (threadIdx.x & 31u) == 0;
  const int over = lane0 && clock64() - c.start > c.budget ? 1 : 0;
  if (__shfl_sync(0xffffffffu, over, 0) == 0) return false;
  if (lane0) *reinterpret_cast<volatile int*>(c.timed_out) = 1;
  return true;
}

// The harness model of one generated test: `ctas` blocks of `threads`
// threads (32 per test thread), its host program, no postcondition (the
// comparison judges the test's condition: `scopesim litmus --gpu`).
inline models::Model model(const char* name, const char* file, const char* condition, unsigned ctas, unsigned threads,
                           models::Program program) {
  models::Model m;
  m.name = name;
  m.summary = std::string("PTX litmus test ") + file;
  m.invariant = condition;
  m.chapter.grid = ctas;
  m.chapter.block = threads;
  m.program = std::move(program);
  return m;
}

}  // namespace scopesim::gpu::litmus
