#include <gtest/gtest.h>

#include "core/api/object.h"

namespace kun {
namespace {

Object pod() {
  return Object::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
      "name": "redis-0", "namespace": "prod", "generateName": "redis-", "uid": "u-1",
      "resourceVersion": "42", "generation": 3,
      "creationTimestamp": "2026-01-01T00:00:00Z",
      "deletionTimestamp": "2026-01-01T00:01:00Z", "deletionGracePeriodSeconds": 30,
      "labels": {"app": "redis", "tier": "cache"},
      "annotations": {"note": "x"},
      "ownerReferences": [
        {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "redis", "uid": "s-1",
         "controller": true, "blockOwnerDeletion": true},
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "cm", "uid": "c-1"}
      ],
      "finalizers": ["a/one", "b/two"],
      "somethingElse": {"kept": true}
    },
    "spec": {"nodeName": "n1"}
  })");
}

TEST(ObjectMeta, GettersReadEveryField) {
  const Object o = pod();
  EXPECT_EQ(meta::name(o), "redis-0");
  EXPECT_EQ(meta::namespaceOf(o), "prod");
  EXPECT_EQ(meta::generateName(o), "redis-");
  EXPECT_EQ(meta::uid(o), "u-1");
  EXPECT_EQ(meta::resourceVersion(o), "42");
  EXPECT_EQ(meta::generation(o), 3);
  EXPECT_EQ(meta::creationTimestamp(o), "2026-01-01T00:00:00Z");
  EXPECT_EQ(meta::deletionTimestamp(o), "2026-01-01T00:01:00Z");
  EXPECT_TRUE(meta::isDeleting(o));
  EXPECT_EQ(meta::deletionGracePeriodSeconds(o), std::optional<std::int64_t>(30));
  EXPECT_EQ(meta::labels(o), (std::map<std::string, std::string>{{"app", "redis"}, {"tier", "cache"}}));
  EXPECT_EQ(meta::annotations(o), (std::map<std::string, std::string>{{"note", "x"}}));
  EXPECT_EQ(meta::label(o, "app"), "redis");
  EXPECT_EQ(meta::label(o, "missing"), "");
  EXPECT_EQ(meta::annotation(o, "note"), "x");
  EXPECT_EQ(meta::finalizers(o), (std::vector<std::string>{"a/one", "b/two"}));
  EXPECT_TRUE(meta::hasFinalizer(o, "b/two"));
  EXPECT_FALSE(meta::hasFinalizer(o, "c/three"));
  EXPECT_EQ(meta::key(o), "prod/redis-0");

  const auto refs = meta::ownerReferences(o);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].apiVersion, "apps/v1");
  EXPECT_EQ(refs[0].kind, "StatefulSet");
  EXPECT_EQ(refs[0].name, "redis");
  EXPECT_EQ(refs[0].uid, "s-1");
  EXPECT_TRUE(refs[0].controller);
  EXPECT_TRUE(refs[0].blockOwnerDeletion);
  EXPECT_FALSE(refs[1].controller);
  EXPECT_FALSE(refs[1].blockOwnerDeletion);
  auto ctl = meta::controllerOf(o);
  ASSERT_TRUE(ctl.has_value());
  EXPECT_EQ(ctl->uid, "s-1");
}

TEST(ObjectMeta, AbsentFieldsGiveEmptyValues) {
  for (const Object& o : {Object(), Object::object(), Object{{"metadata", nullptr}},
                          Object{{"metadata", "not-an-object"}}, Object::array()}) {
    EXPECT_EQ(meta::name(o), "");
    EXPECT_EQ(meta::namespaceOf(o), "");
    EXPECT_EQ(meta::uid(o), "");
    EXPECT_EQ(meta::resourceVersion(o), "");
    EXPECT_EQ(meta::generation(o), 0);
    EXPECT_FALSE(meta::isDeleting(o));
    EXPECT_FALSE(meta::deletionGracePeriodSeconds(o).has_value());
    EXPECT_TRUE(meta::labels(o).empty());
    EXPECT_TRUE(meta::annotations(o).empty());
    EXPECT_TRUE(meta::ownerReferences(o).empty());
    EXPECT_FALSE(meta::controllerOf(o).has_value());
    EXPECT_TRUE(meta::finalizers(o).empty());
    EXPECT_EQ(meta::key(o), "");
  }
}

TEST(ObjectMeta, WrongTypesReadAsAbsent) {
  const Object o = Object::parse(R"({"metadata": {"name": 5, "generation": "7",
      "labels": {"a": "b", "n": 1}, "finalizers": "x", "ownerReferences": {}}})");
  EXPECT_EQ(meta::name(o), "");
  EXPECT_EQ(meta::generation(o), 0);
  EXPECT_EQ(meta::labels(o), (std::map<std::string, std::string>{{"a", "b"}}));
  EXPECT_EQ(meta::label(o, "n"), "");
  EXPECT_TRUE(meta::finalizers(o).empty());
  EXPECT_TRUE(meta::ownerReferences(o).empty());
}

// memberOf walks small objects and searches large ones: both find what find() finds.
TEST(ObjectMeta, MemberOfFindsWhatFindFinds) {
  for (int size : {0, 1, 5, 16, 17, 40}) {
    Object o = Object::object();
    for (int i = 0; i < size; ++i) o["k" + std::to_string(i * 7)] = i;
    o["a"] = "short";
    o["ab"] = 2;
    for (const std::string key : {"a", "ab", "b", "", "k0", "k7", "k70", "k700", "k1"}) {
      auto it = o.find(key);
      EXPECT_EQ(memberOf(o, key), it == o.end() ? nullptr : &*it) << size << " " << key;
    }
  }
  // The walk stops early on sorted first bytes: keys either side of each other, bytes past
  // 0x7f (unsigned order), and the empty key, present or not.
  for (bool withEmpty : {false, true}) {
    Object o = Object::object();
    for (const char* k : {"apiVersion", "kind", "metadata", "spec", "status", "Zeta", "\xc3\xa9t\xc3\xa9", "\xff", "~"})
      o[k] = k;
    if (withEmpty) o[""] = "empty";
    for (const std::string key : {"apiVersion", "kind", "metadata", "spec", "status", "Zeta", "\xc3\xa9t\xc3\xa9", "\xff",
                                  "~", "", "a", "deletionTimestamp", "zz", "\xc3", "\x01", "statuses", "spe"}) {
      auto it = o.find(key);
      EXPECT_EQ(memberOf(o, key), it == o.end() ? nullptr : &*it) << withEmpty << " " << key;
    }
  }
  // The walk stops at the first key whose first byte is past key's: keys around that edge,
  // the empty key and bytes above 0x7f (compared unsigned, as the map orders them).
  Object meta = {{"annotations", 1}, {"creationTimestamp", 2}, {"generateName", 3}, {"labels", 4},
                 {"name", 5},        {"namespace", 6},         {"uid", 7},          {"\xc3\xa9t\xc3\xa9", 8}};
  for (bool withEmpty : {false, true}) {
    if (withEmpty) meta[""] = 0;
    for (const std::string key : {"deletionTimestamp", "name", "namespace", "names", "uid", "uie", "u", "", "a",
                                  "\xc3\xa9t\xc3\xa9", "\xc3", "\xff", "zzz", "labels", "label"}) {
      auto it = meta.find(key);
      EXPECT_EQ(memberOf(meta, key), it == meta.end() ? nullptr : &*it) << withEmpty << " " << key;
    }
  }
  EXPECT_EQ(memberOf(Object("text"), "a"), nullptr);
  EXPECT_EQ(memberOf(Object::array({1}), "a"), nullptr);
  EXPECT_EQ(meta::fieldView(Object{{"metadata", {{"name", "n"}}}}, "name"), "n");
  EXPECT_EQ(meta::fieldView(Object{{"metadata", {{"name", 1}}}}, "name"), "");
}

TEST(ObjectMeta, ClusterScopedKeyIsTheName) {
  Object o;
  meta::setName(o, "node-1");
  EXPECT_EQ(meta::key(o), "node-1");
}

TEST(ObjectMeta, SettersCreateIntermediateObjects) {
  Object o;
  meta::setLabel(o, "app", "redis");
  meta::setAnnotation(o, "a", "1");
  meta::setName(o, "x");
  meta::setNamespace(o, "ns");
  meta::setResourceVersion(o, "9");
  EXPECT_EQ(o, Object::parse(R"({"metadata": {"labels": {"app": "redis"}, "annotations": {"a": "1"},
      "name": "x", "namespace": "ns", "resourceVersion": "9"}})"));

  Object bad = Object::parse(R"({"metadata": {"labels": null}})");
  meta::setLabel(bad, "k", "");
  EXPECT_EQ(meta::labels(bad), (std::map<std::string, std::string>{{"k", ""}}));
}

TEST(ObjectMeta, SettersOverwriteAndKeepUnknownFields) {
  Object o = pod();
  meta::setLabel(o, "app", "other");
  meta::setName(o, "redis-1");
  EXPECT_EQ(meta::label(o, "app"), "other");
  EXPECT_EQ(meta::label(o, "tier"), "cache");
  EXPECT_EQ(meta::name(o), "redis-1");
  EXPECT_EQ(o["metadata"]["somethingElse"], Object({{"kept", true}}));
  EXPECT_EQ(o["spec"]["nodeName"], "n1");
}

TEST(ObjectMeta, EmptyStringSetterRemovesTheField) {
  Object o = pod();
  meta::setNamespace(o, "");
  meta::setResourceVersion(o, "");
  EXPECT_FALSE(o["metadata"].contains("namespace"));
  EXPECT_FALSE(o["metadata"].contains("resourceVersion"));
  EXPECT_EQ(meta::key(o), "redis-0");
}

TEST(ObjectMeta, FinalizersKeepOrderAndNoDuplicates) {
  Object o = pod();
  meta::addFinalizer(o, "a/one");  // already there
  meta::addFinalizer(o, "c/three");
  EXPECT_EQ(meta::finalizers(o), (std::vector<std::string>{"a/one", "b/two", "c/three"}));
  EXPECT_TRUE(meta::removeFinalizer(o, "b/two"));
  EXPECT_EQ(meta::finalizers(o), (std::vector<std::string>{"a/one", "c/three"}));
  EXPECT_FALSE(meta::removeFinalizer(o, "b/two"));
  EXPECT_TRUE(meta::removeFinalizer(o, "a/one"));
  EXPECT_TRUE(meta::removeFinalizer(o, "c/three"));
  EXPECT_TRUE(meta::finalizers(o).empty());
  EXPECT_FALSE(o["metadata"].contains("finalizers"));

  Object fresh;
  EXPECT_FALSE(meta::removeFinalizer(fresh, "x"));
  meta::addFinalizer(fresh, "x");
  EXPECT_EQ(meta::finalizers(fresh), (std::vector<std::string>{"x"}));
}

TEST(ObjectMeta, AddOwnerReferenceReplacesSameUidInPlace) {
  Object o = pod();
  OwnerReference ref{"apps/v1", "StatefulSet", "redis-renamed", "s-1", false, false};
  meta::addOwnerReference(o, ref);
  auto refs = meta::ownerReferences(o);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].name, "redis-renamed");
  EXPECT_FALSE(refs[0].controller);
  EXPECT_EQ(refs[1].uid, "c-1");
  EXPECT_FALSE(meta::controllerOf(o).has_value());

  meta::addOwnerReference(o, OwnerReference{"v1", "Secret", "s", "z-9", true, true});
  refs = meta::ownerReferences(o);
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[2].uid, "z-9");
  EXPECT_EQ(meta::controllerOf(o)->uid, "z-9");

  Object fresh;
  meta::addOwnerReference(fresh, ref);
  EXPECT_EQ(meta::ownerReferences(fresh).size(), 1u);
}

TEST(ObjectMeta, OwnerRefToReadsTheOwner) {
  const Object owner = Object::parse(R"({"apiVersion": "redis.kun/v1beta1", "kind": "RedisCluster",
      "metadata": {"name": "rc", "namespace": "prod", "uid": "r-1"}})");
  OwnerReference ref = meta::ownerRefTo(owner);
  EXPECT_EQ(ref.apiVersion, "redis.kun/v1beta1");
  EXPECT_EQ(ref.kind, "RedisCluster");
  EXPECT_EQ(ref.name, "rc");
  EXPECT_EQ(ref.uid, "r-1");
  EXPECT_TRUE(ref.controller);
  EXPECT_TRUE(ref.blockOwnerDeletion);

  OwnerReference plain = meta::ownerRefTo(owner, false);
  EXPECT_FALSE(plain.controller);
  EXPECT_TRUE(plain.blockOwnerDeletion);

  Object child;
  meta::addOwnerReference(child, ref);
  const auto back = meta::ownerReferences(child);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].apiVersion, ref.apiVersion);
  EXPECT_EQ(back[0].kind, ref.kind);
  EXPECT_EQ(back[0].name, ref.name);
  EXPECT_EQ(back[0].uid, ref.uid);
  EXPECT_TRUE(back[0].controller);
  EXPECT_TRUE(back[0].blockOwnerDeletion);
}

TEST(ObjectMeta, NegativeAndLargeIntegers) {
  const Object o = Object::parse(
      R"({"metadata": {"generation": 9007199254740993, "deletionGracePeriodSeconds": 0}})");
  EXPECT_EQ(meta::generation(o), 9007199254740993LL);
  EXPECT_EQ(meta::deletionGracePeriodSeconds(o), std::optional<std::int64_t>(0));
}

}  // namespace
}  // namespace kun
