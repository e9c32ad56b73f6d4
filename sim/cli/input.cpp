#include "sim/cli/input.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

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
// A number no less than `least` (`strictly`: more than it), else why not.
CLI::Validator at_least(double least, bool strictly, const char* words, const char* name) {
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        double x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc{} || end != v.data() + v.size()) return "must be a number, got '" + v + "'";
        if (x < least || (strictly && x == least)) return std::string("must be ") + words + ", got " + v;
        return "";
      },
      name);
}
}  // namespace

CLI::Validator non_negative() { return at_least(0, false, "0 or more", "NONNEGATIVE"); }
CLI::Validator positive() { return at_least(0, true, "more than 0", "POSITIVE"); }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw UsageError("cannot read '" + path + "'");
  return ss.str();
}

void print_json(const nlohmann::json& j) {
  fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
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
