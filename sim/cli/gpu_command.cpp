// `scopesim gpu`: runs the GPU harness (scopesim-gpu, built with nvcc next to
// this program) on the named models and passes its JSON Lines through. Without
// a harness or without a GPU it says so in one line and exits 2.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/input.hpp"

namespace scopesim::cli {

namespace {

namespace fs = std::filesystem;

struct GpuSettings {
  std::vector<std::string> models;
  bool all = false;
  double instances = 0;
  double seconds = 0;
  std::string harness;
};

// The harness as the build lays it out: build/gpu/scopesim-gpu beside build/sim/scopesim.
std::string find_harness(const std::string& given) {
  if (!given.empty()) return fs::exists(given) ? given : "";
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const fs::path& p : {self.parent_path().parent_path() / "gpu" / "scopesim-gpu",
                            self.parent_path() / "scopesim-gpu"})
    if (fs::exists(p)) return p.string();
  return "";
}

int run_gpu(const GpuSettings& s) {
  if (s.all == !s.models.empty()) {
    fmt::print(stderr, "scopesim: gpu needs MODEL... or --all (see 'scopesim gpu --help')\n");
    return 2;
  }
  const std::string harness = find_harness(s.harness);
  if (harness.empty()) {
    fmt::print(stderr, "scopesim: no GPU run: this build has no GPU harness (scopesim-gpu is built when nvcc is present)\n");
    return 2;
  }
  std::vector<std::string> args{harness};
  if (s.all) args.emplace_back("--all");
  for (const std::string& m : s.models) args.push_back(m);
  if (s.instances > 0) args.insert(args.end(), {"--instances", fmt::format("{:.0f}", s.instances)});
  if (s.seconds > 0) args.insert(args.end(), {"--seconds", fmt::format("{}", s.seconds)});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    fmt::print(stderr, "scopesim: cannot start the GPU harness\n");
    return 2;
  }
  if (pid == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
    fmt::print(stderr, "scopesim: the GPU harness did not exit normally\n");
    return 2;
  }
  if (WEXITSTATUS(status) == 127) {
    fmt::print(stderr, "scopesim: cannot run the GPU harness '{}'\n", harness);
    return 2;
  }
  return WEXITSTATUS(status);
}

}  // namespace

Command add_gpu_command(CLI::App& app) {
  auto s = std::make_shared<GpuSettings>();
  CLI::App* sub = app.add_subcommand(
      "gpu",
      "Run models (MODEL... or --all) on the GPU with the harness built by nvcc (scopesim-gpu): many instances per "
      "launch with randomized block and warp placement, stress blocks, two memory layouts and a spin timeout, and "
      "print one JSON line per model with its outcome histogram (outcome -> count, instances, time, GPU, driver, "
      "compiler, harness options). `scopesim compare` reads these lines. Exit 0: every model ran; 1: some model "
      "failed on the GPU; 2: usage error, no harness in this build, or no GPU.");
  sub->add_option("MODEL", s->models, "Models to run (see 'scopesim list')");
  sub->add_flag("--all", s->all, "Run every shipped model");
  sub->add_option("--instances", s->instances, "Instances per model (default 1000000, or unbounded with --seconds)")
      ->check(positive());
  sub->add_option("--seconds", s->seconds, "Seconds per model (whichever of --instances and --seconds comes first)")
      ->check(positive());
  sub->add_option("--harness", s->harness, "The scopesim-gpu program (default: the one built beside scopesim)");
  return {sub, [s] { return run_gpu(*s); }};
}

}  // namespace scopesim::cli
