#pragma once
// The resource types the store serves: the built-ins from the start, and each custom
// resource from the moment its CRD is created. Versions of one group/plural share one
// table of objects, as they share storage in Kubernetes.
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/kube/resource.h"
#include "fakeapi/store/crd_spec.h"
#include "fakeapi/store/object_table.h"
#include "fakeapi/store/store_types.h"

namespace kun::store {

// Whether o's apiVersion is r's (group/version).
bool sameApiVersion(const Object& o, const Resource& r);

struct StoredResource {
  struct Version {
    std::string name;
    bool statusSubresource = false;
  };
  TableId table = 0;
  std::string group;
  std::string plural;
  std::string kind;
  std::string groupResource;  // "pods", "statefulsets.apps"
  bool namespaced = true;
  bool builtin = true;
  bool served = true;        // false once its CRD is gone
  bool terminating = false;  // its CRD is being deleted: no new objects
  std::vector<Version> versions;
  ObjectTable objects;

  const Version* version(std::string_view v) const;
  Resource descriptor(const Version& v) const;
  // Whether a write through version v keeps .status out of the main resource.
  bool statusSubresource(std::string_view v) const;
  bool is(const Resource& r) const { return r.group == group && r.plural == plural; }
};

class ResourceRegistry {
 public:
  ResourceRegistry();  // registers res::builtins()

  // The served resource for r's group/plural, if r's version is one of its versions.
  StoredResource* find(const Resource& r);
  StoredResource* find(std::string_view group, std::string_view plural);
  const StoredResource* find(const Resource& r) const { return const_cast<ResourceRegistry*>(this)->find(r); }
  const StoredResource* find(std::string_view group, std::string_view plural) const {
    return const_cast<ResourceRegistry*>(this)->find(group, plural);
  }
  StoredResource& at(TableId id) { return tables_[id]; }
  const StoredResource& at(TableId id) const { return tables_[id]; }
  std::size_t size() const { return tables_.size(); }

  // Registers (or redefines) the resource a CRD describes. Invalid if it would shadow a
  // built-in resource.
  Result<TableId> define(const CrdSpec& spec);
  // The CRD is gone: stop serving its resource (its table stays, empty, for reuse).
  void retire(TableId id);

  // Every served resource version, in registration order.
  std::vector<Resource> served() const;

 private:
  // Looked up by a scan (see find): a deque, so addresses stay valid as tables are added.
  std::deque<StoredResource> tables_;
};

}  // namespace kun::store
