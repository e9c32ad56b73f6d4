// Reads the PTX litmus syntax of the Dat3M corpus (docs/conformance.md lists
// what is accepted): a `PTX NAME` header, optional quoted comments, the
// initial state `{ x=0; P1:r1=0; }`, a row of thread placements
// `P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`, one row per instruction step with one
// cell per thread, and the final condition, which names only registers its
// thread writes (or the initial state sets) and locations the initial state
// declares or an instruction uses. A UTF-8 byte-order mark is skipped.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/litmus/program.hpp"

namespace scopesim::litmus {

// Malformed input: what() is "FILE:LINE: what is wrong".
struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Well-formed input outside what the simulator models (proxies, mixed sizes,
// threads on several GPUs): what() is "FILE:LINE: unsupported: ...".
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `file` names the text in messages and becomes Program::file.
Program parse(std::string_view text, const std::string& file);
Program parse_file(const std::string& path);  // ParseError also when the file cannot be read

}  // namespace scopesim::litmus
