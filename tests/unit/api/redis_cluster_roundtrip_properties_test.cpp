// Properties of the RedisCluster JSON mapping: unknown fields anywhere survive untouched,
// and typed values survive serialize -> parse.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/api/redis_cluster_types.h"

namespace kun::api {
namespace {

const Object& base() {
  static const Object o = Object::parse(R"({
    "apiVersion": "redis.kun/v1beta1", "kind": "RedisCluster",
    "metadata": {"name": "p", "namespace": "ns"},
    "spec": {"size": 3, "resources": {}, "storage": {"persistentVolumeClaim": {"spec": {}}},
             "exporter": {"enabled": true}, "sentinel": {"replicas": 3}},
    "status": {"conditions": [{"type": "Healthy", "status": "True"}], "masterIP": "10.0.0.1"}
  })");
  return o;
}

// Objects where a field the model does not know can appear.
const char* const kPlaces[] = {"",       "/metadata",          "/spec",
                               "/spec/storage", "/spec/exporter", "/spec/sentinel",
                               "/spec/resources", "/spec/storage/persistentVolumeClaim",
                               "/status", "/status/conditions/0"};

rc::Gen<Object> scalar() {
  return rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<int>(), [](int i) { return Object(i); }),
                        rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Object(b); }),
                        rc::gen::map(rc::gen::arbitrary<std::string>(),
                                     [](std::string s) { return Object(std::move(s)); }),
                        rc::gen::just(Object()));
}

rc::Gen<Object> value() {
  return rc::gen::oneOf(scalar(),
                        rc::gen::map(rc::gen::container<std::vector<Object>>(3, scalar()),
                                     [](std::vector<Object> v) { return Object(std::move(v)); }),
                        rc::gen::map(scalar(), [](Object v) { return Object{{"inner", v}}; }));
}

RC_GTEST_PROP(RedisClusterRoundTrip, UnknownFieldsAnywhereSurviveUnchanged, ()) {
  Object o = base();
  const auto n = *rc::gen::inRange(1, 8);
  for (int i = 0; i < n; ++i) {
    const char* place = *rc::gen::elementOf(std::vector<const char*>(std::begin(kPlaces), std::end(kPlaces)));
    const auto suffix = *rc::gen::inRange(0, 1000);
    o[Object::json_pointer(place)]["x-unknown-" + std::to_string(suffix)] = *value();
  }
  auto rc = parseRedisCluster(o);
  RC_ASSERT(rc.ok());
  RC_ASSERT(toObject(*rc) == o);
}

RC_GTEST_PROP(RedisClusterRoundTrip, TypedValuesSurviveSerializeThenParse,
              (std::int32_t size, std::string password, bool noPersist,
               std::map<std::string, std::string> config, std::vector<std::string> custom,
               std::int32_t replicas, std::int64_t observed)) {
  auto rc = parseRedisCluster(base());
  RC_ASSERT(rc.ok());
  RedisCluster c = *rc;
  c.spec.size = size;
  c.spec.password = password;
  c.spec.disablePersistence = noPersist;
  c.spec.config = config;
  c.spec.sentinel.customConfig = custom;
  c.spec.sentinel.replicas = replicas;
  c.status.observedGeneration = observed;
  const Object once = toObject(c);
  auto back = parseRedisCluster(once);
  RC_ASSERT(back.ok());
  RC_ASSERT(back->spec.size == size);
  RC_ASSERT(back->spec.password == password);
  RC_ASSERT(back->spec.disablePersistence == noPersist);
  RC_ASSERT(back->spec.config == config);
  RC_ASSERT(back->spec.sentinel.customConfig == custom);
  RC_ASSERT(back->spec.sentinel.replicas == replicas);
  RC_ASSERT(back->status.observedGeneration == observed);
  RC_ASSERT(toObject(*back) == once);
}

}  // namespace
}  // namespace kun::api
