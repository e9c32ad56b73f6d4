#include "sim/engine/choice_log.hpp"

#include <stdexcept>

#include <algorithm>

namespace scopesim {

std::string_view name(ChoiceKind k) {
  switch (k) {
    case ChoiceKind::thread: return "thread";
    case ChoiceKind::read: return "read";
    case ChoiceKind::coherence: return "coherence";
    case ChoiceKind::dispatch: return "dispatch";
  }
  return "?";
}

bool sc_ordered_far(const StepShape& a, const StepShape& b) {
  return includes(a.sc_scope, a.where, b.where) && includes(b.sc_scope, b.where, a.where);
}

std::string log_token(const ChoiceLog& log, std::string_view launch) {
  // "v1:" then the index of every decision that had more than one alternative,
  // in order, as base-36 digits separated by '.'.
  std::string t = "v1:";
  bool first = true;
  for (const Decision& d : log) {
    if (d.alternatives <= 1) continue;
    if (!first) t += '.';
    first = false;
    unsigned v = d.index;
    std::string digits;
    do {
      const unsigned r = v % 36;
      digits.insert(digits.begin(), static_cast<char>(r < 10 ? '0' + r : 'a' + (r - 10)));
      v /= 36;
    } while (v != 0);
    t += digits;
  }
  if (!launch.empty()) {
    t += '@';
    t += launch;
  }
  return t;
}

Token parse_token(std::string_view token) {
  const std::string_view prefix = "v1:";
  if (token.substr(0, prefix.size()) != prefix)
    throw std::invalid_argument("not a scopesim token (it starts with 'v1:'): '" + std::string(token) + "'");
  Token out;
  std::string_view rest = token.substr(prefix.size());
  if (const std::size_t at = rest.find('@'); at != std::string_view::npos) {
    out.launch = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (out.launch.empty() || out.launch.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz") != std::string::npos)
      throw std::invalid_argument("malformed launch key after '@' in token '" + std::string(token) + "'");
  }
  if (rest.empty()) return out;  // a run with no choice at all
  std::size_t start = 0;
  while (start <= rest.size()) {
    const std::size_t dot = std::min(rest.find('.', start), rest.size());
    const std::string_view digits = rest.substr(start, dot - start);
    if (digits.empty() || digits.size() > 6)
      throw std::invalid_argument("malformed token near position " + std::to_string(prefix.size() + start));
    unsigned v = 0;
    for (char c : digits) {
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : -1;
      if (d < 0) throw std::invalid_argument(std::string("token has a character that is not base 36: '") + c + "'");
      v = v * 36 + static_cast<unsigned>(d);
    }
    out.indexes.push_back(v);
    start = dot + 1;
  }
  return out;
}

}  // namespace scopesim
