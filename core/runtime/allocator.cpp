#include "core/runtime/allocator.h"

#include <cstdlib>
#include <memory>

#ifdef KUN_WITH_MIMALLOC
#include <mimalloc.h>
#endif

namespace kun {

std::string allocatorName() {
#ifdef KUN_WITH_MIMALLOC
  const int v = mi_version();  // e.g. 209 for 2.0.9
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
         std::to_string(v % 10);
#else
  return "system";
#endif
}

bool allocatorServesMalloc() {
#ifdef KUN_WITH_MIMALLOC
  std::unique_ptr<void, decltype(&std::free)> p(std::malloc(64), &std::free);
  auto q = std::make_unique<int>(1);
  return mi_is_in_heap_region(p.get()) && mi_is_in_heap_region(q.get());
#else
  return true;
#endif
}

}  // namespace kun
