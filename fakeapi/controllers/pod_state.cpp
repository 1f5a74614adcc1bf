#include "fakeapi/controllers/pod_state.h"

namespace kun::sim {
namespace {

std::string str(const Object& o, const char* a, const char* b) {
  auto i = o.find(a);
  if (i == o.end() || !i->is_object()) return {};
  auto j = i->find(b);
  return j != i->end() && j->is_string() ? j->get<std::string>() : std::string();
}

}  // namespace

std::string podPhase(const Object& pod) { return str(pod, "status", "phase"); }
std::string podNodeName(const Object& pod) { return str(pod, "spec", "nodeName"); }
std::string podIP(const Object& pod) { return str(pod, "status", "podIP"); }

const Object* podCondition(const Object& pod, std::string_view type) {
  auto s = pod.find("status");
  if (s == pod.end() || !s->is_object()) return nullptr;
  auto c = s->find("conditions");
  if (c == s->end() || !c->is_array()) return nullptr;
  for (const auto& cond : *c) {
    if (cond.is_object() && cond.value("type", "") == type) return &cond;
  }
  return nullptr;
}

bool podConditionTrue(const Object& pod, std::string_view type) {
  const Object* c = podCondition(pod, type);
  return c && c->value("status", "") == "True";
}

bool isRunningAndReady(const Object& pod) {
  return podPhase(pod) == "Running" && podConditionTrue(pod, "Ready") && !meta::isDeleting(pod);
}

bool isTerminal(const Object& pod) {
  const std::string p = podPhase(pod);
  return p == "Succeeded" || p == "Failed";
}

int podRestartCount(const Object& pod, std::string_view container) {
  auto s = pod.find("status");
  if (s == pod.end() || !s->is_object()) return -1;
  auto cs = s->find("containerStatuses");
  if (cs == s->end() || !cs->is_array()) return -1;
  for (const auto& c : *cs) {
    if (c.value("name", "") == container) return c.value("restartCount", 0);
  }
  return -1;
}

void setCondition(Object& status, std::string_view type, std::string_view value,
                  std::string_view reason, std::string_view message, const std::string& now) {
  if (!status.is_object()) status = Object::object();
  Object& conds = status["conditions"];
  if (!conds.is_array()) conds = Object::array();
  Object* found = nullptr;
  for (auto& c : conds) {
    if (c.is_object() && c.value("type", "") == type) found = &c;
  }
  if (!found) {
    conds.push_back(Object{{"type", type}});
    found = &conds.back();
  }
  Object& c = *found;
  if (c.value("status", "") != value || !c.contains("lastTransitionTime")) c["lastTransitionTime"] = now;
  c["status"] = value;
  c["lastProbeTime"] = nullptr;
  if (reason.empty()) c.erase("reason"); else c["reason"] = reason;
  if (message.empty()) c.erase("message"); else c["message"] = message;
}

}  // namespace kun::sim
