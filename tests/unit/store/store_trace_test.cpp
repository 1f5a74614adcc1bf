// Every committed write is traced with verb, resource, key and version; same seed, same
// trace.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

std::vector<std::string> texts(const Trace& t) {
  std::vector<std::string> out;
  for (const auto& e : t.entries()) out.push_back(e.text);
  return out;
}

TEST_F(StoreTest, WritesAreTraced) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  c["data"]["k"] = "2";
  ASSERT_TRUE(store.update(res::configmaps, c).ok());
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  mustCreate(res::nodes, Object{{"metadata", {{"name", "n1"}}}});
  (void)store.get(res::nodes, "", "n1");  // reads are not traced
  EXPECT_EQ(texts(trace), (std::vector<std::string>{"create namespaces default rv=1", "create namespaces kube-system rv=2",
                                                    "create configmaps default/a rv=3", "update configmaps default/a rv=4",
                                                    "delete configmaps default/a rv=5", "create nodes n1 rv=6"}));
  EXPECT_EQ(trace.entries().front().component, "store");
}

TEST(StoreTraceTest, SameSeedSameTrace) {
  auto run = [](std::uint64_t seed) {
    SimLoop loop;
    Trace trace;
    FakeStoreOptions o;
    o.seed = seed;
    FakeStore store(loop, &trace, o);
    for (int i = 0; i < 20; ++i) {
      auto p = store.create(res::pods, Object{{"metadata", {{"generateName", "p-"}, {"namespace", "default"}}}});
      EXPECT_TRUE(p.ok());
    }
    return trace.hash();
  };
  EXPECT_EQ(run(1), run(1));
  EXPECT_NE(run(1), run(2));
}

}  // namespace
}  // namespace kun::test
