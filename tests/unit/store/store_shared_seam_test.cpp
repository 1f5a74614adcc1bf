// The shared-pointer calls of the KubeClient seam: the fake store hands out its stored
// immutable version (no copy) under the rules of the by-value calls, and the seam's
// default implementations (for clients that only have the by-value calls) agree with them.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

// A client with only the by-value calls, so the shared ones are the seam's defaults.
class ByValueOnly final : public KubeClient {
 public:
  explicit ByValueOnly(FakeStore& s) : s_(s) {}
  Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) override {
    return s_.get(r, ns, name);
  }
  Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& opts) override {
    return s_.list(r, ns, opts);
  }
  Result<Object> create(const Resource& r, const Object& obj) override { return s_.create(r, obj); }
  Result<Object> update(const Resource& r, const Object& obj) override { return s_.update(r, obj); }
  Result<Object> updateStatus(const Resource& r, const Object& obj) override { return s_.updateStatus(r, obj); }
  Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name, const Object& p) override {
    return s_.patch(r, ns, name, p);
  }
  Status remove(const Resource& r, std::string_view ns, std::string_view name, const DeleteOptions& opts) override {
    return s_.remove(r, ns, name, opts);
  }
  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& opts,
                                       WatchHandler onEvent, WatchClosedHandler onClosed) override {
    return s_.watch(r, ns, opts, std::move(onEvent), std::move(onClosed));
  }

 private:
  FakeStore& s_;
};

Object podWithStatus(const std::string& name) {
  Object p = pod(name);
  p["spec"]["nodeName"] = "node-1";
  return p;
}

TEST_F(StoreTest, GetSharedThroughTheSeamIsTheStoredVersionItself) {
  mustCreate(res::pods, podWithStatus("web-0"));
  KubeClient& client = store;
  auto one = client.getShared(res::pods, "default", "web-0");
  auto two = client.getShared(res::pods, "default", "web-0");
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(one->get(), two->get());  // no copy: the same immutable object
  EXPECT_EQ(**one, mustGet(res::pods, "default", "web-0"));
  EXPECT_TRUE(client.getShared(res::pods, "default", "nope").is(Reason::NotFound));
  EXPECT_TRUE(client.getShared(res::pods, "kube-system", "web-0").is(Reason::NotFound));
}

TEST_F(StoreTest, GetSharedOfAnotherVersionCarriesThatApiVersion) {
  mustCreate(res::poddisruptionbudgets, Object{{"metadata", objectMeta("pdb")}, {"spec", Object::object()}});
  KubeClient& client = store;
  auto v1 = client.getShared(res::poddisruptionbudgets, "default", "pdb");
  auto beta = client.getShared(res::poddisruptionbudgetsV1beta1, "default", "pdb");
  ASSERT_TRUE(v1.ok() && beta.ok());
  EXPECT_EQ((**v1)["apiVersion"], "policy/v1");
  EXPECT_EQ((**beta)["apiVersion"], "policy/v1beta1");
  Object same = **beta;
  same["apiVersion"] = "policy/v1";
  EXPECT_EQ(same, **v1);
  // The stored version is untouched by the rendering.
  EXPECT_EQ((**store.getShared(res::poddisruptionbudgets, "default", "pdb"))["apiVersion"], "policy/v1");
}

TEST_F(StoreTest, UpdateSharedThroughTheSeamReturnsWhatIsStored) {
  Object created = mustCreate(res::pods, podWithStatus("web-0"));
  KubeClient& client = store;
  Object next = created;
  next["metadata"]["labels"]["role"] = "master";
  next["status"]["phase"] = "Running";  // ignored: pods have the status subresource
  auto r = client.updateShared(res::pods, std::move(next));
  ASSERT_TRUE(r.ok()) << r.error().toString();
  EXPECT_EQ(r->get(), client.getShared(res::pods, "default", "web-0")->get());
  EXPECT_EQ(meta::label(**r, "role"), "master");
  EXPECT_EQ((**r)["status"], created["status"]);
  EXPECT_EQ(meta::generation(**r), 1);  // metadata only
  EXPECT_GT(rvOf(**r), rvOf(created));
  EXPECT_TRUE(client.updateShared(res::pods, created).is(Reason::Conflict));  // stale now
}

TEST_F(StoreTest, UpdateStatusSharedChangesOnlyStatus) {
  Object created = mustCreate(res::pods, podWithStatus("web-0"));
  KubeClient& client = store;
  Object next = created;
  next["status"]["phase"] = "Running";
  next["metadata"]["labels"]["ignored"] = "yes";
  auto r = client.updateStatusShared(res::pods, std::move(next));
  ASSERT_TRUE(r.ok()) << r.error().toString();
  EXPECT_EQ((**r)["status"]["phase"], "Running");
  EXPECT_EQ(meta::label(**r, "ignored"), "");
  EXPECT_EQ(r->get(), client.getShared(res::pods, "default", "web-0")->get());
  EXPECT_TRUE(client.updateStatusShared(res::configmaps, configMap("x")).is(Reason::NotFound));
}

TEST_F(StoreTest, CreateAndPatchSharedReturnWhatIsStored) {
  KubeClient& client = store;
  auto created = client.createShared(res::configmaps, configMap("a"));
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(created->get(), client.getShared(res::configmaps, "default", "a")->get());
  EXPECT_TRUE(client.createShared(res::configmaps, configMap("a")).is(Reason::AlreadyExists));

  auto patched = client.patchShared(res::configmaps, "default", "a", Object{{"data", {{"k", "2"}}}});
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ((**patched)["data"]["k"], "2");
  EXPECT_EQ(patched->get(), client.getShared(res::configmaps, "default", "a")->get());
  EXPECT_TRUE(client.patchShared(res::configmaps, "default", "nope", Object::object()).is(Reason::NotFound));
}

TEST_F(StoreTest, SharedCallsHonourFaults) {
  mustCreate(res::configmaps, configMap("a"));
  FaultRule rule;
  rule.verbs = {StoreVerb::Get, StoreVerb::Update, StoreVerb::UpdateStatus, StoreVerb::Create, StoreVerb::Patch};
  Object c = mustGet(res::configmaps, "default", "a");
  const auto id = store.faults().add(rule);
  KubeClient& client = store;
  EXPECT_TRUE(client.getShared(res::configmaps, "default", "a").is(Reason::Unavailable));
  c["data"]["k"] = "2";
  EXPECT_TRUE(client.updateShared(res::configmaps, c).is(Reason::Unavailable));
  EXPECT_TRUE(client.updateStatusShared(res::pods, pod("p")).is(Reason::Unavailable));
  EXPECT_TRUE(client.createShared(res::configmaps, configMap("b")).is(Reason::Unavailable));
  EXPECT_TRUE(client.patchShared(res::configmaps, "default", "a", Object{{"data", {{"k", "3"}}}}).is(Reason::Unavailable));
  store.faults().remove(id);
  auto after = client.getShared(res::configmaps, "default", "a");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ((**after)["data"]["k"], "v");  // the failed update changed nothing
}

TEST_F(StoreTest, SeamDefaultsAgreeWithTheByValueCalls) {
  ByValueOnly client(store);
  Object created = mustCreate(res::pods, podWithStatus("web-0"));
  auto got = client.getShared(res::pods, "default", "web-0");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(**got, created);
  EXPECT_TRUE(client.getShared(res::pods, "default", "nope").is(Reason::NotFound));

  Object next = created;
  next["metadata"]["annotations"]["a"] = "1";
  auto updated = client.updateShared(res::pods, next);
  ASSERT_TRUE(updated.ok());
  EXPECT_EQ(**updated, mustGet(res::pods, "default", "web-0"));
  EXPECT_TRUE(client.updateShared(res::pods, next).is(Reason::Conflict));

  Object status = **updated;
  status["status"]["phase"] = "Running";
  auto st = client.updateStatusShared(res::pods, status);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ((**st)["status"]["phase"], "Running");
  EXPECT_EQ(**st, mustGet(res::pods, "default", "web-0"));

  auto made = client.createShared(res::configmaps, configMap("c"));
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(**made, mustGet(res::configmaps, "default", "c"));
  auto patched = client.patchShared(res::configmaps, "default", "c", Object{{"data", {{"k", "2"}}}});
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ(**patched, mustGet(res::configmaps, "default", "c"));
}

}  // namespace
}  // namespace kun::test
