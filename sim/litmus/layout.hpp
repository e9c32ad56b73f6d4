// Where a litmus program's threads run in one launch and what memory it
// needs, shared by the simulator model (interpreter.cpp) and the CUDA
// emitter (cuda.cpp) so that both place a test the same way:
// CTA n is block n; the threads of a CTA are threads 0, 1, ... of their block
// in listing order; every location and barrier counter is one 32-bit cell.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

struct Layout {
  std::uint32_t grid = 1;                         // CTAs (blocks)
  std::uint32_t block = 1;                        // threads per block: the largest CTA of the test
  std::vector<std::uint32_t> cta_size;            // test threads per CTA
  std::vector<std::uint32_t> rank;                // per thread: its index within its CTA
  std::map<std::string, std::int32_t> locations;  // every location (declared or used) and its initial value
  // Barrier counters: (cta, barrier id) for every barrier a thread of that CTA
  // may use; a barrier id taken from a register makes all 16 ids possible.
  std::set<std::pair<std::uint32_t, std::int32_t>> barriers;
  // Per thread, the registers the condition names (their final values are results).
  std::vector<std::vector<std::string>> results;
  // Line of each instruction: its own, or (built in code) its row in print(p).
  std::vector<std::vector<std::uint32_t>> lines;
};

Layout layout(const Program& p);

// The line the first instruction row has in print(p).
std::uint32_t first_row_line(const Program& p);

// One instruction as the listing writes it ("ld.acquire.gpu r1, x").
std::string print(const Instr& in);

}  // namespace scopesim::litmus
