#pragma once
// ObjectMeta validation as the API server does it on every create and update: the name by
// the rule of its kind, the namespace, labels, annotations, finalizers and owner
// references. Invalid errors name the field ("metadata.name", "metadata.labels", ...).
#include <string>
#include <string_view>

#include "core/api/object.h"
#include "core/runtime/result.h"
#include "fakeapi/store/resource_registry.h"

namespace kun::store {

enum class NameRule {
  Subdomain,    // DNS-1123 subdomain: most kinds
  Label,        // DNS-1123 label: namespaces
  Dns1035,      // DNS-1035 label: services
  PathSegment,  // anything but "/" and "%", not "." or "..": RBAC objects
};

NameRule nameRuleFor(const StoredResource& r);
// "" if valid, else the reason.
std::string checkName(NameRule rule, std::string_view name);

// Validates obj's metadata for resource r. `generated` says the name came from
// generateName (errors then name metadata.generateName). With `current` (an update of
// that stored version, found by obj's name and namespace), fields equal to the stored
// ones are not checked again: they passed when stored, and a comparison is cheaper.
Status validateMetadata(const StoredResource& r, const Object& obj, bool generated = false,
                        const Object* current = nullptr);

// The resource's message prefix for errors about one object: `pods "web-0"`.
std::string describe(const StoredResource& r, std::string_view name);

}  // namespace kun::store
