#pragma once
// What a CustomResourceDefinition tells the store: the resource type it defines.
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/result.h"

namespace kun::store {

struct CrdSpec {
  struct Version {
    std::string name;
    bool served = true;
    bool storage = false;
    bool statusSubresource = false;
  };
  std::string group;
  std::string plural;
  std::string singular;
  std::string kind;
  std::string listKind;
  bool namespaced = true;
  std::vector<Version> versions;

  std::string groupResource() const { return plural + "." + group; }
  const Version* storageVersion() const;
};

// Reads spec.group, spec.names, spec.scope and spec.versions[] (name, served, storage,
// subresources.status) of an apiextensions.k8s.io/v1 CRD; the v1beta1 fields spec.version
// and spec.subresources are accepted when spec.versions is absent. Invalid names the field
// (e.g. "spec.names.plural"), and metadata.name must be <plural>.<group>.
Result<CrdSpec> parseCrd(const Object& crd);

}  // namespace kun::store
