#include "sim/cli/input.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "sim/model/memory_model.hpp"

namespace scopesim::cli {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

namespace {
// A finite number, written in decimal (no sign but '-', no spaces), no less
// than `least` (`strictly`: more than it) and no more than `most`, else why not.
CLI::Validator within(double least, bool strictly, double most, std::string words, const char* name) {
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        double x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec == std::errc::result_out_of_range && end == v.data() + v.size())
          return "must be " + words + ", got " + v + ", past the range of a number";
        if (ec != std::errc{} || end != v.data() + v.size() || !std::isfinite(x))
          return "must be a number, got '" + v + "'";
        if (x < least || (strictly && x == least) || x > most) return "must be " + words + ", got " + v;
        return "";
      },
      name);
}
constexpr double kNoMost = std::numeric_limits<double>::max();
}  // namespace

CLI::Validator non_negative() { return within(0, false, kNoMost, "0 or more", "NONNEGATIVE"); }
CLI::Validator positive() { return within(0, true, kNoMost, "more than 0", "POSITIVE"); }
CLI::Validator between(double least, double most) {
  return within(least, false, most, fmt::format("{} to {}", least, most), "RANGE");
}
CLI::Validator not_empty() {
  return CLI::Validator([](std::string& v) -> std::string { return v.empty() ? "must not be empty" : ""; }, "TEXT");
}
bool is_token(const std::string& s) { return s.rfind("v1:", 0) == 0; }
CLI::Validator whole(std::uint64_t least, std::uint64_t most) {
  const std::string words = most == std::numeric_limits<std::uint64_t>::max() ? fmt::format("{} or more", least)
                                                                              : fmt::format("{} to {}", least, most);
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        std::uint64_t x = 0;
        const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (!digits) return "must be a whole number, " + words + ", got '" + v + "'";
        if (ec == std::errc::result_out_of_range) return fmt::format("must be at most {}, got {}", most, v);
        if (ec != std::errc{} || end != v.data() + v.size() || x < least || x > most)
          return "must be " + words + ", got " + v;
        return "";
      },
      "COUNT");
}

std::string read_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UsageError("cannot read '" + path + "': it is a directory");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw UsageError("cannot read '" + path + "': " + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (text.size() + n > kMaxInput) {
      std::fclose(f);
      throw UsageError(fmt::format("cannot read '{}': it is longer than {} MiB, more than any input of scopesim",
                                   path, kMaxInput >> 20));
    }
    text.append(buf, n);
  }
  const bool failed = std::ferror(f) != 0;
  const int error = errno;
  std::fclose(f);
  if (failed) throw UsageError("cannot read '" + path + "': " + std::strerror(error));
  return text;
}

namespace {
bool json_errors = false;
bool json_printed = false;
}  // namespace

void print_json(const nlohmann::json& j) {
  fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  json_printed = true;
}

void errors_as_json(bool on) { json_errors = on; }

void report_error(const std::string& line, const std::string& message) {
  if (json_errors && !json_printed) print_json({{"error", one_line(message)}});
  std::fflush(stdout);
  fmt::print(stderr, "{}\n", one_line(line));
}

std::vector<const models::Model*> sorted_models() {
  std::vector<const models::Model*> v;
  for (const models::Model& m : models::registry()) v.push_back(&m);
  std::stable_sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return v;
}

const models::Model& find_model(const std::string& name) {
  for (const models::Model& m : models::registry())
    if (m.name == name) return m;
  throw UsageError("unknown model '" + name + "' (see 'scopesim list')");
}

void check_memory_model(const std::string& name) {
  std::vector<std::string> names = memory_model_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  throw UsageError("unknown memory model '" + name + "' (known: " + known + ")");
}

}  // namespace scopesim::cli
