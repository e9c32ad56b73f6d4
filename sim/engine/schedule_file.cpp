// Schedule file codec (schedule_file.hpp). The writer refuses what the reader
// would reject, so every file it writes parses back to the same Schedule. The
// reader is a single forward pass over the lines with no recursion and no
// allocation sized by a number read from the file: any input either parses or
// throws ScheduleError("line N: ...") naming a physical line (1-based).
#include "sim/engine/schedule_file.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/text_hash.hpp"

namespace scopesim {
namespace {

constexpr std::string_view kMagic = "scopesim-schedule";
constexpr std::array<ChoiceKind, 4> kKinds = {ChoiceKind::thread, ChoiceKind::read, ChoiceKind::coherence,
                                              ChoiceKind::dispatch};
constexpr unsigned kMaxBlock = 1024;  // CUDA's limit on threads per block
constexpr unsigned kMaxGrid = 65535;  // the largest grid scopesim launches (explore --grid)
// Header values: a name (model, memory model, a number) and a text (outcome,
// finding); anything longer is no file scopesim wrote.
constexpr std::size_t kMaxName = 256;
constexpr std::size_t kMaxText = 65536;

[[noreturn]] void fail(std::size_t line, const std::string& what) {
  throw ScheduleError("line " + std::to_string(line) + ": " + what);
}

// A piece of the input, made safe to quote in a one-line message.
std::string quote(std::string_view s) {
  constexpr std::size_t limit = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (s.size() > limit) out += "...";
  return out + "'";
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && !is_space(s[j])) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// Decimal digits only: no sign, no spaces, no trailing text, no overflow.
template <class T>
std::optional<T> parse_uint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool is_hex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

std::optional<ChoiceKind> parse_kind(std::string_view s) {
  for (ChoiceKind k : kKinds)
    if (name(k) == s) return k;
  return std::nullopt;
}

std::string kind_list() {
  std::string s;
  for (ChoiceKind k : kKinds) {
    if (!s.empty()) s += ", ";
    s += name(k);
  }
  return s;
}

// Writer-side checks: what the reader would reject is refused here.
void need_word(std::string_view field, std::string_view v) {
  if (v.empty() || words(v).size() != 1 || words(v)[0].size() != v.size())
    throw ScheduleError("cannot write schedule: " + std::string(field) + " " + quote(v) +
                        " must be one word");
}

std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::string format_schedule(const Schedule& s) {
  const ScheduleHeader& h = s.header;
  need_word("model", h.model);
  need_word("memory-model", h.memory_model);
  if (!is_hex(h.source_hash) || h.source_hash.size() > 64)
    throw ScheduleError("cannot write schedule: source-hash " + quote(h.source_hash) + " is not hex");
  if (h.config.grid == 0 || h.config.grid > kMaxGrid || h.config.block == 0 || h.config.block > kMaxBlock)
    throw ScheduleError("cannot write schedule: launch <<<" + std::to_string(h.config.grid) + "," +
                        std::to_string(h.config.block) + ">>> is not valid");
  if (h.max_steps == 0) throw ScheduleError("cannot write schedule: max-steps must be at least 1");

  std::string out;
  out += std::string(kMagic) + " " + std::to_string(h.version) + "\n";
  out += "model " + h.model + "\n";
  out += "source-hash " + h.source_hash + "\n";
  out += "memory-model " + h.memory_model + "\n";
  out += "grid " + std::to_string(h.config.grid) + "\n";
  out += "block " + std::to_string(h.config.block) + "\n";
  out += "resident-blocks " + std::to_string(h.config.resident_blocks) + "\n";
  for (const auto& [name, value] : h.config.params) {
    if (name.empty() || name.find_first_of(" \t\n") != std::string::npos)
      throw ScheduleError("cannot write schedule: parameter name " + quote(name) + " is not one word");
    out += "param " + name + " " + std::to_string(value) + "\n";
  }
  out += "max-steps " + std::to_string(h.max_steps) + "\n";
  out += "trace-hash " + hex16(h.trace_hash) + "\n";
  if (!h.outcome.empty()) {
    std::string o = one_line(h.outcome);
    if (trim(o) != o) throw ScheduleError("cannot write schedule: outcome " + quote(o) + " has outer spaces");
    out += "outcome " + o + "\n";
  }
  for (const std::string& f : h.findings) {
    std::string t = one_line(f);
    if (t.empty() || trim(t) != t)
      throw ScheduleError("cannot write schedule: finding " + quote(t) + " is empty or has outer spaces");
    out += "finding " + t + "\n";
  }
  out += "decisions " + std::to_string(s.log.size()) + "\n";
  for (std::size_t i = 0; i < s.log.size(); ++i) {
    const Decision& d = s.log[i];
    if (d.alternatives == 0 || d.index >= d.alternatives)
      throw ScheduleError("cannot write schedule: decision " + std::to_string(i) + " chose " +
                          std::to_string(d.index) + " of " + std::to_string(d.alternatives) + " alternatives");
    out += std::to_string(i) + " " + std::string(name(d.kind)) + " " + std::to_string(d.index) + "/" +
           std::to_string(d.alternatives) + " " + std::to_string(d.key);
    if (const std::string_view t = decision_text(s.texts, i); !t.empty()) out += " | " + one_line(t);
    out += "\n";
  }
  return out;
}

Schedule parse_schedule(std::string_view text) {
  // A UTF-8 byte-order mark (some editors write one) is not part of the first line.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // Physical lines; a final newline does not start another line; "\r\n" is accepted.
  std::vector<std::string_view> lines;
  {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t nl = text.find('\n', start);
      std::size_t end = nl == std::string_view::npos ? text.size() : nl;
      std::string_view l = text.substr(start, end - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines.push_back(l);
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
  }
  const std::size_t last_line = lines.empty() ? 1 : lines.size();
  auto skippable = [](std::string_view l) {
    std::string_view t = trim(l);
    return t.empty() || t.front() == '#';
  };

  Schedule s;
  ScheduleHeader& h = s.header;
  std::size_t i = 0;  // index into lines; line number = i + 1

  // The version line: the first line that is not blank or a comment.
  while (i < lines.size() && skippable(lines[i])) ++i;
  const std::string expected_first = std::string(kMagic) + " " + std::to_string(schedule_format_version);
  if (i == lines.size()) fail(last_line, "empty file; a schedule starts with '" + expected_first + "'");
  {
    auto w = words(lines[i]);
    if (w.empty() || w[0] != kMagic)
      fail(i + 1, "not a scopesim schedule (it must start with '" + expected_first + "')");
    if (w.size() < 2) fail(i + 1, "no format version after '" + std::string(kMagic) + "'");
    if (w.size() > 2) fail(i + 1, "unexpected text " + quote(w[2]) + " after the format version");
    auto v = parse_uint<unsigned>(w[1]);
    if (!v || *v > static_cast<unsigned>(std::numeric_limits<int>::max()))
      fail(i + 1, "bad format version " + quote(w[1]));
    if (static_cast<int>(*v) != schedule_format_version)
      fail(i + 1, "this file is format version " + std::to_string(*v) + "; this scopesim reads version " +
                      std::to_string(schedule_format_version));
    h.version = static_cast<int>(*v);
    ++i;
  }

  // Header fields, in any order, each once (finding, param: any number), up to "decisions".
  std::map<std::string, std::size_t, std::less<>> seen;  // field -> line
  std::optional<std::uint64_t> announced;
  std::size_t decisions_line = 0;
  for (; i < lines.size(); ++i) {
    if (skippable(lines[i])) continue;
    const std::size_t ln = i + 1;
    std::string_view l = trim(lines[i]);
    std::size_t sp = 0;
    while (sp < l.size() && !is_space(l[sp])) ++sp;
    const std::string_view field = l.substr(0, sp);
    const std::string_view value = trim(l.substr(sp));
    static constexpr std::array<std::string_view, 12> known = {
        "model",     "source-hash", "memory-model", "grid",    "block",     "resident-blocks",
        "max-steps", "trace-hash",  "outcome",      "finding", "decisions", "param"};
    bool is_known = false;
    for (auto k : known) is_known = is_known || k == field;
    if (!is_known) {
      if (parse_uint<std::uint64_t>(field)) fail(ln, "a decision before the 'decisions <N>' line");
      fail(ln, "unknown header field " + quote(field));
    }
    if (field != "finding" && field != "param") {
      auto [it, fresh] = seen.emplace(std::string(field), ln);
      if (!fresh)
        fail(ln, "second '" + std::string(field) + "' line (the first is line " + std::to_string(it->second) +
                     ")");
    }
    const std::string named = quote(field);  // 'field'
    if (value.empty()) fail(ln, named + " needs a value");
    const std::size_t longest = field == "outcome" || field == "finding" ? kMaxText : kMaxName;
    if (value.size() > longest)
      fail(ln, named + " is " + std::to_string(value.size()) + " characters long, more than " +
                   std::to_string(longest));
    auto one_word = [&]() {
      if (words(value).size() != 1) fail(ln, named + " takes one word, got " + quote(value));
      return std::string(value);
    };
    auto number = [&](std::uint64_t max) -> std::uint64_t {
      auto v = parse_uint<std::uint64_t>(value);
      const bool digits = value.find_first_not_of("0123456789") == std::string_view::npos;
      if (!v && !digits) fail(ln, named + " needs a decimal number, got " + quote(value));
      if (!v || *v > max) fail(ln, named + " value " + quote(value) + " is too large");
      return *v;
    };
    constexpr std::uint64_t u32max = std::numeric_limits<std::uint32_t>::max();
    if (field == "model") {
      h.model = one_word();
    } else if (field == "source-hash") {
      h.source_hash = one_word();
      if (!is_hex(h.source_hash) || h.source_hash.size() > 64)
        fail(ln, "source-hash must be hex digits, got " + quote(value));
      for (char& c : h.source_hash) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (field == "memory-model") {
      h.memory_model = one_word();
    } else if (field == "grid") {
      h.config.grid = static_cast<unsigned>(number(u32max));
      if (h.config.grid == 0 || h.config.grid > kMaxGrid)
        fail(ln, "grid must be 1 to " + std::to_string(kMaxGrid) + " blocks, got " + quote(value));
    } else if (field == "block") {
      h.config.block = static_cast<unsigned>(number(u32max));
      if (h.config.block == 0 || h.config.block > kMaxBlock)
        fail(ln, "block must be 1 to " + std::to_string(kMaxBlock) + " threads, got " + quote(value));
    } else if (field == "resident-blocks") {
      h.config.resident_blocks = static_cast<unsigned>(number(u32max));
    } else if (field == "param") {
      // "param NAME VALUE": a model parameter of the launch (any number of lines).
      const auto w = words(value);
      if (w.size() != 2) fail(ln, "param needs a name and a decimal value, got " + quote(value));
      const std::string_view pname = w[0], pvalue = w[1];
      long long v = 0;
      const auto [end, ec] = std::from_chars(pvalue.data(), pvalue.data() + pvalue.size(), v);
      if (ec == std::errc::result_out_of_range) fail(ln, "param value " + quote(pvalue) + " is too large");
      if (ec != std::errc{} || end != pvalue.data() + pvalue.size())
        fail(ln, "param needs a name and a decimal value, got " + quote(value));
      if (!h.config.params.emplace(std::string(pname), v).second)
        fail(ln, "param " + quote(pname) + " is given twice");
    } else if (field == "max-steps") {
      h.max_steps = number(std::numeric_limits<std::uint64_t>::max());
      if (h.max_steps == 0) fail(ln, "max-steps must be at least 1");
    } else if (field == "trace-hash") {
      if (value.size() != 16 || !is_hex(value))
        fail(ln, "trace-hash must be 16 hex digits, got " + quote(value));
      std::uint64_t v = 0;
      std::from_chars(value.data(), value.data() + value.size(), v, 16);
      h.trace_hash = v;
    } else if (field == "outcome") {
      h.outcome = std::string(value);
    } else if (field == "finding") {
      h.findings.emplace_back(value);
    } else {  // decisions
      announced = number(std::numeric_limits<std::uint64_t>::max());
      decisions_line = ln;
      ++i;
      break;
    }
  }
  if (!announced) fail(last_line, "file ends before the 'decisions <N>' line");
  for (std::string_view required :
       {"model", "source-hash", "memory-model", "grid", "block", "resident-blocks", "max-steps", "trace-hash"})
    if (!seen.count(required))
      fail(decisions_line, "the header lacks a '" + std::string(required) + "' line");

  // Decisions: "<i> <kind> <index>/<alternatives> <key> | <text>".
  for (; i < lines.size(); ++i) {
    if (skippable(lines[i])) continue;
    const std::size_t ln = i + 1;
    const std::uint64_t n = s.log.size();
    if (n == *announced)
      fail(ln, "more decisions than the " + std::to_string(*announced) + " announced on line " +
                   std::to_string(decisions_line));
    std::string_view l = lines[i];
    std::string_view fields = l, rest;
    if (auto bar = l.find('|'); bar != std::string_view::npos) {
      fields = l.substr(0, bar);
      rest = l.substr(bar + 1);
      if (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    }
    auto w = words(fields);
    if (w.size() != 4)
      fail(ln, "a decision is '<i> <kind> <index>/<alternatives> <key>', got " + quote(trim(fields)));
    auto num = parse_uint<std::uint64_t>(w[0]);
    if (!num) fail(ln, "bad decision number " + quote(w[0]));
    if (*num != n) fail(ln, "decision numbered " + std::string(w[0]) + ", expected " + std::to_string(n));
    Decision d{};
    auto kind = parse_kind(w[1]);
    if (!kind) fail(ln, "unknown decision kind " + quote(w[1]) + " (" + kind_list() + ")");
    d.kind = *kind;
    std::size_t slash = w[2].find('/');
    if (slash == std::string_view::npos) fail(ln, "expected <index>/<alternatives>, got " + quote(w[2]));
    auto index = parse_uint<unsigned>(w[2].substr(0, slash));
    auto alts = parse_uint<unsigned>(w[2].substr(slash + 1));
    if (!index || !alts) fail(ln, "expected <index>/<alternatives>, got " + quote(w[2]));
    if (*alts == 0) fail(ln, "a decision needs at least one alternative, got " + quote(w[2]));
    if (*index >= *alts)
      fail(ln, "index " + std::to_string(*index) + " is out of range for " + std::to_string(*alts) +
                   " alternatives");
    d.index = *index;
    d.alternatives = *alts;
    auto key = parse_uint<std::uint64_t>(w[3]);
    if (!key) fail(ln, "bad decision key " + quote(w[3]) + " (a decimal number)");
    d.key = *key;
    s.log.push_back(d);
    s.texts.emplace_back(rest);
  }
  if (s.log.size() != *announced)
    fail(last_line, "file ends after " + std::to_string(s.log.size()) + " of the " + std::to_string(*announced) +
                        " decisions announced on line " + std::to_string(decisions_line));
  return s;
}

std::uint64_t trace_hash(const std::vector<std::string>& trace) {
  TextHash h;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i > 0) h.feed("\n");
    h.feed(trace[i]);
  }
  return h.value;
}

}  // namespace scopesim
