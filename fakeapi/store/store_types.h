#pragma once
// Types the store's parts share: how a stored object is keyed and held.
#include <compare>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/api/object.h"
#include "core/api/object_ptr.h"

namespace kun::store {

// Every stored version is immutable and shared (kun::ObjectPtr, made by shareObject):
// readers, the watch history and pending watch deliveries hold the same version without
// copying it.
using kun::ObjectPtr;

// Index of a stored resource type in the registry (stable for the store's life).
using TableId = std::uint32_t;

// An object's key inside its resource type: ("", name) for cluster-scoped objects. Keys
// order by namespace, then name, which is the order lists return.
struct ObjKey {
  std::string ns;
  std::string name;
  auto operator<=>(const ObjKey&) const = default;
  bool operator==(const ObjKey&) const = default;
  // "namespace/name", or "name" for cluster-scoped objects.
  std::string text() const { return ns.empty() ? name : ns + "/" + name; }
};

struct ObjKeyView {
  std::string_view ns;
  std::string_view name;
};

// Orders ObjKey and ObjKeyView alike, so maps keyed by ObjKey can be searched without
// building strings.
struct KeyLess {
  using is_transparent = void;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    const int c = std::string_view(a.ns).compare(std::string_view(b.ns));
    return c < 0 || (c == 0 && std::string_view(a.name) < std::string_view(b.name));
  }
};

// Where an object lives: its resource type and its key.
struct ObjRef {
  TableId table = 0;
  ObjKey key;
};

}  // namespace kun::store
