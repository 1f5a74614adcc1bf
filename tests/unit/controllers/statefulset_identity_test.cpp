#include <gtest/gtest.h>

#include "fakeapi/controllers/statefulset_identity.h"
#include "tests/unit/controllers/sim_test_util.h"

namespace kun::sim {
namespace {

TEST(StatefulSetIdentity, OrdinalsParseOnlyFromTheSetsOwnNames) {
  EXPECT_EQ(statefulSetOrdinal("web", "web-0"), 0);
  EXPECT_EQ(statefulSetOrdinal("web", "web-12"), 12);
  EXPECT_FALSE(statefulSetOrdinal("web", "web-").has_value());
  EXPECT_FALSE(statefulSetOrdinal("web", "web-01").has_value());
  EXPECT_FALSE(statefulSetOrdinal("web", "web-x").has_value());
  EXPECT_FALSE(statefulSetOrdinal("web", "webb-1").has_value());
  EXPECT_FALSE(statefulSetOrdinal("web", "web-1-2").has_value());
  EXPECT_EQ(statefulSetPodName("web", 3), "web-3");
  EXPECT_EQ(claimName("data", "web", 3), "data-web-3");
}

TEST(StatefulSetIdentity, TheTemplateHashIsStableAndFollowsTheTemplate) {
  const Object a = simtest::statefulSet("web")["spec"]["template"];
  Object b = a;
  EXPECT_EQ(templateHash(a), templateHash(b));
  b["spec"]["containers"][0]["image"] = "redis:7.4";
  EXPECT_NE(templateHash(a), templateHash(b));
  for (char ch : templateHash(a)) EXPECT_NE(std::string_view("bcdfghjklmnpqrstvwxz2456789").find(ch), std::string_view::npos);
}

TEST(StatefulSetIdentity, PodsCarryTemplateLabelsRevisionOwnerAndClaims) {
  simtest::SetOptions o;
  o.claims = true;
  Object set = simtest::statefulSet("web", o);
  set["metadata"]["uid"] = "u-1";
  set["spec"]["template"]["spec"]["volumes"] = Object::array({{{"name", "data"}, {"emptyDir", Object::object()}},
                                                               {{"name", "conf"}, {"emptyDir", Object::object()}}});
  const Object pod = newStatefulSetPod(set, set["spec"]["template"], 2, "web-abc");
  EXPECT_EQ(meta::name(pod), "web-2");
  EXPECT_EQ(meta::label(pod, "app"), "web");
  EXPECT_EQ(meta::label(pod, kRevisionLabel), "web-abc");
  EXPECT_EQ(meta::label(pod, kPodNameLabel), "web-2");
  EXPECT_EQ(meta::label(pod, kPodIndexLabel), "2");
  ASSERT_TRUE(meta::controllerOf(pod).has_value());
  EXPECT_EQ(meta::controllerOf(pod)->uid, "u-1");
  // The claim replaces the same-named template volume; others stay.
  const Object& vols = pod["spec"]["volumes"];
  ASSERT_EQ(vols.size(), 2u);
  EXPECT_EQ(vols[0]["persistentVolumeClaim"]["claimName"], "data-web-2");
  EXPECT_EQ(vols[1]["name"], "conf");

  const auto claims = newClaims(set, 2);
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(meta::name(claims[0]), "data-web-2");
  EXPECT_EQ(meta::label(claims[0], "app"), "web");
  EXPECT_TRUE(meta::ownerReferences(claims[0]).empty());
}

TEST(StatefulSetIdentity, ClaimsKeepTheOwnerReferencesOfTheirTemplate) {
  simtest::SetOptions o;
  o.claims = true;
  Object set = simtest::statefulSet("web", o);
  const Object owner{{"apiVersion", "redis.kun/v1beta1"}, {"kind", "RedisCluster"}, {"name", "demo"},
                     {"uid", "rc-1"}, {"controller", true}};
  set["spec"]["volumeClaimTemplates"][0]["metadata"]["ownerReferences"] = Object::array({owner});
  const auto claims = newClaims(set, 0);
  ASSERT_EQ(claims.size(), 1u);
  ASSERT_EQ(meta::ownerReferences(claims[0]).size(), 1u);
  EXPECT_EQ(meta::ownerReferences(claims[0])[0].uid, "rc-1");
}

TEST(StatefulSetIdentity, ARevisionRoundTripsItsTemplate) {
  Object set = simtest::statefulSet("web");
  set["metadata"]["uid"] = "u-1";
  const Object& tpl = set["spec"]["template"];
  const Object rev = newControllerRevision(set, tpl, templateHash(tpl), 4);
  EXPECT_EQ(meta::name(rev), "web-" + templateHash(tpl));
  EXPECT_EQ(rev["revision"], 4);
  EXPECT_EQ(revisionTemplate(rev), tpl);
  EXPECT_EQ(meta::label(rev, kRevisionHashLabel), templateHash(tpl));
}

}  // namespace
}  // namespace kun::sim
