// Scope: a namespace-scoped and a cluster-scoped operator never manage the same cluster.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/rediscluster/scope.h"

namespace kun::rediscluster {
namespace {

Object cluster(const std::string& ns, const std::string& scopeAnnotation) {
  Object o{{"metadata", {{"name", "c"}, {"namespace", ns}}}};
  if (!scopeAnnotation.empty()) meta::setAnnotation(o, "redis.kun/scope", scopeAnnotation);
  return o;
}

TEST(Scope, NamespacedManagesUnannotatedClustersOfItsNamespaceOnly) {
  const Scope s = Scope::namespaced("team");
  EXPECT_TRUE(manages(s, cluster("team", "")));
  EXPECT_FALSE(manages(s, cluster("team", "cluster-scoped")));
  EXPECT_FALSE(manages(s, cluster("other", "")));
  EXPECT_TRUE(manages(s, cluster("team", "namespace-scoped")));  // any other value: not cluster-scoped
  EXPECT_EQ(s.watchNamespace(), "team");
  EXPECT_EQ(s.describe(), "namespace team");
}

TEST(Scope, ClusterWideManagesAnnotatedClustersInEveryNamespace) {
  const Scope s = Scope::clusterWide();
  EXPECT_TRUE(manages(s, cluster("team", "cluster-scoped")));
  EXPECT_TRUE(manages(s, cluster("other", "cluster-scoped")));
  EXPECT_FALSE(manages(s, cluster("team", "")));
  EXPECT_FALSE(manages(s, cluster("team", "Cluster-Scoped")));  // exact value, as KUN compares it
  EXPECT_EQ(s.watchNamespace(), "");
  EXPECT_EQ(s.describe(), "cluster-scoped");
}

// For any cluster and any namespace operator, at most one of the two operators manages it,
// and an annotated cluster is always the cluster-scoped operator's.
RC_GTEST_PROP(ScopeProperty, NamespacedAndClusterWideAreDisjoint, ()) {
  const auto ns = *rc::gen::element<std::string>("default", "a", "b");
  const auto opNs = *rc::gen::element<std::string>("default", "a", "b");
  const auto annotation = *rc::gen::element<std::string>("", "cluster-scoped", "other", "cluster-scoped ");
  const Object c = cluster(ns, annotation);
  const bool byNs = manages(Scope::namespaced(opNs), c);
  const bool byCluster = manages(Scope::clusterWide(), c);
  RC_ASSERT(!(byNs && byCluster));
  RC_ASSERT(byCluster == (annotation == "cluster-scoped"));
  if (ns == opNs) RC_ASSERT(byNs || byCluster);  // every cluster in a watched namespace has an owner
}

}  // namespace
}  // namespace kun::rediscluster
