#include "sim/litmus/parser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace scopesim::litmus {

namespace {

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  return out;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_ident(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool is_register(std::string_view s) {
  if (s.size() < 2 || s[0] != 'r') return false;
  for (char c : s.substr(1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// An integer literal: decimal or 0x hexadecimal digits after at most one '-'.
// `fits`: its value fits 64 bits (else `value` is 0).
struct Literal {
  std::int64_t value = 0;
  bool fits = true;
};

std::optional<Literal> literal(std::string_view s) {
  const bool neg = !s.empty() && s[0] == '-';
  std::string_view d = neg ? s.substr(1) : s;
  int base = 10;
  if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
    d.remove_prefix(2);
    base = 16;
  }
  std::uint64_t magnitude = 0;
  const auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), magnitude, base);
  if (d.empty() || p != d.data() + d.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return std::nullopt;  // no digits, a second sign ("--5"), or other characters
  const std::uint64_t most = neg ? std::uint64_t{1} << 63 : std::uint64_t{INT64_MAX};
  if (ec == std::errc::result_out_of_range || magnitude > most) return Literal{0, false};
  return Literal{neg ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude), true};
}

// A literal's value when it fits 64 bits.
std::optional<std::int64_t> number(std::string_view s) {
  const auto l = literal(s);
  if (!l || !l->fits) return std::nullopt;
  return l->value;
}

// The register arithmetic's mnemonics (REG, A, B: no memory access).
const std::map<std::string, LocalOp, std::less<>> local_ops{
    {"add", LocalOp::add}, {"sub", LocalOp::sub},  {"mul", LocalOp::mul},  {"div", LocalOp::div}, {"rem", LocalOp::rem},
    {"and", LocalOp::and_}, {"or", LocalOp::or_}, {"xor", LocalOp::xor_}, {"shl", LocalOp::shl}, {"shr", LocalOp::shr}};

// The largest CTA or GPU a placement may name: the launch has a block for
// every CTA up to the largest named.
constexpr std::int64_t max_placement = 1023;

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : file_(file) {
    // A UTF-8 byte-order mark (some editors write one) is not part of the first line.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '\n') {
        std::string_view l = text.substr(start, i - start);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        lines_.emplace_back(l);
        start = i + 1;
      }
  }

  Program parse() {
    p_.file = file_;
    header();
    comments_and_init();
    placement();
    rows();
    condition();
    check_program();
    return std::move(p_);
  }

 private:
  [[noreturn]] void fail(std::uint32_t line, const std::string& what) const {
    throw ParseError(file_ + ":" + std::to_string(line) + ": " + what);
  }
  [[noreturn]] void unsupported(std::uint32_t line, const std::string& what) const {
    throw Unsupported(file_ + ":" + std::to_string(line) + ": unsupported: " + what);
  }

  // Index of the next non-blank line at or after `i_`, or lines_.size().
  bool next_nonblank() {
    while (i_ < lines_.size() && trim(lines_[i_]).empty()) ++i_;
    return i_ < lines_.size();
  }
  std::uint32_t lineno() const { return static_cast<std::uint32_t>(i_ + 1); }
  std::uint32_t last_content_line() const {
    std::size_t n = lines_.size();
    while (n > 1 && trim(lines_[n - 1]).empty()) --n;
    return static_cast<std::uint32_t>(n);
  }

  void header() {
    if (!next_nonblank()) fail(1, "empty file: expected 'PTX NAME'");
    const std::string l = trim(lines_[i_]);
    std::string word = l.substr(0, l.find_first_of(" \t"));
    if (word != "PTX" && word != "ptx") fail(lineno(), "expected 'PTX NAME' header, found '" + word + "'");
    p_.name = trim(l.substr(word.size()));
    if (p_.name.empty()) fail(lineno(), "the 'PTX' header names no test");
    ++i_;
  }

  void comments_and_init() {
    // Quoted comments, possibly over several lines.
    for (;;) {
      if (!next_nonblank()) fail(lineno() - 1, "missing initial state '{ ... }'");
      std::string l = trim(lines_[i_]);
      if (l[0] != '"') break;
      const std::uint32_t open = lineno();
      std::size_t at = lines_[i_].find('"') + 1;
      for (;;) {
        const std::size_t close = lines_[i_].find('"', at);
        if (close != std::string::npos) {
          if (!trim(lines_[i_].substr(close + 1)).empty()) fail(lineno(), "text after the closing quote of a comment");
          ++i_;
          break;
        }
        ++i_;
        at = 0;
        if (i_ >= lines_.size()) fail(open, "comment is never closed (missing '\"')");
      }
    }
    std::string l = trim(lines_[i_]);
    if (l[0] != '{') fail(lineno(), "expected the initial state '{ ... }', found '" + l + "'");
    // Collect everything up to '}' with the line each entry starts on; an
    // entry never starts with blanks, so each character is looked at once.
    std::string entry;
    std::uint32_t entry_line = lineno();
    std::size_t at = lines_[i_].find('{') + 1;
    const std::uint32_t open = lineno();
    for (;;) {
      // The thread row or the condition inside the state: its '}' is missing.
      if (i_ >= lines_.size() ||
          (at == 0 && (is_placement_row(trim(lines_[i_])) || is_condition_start(trim(lines_[i_])))))
        fail(open, "initial state is never closed (missing '}')");
      const std::string& s = lines_[i_];
      bool closed = false;
      for (; at < s.size(); ++at) {
        const char c = s[at];
        if (c == '}') {
          closed = true;
          break;
        }
        if (c == ';') {
          init_entry(entry, entry_line);
          entry.clear();
          continue;
        }
        if (entry.empty()) {
          if (std::isspace(static_cast<unsigned char>(c))) continue;
          entry_line = lineno();
        }
        entry += c;
      }
      if (closed) {
        init_entry(entry, entry_line);
        const std::string rest = trim(s.substr(at + 1));
        if (!rest.empty() && rest != ";") fail(lineno(), "unexpected '" + rest + "' after the initial state");
        ++i_;
        return;
      }
      if (!entry.empty()) entry += ' ';
      ++i_;
      at = 0;
    }
  }

  void init_entry(const std::string& raw, std::uint32_t line) {
    const std::string e = trim(raw);
    if (e.empty()) return;
    const std::size_t eq = e.find('=');
    if (eq == std::string::npos) {
      if (e.find('@') != std::string::npos) unsupported(line, "proxy declaration '" + e + "'");
      fail(line, "expected 'location=value' or 'P<n>:reg=value' in the initial state, found '" + e + "'");
    }
    const std::string lhs = trim(e.substr(0, eq)), rhs = trim(e.substr(eq + 1));
    const auto v = literal(rhs);
    if (!v) {
      if (!rhs.empty() && (rhs[0] == '&' || is_ident(rhs))) unsupported(line, "initial value '" + rhs + "' is an address");
      fail(line, "initial value '" + rhs + "' is not a number");
    }
    const std::int32_t value = int32(*v, rhs, line);
    const std::size_t colon = lhs.find(':');
    if (colon != std::string::npos) {
      const std::string t = trim(lhs.substr(0, colon)), r = trim(lhs.substr(colon + 1));
      const auto idx = thread_index(t);
      if (!idx) fail(line, "'" + t + "' is not a thread (P0, P1, ...)");
      if (!is_register(r)) fail(line, "'" + r + "' is not a register (r0, r1, ...)");
      for (const InitReg& earlier : init_regs_)
        if (earlier.thread == *idx && earlier.reg == r)
          fail(line, "register 'P" + std::to_string(*idx) + ":" + r + "' is initialised twice");
      init_regs_.push_back({*idx, r, value, line});
      return;
    }
    if (!is_ident(lhs) || is_register(lhs)) fail(line, "'" + lhs + "' is not a location name");
    if (p_.locations.count(lhs)) fail(line, "location '" + lhs + "' is initialised twice");
    p_.locations[lhs] = value;
  }

  // A 32-bit value, signed or not: -2^31 to 2^32-1 (`text`: the literal as written).
  std::int32_t int32(const Literal& v, const std::string& text, std::uint32_t line) const {
    if (!v.fits || v.value < INT32_MIN || v.value > UINT32_MAX) unsupported(line, "value " + text + " does not fit 32 bits");
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v.value));
  }

  // The index of thread "P<n>" (or "<n>"); a test has far fewer threads than
  // the largest index, which callers compare with the number of threads.
  static std::optional<std::uint64_t> thread_index(std::string t) {
    if (!t.empty() && t[0] == 'P') t = t.substr(1);
    const auto n = number(t);
    if (!n || *n < 0 || t[0] == '-') return std::nullopt;
    return static_cast<std::uint64_t>(*n);
  }

  void placement() {
    if (!next_nonblank()) fail(lineno() - 1, "missing the thread row 'P0@cta 0,gpu 0 | ... ;'");
    std::string l = trim(lines_[i_]);
    if (l.back() != ';') fail(lineno(), "the thread row must end with ';'");
    l.pop_back();
    std::uint32_t n = 0;
    for (const std::string& cell : split(l, '|')) {
      const std::size_t at = cell.find('@');
      if (at == std::string::npos) fail(lineno(), "expected 'P" + std::to_string(n) + "@cta N,gpu M', found '" + cell + "'");
      const auto idx = thread_index(trim(cell.substr(0, at)));
      if (!idx || *idx != n || trim(cell.substr(0, at))[0] != 'P')
        fail(lineno(), "thread " + std::to_string(n) + " must be named P" + std::to_string(n) + ", found '" +
                           trim(cell.substr(0, at)) + "'");
      const std::vector<std::string> parts = split(cell.substr(at + 1), ',');
      Thread t;
      t.name = "P" + std::to_string(n);
      bool cta = false, gpu = false;
      for (const std::string& part : parts) {
        std::istringstream ss(part);
        std::string key, val, extra;
        ss >> key >> val >> extra;
        const auto v = number(val);
        if (!extra.empty() || !v)
          fail(lineno(), "expected 'cta N' or 'gpu N' in the placement of " + t.name + ", found '" + part + "'");
        if ((key == "cta" || key == "gpu") && (*v < 0 || *v > max_placement))
          fail(lineno(), "'" + part + "' in the placement of " + t.name + ": a " + key + " is a number from 0 to " +
                             std::to_string(max_placement));
        if (key == "cta" && !cta) {
          t.cta = static_cast<std::uint32_t>(*v);
          cta = true;
        } else if (key == "gpu" && !gpu) {
          t.gpu = static_cast<std::uint32_t>(*v);
          gpu = true;
        } else {
          fail(lineno(), "unexpected '" + part + "' in the placement of " + t.name);
        }
      }
      if (!cta || !gpu) fail(lineno(), "the placement of " + t.name + " needs both 'cta N' and 'gpu N'");
      p_.threads.push_back(std::move(t));
      ++n;
    }
    ++i_;
  }

  // "P0@cta 0,gpu 0 | ...": a thread name, then '@'.
  static bool is_placement_row(std::string_view l) {
    std::size_t k = 1;
    while (k < l.size() && std::isdigit(static_cast<unsigned char>(l[k]))) ++k;
    if (l.empty() || l[0] != 'P' || k == 1) return false;
    while (k < l.size() && std::isspace(static_cast<unsigned char>(l[k]))) ++k;
    return k < l.size() && l[k] == '@';
  }

  // "exists", "forall" or either after '~' and blanks ("~ exists"; condition()
  // refuses "~forall" by name).
  static bool is_condition_start(const std::string& l) {
    std::string_view rest = l;
    if (!rest.empty() && rest[0] == '~') rest = std::string_view(l).substr(std::min(l.find_first_not_of(" \t", 1), l.size()));
    for (std::string_view q : {"exists", "forall"})
      if (starts_with(rest, q) && (rest.size() == q.size() || !std::isalnum(static_cast<unsigned char>(rest[q.size()]))))
        return true;
    return false;
  }

  void rows() {
    for (;;) {
      if (!next_nonblank()) fail(last_content_line(), "missing the final condition (exists, ~exists or forall)");
      std::string l = trim(lines_[i_]);
      if (is_condition_start(l)) return;
      if (l.back() != ';') {
        // Parentheses and comparisons are a condition's, never a row's: its quantifier is unknown ("maybe (x == 1)").
        if (l.find_first_of("(=") != std::string::npos) {
          const std::string word = l.substr(0, l.find_first_of(" \t("));
          fail(lineno(), "expected exists, ~exists or forall to start the final condition, found '" +
                             (word.empty() ? l : word) + "'");
        }
        fail(lineno(), "an instruction row must end with ';'");
      }
      l.pop_back();
      const std::vector<std::string> cells = split(l, '|');
      if (cells.size() != p_.threads.size())
        fail(lineno(), "the row has " + std::to_string(cells.size()) + " column(s), the test has " +
                           std::to_string(p_.threads.size()) + " thread(s)");
      for (std::size_t k = 0; k < cells.size(); ++k)
        if (!cells[k].empty()) instruction(p_.threads[k], cells[k]);
      ++i_;
    }
  }

  // ---- instructions ----

  Operand operand(const std::string& s, const std::string& what) {
    if (is_register(s)) return Operand::of(s);
    if (auto v = literal(s)) return Operand::constant(int32(*v, s, lineno()));
    fail(lineno(), what + " '" + s + "' is neither a register nor a number");
  }
  std::string reg(const std::string& s) {
    if (!is_register(s)) fail(lineno(), "'" + s + "' is not a register (r0, r1, ...)");
    return s;
  }
  std::string location(std::string s) {
    if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = trim(s.substr(1, s.size() - 2));
    if (!is_ident(s) || is_register(s)) fail(lineno(), "'" + s + "' is not a location name");
    used_locations_.insert(s);
    return s;
  }
  void arity(const std::vector<std::string>& ops, std::size_t lo, std::size_t hi, const std::string& mnemonic) {
    if (ops.size() < lo || ops.size() > hi)
      fail(lineno(), "'" + mnemonic + "' takes " +
                         (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                         " operand(s), found " + std::to_string(ops.size()));
  }

  // Splits "ld.acquire.gpu.u32" into its words, checking and dropping a
  // 32-bit type suffix; `is_unsigned`: the suffix is .u32.
  std::vector<std::string> words(const std::string& mnemonic, bool& is_unsigned) {
    std::vector<std::string> w = split(mnemonic, '.');
    is_unsigned = false;
    if (!w.empty()) {
      const std::string& last = w.back();
      static const std::set<std::string> ok{"b32", "u32", "s32"};
      static const std::set<std::string> other{"b8", "b16", "b64", "u8", "u16", "u64", "s8", "s16", "s64",
                                               "f16", "f32", "f64", "b128"};
      if (ok.count(last)) {
        is_unsigned = last == "u32";
        w.pop_back();
      } else if (other.count(last)) {
        unsupported(lineno(), "'" + mnemonic + "': only 32-bit accesses are modelled (mixed sizes)");
      }
    }
    return w;
  }

  Scope scope_word(const std::string& s, const std::string& mnemonic) {
    if (s == "cta") return Scope::cta;
    if (s == "gpu") return Scope::gpu;
    if (s == "sys") return Scope::sys;
    if (s == "cluster") unsupported(lineno(), "'" + mnemonic + "': cluster scope");
    fail(lineno(), "'" + mnemonic + "': unknown scope '" + s + "' (cta, gpu or sys)");
  }

  Sem sem_word(const std::string& s, const std::string& mnemonic, std::initializer_list<Sem> allowed) {
    static const std::map<std::string, Sem> sems{{"weak", Sem::weak},       {"relaxed", Sem::relaxed},
                                                 {"acquire", Sem::acquire}, {"release", Sem::release},
                                                 {"acq_rel", Sem::acq_rel}, {"sc", Sem::sc}};
    auto it = sems.find(s);
    if (it == sems.end()) fail(lineno(), "'" + mnemonic + "': unknown semantics '" + s + "'");
    for (Sem a : allowed)
      if (a == it->second) return a;
    fail(lineno(), "'" + mnemonic + "': ." + s + " is not allowed here");
  }

  RmwOp rmw_word(const std::string& s, const std::string& mnemonic) {
    static const std::map<std::string, RmwOp> ops{{"add", RmwOp::add},   {"sub", RmwOp::sub}, {"and", RmwOp::and_},
                                                  {"or", RmwOp::or_},    {"xor", RmwOp::xor_}, {"min", RmwOp::min},
                                                  {"max", RmwOp::max},   {"exch", RmwOp::exch}, {"cas", RmwOp::cas},
                                                  {"inc", RmwOp::inc},   {"dec", RmwOp::dec}};
    auto it = ops.find(s);
    if (it == ops.end()) fail(lineno(), "'" + mnemonic + "': unknown operation '" + s + "'");
    return it->second;
  }

  // Memory access words after the mnemonic: SEM[.SCOPE] (ld/st) or SEM.SCOPE (atom/red).
  void access_words(Instr& in, const std::vector<std::string>& w, std::size_t from, bool scope_required,
                    const std::string& mnemonic, std::initializer_list<Sem> allowed) {
    if (w.size() <= from) {
      // ld/st without semantics: weak (PTX's default).
      if (scope_required) fail(lineno(), "'" + mnemonic + "' needs a semantics and a scope");
      in.sem = Sem::weak;
      return;
    }
    if (w[from] == "volatile") {
      in.is_volatile = true;
      in.sem = Sem::relaxed;
      in.scope = Scope::sys;
      if (w.size() > from + 1) fail(lineno(), "'" + mnemonic + "': .volatile takes no scope");
      return;
    }
    in.sem = sem_word(w[from], mnemonic, allowed);
    if (w.size() > from + 1) {
      in.scope = scope_word(w[from + 1], mnemonic);
    } else if (scope_required || in.sem != Sem::weak) {
      if (scope_required) fail(lineno(), "'" + mnemonic + "' needs a scope (.cta, .gpu or .sys)");
      in.scope = Scope::sys;  // PTX: a strong access without a scope is .sys
    }
  }

  void instruction(Thread& t, const std::string& cell) {
    Instr in;
    in.line = lineno();
    // A label: "LC00:".
    if (cell.back() == ':' && is_ident(trim(cell.substr(0, cell.size() - 1)))) {
      in.op = Op::label;
      in.label = trim(cell.substr(0, cell.size() - 1));
      t.code.push_back(in);
      return;
    }
    const std::size_t sp = cell.find_first_of(" \t");
    const std::string mnemonic = cell.substr(0, sp);
    std::vector<std::string> ops;
    if (sp != std::string::npos) ops = split(cell.substr(sp), ',');
    for (const std::string& o : ops)
      if (o.empty()) fail(lineno(), "empty operand in '" + cell + "'");
    const std::vector<std::string> w = words(mnemonic, in.is_unsigned);
    const std::string& head = w[0];
    static const std::set<std::string> proxy_ops{"tld", "suld", "cold", "sust", "suatom", "sured", "tex", "ldu"};
    if (proxy_ops.count(head)) unsupported(lineno(), "'" + mnemonic + "': proxies (texture, surface, constant) are not modelled");
    if (head == "fence" && w.size() > 1 && (w[1] == "proxy" || w[1] == "alias"))
      unsupported(lineno(), "'" + mnemonic + "': proxy fences are not modelled");
    if (head == "ld") {
      in.op = Op::ld;
      if (w.size() > 3) fail(lineno(), "'" + mnemonic + "': expected ld.SEM[.SCOPE]");
      access_words(in, w, 1, false, mnemonic, {Sem::weak, Sem::relaxed, Sem::acquire});
      arity(ops, 2, 2, mnemonic);
      in.reg = reg(ops[0]);
      in.loc = location(ops[1]);
    } else if (head == "st") {
      in.op = Op::st;
      if (w.size() > 3) fail(lineno(), "'" + mnemonic + "': expected st.SEM[.SCOPE]");
      access_words(in, w, 1, false, mnemonic, {Sem::weak, Sem::relaxed, Sem::release});
      arity(ops, 2, 2, mnemonic);
      in.loc = location(ops[0]);
      in.a = operand(ops[1], "stored value");
    } else if (head == "atom" || head == "red") {
      in.op = head == "atom" ? Op::atom : Op::red;
      if (w.size() != 4) fail(lineno(), "'" + mnemonic + "': expected " + head + ".SEM.SCOPE.OP");
      access_words(in, w, 1, true, mnemonic, {Sem::relaxed, Sem::acquire, Sem::release, Sem::acq_rel});
      in.rmw = rmw_word(w[3], mnemonic);
      if (in.op == Op::atom) {
        arity(ops, in.rmw == RmwOp::cas ? 4 : 3, in.rmw == RmwOp::cas ? 4 : 3, mnemonic);
        in.reg = reg(ops[0]);
        in.loc = location(ops[1]);
        in.a = operand(ops[2], "operand");
        if (in.rmw == RmwOp::cas) in.b = operand(ops[3], "operand");
      } else {
        if (in.rmw == RmwOp::cas || in.rmw == RmwOp::exch) fail(lineno(), "'" + mnemonic + "': red has no ." + w[3]);
        arity(ops, 2, 2, mnemonic);
        in.loc = location(ops[0]);
        in.a = operand(ops[1], "operand");
      }
    } else if (head == "fence" || head == "membar") {
      in.op = Op::fence;
      if (head == "membar") {
        // membar.{cta,gl,sys} is fence.sc at that scope.
        if (w.size() != 2) fail(lineno(), "'" + mnemonic + "': expected membar.cta, membar.gl or membar.sys");
        in.sem = Sem::sc;
        in.scope = scope_word(w[1] == "gl" ? "gpu" : w[1], mnemonic);
      } else {
        if (w.size() != 3) fail(lineno(), "'" + mnemonic + "': expected fence.sc.SCOPE or fence.acq_rel.SCOPE");
        in.sem = sem_word(w[1], mnemonic, {Sem::sc, Sem::acq_rel});
        in.scope = scope_word(w[2], mnemonic);
      }
      arity(ops, 0, 0, mnemonic);
    } else if (head == "bar" || head == "barrier") {
      std::size_t k = 1;
      if (w.size() > k && w[k] == "cta") ++k;
      if (w.size() != k + 1 || (w[k] != "sync" && w[k] != "arrive"))
        fail(lineno(), "'" + mnemonic + "': expected bar.cta.sync or bar.cta.arrive");
      in.op = w[k] == "sync" ? Op::bar_sync : Op::bar_arrive;
      arity(ops, 1, 3, mnemonic);
      const auto inst = number(ops[0]);
      if (!inst || *inst < 0 || *inst > 15) fail(lineno(), "'" + mnemonic + "': the barrier '" + ops[0] + "' is not a number from 0 to 15");
      in.instance = static_cast<std::int32_t>(*inst);
      in.a = ops.size() > 1 ? operand(ops[1], "barrier id") : Operand::constant(in.instance);
      if (ops.size() > 2) {
        in.b = operand(ops[2], "thread count");
        in.has_count = true;
      }
      if (!in.a.reg && (in.a.value < 0 || in.a.value > 15))
        fail(lineno(), "'" + mnemonic + "': barrier id " + std::to_string(in.a.value) + " is not from 0 to 15");
      if (in.has_count && !in.b.reg && in.b.value < 1)
        fail(lineno(), "'" + mnemonic + "': thread count " + std::to_string(in.b.value) + " is not positive");
    } else if (const auto local = local_ops.find(head); local != local_ops.end()) {
      if (w.size() != 1) fail(lineno(), "'" + mnemonic + "': expected " + head + " REG, A, B");
      in.op = Op::local;
      in.local = local->second;
      // An untyped shift right fills with zeros, as an unsigned one (PTX).
      if (in.local == LocalOp::shr && mnemonic.ends_with(".b32")) in.is_unsigned = true;
      arity(ops, 3, 3, mnemonic);
      in.reg = reg(ops[0]);
      in.a = operand(ops[1], "operand");
      in.b = operand(ops[2], "operand");
    } else if (head == "goto" || head == "bra") {
      if (w.size() != 1 && !(head == "bra" && w.size() == 2 && w[1] == "uni")) fail(lineno(), "'" + mnemonic + "': expected goto LABEL");
      in.op = Op::jump;
      arity(ops, 1, 1, mnemonic);
      if (!is_ident(ops[0])) fail(lineno(), "'" + ops[0] + "' is not a label");
      in.label = ops[0];
    } else if (head == "beq" || head == "bne" || head == "blt" || head == "ble" || head == "bgt" || head == "bge") {
      if (w.size() != 1) fail(lineno(), "'" + mnemonic + "': expected " + head + " A, B, LABEL");
      in.op = Op::branch;
      static const std::map<std::string, BranchCmp> cmps{{"beq", BranchCmp::eq}, {"bne", BranchCmp::ne},
                                                         {"blt", BranchCmp::lt}, {"ble", BranchCmp::le},
                                                         {"bgt", BranchCmp::gt}, {"bge", BranchCmp::ge}};
      in.cmp = cmps.at(head);
      arity(ops, 3, 3, mnemonic);
      in.a = operand(ops[0], "operand");
      in.b = operand(ops[1], "operand");
      if (!is_ident(ops[2])) fail(lineno(), "'" + ops[2] + "' is not a label");
      in.label = ops[2];
    } else {
      fail(lineno(), "unknown instruction '" + mnemonic + "'");
    }
    t.code.push_back(std::move(in));
  }

  // ---- condition ----

  struct Token {
    std::string text;
    std::uint32_t line;
  };

  void condition() {
    const std::uint32_t start = lineno();
    std::vector<Token> toks;
    for (; i_ < lines_.size(); ++i_) {
      const std::string& s = lines_[i_];
      for (std::size_t k = 0; k < s.size();) {
        const char c = s[k];
        if (std::isspace(static_cast<unsigned char>(c))) {
          ++k;
          continue;
        }
        auto two = s.substr(k, 2);
        if (two == "/\\" || two == "\\/" || two == "==" || two == "!=") {
          toks.push_back({two, lineno()});
          k += 2;
        } else if (c == '(' || c == ')' || c == '~' || c == '=') {
          toks.push_back({std::string(1, c), lineno()});
          ++k;
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
          std::size_t e = k + 1;
          while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_' || s[e] == ':')) ++e;
          toks.push_back({s.substr(k, e - k), lineno()});
          k = e;
        } else {
          fail(lineno(), std::string("unexpected '") + c + "' in the condition");
        }
      }
    }
    toks_ = std::move(toks);
    pos_ = 0;
    Condition& c = p_.condition;
    c.line = start;
    if (peek() == "~" && pos_ + 1 < toks_.size() && toks_[pos_ + 1].text == "exists") {
      pos_ += 2;
      c.quantifier = Quantifier::not_exists;
    } else if (peek() == "exists") {
      ++pos_;
      c.quantifier = Quantifier::exists;
    } else if (peek() == "forall") {
      ++pos_;
      c.quantifier = Quantifier::forall;
    } else {
      std::string q = peek();
      if (q == "~" && pos_ + 1 < toks_.size()) q += toks_[pos_ + 1].text;
      fail(start, "expected exists, ~exists or forall, found '" + q + "'");
    }
    c.expr = disjunction(0);
    if (pos_ < toks_.size()) fail(toks_[pos_].line, "unexpected '" + toks_[pos_].text + "' after the condition");
  }

  std::string peek() const { return pos_ < toks_.size() ? toks_[pos_].text : ""; }
  std::uint32_t tok_line() const { return pos_ < toks_.size() ? toks_[pos_].line : toks_.empty() ? p_.condition.line : toks_.back().line; }
  // `depth`: the parentheses and negations around what is parsed (at most max_nesting).
  std::shared_ptr<Expr> disjunction(std::size_t depth) { return chain(Expr::Kind::or_, "\\/", depth); }
  std::shared_ptr<Expr> conjunction(std::size_t depth) { return chain(Expr::Kind::and_, "/\\", depth); }
  // Operands joined by `op` (\/ of conjunctions, /\ of unaries) as one node of kind `k`.
  std::shared_ptr<Expr> chain(Expr::Kind k, const std::string& op, std::size_t depth) {
    auto operand = [&] { return k == Expr::Kind::or_ ? conjunction(depth) : unary(depth); };
    auto first = operand();
    if (peek() != op) return first;
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->sub.push_back(std::move(first));
    while (peek() == op) {
      ++pos_;
      e->sub.push_back(operand());
    }
    return e;
  }
  std::shared_ptr<Expr> unary(std::size_t depth) {
    if ((peek() == "~" || peek() == "(") && depth == max_nesting)
      fail(tok_line(), "condition nested deeper than " + std::to_string(max_nesting));
    if (peek() == "~") {
      ++pos_;
      auto e = std::make_shared<Expr>();
      e->kind = Expr::Kind::not_;
      e->sub = {unary(depth + 1)};
      return e;
    }
    if (peek() == "(") {
      ++pos_;
      auto e = disjunction(depth + 1);
      if (peek() != ")") fail(tok_line(), "expected ')' in the condition" + found());
      ++pos_;
      return e;
    }
    if (peek() == "true") {
      ++pos_;
      return std::make_shared<Expr>();
    }
    auto e = std::make_shared<Expr>();
    e->lhs = term();
    const std::string op = peek();
    if (op == "==" || op == "=") e->kind = Expr::Kind::eq;
    else if (op == "!=") e->kind = Expr::Kind::ne;
    else fail(tok_line(), "expected '==' or '!=' in the condition" + found());
    ++pos_;
    e->rhs = term();
    return e;
  }
  std::string found() const { return pos_ < toks_.size() ? ", found '" + toks_[pos_].text + "'" : ", found the end"; }
  Term term() {
    if (pos_ >= toks_.size()) fail(tok_line(), "the condition ends too early");
    const Token& t = toks_[pos_];
    Term out;
    const std::size_t colon = t.text.find(':');
    if (colon != std::string::npos) {
      const auto idx = thread_index(t.text.substr(0, colon));
      const std::string r = t.text.substr(colon + 1);
      if (!idx || *idx >= p_.threads.size())
        fail(t.line, "'" + t.text.substr(0, colon) + "' in the condition is not a thread of the test");
      if (!is_register(r)) fail(t.line, "'" + r + "' in the condition is not a register");
      out.kind = Term::Kind::reg;
      out.thread = static_cast<std::uint32_t>(*idx);  // below the number of threads
      out.name = r;
    } else if (auto v = literal(t.text)) {
      out.kind = Term::Kind::constant;
      out.value = int32(*v, t.text, t.line);
    } else if (is_ident(t.text) && !is_register(t.text)) {
      out.kind = Term::Kind::location;
      out.name = t.text;
    } else {
      fail(t.line, "expected a register (P0:r1), a location or a number in the condition" + found());
    }
    if (out.kind != Term::Kind::constant) condition_terms_.push_back({out, t.line});
    ++pos_;
    return out;
  }

  // ---- whole program ----

  void check_program() {
    for (const auto& r : init_regs_) {
      if (r.thread >= p_.threads.size()) fail(r.line, "thread P" + std::to_string(r.thread) + " is not in the test");
      p_.threads[r.thread].init[r.reg] = r.value;
    }
    for (const std::string& l : used_locations_)
      if (!p_.locations.count(l)) p_.locations[l] = 0;  // litmus convention: locations start at 0
    for (const Thread& t : p_.threads) {
      std::map<std::string, std::uint32_t> labels;
      for (const Instr& in : t.code)
        if (in.op == Op::label && !labels.emplace(in.label, in.line).second)
          fail(in.line, t.name + " defines label " + in.label + " twice");
      for (const Instr& in : t.code)
        if ((in.op == Op::jump || in.op == Op::branch) && !labels.count(in.label))
          fail(in.line, t.name + " jumps to undefined label " + in.label);
    }
    // What the condition names has a value of the test's own: a register that
    // nothing sets or a location that nothing declares or uses would read 0
    // unnoticed, the mark of a typo.
    for (const auto& [term, line] : condition_terms_) {
      if (term.kind == Term::Kind::reg) {
        const Thread& t = p_.threads[term.thread];
        const bool written = t.init.count(term.name) > 0 ||
                             std::any_of(t.code.begin(), t.code.end(), [&](const Instr& in) { return in.reg == term.name; });
        if (!written)
          fail(line, "'" + term.outcome_name() + "' in the condition is never written: no instruction of " + t.name +
                         " writes " + term.name + " and the initial state does not set it");
      } else if (!p_.locations.count(term.name)) {
        fail(line, "location '" + term.name + "' in the condition is neither in the initial state nor used by an instruction");
      }
    }
  }

  struct InitReg {
    std::uint64_t thread;
    std::string reg;
    std::int32_t value;
    std::uint32_t line;
  };

  std::string file_;
  std::vector<std::string> lines_;
  std::size_t i_ = 0;
  Program p_;
  std::vector<InitReg> init_regs_;
  std::set<std::string> used_locations_;  // by instructions
  std::vector<std::pair<Term, std::uint32_t>> condition_terms_;  // registers and locations, with their lines
  std::vector<Token> toks_;
  std::size_t pos_ = 0;
};

}  // namespace

Program parse(std::string_view text, const std::string& file) { return Parser(text, file).parse(); }

Program parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path + ":0: cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

}  // namespace scopesim::litmus
