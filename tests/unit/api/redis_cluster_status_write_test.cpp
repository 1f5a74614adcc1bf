// A status write taken over by the previous parse gives what parsing the new stored object
// gives; anything else that moved is refused, so the caller parses afresh.
#include <gtest/gtest.h>

#include "core/api/json_equal.h"
#include "core/api/object_ptr.h"
#include "core/api/redis_cluster_defaults.h"
#include "core/api/redis_cluster_status_write.h"

namespace kun::api {
namespace {

const Object kStored = Object::parse(R"({
  "apiVersion": "redis.kun/v1beta1",
  "kind": "RedisCluster",
  "metadata": {"name": "test", "namespace": "default", "uid": "u-1", "generation": 2,
               "resourceVersion": "10", "labels": {"team": "a"}},
  "spec": {"size": 3, "password": "pw", "config": {"hz": "10"},
           "sentinel": {"replicas": 3, "customConfig": ["down-after-milliseconds 5000"]}},
  "status": {"conditions": [{"type": "Creating", "status": "True", "reason": "x",
                             "lastUpdateTime": "2020-01-01T00:00:00Z"}],
             "observedGeneration": 1, "extra": {"kept": true}}
})");

Object statusWritten(Object o, const char* rv) {
  o["metadata"]["resourceVersion"] = rv;
  o["status"] = Object::parse(R"({"conditions": [{"type": "Healthy", "status": "True", "unknown": 1}],
                                  "masterIP": "10.0.0.1", "observedGeneration": 2})");
  return o;
}

// Everything a parse yields, as text.
std::string describe(const RedisCluster& rc) {
  return toObject(rc).dump() + "|" + rc.metadata.dump() + "|" + toObject(rc.spec).dump() + "|" +
         toObject(rc.status).dump() + "|" + rc.apiVersion + "|" + rc.kind;
}

TEST(StatusWrite, TakenOverEqualsAFreshParse) {
  const ObjectPtr before = shareObject(kStored);
  const ObjectPtr after = shareObject(statusWritten(kStored, "11"));
  ASSERT_TRUE(onlyStatusWritten(*before, *after));
  auto parsed = parseRedisCluster(before);
  ASSERT_TRUE(parsed.ok());
  RedisCluster defaulted = withDefaults(*parsed);
  auto status = parseStoredStatus(after);
  ASSERT_TRUE(status.ok());
  takeStatusWrite(*parsed, *status, after);
  takeStatusWrite(defaulted, *status, after);

  auto fresh = parseRedisCluster(after);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(describe(*parsed), describe(*fresh));
  EXPECT_EQ(describe(defaulted), describe(withDefaults(*fresh)));
  EXPECT_EQ(parsed->original, after);
  EXPECT_EQ(parsed->metadata["resourceVersion"], "11");
}

TEST(StatusWrite, AStatusAddedOrRemovedIsAStatusWrite) {
  Object none = kStored;
  none.erase("status");
  EXPECT_TRUE(onlyStatusWritten(none, kStored));
  EXPECT_TRUE(onlyStatusWritten(kStored, none));
  Object noRv = kStored;
  noRv["metadata"].erase("resourceVersion");
  EXPECT_TRUE(onlyStatusWritten(noRv, kStored));
}

TEST(StatusWrite, AnyOtherChangeIsRefused) {
  auto changed = [](auto edit) {
    Object o = kStored;
    edit(o);
    return onlyStatusWritten(kStored, o);
  };
  EXPECT_TRUE(changed([](Object&) {}));
  EXPECT_FALSE(changed([](Object& o) { o["spec"]["size"] = 5; }));
  // Equal to nlohmann, not to a typed reader: a float where an integer was.
  EXPECT_FALSE(changed([](Object& o) { o["spec"]["size"] = 3.0; }));
  EXPECT_FALSE(changed([](Object& o) { o["spec"]["sentinel"]["customConfig"].push_back("x y"); }));
  EXPECT_FALSE(changed([](Object& o) { o["metadata"]["generation"] = 3; }));
  EXPECT_FALSE(changed([](Object& o) { o["metadata"]["labels"]["team"] = "b"; }));
  EXPECT_FALSE(changed([](Object& o) { o["metadata"].erase("labels"); }));
  EXPECT_FALSE(changed([](Object& o) { o["apiVersion"] = "redis.kun/v1"; }));
  EXPECT_FALSE(changed([](Object& o) { o["other"] = 1; }));
  EXPECT_FALSE(changed([](Object& o) { o["metadata"] = "not an object"; }));
}

TEST(SameJson, TypesCountAtEveryDepth) {
  EXPECT_TRUE(sameJson(Object::parse(R"({"a": [1, "x", {"b": null}]})"), Object::parse(R"({"a": [1, "x", {"b": null}]})")));
  EXPECT_FALSE(sameJson(Object(1), Object(1u)));
  EXPECT_FALSE(sameJson(Object(1), Object(1.0)));
  EXPECT_FALSE(sameJson(Object::parse(R"({"a": [1]})"), Object::parse(R"({"a": [1.0]})")));
  EXPECT_FALSE(sameJson(Object::parse(R"({"a": 1})"), Object::parse(R"({"b": 1})")));
  EXPECT_FALSE(sameJson(Object::parse(R"([1, 2])"), Object::parse(R"([1])")));
  EXPECT_FALSE(sameJson(Object(std::nan("")), Object(std::nan(""))));
  EXPECT_TRUE(sameJson(Object(), Object()));
}

}  // namespace
}  // namespace kun::api
