#include "core/kube/event_recorder.h"

#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "core/api/object_members.h"

namespace kun {

namespace {

// A JSON object built from members given in key order, each appended at the end of the
// map. An Event is built on every first occurrence (by the operator and by every simulated
// controller), and nlohmann's initializer lists first build a two-element array per member.
class SortedObject {
 public:
  SortedObject& add(const char* key, Object value) {
    members_.emplace_hint(members_.end(), key, std::move(value));
    return *this;
  }
  Object done() { return Object(std::move(members_)); }

 private:
  Object::object_t members_;
};

}  // namespace

std::string_view eventTypeName(EventType t) {
  return t == EventType::Warning ? "Warning" : "Normal";
}

EventRecorder::EventRecorder(KubeClient& client, EventLoop& loop, std::string component,
                             std::string host)
    : client_(client), loop_(loop), component_(std::move(component)), host_(std::move(host)) {}

void EventRecorder::record(const Object& involved, EventType type, std::string_view reason,
                           std::string_view message) {
  std::string_view who = meta::fieldView(involved, "uid");
  std::string whoText;  // only for an object without a uid
  if (who.empty()) {
    whoText = fmt::format("{}/{}/{}", involved.value("kind", ""), meta::namespaceOf(involved), meta::name(involved));
    who = whoText;
  }
  const KeyView key{who, eventTypeName(type), reason, message};
  std::string now;
  std::optional<Seen> known;
  {
    std::lock_guard lock(mu_);
    now = nowText_.at(loop_.wallMicros());
    if (auto it = seen_.find(key); it != seen_.end()) known = it->second;
  }
  if (known) {
    if (bump(key, *known, now)) return;
    // The Event is gone (expired or deleted): start a fresh one.
    std::lock_guard lock(mu_);
    if (auto it = seen_.find(key); it != seen_.end() && it->second.stamp == known->stamp) seen_.erase(it);
  }
  if (!createNew(key, involved, type, reason, message, now)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

bool EventRecorder::bump(const KeyView& key, const Seen& seen, const std::string& now) {
  Object patch = Object::object();
  auto& members = patch.get_ref<Object::object_t&>();
  members.emplace_hint(members.end(), "count", seen.count + 1);
  members.emplace_hint(members.end(), "lastTimestamp", now);
  auto res = client_.patchShared(res::events, seen.ns, seen.name, patch);
  if (res.ok()) {
    {
      std::lock_guard lock(mu_);
      if (auto it = seen_.find(key); it != seen_.end() && it->second.stamp == seen.stamp) it->second.count = seen.count + 1;
    }
    aggregated_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (res.is(Reason::NotFound)) return false;
  dropped_.fetch_add(1, std::memory_order_relaxed);  // keep the cache entry: the next repeat tries the same Event again
  return true;
}

bool EventRecorder::createNew(const KeyView& key, const Object& involved, EventType type,
                              std::string_view reason, std::string_view message,
                              const std::string& now) {
  // The involved object's fields read in place (metadata's in one walk): each is copied
  // once, into the Event.
  const MetaIdentity id = identityOf(involved);
  const std::string_view involvedNs = id.ns;
  const std::string_view involvedName = id.name;
  auto str = [&](const char* k) {
    const Object* v = memberOf(involved, k);
    return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
  };
  std::string ns(involvedNs);
  if (ns.empty()) ns = "default";  // cluster-scoped objects (nodes) report into default
  // client-go names an Event <involved>.<unix nanos in hex>; the sequence keeps two events
  // at the same virtual instant apart.
  std::uint64_t seq;
  {
    std::lock_guard lock(mu_);
    seq = seq_++;
  }
  const std::int64_t nanos = loop_.wallMicros() * 1000 + static_cast<std::int64_t>(seq % 1000);
  // "<involved>.<nanos in hex>", appended: an Event is created on every first occurrence.
  std::string eventName;
  eventName.reserve(involvedName.size() + 17);
  eventName.append(involvedName).append(1, '.');
  char hex[24];
  eventName.append(hex, std::to_chars(hex, hex + sizeof hex, nanos, 16).ptr);
  std::string name = eventName;  // what the cache keeps (the store takes the name as given)
  SortedObject source;
  source.add("component", component_);
  if (!host_.empty()) source.add("host", host_);
  Object ev = SortedObject()
                        .add("apiVersion", "v1")
                        .add("count", 1)
                        .add("firstTimestamp", now)
                        .add("involvedObject", SortedObject()
                                                   .add("apiVersion", str("apiVersion"))
                                                   .add("kind", str("kind"))
                                                   .add("name", involvedName)
                                                   .add("namespace", involvedNs)
                                                   .add("resourceVersion", id.resourceVersion)
                                                   .add("uid", id.uid)
                                                   .done())
                        .add("kind", "Event")
                        .add("lastTimestamp", now)
                        .add("message", message)
                        .add("metadata", SortedObject()
                                             .add("name", std::move(eventName))
                                             .add("namespace", ns)
                                             .done())
                        .add("reason", reason)
                        .add("reportingComponent", component_)
                        .add("reportingInstance", host_)
                        .add("source", source.done())
                        .add("type", eventTypeName(type))
                        .done();
  auto res = client_.createShared(res::events, std::move(ev));
  if (!res.ok()) return false;
  created_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard lock(mu_);
  remember(key, Seen{std::move(ns), std::move(name), 1});
  return true;
}

void EventRecorder::remember(const KeyView& view, Seen seen) {
  seen.stamp = seq_;
  Key key{std::string(std::get<0>(view)), std::string(std::get<1>(view)), std::string(std::get<2>(view)),
          std::string(std::get<3>(view))};
  auto it = seen_.lower_bound(view);
  if (it != seen_.end() && !seen_.key_comp()(view, it->first)) it->second = std::move(seen);
  else it = seen_.emplace_hint(it, key, std::move(seen));
  order_.emplace_back(std::move(key), it->second.stamp);
  while (order_.size() > kCacheSize) {
    auto& [oldKey, stamp] = order_.front();
    if (auto old = seen_.find(oldKey); old != seen_.end() && old->second.stamp == stamp) seen_.erase(old);
    order_.pop_front();
  }
}

}  // namespace kun
