// ListIndex: the entry of a growing list equal to a key, by comparison while
// the list is short and through its hash index once it is long; emptied and
// filled again (a run's findings, run after run), it finds only the entries
// of the list as it is now.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/list_index.hpp"

namespace scopesim {
namespace {

// A list of texts with its index, each text's hash given by `hash_of`.
struct Texts {
  std::vector<std::string> list;
  ListIndex index;
  std::uint64_t (*hash_of)(const std::string&) = [](const std::string& s) {
    return static_cast<std::uint64_t>(std::hash<std::string>{}(s));
  };
  std::size_t find(const std::string& key) {
    return index.find(
        list.size(), [&](std::size_t i) { return list[i] == key; }, [&] { return hash_of(key); },
        [&](std::size_t i) { return hash_of(list[i]); });
  }
  // Appends `key` unless the list has it; its place either way.
  std::size_t add(const std::string& key) {
    const std::size_t at = find(key);
    if (at == list.size()) list.push_back(key);
    return at;
  }
};

// Past the 16 entries compared one by one, through the index as it grows
// (several times over): every entry is found at its place, and a key the
// list lacks is not.
TEST(ListIndex, FindsEveryEntryOfALongListAndNoOther) {
  Texts t;
  for (int k = 0; k < 5000; ++k) ASSERT_EQ(t.add("finding " + std::to_string(k)), static_cast<std::size_t>(k));
  for (int k = 0; k < 5000; k += 7) EXPECT_EQ(t.find("finding " + std::to_string(k)), static_cast<std::size_t>(k));
  EXPECT_EQ(t.find("finding 5000"), t.list.size());
  EXPECT_EQ(t.find(""), t.list.size());
}

// Keys whose hashes all collide (as the positions of a kernel's racing lines
// may): each is still told from the others by comparison.
TEST(ListIndex, TellsApartEntriesOfOneHash) {
  Texts t;
  t.hash_of = [](const std::string&) { return std::uint64_t{42}; };
  for (int k = 0; k < 100; ++k) ASSERT_EQ(t.add("x" + std::to_string(k)), static_cast<std::size_t>(k));
  for (int k = 0; k < 100; ++k) EXPECT_EQ(t.find("x" + std::to_string(k)), static_cast<std::size_t>(k));
  EXPECT_EQ(t.find("y"), t.list.size());
}

// A list emptied and filled again in another order (a run's findings, run
// after run): after clear(), nothing of the list before is found, and each
// entry of the new one is found at its new place; so too where the owner
// only empties the list and the index learns it from the shorter list.
TEST(ListIndex, FindsOnlyTheEntriesOfTheListAsItIsNow) {
  Texts t;
  for (int k = 0; k < 40; ++k) t.add("a" + std::to_string(k));
  for (int round = 0; round < 3; ++round) {
    t.list.clear();
    if (round != 1) t.index.clear();
    for (int k = 39; k >= 0; --k) t.add("b" + std::to_string(k));
    EXPECT_EQ(t.find("a5"), t.list.size()) << "round " << round;
    EXPECT_EQ(t.find("b39"), 0u) << "round " << round;
    EXPECT_EQ(t.find("b0"), 39u) << "round " << round;
    EXPECT_EQ(t.list.size(), 40u);
  }
}

// find_text(): the list's entries are texts with their hashes kept beside
// them; an entry is the one of the key's hash and text, so texts of one hash
// are told apart, and no text is found under another hash than its own.
TEST(ListIndex, FindTextMatchesTheHashThenTheText) {
  std::vector<std::string> keys;
  std::vector<std::uint64_t> hashes;
  ListIndex index;
  // (Three hashes, by the last digit: each shared by some sixteen entries.)
  const auto hash = [](std::string_view s) -> std::uint64_t { return static_cast<std::uint64_t>(s.back() - '0') % 3; };
  for (int k = 0; k < 50; ++k) {
    keys.push_back("k" + std::to_string(k));
    hashes.push_back(hash(keys.back()));
  }
  const auto text = [&](std::size_t i) -> const std::string& { return keys[i]; };
  const auto hash_of = [&](std::size_t i) { return hashes[i]; };
  EXPECT_EQ(index.find_text(keys.size(), "k17", hash("k17"), text, hash_of), 17u);
  EXPECT_EQ(index.find_text(keys.size(), "k50", hash("k50"), text, hash_of), keys.size());
  EXPECT_EQ(index.find_text(keys.size(), "k17", hash("k17") + 1, text, hash_of), keys.size());
  // Found among the first ten only, where the list is short again.
  EXPECT_EQ(index.find_text(10, "k17", hash("k17"), text, hash_of), 10u);
  EXPECT_EQ(index.find_text(10, "k7", hash("k7"), text, hash_of), 7u);
  EXPECT_EQ(index.find_text(10, "k7", hash("k7") + 1, text, hash_of), 10u);
}

}  // namespace
}  // namespace scopesim
