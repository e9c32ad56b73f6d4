// FNV-1a over bytes, 64 bits: the hash of texts that must read the same on
// every machine and build (a run's trace, a model's source, a launch's key).
#pragma once
#include <cstdint>
#include <string_view>

namespace scopesim {

struct TextHash {
  std::uint64_t value = 0xcbf29ce484222325ULL;
  void feed(std::string_view text) {
    for (const char c : text) {
      value ^= static_cast<unsigned char>(c);
      value *= 0x100000001b3ULL;
    }
  }
};

inline std::uint64_t hash_of(std::string_view text) {
  TextHash h;
  h.feed(text);
  return h.value;
}

}  // namespace scopesim
