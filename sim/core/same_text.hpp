// Whether two short texts are the same, compared in place: for a name that a
// run gives again where the run before gave one (an allocation's, an observed
// value's), compared to copy only one that differs. Such names are a few
// bytes: the call of memcmp that std::string's comparison makes cost more
// than comparing them here.
#pragma once
#include <cstddef>
#include <string_view>

namespace scopesim {

inline bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k] != b[k]) return false;
  return true;
}

}  // namespace scopesim
