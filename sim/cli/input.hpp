// What every subcommand shares about its input and its plain output: the one
// error that means exit 2, one-line messages, checks of numeric options,
// reading a file, finding a shipped model or memory model by name, JSON on stdout.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "models/model.hpp"

namespace scopesim::cli {

// An error in what the user asked for or gave: one line on stderr, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The message as one readable line, whatever the input it quotes held: line
// breaks and tabs become spaces, other bytes that are not printable UTF-8 are written \xNN,
// a quoted stretch ('...') past `kQuotedMost` bytes keeps its first
// `kQuotedKept` and says how many more, the whole message past `kMessageMost`
// likewise; no trailing space.
inline constexpr std::size_t kQuotedMost = 300, kQuotedKept = 200, kMessageMost = 2000;
std::string one_line(std::string s);

// Checks of a numeric option whose messages say the range in words
// ("--depth: must be more than 0, got 0"; CLI11's own name it as 0 to the
// largest double, and call a word out of that range).
CLI::Validator non_negative();  // 0 or more
CLI::Validator positive();      // more than 0
CLI::Validator between(double least, double most);  // least to most
CLI::Validator not_empty();  // a file or token: "" is none
// Does `s` look like a token of explore's output (v1:...), not a file?
bool is_token(const std::string& s);
// A whole number in decimal digits, least to most ("--seed: must be a whole
// number, 0 or more, got '0x10'"), never rounded or clamped.
CLI::Validator whole(std::uint64_t least, std::uint64_t most = std::numeric_limits<std::uint64_t>::max());

// The whole file; UsageError naming why when it cannot be read (missing,
// a directory, not permitted, longer than kMaxInput: /dev/zero ends there).
inline constexpr std::size_t kMaxInput = std::size_t{256} << 20;
std::string read_text(const std::string& path);

// JSON on stdout: sorted keys, two-space indent, invalid UTF-8 replaced (never a throw).
void print_json(const nlohmann::json& j);

// An error that ends the command with exit 2: `line` on stderr, after what
// stdout has so far. When the command line asked for JSON (errors_as_json)
// and stdout has no JSON yet, also {"error": MESSAGE} on stdout, so that a
// script reading stdout always gets one JSON document.
void report_error(const std::string& line, const std::string& message);
void errors_as_json(bool on);

std::vector<const models::Model*> sorted_models();
// UsageError naming the unknown model.
const models::Model& find_model(const std::string& name);
// UsageError naming the known memory models.
void check_memory_model(const std::string& name);

}  // namespace scopesim::cli
