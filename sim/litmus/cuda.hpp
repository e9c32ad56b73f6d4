// CUDA code for one litmus test, for a GPU harness that runs many instances
// in parallel. The source defines
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
// Pointers are to this instance's cells (32-bit, initialised by the harness
// to the listed initial values); results[i] receives the i-th result register.
// The metadata (JSON) lists locations, results and placement.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

std::string cuda_source(const Program& p);
nlohmann::json cuda_metadata(const Program& p);

}  // namespace scopesim::litmus
