// Source positions as text: "models/publish/publish.cpp:31". Positions taken
// from std::source_location are exact; return addresses are resolved once each
// through the process's debug information (elfutils' libdw) and cached.
#pragma once
#include <string>

#include "sim/core/event.hpp"
#include "sim/core/source_path.hpp"

namespace scopesim {

std::string describe(const Where& w);

}  // namespace scopesim
