// `scopesim gpu`: runs the GPU harness (scopesim-gpu, built with nvcc next to
// this program) on the named models and passes its JSON Lines through. Without
// a harness or without a GPU it says so in one line and exits 2. What it hands
// the harness is checked first (models it runs, counts it reads exactly), so
// a mistake is one line of scopesim's, not the harness's.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/cli/input.hpp"

namespace scopesim::cli {

namespace {

namespace fs = std::filesystem;

// The harness reads --instances through a double (strtod), exact up to 2^53.
constexpr std::uint64_t kMaxInstances = std::uint64_t{1} << 53;

struct GpuSettings {
  std::vector<std::string> models;
  bool all = false;
  std::uint64_t instances = 0;  // 0: not given
  double seconds = 0;           // 0: not given
  std::string harness;
};

// --instances: a whole number of instances the harness reads exactly.
CLI::Validator instance_count() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        std::uint64_t n = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec != std::errc{} || end != v.data() + v.size() || n == 0 || n > kMaxInstances)
          return fmt::format("must be a whole number from 1 to {}, got '{}'", kMaxInstances, v);
        return "";
      },
      "COUNT");
}

// --seconds: a finite time (the harness would read "inf" as no limit).
CLI::Validator duration() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        double x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc{} || end != v.data() + v.size() || !std::isfinite(x) || x <= 0)
          return "must be a number of seconds more than 0, got '" + v + "'";
        return "";
      },
      "SECONDS");
}

// The harness as given, or as the build lays it out: build/gpu/scopesim-gpu
// beside build/sim/scopesim ("" when the build has none).
std::string find_harness(const std::string& given) {
  if (!given.empty()) {
    std::error_code ec;
    if (!fs::exists(given, ec)) throw UsageError("the GPU harness '" + given + "' does not exist");
    if (fs::is_directory(given, ec)) throw UsageError("the GPU harness '" + given + "' is a directory");
    if (access(given.c_str(), X_OK) != 0) throw UsageError("the GPU harness '" + given + "' is not executable");
    return given;
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const fs::path& p : {self.parent_path().parent_path() / "gpu" / "scopesim-gpu",
                            self.parent_path() / "scopesim-gpu"})
    if (fs::exists(p)) return p.string();
  return "";
}

// Runs the harness with `args` (argv[0] = the harness) and returns its exit
// code; its stdout goes to `out` when given, else through.
int run_harness(std::vector<std::string> args, std::string* out) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipe_ends[2] = {-1, -1};
  if (out != nullptr && pipe(pipe_ends) != 0) throw UsageError("cannot start the GPU harness");
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) throw UsageError("cannot start the GPU harness");
  if (pid == 0) {
    if (out != nullptr) {
      dup2(pipe_ends[1], STDOUT_FILENO);
      close(pipe_ends[0]);
      close(pipe_ends[1]);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  if (out != nullptr) {
    close(pipe_ends[1]);
    char buf[4096];
    ssize_t n = 0;
    while ((n = read(pipe_ends[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0) out->append(buf, static_cast<std::size_t>(n));
    close(pipe_ends[0]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw UsageError("the GPU harness did not exit normally");
  if (!WIFEXITED(status)) throw UsageError("the GPU harness did not exit normally");
  if (WEXITSTATUS(status) == 127) throw UsageError("cannot run the GPU harness '" + args[0] + "'");
  return WEXITSTATUS(status);
}

// Every name is a model the harness runs (its --list and --list-litmus, which
// need no GPU); else one line saying why not.
void check_models(const std::string& harness, const std::vector<std::string>& names) {
  std::string listed;
  for (const char* list : {"--list", "--list-litmus"})
    if (run_harness({harness, list}, &listed) != 0)
      throw UsageError("cannot list the models of the GPU harness '" + harness + "'");
  std::set<std::string> runs;
  std::istringstream in(listed);
  for (std::string line; std::getline(in, line);) runs.insert(line);
  for (const std::string& n : names) {
    if (runs.count(n)) continue;
    for (const models::Model& m : models::registry())
      if (m.name == n && m.gpu_skip != nullptr)
        throw UsageError(fmt::format("model '{}' does not run on the GPU: {}", n, m.gpu_skip));
    throw UsageError("unknown model '" + n + "' (see 'scopesim-gpu --list' and 'scopesim-gpu --list-litmus')");
  }
}

int run_gpu(const GpuSettings& s) {
  try {
    if (s.all && !s.models.empty()) throw UsageError("gpu takes MODEL... or --all, not both");
    if (!s.all && s.models.empty()) throw UsageError("gpu needs MODEL... or --all (see 'scopesim gpu --help')");
    const std::string harness = find_harness(s.harness);
    if (harness.empty())
      throw UsageError("no GPU run: this build has no GPU harness (scopesim-gpu is built when nvcc is present)");
    check_models(harness, s.models);
    std::vector<std::string> args{harness};
    if (s.all) args.emplace_back("--all");
    for (const std::string& m : s.models) args.push_back(m);
    if (s.instances > 0) args.insert(args.end(), {"--instances", fmt::format("{}", s.instances)});
    if (s.seconds > 0) args.insert(args.end(), {"--seconds", fmt::format("{}", s.seconds)});
    // (The harness exits 0, 1 or 2 as this command does; any other status is its failure, reported as one.)
    const int rc = run_harness(args, nullptr);
    if (rc > 2) throw UsageError(fmt::format("the GPU harness '{}' exited with status {}", harness, rc));
    return rc;
  } catch (const UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "scopesim: {}\n", e.what());
    return 2;
  }
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
  sub->add_option("MODEL", s->models, "Models to run (see 'scopesim-gpu --list' and '--list-litmus')");
  sub->add_flag("--all", s->all, "Run every shipped model");
  sub->add_option("--instances", s->instances,
                  fmt::format("Instances per model, 1 to {} (default 1000000, or unbounded with --seconds)",
                              kMaxInstances))
      ->check(instance_count());
  sub->add_option("--seconds", s->seconds, "Seconds per model (whichever of --instances and --seconds comes first)")
      ->check(duration());
  sub->add_option("--harness", s->harness, "The scopesim-gpu program (default: the one built beside scopesim)");
  return {sub, [s] { return run_gpu(*s); }};
}

}  // namespace scopesim::cli
