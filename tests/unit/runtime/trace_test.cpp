#include <gtest/gtest.h>

#include "core/runtime/random.h"
#include "core/runtime/trace.h"

namespace kun {
namespace {

TimePoint at(std::int64_t us) { return TimePoint(microseconds(us)); }

TEST(Trace, EmptyHashIsTheFnvOffsetBasis) {
  Trace t;
  EXPECT_EQ(t.hash(), 0xcbf29ce484222325ULL);
  EXPECT_EQ(t.hashHex(), "cbf29ce484222325");
  EXPECT_EQ(t.count(), 0u);
}

TEST(Trace, GoldenHash) {
  // The hash covers "<micros> <component>|<text>\n" per entry. Fixed: changing the format
  // changes every recorded run's fingerprint.
  Trace t;
  t.record(at(0), "c", "x");
  t.record(at(1500000), "store", "create pod");
  EXPECT_EQ(t.hash(), 0x54535ee7d64665e8ULL);
  EXPECT_EQ(t.hashHex(), "54535ee7d64665e8");
  EXPECT_EQ(t.hash(), fnv1a64("0 c|x\n1500000 store|create pod\n"));
  EXPECT_EQ(t.count(), 2u);
}

TEST(Trace, SameEventsSameHash) {
  Trace a, b;
  for (Trace* t : {&a, &b}) {
    t->record(at(5), "kubelet", "pod redis-0 Running");
    t->record(at(9), "sentinel", "+odown");
  }
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(Trace, SensitiveToOrderTimeComponentAndText) {
  auto hashOf = [](std::initializer_list<std::tuple<std::int64_t, const char*, const char*>> es) {
    Trace t;
    for (auto [us, c, x] : es) t.record(at(us), c, x);
    return t.hash();
  };
  const auto base = hashOf({{1, "a", "x"}, {2, "b", "y"}});
  EXPECT_NE(base, hashOf({{2, "b", "y"}, {1, "a", "x"}}));  // order
  EXPECT_NE(base, hashOf({{1, "a", "x"}, {3, "b", "y"}}));  // time
  EXPECT_NE(base, hashOf({{1, "a", "x"}, {2, "c", "y"}}));  // component
  EXPECT_NE(base, hashOf({{1, "a", "x"}, {2, "b", "z"}}));  // text
  EXPECT_NE(base, hashOf({{1, "a", "x"}}));                 // missing event
  // The separators keep the fields apart: time 1 text "2" is not time 12.
  EXPECT_NE(hashOf({{1, "a", "2x"}}), hashOf({{12, "a", "x"}}));
}

TEST(Trace, KeepsTheLatestEntriesOldestFirst) {
  Trace t(3);
  for (int i = 0; i < 5; ++i) t.record(at(i), "c", std::to_string(i));
  EXPECT_EQ(t.count(), 5u);
  const auto es = t.entries();
  ASSERT_EQ(es.size(), 3u);
  EXPECT_EQ(es[0].text, "2");
  EXPECT_EQ(es[1].text, "3");
  EXPECT_EQ(es[2].text, "4");
  EXPECT_EQ(es[2].time, at(4));
  EXPECT_EQ(es[2].component, "c");
}

TEST(Trace, FewerEntriesThanKept) {
  Trace t(10);
  t.record(at(1), "a", "1");
  t.record(at(2), "a", "2");
  const auto es = t.entries();
  ASSERT_EQ(es.size(), 2u);
  EXPECT_EQ(es[0].text, "1");
  EXPECT_EQ(es[1].text, "2");
}

TEST(Trace, RetentionDoesNotChangeTheHash) {
  Trace none, some(2), all(100);
  for (Trace* t : {&none, &some, &all})
    for (int i = 0; i < 10; ++i) t->record(at(i * 7), "c", "e" + std::to_string(i));
  EXPECT_TRUE(none.entries().empty());
  EXPECT_EQ(none.hash(), some.hash());
  EXPECT_EQ(none.hash(), all.hash());
}

}  // namespace
}  // namespace kun
