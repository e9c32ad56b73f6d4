// Whether two short texts are the same, compared in place: for a name that a
// run gives again where the run before gave one (an allocation's, an observed
// value's, a thread's), compared to copy only one that differs. Such names
// are a few bytes: the call of memcmp that std::string's comparison makes
// cost more than comparing them here, a word at a time from two bytes on
// (eight, four or two bytes; the last word overlapping the one before it,
// whose bytes there are alike already). (Inline wherever asked: a call cost
// more.)
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace scopesim {

namespace detail {
template <class Word>
inline Word word_at(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
}  // namespace detail

[[gnu::always_inline]] inline bool same_text(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  using detail::word_at;
  if (n >= 8) {
    for (std::size_t k = 0; k + 8 < n; k += 8)
      if (word_at<std::uint64_t>(p + k) != word_at<std::uint64_t>(q + k)) return false;
    return word_at<std::uint64_t>(p + n - 8) == word_at<std::uint64_t>(q + n - 8);
  }
  if (n >= 4)
    return word_at<std::uint32_t>(p) == word_at<std::uint32_t>(q) &&
           word_at<std::uint32_t>(p + n - 4) == word_at<std::uint32_t>(q + n - 4);
  if (n >= 2)
    return word_at<std::uint16_t>(p) == word_at<std::uint16_t>(q) &&
           word_at<std::uint16_t>(p + n - 2) == word_at<std::uint16_t>(q + n - 2);
  return n == 0 || *p == *q;
}

}  // namespace scopesim
