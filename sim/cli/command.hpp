// A subcommand of `scopesim` defined in its own file: it registers itself on
// the app and is run when parsed. Its run function prints its own errors (one
// line on stderr) and returns the exit code (0, 1, or 2 for input errors).
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace scopesim::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_gpu_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_bench_command(CLI::App& app);

}  // namespace scopesim::cli
