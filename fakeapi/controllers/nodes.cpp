#include "fakeapi/controllers/nodes.h"

#include <fmt/format.h>

#include "fakeapi/controllers/scheduling_rules.h"

namespace kun::sim {
namespace {

// get + edit spec + update, retried on Conflict.
Status editNode(KubeClient& client, const std::string& node, const std::function<bool(Object& spec)>& edit) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    // One copy, the one edited: read shared, written by move, the result not copied back.
    auto cur = client.getShared(res::nodes, "", node);
    if (!cur) return cur.error();
    Object obj = **cur;
    if (!obj.contains("spec") || !obj["spec"].is_object()) obj["spec"] = Object::object();
    if (!edit(obj["spec"])) return {};
    auto res = client.updateShared(res::nodes, std::move(obj));
    if (res) return {};
    if (!res.is(Reason::Conflict)) return res.error();
  }
  return makeError(Reason::Conflict, fmt::format("node {} kept changing", node));
}

}  // namespace

std::string zoneName(int zone) {
  std::string s = "zone-";
  if (zone >= 26) s += std::to_string(zone / 26);
  s += static_cast<char>('a' + zone % 26);
  return s;
}

Object makeNode(const std::string& name, const std::string& zone, int index) {
  Object n = {
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata",
       {{"name", name},
        {"labels",
         {{kHostnameLabel, name},
          {kZoneLabel, zone},
          {"topology.kubernetes.io/region", "sim"},
          {"kubernetes.io/os", "linux"},
          {"kubernetes.io/arch", "amd64"}}}}},
      {"spec", {{"podCIDR", fmt::format("10.244.{}.0/24", index % 128)},
                {"podCIDRs", Object::array({fmt::format("10.244.{}.0/24", index % 128)})}}},
  };
  const Object resources = {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}, {"ephemeral-storage", "100Gi"}};
  n["status"] = {
      {"capacity", resources},
      {"allocatable", resources},
      {"addresses", Object::array({{{"type", "InternalIP"}, {"address", fmt::format("172.18.{}.{}", index / 250, 2 + index % 250)}},
                                   {{"type", "Hostname"}, {"address", name}}})},
      {"nodeInfo", {{"kubeletVersion", "v1.29.0-sim"}, {"containerRuntimeVersion", "sim://1"},
                    {"operatingSystem", "linux"}, {"architecture", "amd64"}}},
      {"conditions", Object::array()},
  };
  for (const char* pressure : {"MemoryPressure", "DiskPressure", "PIDPressure"}) {
    n["status"]["conditions"].push_back({{"type", pressure}, {"status", "False"},
                                         {"reason", fmt::format("KubeletHasNo{}", pressure)}});
  }
  n["status"]["conditions"].push_back({{"type", "Ready"}, {"status", "True"}, {"reason", "KubeletReady"},
                                       {"message", "kubelet is posting ready status"}});
  return n;
}

Result<std::vector<std::string>> createNodes(KubeClient& client, int count, int zones, const std::string& prefix) {
  std::vector<std::string> names;
  if (zones < 1) zones = 1;
  for (int i = 0; i < count; ++i) {
    const std::string name = prefix + std::to_string(i);
    Object node = makeNode(name, zoneName(i % zones), i);
    auto made = client.createShared(res::nodes, node);
    if (!made) return made.error();
    // Creating may drop status (status subresource): write it explicitly.
    const Object* stored = memberOf(**made, "status");
    if (!stored || *stored != node["status"]) {
      Object withStatus = **made;
      withStatus["status"] = node["status"];
      auto st = client.updateStatusShared(res::nodes, std::move(withStatus));
      if (!st) return st.error();
    }
    names.push_back(name);
  }
  return names;
}

Status addTaint(KubeClient& client, const std::string& node, const Object& taint) {
  return editNode(client, node, [&](Object& spec) {
    Object& taints = spec["taints"];
    if (!taints.is_array()) taints = Object::array();
    for (const auto& t : taints) {
      if (t.value("key", "") == taint.value("key", "") && t.value("effect", "") == taint.value("effect", "")) return false;
    }
    taints.push_back(taint);
    return true;
  });
}

Status removeTaint(KubeClient& client, const std::string& node, const std::string& key, const std::string& effect) {
  return editNode(client, node, [&](Object& spec) {
    if (!spec.contains("taints") || !spec["taints"].is_array()) return false;
    Object kept = Object::array();
    for (const auto& t : spec["taints"]) {
      if (t.value("key", "") == key && (effect.empty() || t.value("effect", "") == effect)) continue;
      kept.push_back(t);
    }
    if (kept.size() == spec["taints"].size()) return false;
    if (kept.empty()) spec.erase("taints"); else spec["taints"] = std::move(kept);
    return true;
  });
}

Status setUnschedulable(KubeClient& client, const std::string& node, bool unschedulable) {
  return editNode(client, node, [&](Object& spec) {
    if (spec.value("unschedulable", false) == unschedulable) return false;
    if (unschedulable) spec["unschedulable"] = true; else spec.erase("unschedulable");
    return true;
  });
}

}  // namespace kun::sim
