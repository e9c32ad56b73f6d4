// The hash of each shipped model's source file, computed when the models were
// built (models/source_hashes.cmake), so that a schedule file names the exact
// kernel source it was recorded with.
#pragma once
#include <string_view>

namespace scopesim::models {

// SHA-256 (first 16 hex digits) of the file `source` ("models/publish/publish.cpp")
// as it was compiled into this binary; "" for a file that is not a shipped model.
std::string_view source_hash(std::string_view source);

}  // namespace scopesim::models
