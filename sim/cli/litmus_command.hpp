// `scopesim litmus FILE...`: runs PTX litmus tests on the simulator and
// prints each condition's verdict (sim/cli/litmus_command.cpp).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace scopesim::cli {

// Adds the subcommand; the returned function runs it after parsing and
// returns the exit code (0, 1 or 2 as for the other subcommands).
std::function<int()> add_litmus_command(CLI::App& app, CLI::App*& sub);

}  // namespace scopesim::cli
