#pragma once
// A Kubernetes resource type: what the REST path and the store key it by.
#include <string>
#include <vector>

namespace kun {

struct Resource {
  std::string group;     // "" for core
  std::string version;   // "v1"
  std::string plural;    // "pods"
  std::string kind;      // "Pod"
  bool namespaced = true;
  bool statusSubresource = false;

  std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }
  // "pods", "statefulsets.apps", "redisclusters.redis.kun": unique per resource.
  std::string groupResource() const { return group.empty() ? plural : plural + "." + group; }
  bool operator==(const Resource& o) const {
    // plural first: it tells the resources a cache is searched for apart by its length
    // alone, where group and version are the same for most.
    return plural == o.plural && group == o.group && version == o.version;
  }
};

namespace res {
extern const Resource pods, services, endpoints, configmaps, secrets, events,
    persistentvolumeclaims, nodes, namespaces, serviceaccounts;
extern const Resource statefulsets, deployments, controllerrevisions;
extern const Resource poddisruptionbudgets, poddisruptionbudgetsV1beta1;
extern const Resource leases;
extern const Resource roles, rolebindings, clusterroles, clusterrolebindings;
extern const Resource customresourcedefinitions;
extern const Resource redisclusters;  // redis.kun/v1beta1
// Every built-in resource above (redisclusters excluded: it exists once its CRD does).
const std::vector<Resource>& builtins();
}  // namespace res

}  // namespace kun
