// mutateStatus against the fake store: it sends status and the object's identity only, so
// what it writes must still be the stored object with a new status.
#include <gtest/gtest.h>

#include "core/runtime/sim_loop.h"
#include "fakeapi/controllers/status_update.h"
#include "fakeapi/store/fake_store.h"

namespace kun::sim {
namespace {

// A pod with a spec, labels and a Pending status, as stored.
Object storedPod(FakeStore& store) {
  return store
      .create(res::pods, Object{{"apiVersion", "v1"},
                                {"kind", "Pod"},
                                {"metadata", {{"name", "p"}, {"namespace", "default"}, {"labels", {{"a", "b"}}}}},
                                {"spec", {{"containers", Object::array({{{"name", "c"}, {"image", "i"}}})}}},
                                {"status", {{"phase", "Pending"}}}})
      .value();
}

TEST(MutateStatus, WritesStatusAndKeepsTheRestAsStored) {
  SimLoop loop;
  FakeStore store{loop};
  const Object pod = storedPod(store);
  auto wrote = mutateStatus(store, res::pods, "default", "p", meta::uid(pod),
                            [](Object& status) { status["phase"] = "Running"; });
  ASSERT_TRUE(wrote.ok()) << wrote.error().toString();
  EXPECT_TRUE(*wrote);
  const Object now = store.get(res::pods, "default", "p").value();
  EXPECT_EQ(now["status"]["phase"], "Running");
  EXPECT_EQ(now["spec"], pod["spec"]);
  EXPECT_EQ(now["metadata"]["labels"], pod["metadata"]["labels"]);
  EXPECT_EQ(meta::uid(now), meta::uid(pod));
  EXPECT_NE(meta::resourceVersion(now), meta::resourceVersion(pod));
}

TEST(MutateStatus, NothingChangedWritesNothing) {
  SimLoop loop;
  FakeStore store{loop};
  const Object pod = storedPod(store);
  auto wrote = mutateStatus(store, res::pods, "default", "p", "", [](Object& status) { status["phase"] = "Pending"; });
  ASSERT_TRUE(wrote.ok());
  EXPECT_FALSE(*wrote);
  EXPECT_EQ(meta::resourceVersion(store.get(res::pods, "default", "p").value()), meta::resourceVersion(pod));
}

TEST(MutateStatus, AnotherUidIsNotFound) {
  SimLoop loop;
  FakeStore store{loop};
  (void)storedPod(store);
  auto wrote = mutateStatus(store, res::pods, "default", "p", "other-uid", [](Object& status) { status["x"] = 1; });
  ASSERT_FALSE(wrote.ok());
  EXPECT_EQ(wrote.error().reason, Reason::NotFound);
}

TEST(ReplaceStatus, ComputesFromTheStoredStatusAndWritesOnlyAChange) {
  SimLoop loop;
  FakeStore store{loop};
  const Object pod = storedPod(store);
  Object seen;
  auto same = replaceStatus(store, res::pods, "default", "p", meta::uid(pod), [&](const Object& current) {
    seen = current;
    return current;
  });
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(*same);
  EXPECT_EQ(seen, pod["status"]);
  EXPECT_EQ(meta::resourceVersion(store.get(res::pods, "default", "p").value()), meta::resourceVersion(pod));

  auto wrote = replaceStatus(store, res::pods, "default", "p", "", [](const Object& current) {
    Object next = current;
    next["phase"] = "Running";
    return next;
  });
  ASSERT_TRUE(wrote.ok());
  EXPECT_TRUE(*wrote);
  const Object now = store.get(res::pods, "default", "p").value();
  EXPECT_EQ(now["status"], (Object{{"phase", "Running"}}));
  EXPECT_EQ(now["spec"], pod["spec"]);
}

TEST(ReplaceStatus, AbsentStatusReadsAsEmptyObject) {
  SimLoop loop;
  FakeStore store{loop};
  (void)store.create(res::nodes, Object{{"metadata", {{"name", "n"}}}});
  Object seen;
  auto wrote = replaceStatus(store, res::nodes, "", "n", "", [&](const Object& current) {
    seen = current;
    return current;
  });
  ASSERT_TRUE(wrote.ok()) << wrote.error().toString();
  EXPECT_FALSE(*wrote);
  EXPECT_EQ(seen, Object::object());
}

}  // namespace
}  // namespace kun::sim
