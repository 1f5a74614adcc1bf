#include "core/api/redis_cluster_status_write.h"

#include <string_view>

#include "core/api/json_equal.h"

namespace kun::api {

namespace {

// Two objects with the same members besides `skip` (absent or not in either), in key
// order, each pair accepted by same(key, a, b).
template <class Same>
bool sameMembersBut(const Object& a, const Object& b, std::string_view skip, Same same) {
  if (!a.is_object() || !b.is_object()) return false;
  const auto& x = a.get_ref<const Object::object_t&>();
  const auto& y = b.get_ref<const Object::object_t&>();
  auto i = x.begin();
  auto j = y.begin();
  for (;;) {
    if (i != x.end() && i->first == skip) ++i;
    if (j != y.end() && j->first == skip) ++j;
    if (i == x.end() || j == y.end()) return i == x.end() && j == y.end();
    if (i->first != j->first || !same(i->first, i->second, j->second)) return false;
    ++i;
    ++j;
  }
}

// o's member key as toObject writes field v (putStr): a string equal to v, or no member
// where v is empty.
bool strReadsBack(const Object& o, std::string_view key, const std::string& v) {
  const Object* m = memberOf(o, key);
  return m ? m->is_string() && m->get_ref<const std::string&>() == v : v.empty();
}

}  // namespace

bool conditionReadsBack(const Condition& c, const Object& o) {
  return o.is_object() && strReadsBack(o, "type", c.type) && strReadsBack(o, "status", c.status) &&
         strReadsBack(o, "lastUpdateTime", c.lastUpdateTime) &&
         strReadsBack(o, "lastTransitionTime", c.lastTransitionTime) && strReadsBack(o, "reason", c.reason) &&
         strReadsBack(o, "message", c.message);
}

bool statusReadsBack(const RedisClusterStatus& s) {
  const Object* o = s.original.get();
  if (!o || !o->is_object()) return false;
  if (!strReadsBack(*o, "masterIP", s.masterIP) || !strReadsBack(*o, "sentinelIP", s.sentinelIP)) return false;
  // putInt: an integer, or no member where it is 0.
  if (const Object* g = memberOf(*o, "observedGeneration")) {
    if (!g->is_number_integer() || g->get<std::int64_t>() != s.observedGeneration) return false;
  } else if (s.observedGeneration != 0) {
    return false;
  }
  // Written when set; when not, only a null one is carried over.
  const Object* a = memberOf(*o, "acceptedSpec");
  if (s.acceptedSpec) {
    if (!a || (a != s.acceptedSpec.get() && !(*a == *s.acceptedSpec))) return false;
  } else if (a && !a->is_null()) {
    return false;
  }
  // The conditions, each from its own place in the original (its unmodelled members).
  const Object* cs = memberOf(*o, "conditions");
  if (s.conditions.empty() && (!cs || cs->is_null())) return true;
  if (!cs || !cs->is_array() || cs->size() != s.conditions.size()) return false;
  for (std::size_t i = 0; i < s.conditions.size(); ++i) {
    const Object& oc = (*cs)[i];
    if (s.conditions[i].original.get() != &oc || !conditionReadsBack(s.conditions[i], oc)) return false;
  }
  return true;
}

bool onlyStatusWritten(const Object& before, const Object& after) {
  return sameMembersBut(before, after, "status", [](const std::string& key, const Object& a, const Object& b) {
    if (key != "metadata") return sameJson(a, b);
    return sameMembersBut(a, b, "resourceVersion",
                          [](const std::string&, const Object& x, const Object& y) { return sameJson(x, y); });
  });
}

void takeStatusWrite(RedisCluster& rc, RedisClusterStatus status, std::shared_ptr<const Object> root) {
  rc.status = std::move(status);
  const Object* rv = nullptr;
  if (auto md = root->find("metadata"); md != root->end() && md->is_object())
    if (auto it = md->find("resourceVersion"); it != md->end()) rv = &*it;
  if (rv) rc.metadata["resourceVersion"] = *rv;
  else if (rc.metadata.is_object()) rc.metadata.erase("resourceVersion");
  rc.original = std::move(root);
}

}  // namespace kun::api
