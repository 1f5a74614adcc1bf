#include "fakeapi/controllers/pod_state.h"

#include "core/api/object_members.h"

namespace kun::sim {
namespace {

// Read in place: these run for every pod on every sync and pass, and copying each string
// read was most of their cost.
// Looked up with memberOf (lengths compared first), not nlohmann's find, which runs a
// strlen and a compare per tree level.
std::string_view strView(const Object& o, std::string_view key) {
  const Object* j = memberOf(o, key);
  return j && j->is_string() ? std::string_view(j->get_ref<const std::string&>()) : std::string_view();
}

std::string_view strView(const Object& o, std::string_view a, std::string_view b) {
  const Object* i = memberOf(o, a);
  if (!i || !i->is_object()) return {};
  return strView(*i, b);
}

std::string_view phaseOf(const Object& pod) { return strView(pod, "status", "phase"); }

}  // namespace

std::string podPhase(const Object& pod) { return std::string(phaseOf(pod)); }
std::string podNodeName(const Object& pod) { return std::string(strView(pod, "spec", "nodeName")); }
std::string podIP(const Object& pod) { return std::string(strView(pod, "status", "podIP")); }

const Object* podCondition(const Object& pod, std::string_view type) {
  const Object* s = memberOf(pod, "status");
  if (!s || !s->is_object()) return nullptr;
  const Object* c = memberOf(*s, "conditions");
  if (!c || !c->is_array()) return nullptr;
  for (const auto& cond : *c) {
    if (cond.is_object() && strView(cond, "type") == type) return &cond;
  }
  return nullptr;
}

bool podConditionTrue(const Object& pod, std::string_view type) {
  const Object* c = podCondition(pod, type);
  return c && strView(*c, "status") == "True";
}

bool isRunningAndReady(const Object& pod) {
  return phaseOf(pod) == "Running" && podConditionTrue(pod, "Ready") && !meta::isDeleting(pod);
}

bool isTerminal(const Object& pod) {
  const std::string_view p = phaseOf(pod);
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
  // Members found with memberOf's walk (memberSlot), not by building a std::string key
  // for nlohmann's operator[] and find: the kubelet sets three conditions per status.
  Object& conds = memberSlot(status, "conditions");
  if (!conds.is_array()) conds = Object::array();
  Object* found = nullptr;
  for (auto& c : conds) {
    if (c.is_object() && strView(c, "type") == type) found = &c;
  }
  if (!found) {
    conds.push_back(Object{{"type", type}});
    found = &conds.back();
  }
  Object& c = *found;
  // Fields that already hold the value are left as they are (most writes repeat them).
  auto set = [&c](std::string_view key, std::string_view v) {
    Object& slot = memberSlot(c, key);
    if (!slot.is_string() || slot.get_ref<const std::string&>() != v) slot = v;
  };
  if (strView(c, "status") != value || !memberOf(c, "lastTransitionTime")) memberSlot(c, "lastTransitionTime") = now;
  set("status", value);
  if (Object& probe = memberSlot(c, "lastProbeTime"); !probe.is_null()) probe = nullptr;
  // Mostly neither is there to erase: looked for first (erase builds a key string).
  if (reason.empty()) {
    if (memberOf(c, "reason")) c.erase("reason");
  } else {
    set("reason", reason);
  }
  if (message.empty()) {
    if (memberOf(c, "message")) c.erase("message");
  } else {
    set("message", message);
  }
}

}  // namespace kun::sim
