// Finds an entry of a list that grows at its end by key: by comparing each
// entry while the list is short (a run, an exploration, mostly has a few
// findings), and through an index of the entries' hashes once it is long, so
// that a list of thousands of entries (a run of a long racy kernel, whose
// every pair of racing lines is a finding of its own) does not compare each
// new entry with all those before it.
// The index holds the list's first entries as they were when indexed: the
// owner calls clear() wherever entries it indexed change or go (the list
// emptied for a new run); appending to the list needs no call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

namespace scopesim {

class ListIndex {
 public:
  // Of the list's entries [0, n), the one equal(i) accepts (at most one
  // does: the list's keys are distinct), or n. hash(): the sought key's
  // hash; hash_at(i): entry i's (both asked only once n > kCompared; an
  // entry's hash is that of the keys it equals).
  template <class Equal, class Hash, class HashAt>
  std::size_t find(std::size_t n, Equal&& equal, Hash&& hash, HashAt&& hash_at) {
    if (n <= kCompared) {
      for (std::size_t i = 0; i < n; ++i)
        if (equal(i)) return i;
      return n;
    }
    if (indexed_ > n) clear();  // (the list is shorter than when indexed: its owner emptied it)
    for (; indexed_ < n; ++indexed_) by_hash_.emplace(hash_at(indexed_), indexed_);
    for (auto [it, end] = by_hash_.equal_range(hash()); it != end; ++it)
      if (equal(it->second)) return it->second;
    return n;
  }
  // find() of a list of texts: the entry of [0, n) equal to `key`, text(i)
  // being entry i, or n.
  template <class TextAt>
  std::size_t find_text(std::size_t n, const std::string& key, TextAt&& text) {
    const auto hash = [](const std::string& s) { return std::hash<std::string>{}(s); };
    return find(
        n, [&](std::size_t i) { return text(i) == key; }, [&] { return hash(key); },
        [&](std::size_t i) { return hash(text(i)); });
  }
  void clear() {
    if (indexed_ == 0) return;  // (nothing indexed: a short list, as mostly)
    by_hash_.clear();
    indexed_ = 0;
  }

 private:
  static constexpr std::size_t kCompared = 16;
  std::unordered_multimap<std::uint64_t, std::size_t> by_hash_;  // entries [0, indexed_)
  std::size_t indexed_ = 0;
};

}  // namespace scopesim
