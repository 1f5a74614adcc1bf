#include "fakeapi/store/object_table.h"

namespace kun::store {

std::map<std::string, std::string> labelsOf(const Object& o) {
  std::map<std::string, std::string> out;
  const Object* m = memberOf(o, "metadata");
  const Object* l = m ? memberOf(*m, "labels") : nullptr;
  if (!l || !l->is_object()) return out;
  for (auto it = l->begin(); it != l->end(); ++it)
    if (it->is_string()) out.emplace(it.key(), it->get<std::string>());
  return out;
}

const ObjectTable::Entry* ObjectTable::find(std::string_view ns, std::string_view name) const {
  auto it = objects_.find(ObjKeyView{ns, name});
  return it == objects_.end() ? nullptr : &it->second;
}

namespace {

const Object* labelsJson(const Object& o) {
  const Object* m = memberOf(o, "metadata");
  return m ? memberOf(*m, "labels") : nullptr;
}

bool sameLabels(const Object& a, const Object& b) {
  const Object* x = labelsJson(a);
  const Object* y = labelsJson(b);
  return x == y || (x && y && *x == *y) || (!x && y && y->empty()) || (x && !y && x->empty());
}

}  // namespace

void ObjectTable::put(const ObjKey& key, ObjectPtr object) {
  auto it = objects_.find(key);
  if (it == objects_.end()) {
    auto labels = labelsOf(*object);
    it = objects_.emplace(key, Entry{std::move(object), {}}).first;
    ++nsCount_[key.ns];
    indexLabels(&*it, labels);
    it->second.labels = std::move(labels);
    return;
  }
  // Most updates leave labels alone: compare the JSON before building a map.
  const bool same = sameLabels(*it->second.object, *object);
  it->second.object = std::move(object);
  if (same) return;
  auto labels = labelsOf(*it->second.object);
  if (labels != it->second.labels) {
    unindexLabels(&*it, it->second.labels);
    indexLabels(&*it, labels);
    it->second.labels = std::move(labels);
  }
}

void ObjectTable::replaceSameLabels(const Entry& at, ObjectPtr object) {
  // at is one of this table's entries (find() hands them out const).
  const_cast<Entry&>(at).object = std::move(object);
}

bool ObjectTable::erase(const ObjKey& key) {
  auto it = objects_.find(key);
  if (it == objects_.end()) return false;
  unindexLabels(&*it, it->second.labels);
  if (auto c = nsCount_.find(key.ns); c != nsCount_.end() && --c->second == 0) nsCount_.erase(c);
  objects_.erase(it);
  return true;
}

std::size_t ObjectTable::countIn(std::string_view ns) const {
  if (ns.empty()) return objects_.size();
  auto it = nsCount_.find(ns);
  return it == nsCount_.end() ? 0 : it->second;
}

std::vector<ObjKey> ObjectTable::keysIn(std::string_view ns) const {
  std::vector<ObjKey> out;
  auto it = ns.empty() ? objects_.begin() : objects_.lower_bound(ObjKeyView{ns, ""});
  for (; it != objects_.end() && (ns.empty() || it->first.ns == ns); ++it) out.push_back(it->first);
  return out;
}

void ObjectTable::indexLabels(Node node, const std::map<std::string, std::string>& labels) {
  for (const auto& [k, v] : labels) byLabel_[k][v].insert(node);
}

void ObjectTable::unindexLabels(Node node, const std::map<std::string, std::string>& labels) {
  for (const auto& [k, v] : labels) {
    auto byKey = byLabel_.find(k);
    if (byKey == byLabel_.end()) continue;
    auto byValue = byKey->second.find(v);
    if (byValue == byKey->second.end()) continue;
    byValue->second.erase(node);
    if (byValue->second.empty()) byKey->second.erase(byValue);
    if (byKey->second.empty()) byLabel_.erase(byKey);
  }
}

const ObjectTable::Posting* ObjectTable::posting(const std::string& key, const std::string& value) const {
  auto byKey = byLabel_.find(key);
  if (byKey == byLabel_.end()) return nullptr;
  auto byValue = byKey->second.find(value);
  return byValue == byKey->second.end() ? nullptr : &byValue->second;
}

std::size_t ObjectTable::select(std::string_view ns, const LabelSelector& sel, const Visitor& visit) const {
  return select(ns, sel, sel.requiredPairs(), visit);
}

std::size_t ObjectTable::select(std::string_view ns, const LabelSelector& sel,
                                const std::vector<std::pair<std::string, std::string>>& required,
                                const Visitor& visit) const {
  std::size_t examined = 0;
  auto consider = [&](const Map::value_type& node) {
    ++examined;
    if (sel.empty() || sel.matches(node.second.labels)) visit(node.first, node.second);
  };

  // The smallest posting list among the pairs every match must carry.
  const Posting* best = nullptr;
  for (const auto& [k, v] : required) {
    const Posting* p = posting(k, v);
    if (!p) return examined;  // no object carries a required pair
    if (!best || p->size() < best->size()) best = p;
  }
  // Within a namespace the posting range is a subset of the namespace range: never worse.
  if (best) {
    auto it = ns.empty() ? best->begin() : best->lower_bound(ObjKeyView{ns, ""});
    for (; it != best->end() && (ns.empty() || (*it)->first.ns == ns); ++it) consider(**it);
    return examined;
  }
  auto it = ns.empty() ? objects_.begin() : objects_.lower_bound(ObjKeyView{ns, ""});
  for (; it != objects_.end() && (ns.empty() || it->first.ns == ns); ++it) consider(*it);
  return examined;
}

}  // namespace kun::store
