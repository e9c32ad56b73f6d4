// scopesim-gpu: runs shipped models on the GPU, many instances per launch,
// and prints one JSON line per model with its outcome histogram. The command
// `scopesim gpu` runs this program; gpu/run-all.sh runs it for every model and
// under compute-sanitizer. Built from the CUDA toolkit alone (no other library).
//
// Exit codes: 0 = every model ran; 1 = some model failed to run (its line has
// "error"); 2 = usage error or no CUDA GPU (one line on stderr).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/model.hpp"

namespace {

using scopesim::Outcome;
using scopesim::ValueType;
namespace gpu = scopesim::gpu;
namespace models = scopesim::models;

#ifndef SCOPESIM_CUDA_ARCH_NAME
#define SCOPESIM_CUDA_ARCH_NAME "unknown"
#endif

struct Usage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::i32: return "i32";
    case ValueType::u32: return "u32";
    case ValueType::i64: return "i64";
    case ValueType::u64: return "u64";
    case ValueType::f32: return "f32";
    case ValueType::f64: return "f64";
  }
  return "i32";
}

struct Options {
  std::vector<std::string> names;
  bool all = false;
  bool list = false;
  bool list_litmus = false;
  unsigned long long instances = 0;  // 0: not given
  double seconds = 0;                // 0: not given
  gpu::HarnessOptions harness;
  bool per_launch_given = false;
  bool verbose = false;
};

std::string device_json() {
  int device = 0;
  cudaDeviceProp p{};
  scopesim::dialect::Host::check(cudaGetDevice(&device), "cudaGetDevice");
  scopesim::dialect::Host::check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::string release;
  if (std::ifstream f("/proc/driver/nvidia/version"); f) {
    std::string line;
    std::getline(f, line);
    std::istringstream words(line);
    std::string w;
    while (words >> w)
      if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && w.find('.') != std::string::npos) {
        release = w;
        break;
      }
  }
  char b[512];
  std::snprintf(b, sizeof b,
                "{\"name\":%s,\"compute_capability\":\"%d.%d\",\"sms\":%d,\"driver\":%s,\"driver_api\":\"%d.%d\","
                "\"runtime\":\"%d.%d\",\"compiler\":\"nvcc %d.%d.%d -arch=%s\"}",
                json_string(p.name).c_str(), p.major, p.minor, p.multiProcessorCount,
                json_string(release.empty() ? "unknown" : release).c_str(), driver / 1000, driver % 1000 / 10,
                runtime / 1000, runtime % 1000 / 10, __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
                __CUDACC_VER_BUILD__, SCOPESIM_CUDA_ARCH_NAME);
  return b;
}

std::string options_json(const Options& o, const gpu::HarnessOptions& h) {
  std::string layouts;
  for (const std::string& l : h.layouts) layouts += (layouts.empty() ? "" : ",") + json_string(l);
  char b[512];
  std::snprintf(b, sizeof b,
                "{\"instances_per_launch\":%u,\"timeout_ms\":%g,\"stress_blocks_per_window\":%u,\"permute_blocks\":%s,"
                "\"permute_warps\":%s,\"layouts\":[%s],\"seed\":%llu,\"max_instances\":%llu,\"max_seconds\":%g}",
                h.instances, h.timeout_ms, h.stress_blocks, h.permute_blocks ? "true" : "false",
                h.permute_warps ? "true" : "false", layouts.c_str(), static_cast<unsigned long long>(h.seed),
                o.instances, o.seconds);
  return b;
}

// Runs one model until its instance or time budget is spent; returns its JSON line.
std::string run_model(const models::Model& m, const Options& o, const std::string& device) {
  gpu::HarnessOptions h = o.harness;
  const unsigned long long target = o.instances != 0 ? o.instances : (o.seconds > 0 ? ~0ull : 1000000ull);
  const models::Config& c = m.chapter;
  if (!o.per_launch_given) {
    // About 2^18 blocks and at most 2^26 threads per launch: long enough to
    // hide the per-round set-up, short enough for --seconds to stay close.
    const unsigned long long blocks = std::max(1u, c.grid), threads = blocks * std::max(1u, c.block);
    unsigned long long n = std::max(1ull, std::min((1ull << 18) / blocks, (1ull << 26) / threads));
    h.instances = static_cast<unsigned>(std::min({n, target, 1ull << 20}));
  }
  std::string error;
  gpu::Histogram hist;
  const auto start = std::chrono::steady_clock::now();
  double seconds = 0;
  try {
    scopesim::dialect::Host host(h);
    while (host.histogram().instances < target) {
      host.begin_round();
      m.program(host, c);
      host.end_round();
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (o.verbose)
        std::fprintf(stderr, "scopesim-gpu: %s round %llu: %llu instances, %zu outcomes, %.3f s\n", m.name.c_str(),
                     static_cast<unsigned long long>(host.histogram().rounds),
                     static_cast<unsigned long long>(host.histogram().instances), host.histogram().outcomes.size(),
                     seconds);
      if (o.seconds > 0 && seconds >= o.seconds) break;
    }
    hist = host.histogram();
  } catch (const std::exception& e) {
    error = e.what();
    cudaDeviceReset();  // a kernel fault poisons the context: start the next model afresh
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::string out = "{\"model\":" + json_string(m.name);
  char b[256];
  std::snprintf(b, sizeof b, ",\"grid\":%u,\"block\":%u", c.grid, c.block);
  out += b;
  out += ",\"device\":" + device + ",\"options\":" + options_json(o, h);
  std::snprintf(b, sizeof b,
                ",\"instances\":%llu,\"rounds\":%llu,\"seconds\":%.3f,\"instances_per_second\":%.0f,"
                "\"multi_block_instances\":%llu,\"distinct_sm_instances\":%llu",
                static_cast<unsigned long long>(hist.instances), static_cast<unsigned long long>(hist.rounds), seconds,
                seconds > 0 ? static_cast<double>(hist.instances) / seconds : 0.0,
                static_cast<unsigned long long>(hist.multi_block_instances),
                static_cast<unsigned long long>(hist.distinct_sm_instances));
  out += b;
  out += ",\"outcomes\":[";
  std::vector<const gpu::OutcomeCount*> sorted;
  for (const gpu::OutcomeCount& oc : hist.outcomes) sorted.push_back(&oc);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->count() > b->count(); });
  bool first = true;
  for (const gpu::OutcomeCount* oc : sorted) {
    out += first ? "" : ",";
    first = false;
    const std::string text = oc->terminated ? oc->outcome.text() : "did not terminate";
    out += "{\"outcome\":" + json_string(text);
    std::snprintf(b, sizeof b, ",\"count\":%llu", static_cast<unsigned long long>(oc->count()));
    out += b;
    out += std::string(",\"terminated\":") + (oc->terminated ? "true" : "false");
    if (oc->terminated) {
      out += std::string(",\"bad\":") + (m.bad != nullptr && m.bad(oc->outcome) ? "true" : "false");
      out += ",\"values\":[";
      bool f2 = true;
      for (const scopesim::Observed& v : oc->outcome.values()) {
        std::snprintf(b, sizeof b, "%s{\"name\":%s,\"type\":\"%s\",\"bits\":%llu}", f2 ? "" : ",",
                      json_string(v.name).c_str(), type_name(v.type), static_cast<unsigned long long>(v.bits));
        out += b;
        f2 = false;
      }
      out += "]";
    }
    out += ",\"by_layout\":{";
    for (std::size_t l = 0; l < h.layouts.size(); ++l) {
      std::snprintf(b, sizeof b, "%s%s:%llu", l ? "," : "", json_string(h.layouts[l]).c_str(),
                    static_cast<unsigned long long>(oc->by_layout[l]));
      out += b;
    }
    out += "}}";
  }
  out += "]";
  if (!error.empty()) out += ",\"error\":" + json_string(error);
  out += "}";
  return out;
}

double number(const std::string& opt, const char* v) {
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(d >= 0)) throw Usage(opt + " needs a non-negative number, not '" + v + "'");
  return d;
}

Options parse(int argc, char** argv) {
  Options o;
  o.harness.instances = 65536;  // replaced per model unless --per-launch
  o.harness.timeout_ms = 2;
  o.harness.stress_blocks = 64;  // per window of about 2000 blocks
  o.harness.permute_blocks = true;
  o.harness.permute_warps = true;
  o.harness.layouts = {"dense", "line"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--all") o.all = true;
    else if (a == "--list") o.list = true;
    else if (a == "--list-litmus") o.list_litmus = true;
    else if (a == "--verbose") o.verbose = true;
    else if (a == "--instances") o.instances = static_cast<unsigned long long>(number(a, value()));
    else if (a == "--seconds") o.seconds = number(a, value());
    else if (a == "--per-launch") {
      o.harness.instances = static_cast<unsigned>(std::max(1.0, number(a, value())));
      o.per_launch_given = true;
    } else if (a == "--timeout-ms") o.harness.timeout_ms = number(a, value());
    else if (a == "--stress-blocks") o.harness.stress_blocks = static_cast<unsigned>(number(a, value()));
    else if (a == "--seed") o.harness.seed = static_cast<std::uint64_t>(number(a, value()));
    else if (a == "--no-permute") {
      o.harness.permute_blocks = false;
      o.harness.permute_warps = false;
    } else if (a == "--plain") {  // one plain run: the model's own launch, nothing added
      o.harness.permute_blocks = false;
      o.harness.permute_warps = false;
      o.harness.stress_blocks = 0;
      o.harness.layouts = {"dense"};
    } else if (a == "--layouts") {
      o.harness.layouts.clear();
      std::string v = value(), item;
      std::istringstream in(v);
      while (std::getline(in, item, ','))
        if (item != "dense" && item != "line") throw Usage("unknown layout '" + item + "' (dense, line)");
        else o.harness.layouts.push_back(item);
      if (o.harness.layouts.empty()) throw Usage("--layouts needs dense and/or line");
    } else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: scopesim-gpu MODEL... | --all | --list | --list-litmus [--instances N] [--seconds S] [--per-launch N]\n"
          "       [--timeout-ms T] [--stress-blocks K] [--layouts dense,line] [--no-permute] [--plain] [--seed N]\n"
          "Runs each model's own kernel on the GPU, N instances per launch, and prints one JSON line per model\n"
          "with its outcome histogram. Exit 0: every model ran; 1: some model failed; 2: usage error or no GPU.\n");
      std::exit(0);
    } else if (!a.empty() && a[0] == '-') {
      throw Usage("unknown option '" + a + "'");
    } else {
      o.names.push_back(a);
    }
  }
  if (!o.list && !o.list_litmus && !o.all && o.names.empty()) throw Usage("name models, or --all, or --list");
  if (o.all && !o.names.empty()) throw Usage("--all and model names exclude each other");
  return o;
}

int run(int argc, char** argv) {
  Options o = parse(argc, argv);
  std::vector<const models::Model*> ms;
  for (const models::Model& m : models::registry())
    if (m.gpu_skip == nullptr) ms.push_back(&m);
  std::stable_sort(ms.begin(), ms.end(), [](auto* a, auto* b) { return a->name < b->name; });
  // The generated litmus tests (gpu/litmus/) are models named litmus/...;
  // --list and --all mean the shipped models, --list-litmus the tests.
  auto is_litmus = [](const models::Model* m) { return m->name.rfind("litmus/", 0) == 0; };
  if (o.list || o.list_litmus) {
    for (const models::Model* m : ms)
      if (is_litmus(m) == o.list_litmus) std::printf("%s\n", m->name.c_str());
    return 0;
  }
  std::vector<const models::Model*> chosen;
  if (o.all) {
    for (const models::Model* m : ms)
      if (!is_litmus(m)) chosen.push_back(m);
  } else {
    std::set<std::string> seen;
    for (const std::string& n : o.names) {
      auto it = std::find_if(ms.begin(), ms.end(), [&](auto* m) { return m->name == n; });
      if (it == ms.end()) throw Usage("unknown model '" + n + "' (see 'scopesim-gpu --list')");
      if (seen.insert(n).second) chosen.push_back(*it);
    }
  }
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "scopesim-gpu: no CUDA GPU here (%s)\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "no device");
    return 2;
  }
  const std::string device = device_json();
  int status = 0;
  for (const models::Model* m : chosen) {
    std::fprintf(stderr, "scopesim-gpu: %s\n", m->name.c_str());
    const std::string line = run_model(*m, o, device);
    if (line.find("\"error\":") != std::string::npos) status = 1;
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Usage& e) {
    std::fprintf(stderr, "scopesim-gpu: %s (see 'scopesim-gpu --help')\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scopesim-gpu: %s\n", e.what());
  }
  return 2;
}
