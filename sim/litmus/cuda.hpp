// CUDA code for one litmus test: a model of the GPU harness (gpu/README.md,
// "Litmus tests"), so the harness runs it like any shipped model, many
// instances per launch. The source (compiled only by nvcc, with the harness's
// gpu/litmus.cuh and models/model.hpp included before it) defines, in a
// namespace of its own,
//
//   __device__ void litmus_instance(unsigned cta, unsigned thread,
//                                   unsigned* <location>..., unsigned* results);
//
// which one instance's threads call: `cta` is the test's CTA (0..ctas-1) that
// the calling block plays, `thread` the test thread's index within that CTA.
// Every test thread runs as one full warp (all 32 lanes call litmus_instance
// with the same arguments): lane 0 performs each memory instruction as the
// exact PTX instruction in inline asm, the other lanes receive loaded values
// by __shfl_sync so that control flow stays uniform, and all lanes execute
// the barriers, whose thread counts are therefore 32 times the test's.
// A backward jump checks the instance's spin budget first (a test that spins
// forever counts as "did not terminate"). Pointers are to this instance's
// cells; results[i] receives the i-th result register. Then a kernel that
// calls it with the logical block and warp, and the model: one allocation per
// location (written with its initial value) and one for the results, one
// launch of `ctas` blocks of 32 x (largest CTA) threads, and an observation
// per register and location the condition names, in the simulator's order
// and with its names (observed_names), so GPU outcomes and simulator outcomes
// are the same text.
#pragma once
#include <string>
#include <vector>

#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

// The harness's name of the test in `file`: "litmus/<directory>/<stem>"
// (the last directory of the lexically normal path, left out when it is
// "..", and the file name without .litmus), e.g.
// "litmus/Manual/SB+bar-const-diff".
std::string gpu_model_name(const std::string& file);

// The test's harness model (see above); `model` is its gpu_model_name.
std::string cuda_source(const Program& p, const std::string& model);

// Can `path` be written in the unit's `#include "..."`? Not with a '"', a
// backslash or a control character: an include path has no escapes.
bool includable(const std::string& path);

// The translation unit that the harness build compiles: includes the
// harness's litmus support and then each test's source (paths relative to
// the unit's directory, each includable).
std::string cuda_unit(const std::vector<std::string>& sources);

}  // namespace scopesim::litmus
