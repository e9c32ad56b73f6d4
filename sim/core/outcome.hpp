// An outcome: the named values a model observes at the end of a run (the
// final state). Values are raw bits with their type, compared exactly (floats
// included), kept in observation order. Header-only: the GPU harness uses it too.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/event.hpp"
#include "sim/core/same_text.hpp"

namespace scopesim {

struct Observed {
  std::string name;
  ValueType type = ValueType::i32;
  std::uint64_t bits = 0;
  bool operator==(const Observed&) const = default;
  auto operator<=>(const Observed&) const = default;
};

class Outcome {
 public:
  // (Made in place: a run observes a few values, each a step of its host.)
  void add(std::string_view name, ValueType t, std::uint64_t bits) {
    Observed& v = values_.emplace_back();
    v.name = name;
    v.type = t;
    v.bits = bits;
  }
  void clear() { values_.clear(); }
  // Value `k` of an outcome made again over an earlier one, whose values past
  // the new one's keep() then drops: runs of one model observe alike, so a
  // name is copied only where it differs.
  void set(std::size_t k, std::string_view name, ValueType t, std::uint64_t bits) {
    if (k < values_.size()) {
      // (Its type and bits first: they are then not kept while the names are compared.)
      Observed& v = values_[k];
      v.type = t;
      v.bits = bits;
      if (same_text(v.name, name)) [[likely]]
        return;
    }
    set_anew(k, name, t, bits);
  }
  // The first `n` values.
  void keep(std::size_t n) { values_.erase(values_.begin() + static_cast<std::ptrdiff_t>(n), values_.end()); }
  const std::vector<Observed>& values() const { return values_; }
  // (By a view, compared in place: a model's check names its values by
  // literals, which made a std::string each, compared by a call of memcmp.)
  bool has(std::string_view n) const {
    for (auto& v : values_) if (same_text(v.name, n)) return true;
    return false;
  }
  // Typed access by name; a missing name reads as 0.
  template <class T>
  T get(std::string_view n) const {
    for (auto& v : values_)
      if (same_text(v.name, n)) {
        T out{};
        std::memcpy(&out, &v.bits, sizeof(T));
        return out;
      }
    return T{};
  }
  long long i(std::string_view n) const {
    for (auto& v : values_)
      if (same_text(v.name, n)) {
        switch (v.type) {
          case ValueType::i32: return static_cast<std::int32_t>(v.bits);
          case ValueType::u32: return static_cast<std::uint32_t>(v.bits);
          default: return static_cast<long long>(v.bits);
        }
      }
    return 0;
  }
  // "f=1 x=0": the canonical text used in reports, schedules and GPU histograms.
  std::string text() const {
    std::string s;
    write_text(s);
    return s;
  }
  // text() into `s`, over what it held (its capacity kept: a text made run
  // after run into one string allocates only where it grows).
  void write_text(std::string& s) const {
    // (Where each value is one integer digit, as mostly, its length is known
    // first and it is written in one pass, not grown char by char.)
    std::size_t n = values_.empty() ? 0 : 3 * values_.size() - 1;  // '=', a digit and a ' ' between
    for (auto& v : values_) {
      if (!one_digit(v)) {
        s.clear();
        append_by_parts(s);
        return;
      }
      n += v.name.size();
    }
    s.resize(n);
    char* at = s.data();
    for (auto& v : values_) {
      if (at != s.data()) *at++ = ' ';
      for (char c : v.name) *at++ = c;
      *at++ = '=';
      *at++ = static_cast<char>('0' + v.bits);
    }
  }
  bool operator==(const Outcome&) const = default;
  auto operator<=>(const Outcome&) const = default;

 private:
  // set() of a value the earlier outcome has not, or names otherwise. (Out
  // of line: past a model's first run, set() finds its value there, named
  // alike, and saves fewer registers for this.)
  [[gnu::noinline]] void set_anew(std::size_t k, std::string_view name, ValueType t, std::uint64_t bits) {
    if (k == values_.size()) values_.emplace_back();
    Observed& v = values_[k];
    v.name = name;
    v.type = t;
    v.bits = bits;
  }
  static bool one_digit(const Observed& v) {
    return v.bits < 10 && v.type != ValueType::f32 && v.type != ValueType::f64;
  }
  // write_text() for any values: each appended in place, with no text of it apart.
  void append_by_parts(std::string& s) const {
    for (auto& v : values_) {
      if (!s.empty()) s += ' ';
      s += v.name;
      s += '=';
      append_value(s, v.type, v.bits);
    }
  }

  std::vector<Observed> values_;
};

}  // namespace scopesim
