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
#include <string_view>
#include <vector>

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
    if (2 * n > slots_.size()) grow(2 * n);
    for (; indexed_ < n; ++indexed_) insert(hash_at(indexed_), indexed_);
    const std::uint64_t h = hash();
    for (std::size_t at = slot_of(h);; at = (at + 1) & mask_) {
      const Slot& s = slots_[at];
      if (s.tag != tag_) return n;  // (an empty slot ends the probe)
      if (s.hash == h && equal(s.index)) return s.index;
    }
  }
  // find() of a list of texts whose hashes are kept beside them: the entry
  // of [0, n) equal to `key`, of hash `h`, or n; text(i) and hash_of(i) are
  // entry i's. (No text is hashed here, and only one of the same hash is
  // compared.)
  template <class TextAt, class HashOf>
  std::size_t find_text(std::size_t n, std::string_view key, std::uint64_t h, TextAt&& text, HashOf&& hash_of) {
    return find(
        n, [&](std::size_t i) { return hash_of(i) == h && text(i) == key; }, [&] { return h; }, hash_of);
  }
  // (The slots stay, emptied at once: a slot is in use only with the index's
  // current tag. A list emptied for every run is indexed anew in every run,
  // with no allocation.)
  void clear() {
    if (indexed_ == 0) return;  // (nothing indexed: a short list, as mostly)
    indexed_ = 0;
    if (++tag_ == 0) {  // (the tags wrapped: no slot may read as in use)
      for (Slot& s : slots_) s.tag = 0;
      tag_ = 1;
    }
  }

 private:
  static constexpr std::size_t kCompared = 16;
  // Open addressing, probed linearly from the hash's slot; at most half the
  // slots in use. (Entries of one hash share a probe: each is compared.) A
  // hash's slot is taken from its high bits after a multiply (Fibonacci
  // hashing): the owners' hashes vary mostly in their low bits.
  struct Slot {
    std::uint64_t hash = 0;
    std::size_t index = 0;
    std::uint32_t tag = 0;  // in use when tag_
  };
  std::size_t slot_of(std::uint64_t h) const { return static_cast<std::size_t>((h * 0x9e3779b97f4a7c15ULL) >> shift_); }
  void insert(std::uint64_t h, std::size_t index) {
    std::size_t at = slot_of(h);
    while (slots_[at].tag == tag_) at = (at + 1) & mask_;
    slots_[at] = {h, index, tag_};
  }
  // Room for `n` slots at least, the entries indexed kept.
  void grow(std::size_t n) {
    std::size_t size = 64;
    unsigned bits = 6;
    for (; size < n; size *= 2) ++bits;
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    shift_ = 64 - bits;
    const std::uint32_t was = tag_;
    tag_ = 1;
    for (const Slot& s : old)
      if (s.tag == was) insert(s.hash, s.index);
  }
  std::vector<Slot> slots_;  // entries [0, indexed_), of tag_
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::uint32_t tag_ = 1;
  std::size_t indexed_ = 0;
};

}  // namespace scopesim
