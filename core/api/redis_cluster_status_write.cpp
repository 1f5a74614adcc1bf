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

}  // namespace

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
