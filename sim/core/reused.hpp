// A vector whose elements outlive their removal, for buffers rebuilt run
// after run: a new element is an old one cleared (T::clear()), with the
// capacity of its own containers, so that after the first run next to
// nothing is allocated. Only [0, size()) is live; the rest wait to be reused.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace scopesim {

template <class T>
class Reused {
 public:
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T& back() { return items_[n_ - 1]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + n_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + n_; }
  // A new last element, cleared; one never used before is made of `args`.
  // (It may move the others, like push_back. Whether one is left to reuse is
  // asked by address: a size is a division by an element's.)
  template <class... Args>
  T& add(Args&&... args) {
    T& t = add_as_left(std::forward<Args>(args)...);
    t.clear();
    return t;
  }
  // add(), but the element as its last use left it, not cleared (its caller
  // tells from it what to set).
  template <class... Args>
  T& add_as_left(Args&&... args) {
    if (items_.begin() + static_cast<std::ptrdiff_t>(n_) == items_.end()) grow(std::forward<Args>(args)...);
    return take_left();
  }
  // Are `n` more elements left to reuse (add() would make none)?
  bool has_left(std::size_t n) const { return n_ + n <= items_.size(); }
  // Makes elements to reuse until `n` are left.
  void make_left(std::size_t n) {
    while (!has_left(n)) grow();
  }
  // add_as_left() where has_left(1), without the test.
  T& take_left() { return items_[n_++]; }
  void pop_back() { --n_; }
  void clear() { n_ = 0; }
  // Becomes a copy of [first, last) (copied into the elements in place).
  template <class It>
  void assign(It first, It last) {
    n_ = 0;
    for (; first != last; ++first) {
      if (n_ == items_.size())
        items_.push_back(*first);
      else
        items_[n_] = *first;
      ++n_;
    }
  }
  void assign(const Reused& o) { assign(o.begin(), o.end()); }
  // Empty, over the elements of `v` (their capacity is what carries over), and back.
  void adopt(std::vector<T> v) {
    items_ = std::move(v);
    n_ = 0;
  }
  std::vector<T> release() {
    n_ = 0;
    return std::move(items_);
  }

 private:
  // A new element made of `args`: seldom past the first run, and out of line,
  // so that add() saves and restores no registers for it.
  template <class... Args>
  [[gnu::noinline]] void grow(Args&&... args) {
    items_.emplace_back(std::forward<Args>(args)...);
  }
  std::vector<T> items_;
  std::size_t n_ = 0;
};

}  // namespace scopesim
