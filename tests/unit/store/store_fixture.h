#pragma once
// Shared set-up for the store's unit tests: a simulated loop, a trace and a FakeStore, plus
// small object builders and a recorder for watch events.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/runtime/sim_loop.h"
#include "core/runtime/trace.h"
#include "fakeapi/store/fake_store.h"

namespace kun::test {

inline Object objectMeta(const std::string& name, const std::string& ns = "default",
                         const std::map<std::string, std::string>& labels = {}) {
  Object m{{"name", name}};
  if (!ns.empty()) m["namespace"] = ns;
  if (!labels.empty()) m["labels"] = labels;
  return m;
}

inline Object configMap(const std::string& name, const std::string& ns = "default",
                        const std::map<std::string, std::string>& labels = {}) {
  return Object{{"metadata", objectMeta(name, ns, labels)}, {"data", {{"k", "v"}}}};
}

inline Object pod(const std::string& name, const std::string& ns = "default",
                  const std::map<std::string, std::string>& labels = {}) {
  return Object{{"metadata", objectMeta(name, ns, labels)},
                {"spec", {{"containers", Object::array({Object{{"name", "redis"}, {"image", "redis:7"}}})}}}};
}

inline Object redisClusterCrd(bool statusSubresource = true) {
  Object version{{"name", "v1beta1"}, {"served", true}, {"storage", true},
                 {"schema", {{"openAPIV3Schema", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}};
  if (statusSubresource) version["subresources"] = Object{{"status", Object::object()}};
  return Object{{"metadata", {{"name", "redisclusters.redis.kun"}}},
                {"spec",
                 {{"group", "redis.kun"},
                  {"names", {{"plural", "redisclusters"}, {"singular", "rediscluster"}, {"kind", "RedisCluster"}}},
                  {"scope", "Namespaced"},
                  {"versions", Object::array({version})}}}};
}

inline OwnerReference ownerRef(const Object& owner, bool block = false) {
  OwnerReference r = meta::ownerRefTo(owner, false);
  r.blockOwnerDeletion = block;
  return r;
}

struct EventLog {
  std::vector<WatchEvent> events;
  std::vector<Error> closed;
  WatchHandler handler() {
    return [this](const WatchEvent& e) { events.push_back(e); };
  }
  WatchClosedHandler closer() {
    return [this](const Error& e) { closed.push_back(e); };
  }
  std::vector<std::string> summary() const {
    std::vector<std::string> out;
    for (const auto& e : events)
      out.push_back(std::string(watchEventTypeName(e.type)) + " " + meta::name(*e.object));
    return out;
  }
};

class StoreTest : public ::testing::Test {
 protected:
  SimLoop loop;
  Trace trace{10000};
  FakeStore store{loop, &trace};

  // Runs the loop until nothing is left to do (bounded in virtual time).
  void settle(Duration limit = hours(1)) {
    loop.runUntil([this] { return loop.idle(); }, loop.now() + limit);
  }
  Object mustCreate(const Resource& r, const Object& obj) {
    auto res = store.create(r, obj);
    EXPECT_TRUE(res.ok()) << (res.ok() ? "" : res.error().toString());
    return res.ok() ? *res : Object();
  }
  bool exists(const Resource& r, const std::string& ns, const std::string& name) {
    return store.get(r, ns, name).ok();
  }
  Object mustGet(const Resource& r, const std::string& ns, const std::string& name) {
    auto res = store.get(r, ns, name);
    EXPECT_TRUE(res.ok()) << (res.ok() ? "" : res.error().toString());
    return res.ok() ? *res : Object();
  }
  std::uint64_t rvOf(const Object& o) { return std::stoull(meta::resourceVersion(o)); }
};

}  // namespace kun::test
