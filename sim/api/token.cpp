#include "sim/api/token.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>


namespace scopesim {

std::vector<unsigned> parse_token(std::string_view token) {
  const std::string_view prefix = "v1:";
  if (token.substr(0, prefix.size()) != prefix)
    throw std::invalid_argument("not a scopesim token (it starts with 'v1:'): '" + std::string(token) + "'");
  std::string_view rest = token.substr(prefix.size());
  std::vector<unsigned> out;
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
    out.push_back(v);
    start = dot + 1;
  }
  return out;
}

unsigned TokenChooser::choose(const ChoicePoint& p) {
  if (p.keys.size() <= 1 || !error_.empty()) return 0;
  if (next_ == indexes_.size()) {
    error_ = "the run needs a " + std::string(name(p.kind)) + " decision after the token's last one (" +
             std::to_string(indexes_.size()) + ")";
    return 0;
  }
  const unsigned i = indexes_[next_++];
  if (i >= p.keys.size()) {
    error_ = "decision " + std::to_string(next_) + " of the token chooses alternative " + std::to_string(i) +
             " of a " + std::string(name(p.kind)) + " decision that has " + std::to_string(p.keys.size());
    return 0;
  }
  return i;
}

std::string TokenChooser::error() const {
  if (!error_.empty()) return error_;
  if (next_ != indexes_.size())
    return "the token has " + std::to_string(indexes_.size()) + " decisions but the run made " +
           std::to_string(next_);
  return "";
}

}  // namespace scopesim
