// The store's parsed-selector cache answers as a fresh parse would, errors included.
#include <gtest/gtest.h>

#include "fakeapi/store/selector_cache.h"

namespace kun::store {
namespace {

TEST(SelectorCache, AKeptParseIsAFreshOneErrorsIncluded) {
  SelectorCache cache;
  for (int round = 0; round < 2; ++round) {  // the second round answers from the cache
    for (const char* text : {"", "app=redis", "app=redis,role in (master),tier!=x", "a in (x,y),!b", "app=",
                             "=bad", "a in (x", "role in (m)"}) {
      const auto fresh = LabelSelector::parse(text);
      const auto& kept = cache.get(text);
      ASSERT_EQ(kept.selector.ok(), fresh.ok()) << text;
      if (!fresh) {
        EXPECT_EQ(kept.selector.error().message, fresh.error().message) << text;
        EXPECT_TRUE(kept.required.empty());
        continue;
      }
      EXPECT_EQ(kept.selector->toString(), fresh->toString()) << text;
      EXPECT_EQ(kept.required, fresh->requiredPairs()) << text;
    }
  }
  EXPECT_EQ(cache.size(), 8u);
}

TEST(SelectorCache, StartsOverPastItsBound) {
  SelectorCache cache;
  for (std::size_t i = 0; i <= SelectorCache::kMaxEntries; ++i) cache.get("uid=u" + std::to_string(i));
  EXPECT_LE(cache.size(), SelectorCache::kMaxEntries);
  const auto& again = cache.get("uid=u1");
  ASSERT_TRUE(again.selector.ok());
  EXPECT_EQ(again.selector->toString(), "uid=u1");
}

}  // namespace
}  // namespace kun::store
