// `scopesim litmus FILE...`: runs PTX litmus tests on the simulator and
// prints each condition's verdict (sim/cli/litmus_command.cpp).
#pragma once
#include "sim/cli/command.hpp"

namespace scopesim::cli {

Command add_litmus_command(CLI::App& app);

}  // namespace scopesim::cli
