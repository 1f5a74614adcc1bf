#include "core/api/object_ptr.h"

#include <type_traits>

namespace kun {
namespace {

constexpr int kMaxDepth = 64;

void dismantleAt(Object& o, int depth) {
  if (depth >= kMaxDepth) return;
  if (o.is_object()) {
    auto& members = o.get_ref<Object::object_t&>();
    for (auto& kv : members) dismantleAt(kv.second, depth + 1);
    members.clear();
  } else if (o.is_array()) {
    auto& items = o.get_ref<Object::array_t&>();
    for (auto& v : items) dismantleAt(v, depth + 1);
    items.clear();
  }
}

// std::allocator, except that destroying an Object dismantles it first: allocate_shared
// destroys the object it holds through its allocator, so the object and its control block
// stay one allocation.
template <class T>
struct DismantlingAllocator : std::allocator<T> {
  using value_type = T;
  DismantlingAllocator() = default;
  template <class U>
  DismantlingAllocator(const DismantlingAllocator<U>&) noexcept {}
  template <class U>
  struct rebind {
    using other = DismantlingAllocator<U>;
  };
  template <class U>
  void destroy(U* p) {
    if constexpr (std::is_same_v<std::remove_cv_t<U>, Object>) dismantle(const_cast<Object&>(*p));
    p->~U();
  }
};

}  // namespace

void dismantle(Object& o) { dismantleAt(o, 0); }

ObjectPtr shareObject(Object o) {
  return std::allocate_shared<const Object>(DismantlingAllocator<Object>{}, std::move(o));
}

}  // namespace kun
