#include "sim/cli/input.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "sim/model/memory_model.hpp"

namespace scopesim::cli {

namespace {

// The length of the UTF-8 character of printable text that starts at `s[i]`,
// else 0 (a control character, or a byte of no well-formed sequence).
std::size_t printable_at(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = b(i);
  if (c < 0x80) return c >= 0x20 && c != 0x7f ? 1 : 0;
  const std::size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  // (No overlong forms, surrogates or code points past U+10FFFF.)
  if ((c == 0xe0 && b(i + 1) < 0xa0) || (c == 0xed && b(i + 1) > 0x9f) || (c == 0xf0 && b(i + 1) < 0x90) ||
      (c == 0xf4 && b(i + 1) > 0x8f))
    return 0;
  return n;
}

// The first bytes of `s`, at most `most`, not cutting a character, and how many more there were.
std::string kept(std::string_view s, std::size_t most) {
  std::size_t n = std::min(most, s.size());
  while (n > 0 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xc0) == 0x80) --n;
  return fmt::format("{}[... {} more bytes]", s.substr(0, n), s.size() - n);
}

bool word_byte(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string one_line(std::string s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
      out += ' ';
      ++i;
    } else if (const std::size_t n = printable_at(s, i); n > 0) {
      out.append(s, i, n);
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i++]));
    }
  }
  // A quote opens where no word goes on before it and closes at the next
  // where none goes on after it (an apostrophe, "the schedule's", is neither).
  std::string line;
  std::size_t i = 0;
  for (std::size_t open; (open = out.find('\'', i)) != std::string::npos;) {
    if (open > 0 && word_byte(out[open - 1])) {
      line.append(out, i, open + 1 - i);
      i = open + 1;
      continue;
    }
    std::size_t close = out.find('\'', open + 1);
    while (close != std::string::npos && close + 1 < out.size() && word_byte(out[close + 1]))
      close = out.find('\'', close + 1);
    if (close == std::string::npos) break;
    const std::string_view quoted = std::string_view(out).substr(open + 1, close - open - 1);
    line.append(out, i, open + 1 - i);
    line += quoted.size() > kQuotedMost ? kept(quoted, kQuotedKept) : std::string(quoted);
    line += '\'';
    i = close + 1;
  }
  line.append(out, i);
  if (line.size() > kMessageMost) line = kept(line, kMessageMost);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
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
