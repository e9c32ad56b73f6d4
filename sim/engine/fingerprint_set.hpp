// The distinct fingerprints of an exploration's runs: a set of 64-bit hashes,
// held flat (open addressing over a power-of-two table, linear probing, at
// most three quarters full), so that adding one allocates nothing and two
// sets of millions join in one pass (the union a tally of a subtree walked on
// another thread brings, Tally::add).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

#include <boost/container/small_vector.hpp>

namespace scopesim {

class FingerprintSet {
 public:
  void insert(std::uint64_t f) {
    if (f == 0) {  // (0 marks a free slot: kept apart)
      zero_ = true;
      return;
    }
    if (held_ == most_) grow();
    place(f);
  }
  // The union with `o`, which is left empty.
  void insert(FingerprintSet&& o) {
    if (o.held_ > held_) std::swap(*this, o);
    for (const std::uint64_t f : o.slots_)
      if (f != 0) insert(f);
    zero_ = zero_ || o.zero_;
    o = FingerprintSet{};
  }
  std::size_t size() const { return held_ + (zero_ ? 1 : 0); }

 private:
  // A fingerprint is a hash already: its bits scattered by a multiplier, the
  // top ones pick its slot.
  std::size_t home(std::uint64_t f) const { return static_cast<std::size_t>((f * 0x9e3779b97f4a7c15ULL) >> shift_); }
  void place(std::uint64_t f) {
    for (std::size_t i = home(f);; i = (i + 1) & mask_) {
      if (slots_[i] == f) return;
      if (slots_[i] == 0) {
        slots_[i] = f;
        ++held_;
        return;
      }
    }
  }
  void grow() {
    const Slots old(std::move(slots_));  // (empty before the first table)
    slots_.assign(old.empty() ? kFirst : 2 * old.size(), 0);
    shift_ = 64;
    for (std::size_t n = slots_.size(); n > 1; n >>= 1) --shift_;
    mask_ = slots_.size() - 1;
    most_ = slots_.size() / 4 * 3;
    held_ = 0;
    for (const std::uint64_t f : old)
      if (f != 0) place(f);
  }

  // The first table inline: most explorations see a few distinct
  // executions, and their set then allocates nothing.
  static constexpr std::size_t kFirst = 16;
  using Slots = boost::container::small_vector<std::uint64_t, kFirst>;
  Slots slots_;  // 0: free
  std::size_t held_ = 0;              // slots in use
  std::size_t most_ = 0;              // slots in use at most before the table grows: three quarters
  std::size_t mask_ = 0;              // slots_.size() - 1
  unsigned shift_ = 64;               // 64 - log2(slots)
  bool zero_ = false;                 // 0 is in the set
};

}  // namespace scopesim
