#pragma once
// Node objects for a simulated cluster: names, the well-known labels
// (kubernetes.io/hostname, topology.kubernetes.io/zone and region, os, arch), a podCIDR per
// node (10.244.<index>.0/24, which the kubelet's IP pool uses), an InternalIP, capacity,
// and a Ready status; plus taint and cordon helpers.
#include <string>
#include <vector>

#include "core/kube/kube_client.h"

namespace kun::sim {

// "zone-a", "zone-b", ...
std::string zoneName(int zone);
// A Ready node; index picks its podCIDR and InternalIP.
Object makeNode(const std::string& name, const std::string& zone, int index);
// count nodes "<prefix><i>" across `zones` zones (node i in zone i % zones). Returns their
// names.
Result<std::vector<std::string>> createNodes(KubeClient& client, int count, int zones,
                                             const std::string& prefix = "node-");

// Adds taint ({key, value, effect}) unless the node already has one with that key and
// effect; removeTaint drops those with key (and effect, when not empty).
Status addTaint(KubeClient& client, const std::string& node, const Object& taint);
Status removeTaint(KubeClient& client, const std::string& node, const std::string& key,
                   const std::string& effect = {});
Status setUnschedulable(KubeClient& client, const std::string& node, bool unschedulable);

}  // namespace kun::sim
