#include "core/kube/resource.h"

namespace kun::res {

const Resource pods{"", "v1", "pods", "Pod", true, true};
const Resource services{"", "v1", "services", "Service", true, true};
const Resource endpoints{"", "v1", "endpoints", "Endpoints", true, false};
const Resource configmaps{"", "v1", "configmaps", "ConfigMap", true, false};
const Resource secrets{"", "v1", "secrets", "Secret", true, false};
const Resource events{"", "v1", "events", "Event", true, false};
const Resource persistentvolumeclaims{"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true, true};
const Resource nodes{"", "v1", "nodes", "Node", false, true};
const Resource namespaces{"", "v1", "namespaces", "Namespace", false, true};
const Resource serviceaccounts{"", "v1", "serviceaccounts", "ServiceAccount", true, false};
const Resource statefulsets{"apps", "v1", "statefulsets", "StatefulSet", true, true};
const Resource deployments{"apps", "v1", "deployments", "Deployment", true, true};
const Resource controllerrevisions{"apps", "v1", "controllerrevisions", "ControllerRevision", true, false};
const Resource poddisruptionbudgets{"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, true};
const Resource poddisruptionbudgetsV1beta1{"policy", "v1beta1", "poddisruptionbudgets", "PodDisruptionBudget", true, true};
const Resource leases{"coordination.k8s.io", "v1", "leases", "Lease", true, false};
const Resource roles{"rbac.authorization.k8s.io", "v1", "roles", "Role", true, false};
const Resource rolebindings{"rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", true, false};
const Resource clusterroles{"rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", false, false};
const Resource clusterrolebindings{"rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding", false, false};
const Resource customresourcedefinitions{"apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", false, true};
const Resource redisclusters{"redis.kun", "v1beta1", "redisclusters", "RedisCluster", true, true};

const std::vector<Resource>& builtins() {
  static const std::vector<Resource> all{
      pods, services, endpoints, configmaps, secrets, events, persistentvolumeclaims, nodes,
      namespaces, serviceaccounts, statefulsets, deployments, controllerrevisions,
      poddisruptionbudgets, poddisruptionbudgetsV1beta1, leases, roles, rolebindings,
      clusterroles, clusterrolebindings, customresourcedefinitions};
  return all;
}

}  // namespace kun::res
