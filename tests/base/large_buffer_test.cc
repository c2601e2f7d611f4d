#include "base/large_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace netdoctor {
namespace {

struct Item {
  std::uint64_t a;
  std::uint32_t b;
};

// Growing moves the pages of the mapping several times: every element must survive each move.
TEST(LargeArray, KeepsEveryElementAcrossGrowthAndMoves) {
  LargeArray<Item> items;
  EXPECT_TRUE(items.empty());
  constexpr std::uint64_t k_count = 400'000;  // 6 MiB of 16-byte items: 2, 4, then 8 MiB
  for (std::uint64_t i = 0; i < k_count; ++i) {
    items.push_back(Item{i * 3, static_cast<std::uint32_t>(i)});
  }
  ASSERT_EQ(items.size(), k_count);
  for (std::uint64_t i = 0; i < k_count; ++i) {
    ASSERT_EQ(items[i].a, i * 3) << i;
    ASSERT_EQ(items[i].b, static_cast<std::uint32_t>(i)) << i;
  }
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(items.begin()) % k_large_buffer_bytes, 0u);

  LargeArray<Item> moved = std::move(items);
  EXPECT_TRUE(items.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  ASSERT_EQ(moved.size(), k_count);
  EXPECT_EQ(moved[k_count - 1].a, (k_count - 1) * 3);
  moved.truncate(10);
  EXPECT_EQ(moved.size(), 10u);
  EXPECT_EQ(moved.end() - moved.begin(), 10);
  moved.push_back(Item{7, 7});
  EXPECT_EQ(moved[10].a, 7u);

  LargeArray<Item> other;
  other.push_back(Item{1, 1});
  other = std::move(moved);  // the old mapping of `other` is released
  EXPECT_EQ(other.size(), 11u);
  EXPECT_EQ(other[0].a, 0u);
}

}  // namespace
}  // namespace netdoctor
