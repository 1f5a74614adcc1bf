#pragma once
// The objects of one resource type, with the indexes a selective list needs: keys are
// ordered by (namespace, name), so a namespace is a contiguous range, and a label index
// maps each key=value pair to the objects carrying it. A list narrowed by either costs in
// proportion to what it visits, not to the table's size.
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/kube/selector.h"
#include "fakeapi/store/store_types.h"

namespace kun::store {

class ObjectTable {
 public:
  struct Entry {
    ObjectPtr object;
    std::map<std::string, std::string> labels;  // cached metadata.labels, for the index
  };
  using Map = std::map<ObjKey, Entry, KeyLess>;
  using Visitor = std::function<void(const ObjKey&, const Entry&)>;

  const Entry* find(std::string_view ns, std::string_view name) const;
  // Inserts or replaces the object at key, keeping the indexes in step.
  void put(const ObjKey& key, ObjectPtr object);
  // Replaces the object of an entry find() gave, with one whose labels are known to be the
  // same (a writer's patch left them alone): no look-up, no index work.
  void replaceSameLabels(const Entry& at, ObjectPtr object);
  // Returns false if there was nothing at key.
  bool erase(const ObjKey& key);

  std::size_t size() const { return objects_.size(); }
  std::size_t countIn(std::string_view ns) const;
  // The keys in ns ("": all), in key order.
  std::vector<ObjKey> keysIn(std::string_view ns) const;

  // Visits, in key order, every object in ns ("": all namespaces) whose labels match sel.
  // Uses the label index when sel requires a key=value pair (the rarest one), else the
  // namespace range.
  // Returns how many entries it examined (what the list cost).
  std::size_t select(std::string_view ns, const LabelSelector& sel, const Visitor& visit) const;
  // The same, given sel.requiredPairs() (kept by a caller that selects with sel often).
  std::size_t select(std::string_view ns, const LabelSelector& sel,
                     const std::vector<std::pair<std::string, std::string>>& required, const Visitor& visit) const;

 private:
  using Node = const Map::value_type*;
  struct NodeLess {
    using is_transparent = void;
    bool operator()(Node a, Node b) const { return KeyLess{}(a->first, b->first); }
    bool operator()(Node a, const ObjKeyView& b) const { return KeyLess{}(a->first, b); }
    bool operator()(const ObjKeyView& a, Node b) const { return KeyLess{}(a, b->first); }
  };
  using Posting = std::set<Node, NodeLess>;

  void indexLabels(Node node, const std::map<std::string, std::string>& labels);
  void unindexLabels(Node node, const std::map<std::string, std::string>& labels);
  const Posting* posting(const std::string& key, const std::string& value) const;

  Map objects_;
  std::map<std::string, std::size_t, std::less<>> nsCount_;
  // label key -> value -> objects; std::map nodes never move, so postings hold pointers.
  std::map<std::string, std::map<std::string, Posting, std::less<>>, std::less<>> byLabel_;
};

// metadata.labels as a map (non-string values are skipped; validation rejects them).
std::map<std::string, std::string> labelsOf(const Object& o);

}  // namespace kun::store
