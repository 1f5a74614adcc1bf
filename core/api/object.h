#pragma once
// Kubernetes objects are JSON values (nlohmann::json), so unknown fields survive every
// round trip. These helpers read and write ObjectMeta without copying the object.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kun {

using Object = nlohmann::json;

struct OwnerReference {
  std::string apiVersion;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  bool blockOwnerDeletion = false;
};

// o's member `key`, or nullptr (o is not an object, or has no such member). Searched with
// a string_view: a literal key handed to nlohmann's find costs a strlen at every node the
// search compares, and metadata is looked up everywhere.
const Object* memberOf(const Object& o, std::string_view key);

namespace meta {

// metadata.<field> as a view into o ("" when absent or not a string): no copy.
std::string_view fieldView(const Object& o, std::string_view field);

// Each getter returns an empty value (""/0/{}) when the field is absent.
std::string name(const Object& o);
std::string namespaceOf(const Object& o);
std::string generateName(const Object& o);
std::string uid(const Object& o);
std::string resourceVersion(const Object& o);
std::int64_t generation(const Object& o);
std::string creationTimestamp(const Object& o);
std::string deletionTimestamp(const Object& o);
bool isDeleting(const Object& o);  // deletionTimestamp is set
std::optional<std::int64_t> deletionGracePeriodSeconds(const Object& o);
std::map<std::string, std::string> labels(const Object& o);
std::map<std::string, std::string> annotations(const Object& o);
std::string label(const Object& o, std::string_view key);        // "" if absent
std::string annotation(const Object& o, std::string_view key);   // "" if absent
std::vector<OwnerReference> ownerReferences(const Object& o);
std::optional<OwnerReference> controllerOf(const Object& o);
// The same reference read in place, for readers that ask it of many objects (informer
// handlers, controllers' passes): the first ownerReference whose "controller" is true, or
// nullptr. refField reads one of its strings as OwnerReference holds it ("" when absent
// or not a string); controlledBy: o's controller is the object with this uid.
const Object* controllerRef(const Object& o);
std::string_view refField(const Object& ref, const char* key);
bool controlledBy(const Object& o, std::string_view uid);
std::vector<std::string> finalizers(const Object& o);
bool hasFinalizer(const Object& o, std::string_view f);

void setName(Object& o, std::string_view v);
void setNamespace(Object& o, std::string_view v);
void setResourceVersion(Object& o, std::string_view v);
void setLabel(Object& o, std::string_view key, std::string_view value);
void setAnnotation(Object& o, std::string_view key, std::string_view value);
void addOwnerReference(Object& o, const OwnerReference& ref);  // replaces one with same uid
void addFinalizer(Object& o, std::string_view f);               // no duplicate
bool removeFinalizer(Object& o, std::string_view f);             // true if it was there

// An owner reference pointing at `owner` (apiVersion/kind/name/uid taken from it).
OwnerReference ownerRefTo(const Object& owner, bool controller = true);
// "namespace/name", or "name" for cluster-scoped objects.
std::string key(const Object& o);

}  // namespace meta
}  // namespace kun
